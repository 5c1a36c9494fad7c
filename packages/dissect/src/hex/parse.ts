/**
 * `parseHexDump`: turns pasted hex-dump text into the bytes of one or more packets.
 *
 * The text is read line by line, in one pass, and each line is classified in this order:
 *
 * 1. inside an array literal that an earlier line opened: more elements;
 * 2. blank: ends a bare, `0x` or escaped packet (offset dumps continue if the offsets do);
 * 3. a pane label, `Reassembled TCP (67 bytes):`: starts a new labelled packet; a bit-field
 *    line of a tshark `-V` tree (`0100 .... = Version: 4`) counts as prose;
 * 4. `*`: the previous row repeats until the next offset (`hexdump`, `od`, `xxd -a`);
 * 5. an offset row: `0010  53 41 …`, `00000010: 5341 …`, an offset alone (a final length line);
 * 6. a line with `\x` escapes (or octal ones in a string literal); 7. the start of an array literal;
 * 8. bare hex / a `0x` list, if the junk policy ({@link looksLikeBareRow}) says it is a dump row;
 * 9. anything else is prose: skipped with one `skipped-text` warning per run of such lines.
 *
 * Junk policy: a line that is recognisably a dump row (an offset row, an escape line, an array, a
 * line whose first token is a byte and most tokens are bytes) and contains something that is not
 * a byte gets an error naming the line and column, and that token's bytes are left out. A line
 * that does not look like a dump row at all is prose and is skipped with a warning. Prose ends a
 * bare or escaped packet; an offset dump continues across prose if its offsets continue (tshark
 * `-P` prints a summary line before each frame).
 *
 * Packets: an offset dump starts a new packet when the offset restarts at 0 or goes backwards, or
 * after a final offset line; bare, `0x` and escaped packets end at a blank line, prose, or a
 * change of format; each array literal is one packet; a pane label starts a new packet.
 *
 * Cost is linear in the length of the text: rows are read with bounded look-back and bytes go
 * into a doubling buffer.
 *
 * @module
 */

import { PacketAssembler, type Draft } from './assembler.ts';
import { findArrayStart, hasByteEscape, looksLikeBareRow, readArrayContent, readBareLine, readEscapedLine } from './literal.ts';
import type { ArrayState } from './literal.ts';
import { isOffsetRow, offsetRow, repeatLine } from './offset-dump.ts';
import { readOffsetField } from './offset-row.ts';
import { trimmedEnd, trimmedStart } from './text.ts';
import type { HexDumpFormat, HexDumpOptions, HexDumpResult, HexPacket, HexPaneKind } from './types.ts';

export { MAX_EXPANDED_BYTES } from './assembler.ts';

const PANE_LABEL = /^(\S.*?)\s*\((\d+) bytes?\):$/;

/** A bit-field line of tshark `-V` / Wireshark's tree: `0100 .... = Version: 4`. Prose, though it starts with hex. */
/**
 * tcpdump's line above each packet (`-x`, `-X`, `-xx`, `-XX`): a timestamp as `-t` variants
 * write it (none, `HH:MM:SS.frac`, epoch seconds, a date before it), then what it decoded
 * (`IP 10.0.0.1.5000 > …`, `IP6 …`, with `-e` the MACs, with `-i any` the interface).
 */
const TCPDUMP_HEADER =
  /^(?:(?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d\.\d{6,9} |\d{9,}\.\d{6,9} )?(?:IP6? |ARP,|[0-9a-f]{2}(?::[0-9a-f]{2}){5} |\S+ +(?:In|Out|B|M|P) +)/;

const BITFIELD = /^[01.]+(?:[ \t][01.]+)*[ \t]+=[ \t]/;

function paneKind(label: string): HexPaneKind {
  if (/^frame\b/i.test(label)) return 'frame';
  if (/^reassembled\b/i.test(label)) return 'reassembled';
  return 'other';
}

/**
 * The line-by-line parser behind {@link parseHexDump}, for text that arrives in pieces: feed
 * lines in order with {@link line} (or {@link overlong} for a line too long to keep), take the
 * packets closed so far with {@link take}, and end with {@link finish}.
 */
export class HexDumpParser {
  /** Lines read as part of a dump (rows, escapes, array lines, `*`), as opposed to blank lines and prose. */
  rows = 0;
  /** The open packet, the closed ones and the diagnostics. */
  readonly #a: PacketAssembler;
  #array: (ArrayState & { line: number; column: number }) | undefined;

  constructor(options: HexDumpOptions = {}) {
    this.#a = new PacketAssembler(options);
  }

  /** The packets closed since the last call, in order. */
  take(): HexPacket[] {
    return this.#a.take();
  }

  /** Line `n` was too long to keep (a stream's line limit): skipped as prose, with a warning. */
  overlong(n: number, limit: number): void {
    const a = this.#a;
    if (this.#array !== undefined) {
      a.report(
        'error',
        'unterminated',
        this.#array.line,
        this.#array.column + 1,
        `array literal opened here is not closed before line ${n}, which is longer than ${limit} characters`,
        true,
      );
      this.#array = undefined;
    }
    a.flushSkipped();
    a.push({
      severity: 'warning',
      code: 'line-too-long',
      message: `line ${n}, column 1: longer than ${limit} characters: skipped`,
      line: n,
      column: 1,
    });
    this.#prose(n);
    a.flushSkipped();
  }

  line(line: string, n: number): void {
    this.#classify(line, n);
    const draft = this.#a.draft;
    if (draft !== undefined && draft.bytes.length > this.#a.maxPacketBytes) this.#a.cap(draft, n);
  }

  #classify(line: string, n: number): void {
    if (this.#array !== undefined) {
      this.rows++;
      this.#continueArray(line, n, 0);
      return;
    }
    const start = trimmedStart(line);
    if (start === line.length) {
      this.#blank();
      return;
    }
    const trimmed = line.slice(start, trimmedEnd(line));

    const label = PANE_LABEL.exec(trimmed);
    if (label !== null) {
      this.#a.flushSkipped();
      this.#a.closeDraft();
      const text = label[1] as string;
      this.#a.pendingPane = { pane: { label: text, kind: paneKind(text), declaredLength: Number(label[2]) }, line: n };
      this.#a.separated = true;
      return;
    }

    if (BITFIELD.test(trimmed)) {
      this.#prose(n);
      return;
    }

    if (trimmed === '*') {
      this.rows++;
      repeatLine(this.#a, n, start);
      return;
    }

    const field = readOffsetField(line);
    if (field !== undefined && (field.prefixed || isOffsetRow(this.#a, line, field))) {
      this.rows++;
      this.#a.flushSkipped();
      offsetRow(this.#a, line, n, field);
      return;
    }

    if (hasByteEscape(line)) {
      this.rows++;
      this.#a.flushSkipped();
      this.#escapedLine(line, n);
      return;
    }

    const arrayStart = findArrayStart(line);
    if (arrayStart !== undefined) {
      this.rows++;
      this.#a.flushSkipped();
      this.#a.closeDraft();
      this.#a.startDraft('c-array', n, 0);
      this.#array = { closer: arrayStart.closer, inBlockComment: false, line: n, column: arrayStart.openColumn };
      this.#continueArray(line, n, arrayStart.contentStart);
      return;
    }

    if (looksLikeBareRow(line)) {
      this.rows++;
      this.#a.flushSkipped();
      this.#bareLine(line, n);
      return;
    }

    // The line tcpdump writes above each packet's dump: prose, but expected, so not a skipped line to warn of.
    this.#prose(n, !TCPDUMP_HEADER.test(trimmed));
  }

  finish(): HexDumpResult {
    const a = this.#a;
    if (this.#array !== undefined) {
      a.report(
        'error',
        'unterminated',
        this.#array.line,
        this.#array.column + 1,
        `array literal opened here is not closed (expected '${this.#array.closer}')`,
        true,
      );
      this.#array = undefined;
    }
    a.closeDraft();
    a.flushSkipped();
    if (a.pendingPane !== undefined) a.emptyPane();
    const diagnostics = a.sortedDiagnostics();
    return { packets: a.packets, diagnostics, ok: !diagnostics.some((d) => d.severity === 'error') };
  }

  // -------------------------------------------------------------------------------------------
  // Line kinds

  #blank(): void {
    this.#a.blankSincePacket = true;
    this.#a.separated = true;
    const format = this.#a.draft?.format;
    if (format === 'bare' || format === 'prefixed' || format === 'escaped') this.#a.closeDraft();
  }

  /** A line that is no dump: it ends a bare dump, and is noted as skipped unless `noted` is false. */
  #prose(n: number, noted = true): void {
    if (!noted) this.#a.flushSkipped();
    else if (this.#a.skipped === undefined) this.#a.skipped = { from: n, to: n };
    else this.#a.skipped.to = n;
    this.#a.separated = true;
    const format = this.#a.draft?.format;
    if (format === 'bare' || format === 'prefixed' || format === 'escaped') this.#a.closeDraft();
  }

  #escapedLine(line: string, n: number): void {
    const result = readEscapedLine(line);
    const draft = this.#a.draft;
    if (draft === undefined || draft.format !== 'escaped' || result.startsStatement) {
      this.#a.closeDraft();
      this.#a.startDraft('escaped', n, 0);
    }
    const target = this.#a.draft as Draft;
    this.#a.reportRow(n, result.problems);
    for (const byte of result.bytes) target.bytes.push(byte);
    target.lastLine = n;
    this.#a.separated = false;
    if (result.endsStatement) this.#a.closeDraft();
  }

  #continueArray(line: string, n: number, from: number): void {
    const array = this.#array;
    const draft = this.#a.draft;
    if (array === undefined || draft === undefined) return;
    const result = readArrayContent(line, from, array);
    this.#a.reportRow(n, result.problems);
    for (const byte of result.bytes) draft.bytes.push(byte);
    draft.lastLine = n;
    this.#a.separated = false;
    if (result.closedAt !== undefined) {
      // Text after the closing bracket (`);`, `};`, a comment) is not data.
      this.#array = undefined;
      this.#a.closeDraft();
    }
  }

  #bareLine(line: string, n: number): void {
    let draft = this.#a.draft;
    const format: HexDumpFormat = /0x/i.test(line) ? 'prefixed' : 'bare';
    if (draft === undefined || (draft.format !== 'bare' && draft.format !== 'prefixed')) {
      this.#a.closeDraft();
      draft = this.#a.startDraft(format, n, 0);
    }
    const carry = draft.carry;
    const result = readBareLine(line, carry);
    if (carry !== undefined && !result.stream) {
      this.#a.report('error', 'odd-digits', carry.line, carry.column + 1, 'a hex digit is left over: odd number of hex digits', true);
    }
    draft.carry = result.carryOut === undefined ? undefined : { ...result.carryOut, line: n };
    this.#a.reportRow(n, result.problems);
    for (const byte of result.bytes) draft.bytes.push(byte);
    draft.lastLine = n;
    this.#a.separated = false;
  }
}

/**
 * Reads hex-dump text into packets. Never throws: problems come back as diagnostics with line
 * and column, and the packets hold every byte that could be read.
 *
 * Formats are detected per block (see {@link HexDumpFormat}); several packets in one text are
 * told apart by restarting offsets, blank lines between bare blocks, separate array literals and
 * tshark pane labels. Offset columns are checked against the bytes read: a gap is a warning, and
 * `*` lines are expanded to the next offset.
 *
 * Decisions worth knowing:
 * - Prose around a dump (a forum post) is skipped with a `skipped-text` warning; a line that is
 *   recognisably a dump row but holds a non-byte token gets an error at that token's column, and
 *   only that token is left out.
 * - Words of `od -t x2`/`x4`/`x8` and plain `hexdump` are little-endian unless
 *   {@link HexDumpOptions.wordOrder} says otherwise or an ASCII column shows the order; the zero
 *   padding of an odd-length input is cut at the final offset line.
 * - Bare hex is read in the order written, even in 4-digit groups (`5341 4d50` is 53 41 4d 50);
 *   `od -A n -t x2` output (no offsets) is therefore misread, as nothing marks it as words.
 * - Numbers inside `[…]`/`{…}` are decimal unless prefixed (`0x`, `0b`), even with a leading
 *   zero; outside brackets, `83, 65` is hex.
 * - Text after an array's closing bracket on the same line is ignored.
 *
 * @example
 * ```ts
 * const { packets, diagnostics } = parseHexDump('0000  53 41 4d 50 7f 00 00 01 61 1e 69   SAMP....a.i');
 * packets[0]?.bytes; // Uint8Array [0x53, 0x41, 0x4d, 0x50, 0x7f, 0, 0, 1, 0x61, 0x1e, 0x69]
 * packets[0]?.format; // 'tshark'
 * ```
 */
export function parseHexDump(text: string, options: HexDumpOptions = {}): HexDumpResult {
  const parser = new HexDumpParser(options);
  let n = 0;
  let at = 0;
  while (at <= text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    let line = text.slice(at, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    n++;
    if (!(end === text.length && line.length === 0 && n > 1)) parser.line(line, n);
    at = end + 1;
  }
  return parser.finish();
}
