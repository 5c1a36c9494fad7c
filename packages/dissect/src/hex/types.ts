/**
 * Public types of the hex-dump text parser.
 *
 * @module
 */

/**
 * The layout a packet was read from.
 *
 * | format      | looks like                                                      | made by                                     |
 * |-------------|-----------------------------------------------------------------|---------------------------------------------|
 * | `bare`      | `534d4150…`, `53 4D 41 50`, `53:4d:41:50`, `53-4d-41-50`        | `xxd -p`, Wireshark "…as Hex Stream", logs   |
 * | `prefixed`  | `0x53, 0x41` (no brackets)                                      | hand-written, logs                          |
 * | `escaped`   | `\x53\x41`, `"SAMP\x7f\x00"`, `b'SAMP\x7f'`                     | Wireshark "…as Escaped String", Python, C   |
 * | `c-array`   | `{ 0x53, 0x41 }`, `[0x53, 65]`, `new Uint8Array([83, 65])`      | `xxd -i`, Wireshark "…as C String", code    |
 * | `tshark`    | `0000  53 41 4d 50 …   SAMP…` (ASCII column, no delimiters)     | `tshark -x`, Wireshark "…as Hex Dump"       |
 * | `xxd`       | `00000000: 5341 4d50 …  SAMP…` (colon after the offset)         | `xxd`, `xxd -g1`, `xxd -c N`, `xxd -a`      |
 * | `tcpdump`   | `\t0x0000:  4500 0027 …  E..'..` (`0x` and a colon)             | `tcpdump -x`, `-xx`, `-X`, `-XX`            |
 * | `hexdump-c` | `00000000  53 41 … \|SAMP…\|`                                   | `hexdump -C`                                |
 * | `hexdump`   | `0000000 4153 504d …` (7-digit hex offset, 16-bit words)        | `hexdump` without flags                     |
 * | `od`        | `000000 53 41 4d 50 …`, optionally `  >SAMP…<`                  | `od -t x1`, `od -t x1z`, `od -t x2`, text2pcap input |
 */
export type HexDumpFormat = 'bare' | 'prefixed' | 'escaped' | 'c-array' | 'tshark' | 'xxd' | 'tcpdump' | 'hexdump-c' | 'hexdump' | 'od';

/**
 * What a tshark / Wireshark data-source pane holds. `tshark -x` prints one pane per data source
 * of a frame when there is more than one: `Frame (91 bytes):` for the bytes on the wire, then
 * `Reassembled TCP (67 bytes):`, `Reassembled IPv4 (…)`, `Decrypted …`, `Uncompressed …`.
 */
export type HexPaneKind = 'frame' | 'reassembled' | 'other';

/** A pane label line such as `Reassembled TCP (67 bytes):`. */
export interface HexPane {
  /** The label without the byte count: `Frame`, `Reassembled TCP`. */
  readonly label: string;
  readonly kind: HexPaneKind;
  /** The byte count the label announces; a packet of another length gets a `length-mismatch` warning. */
  readonly declaredLength: number;
}

/** One buffer found in the text. */
export interface HexPacket {
  /** The bytes, in wire order. */
  readonly bytes: Uint8Array;
  readonly format: HexDumpFormat;
  /** 1-based line of the first line that belongs to the packet (its pane label, if any). */
  readonly firstLine: number;
  /** 1-based line of the last line that contributed to the packet. */
  readonly lastLine: number;
  /**
   * Offset printed on the first row (0 for formats without an offset column). Not 0 when the dump
   * starts in the middle of a packet (a `missing-start` warning says so).
   */
  readonly startOffset: number;
  /**
   * 0-based frame number. Buffers that are panes of the same tshark frame (its `Frame` pane and
   * any `Reassembled …` pane printed right after it) share it; every other packet has its own.
   */
  readonly frame: number;
  /** Set when the packet was introduced by a pane label line (tshark `-x` with several data sources). */
  readonly pane?: HexPane;
}

/**
 * Stable diagnostic codes. Errors mean some text that is part of a dump could not be read; the
 * packet it belongs to lacks those bytes. Warnings mean the bytes are probably right but something
 * was skipped, guessed or inconsistent.
 *
 * Errors:
 * - `not-hex`: a token inside a dump row is not a hex byte (`'zz' is not a hex byte`).
 * - `odd-digits`: a group of hex digits has an odd length.
 * - `byte-out-of-range`: an array element or escape is outside 0..255 (or -128..255 for arrays).
 * - `misplaced-repeat`: a `*` line with no dump row before it.
 * - `unterminated`: an array literal or string literal never closed.
 *
 * Warnings:
 * - `skipped-text`: lines that are not part of a dump (prose around a forum paste) were skipped.
 * - `offset-gap`: the offset column is ahead of the bytes read so far (a line is missing).
 * - `missing-start`: a dump starts at a non-zero offset.
 * - `length-mismatch`: a final offset line or a pane's `(N bytes)` disagrees with the bytes read.
 * - `unresolved-repeat`: a `*` line with no following offset, so the repeat count is unknown.
 * - `too-large`: a `*` repeat or a filled gap would pass the limit on expanded bytes, or a packet
 *   is longer than {@link HexDumpOptions.maxPacketBytes}; left out.
 * - `line-too-long`: a line of a stream longer than its line limit; skipped as prose.
 * - `mixed-format`: the format changed without a blank line in between; a new packet was started.
 * - `ascii-mismatch`: the ASCII column of a row does not show the row's bytes (edited dump?).
 * - `too-many-diagnostics`: the limit was reached; later diagnostics were dropped.
 *
 * Thrown only by {@link bytesFromHexDump} (as {@link HexDumpError}):
 * - `no-packet`, `several-packets`.
 */
export type HexDumpDiagnosticCode =
  | 'not-hex'
  | 'odd-digits'
  | 'byte-out-of-range'
  | 'misplaced-repeat'
  | 'unterminated'
  | 'skipped-text'
  | 'offset-gap'
  | 'missing-start'
  | 'length-mismatch'
  | 'unresolved-repeat'
  | 'too-large'
  | 'mixed-format'
  | 'ascii-mismatch'
  | 'too-many-diagnostics'
  | 'line-too-long'
  | 'no-packet'
  | 'several-packets';

/** How serious a hex dump diagnostic is; the result is `ok` when none is an error. */
export type HexDumpSeverity = 'error' | 'warning';

/** A problem found in the text, located by 1-based line and column (columns count UTF-16 code units, a tab is one). */
export interface HexDumpDiagnostic {
  readonly severity: HexDumpSeverity;
  readonly code: HexDumpDiagnosticCode;
  /** Full sentence including the location: `line 3, column 17: 'zz' is not a hex byte`. */
  readonly message: string;
  readonly line: number;
  readonly column: number;
  /** Last line of a range (set by `skipped-text`). */
  readonly endLine?: number;
  /** Index into {@link HexDumpResult.packets} of the packet the problem belongs to, if any. */
  readonly packet?: number;
}

/**
 * What {@link parseHexDump} returns: the packets found, the diagnostics, and whether none of them is an
 * error.
 */
export interface HexDumpResult {
  /** Packets in the order they appear in the text. Empty buffers are not reported. */
  readonly packets: HexPacket[];
  /** Errors and warnings in line order. */
  readonly diagnostics: HexDumpDiagnostic[];
  /** `true` when no diagnostic is an error. */
  readonly ok: boolean;
}

/** Options of {@link parseHexDump}. */
export interface HexDumpOptions {
  /**
   * Byte order of multi-byte groups in rows that have an offset column but no ASCII column to
   * check against: `od -t x2`/`x4`/`x8` and plain `hexdump` print words in the byte order of the
   * machine that ran them, which is little-endian on x86 and ARM. Default `'little'`. Rows with
   * an ASCII column (`od -t x2z`, `xxd -e`) are checked against it and do not need this. `xxd`
   * rows and bare hex are always read in the order printed.
   */
  readonly wordOrder?: 'little' | 'big';
  /**
   * Radix of the offset column. `'auto'` (default) reads offsets as hex and switches to octal or
   * decimal when only that matches the bytes read (plain `od` prints octal offsets, `od -A d`
   * decimal ones).
   */
  readonly offsetRadix?: 'auto' | 8 | 10 | 16;
  /** Fill an `offset-gap` with zero bytes so later offsets stay true. Default `false`: the gap is closed up. */
  readonly fillGaps?: boolean;
  /** Stop recording diagnostics after this many (a `too-many-diagnostics` warning is added). Default 1000. */
  readonly maxDiagnostics?: number;
  /**
   * Bytes one packet may hold; the rest of a longer one is left out with a `too-large` warning
   * (its offsets stay checked). Default: no limit. A stream ({@link dissectHexDumpStream}) sets
   * 1 MiB, so that memory stays bounded whatever the input.
   */
  readonly maxPacketBytes?: number;
}
