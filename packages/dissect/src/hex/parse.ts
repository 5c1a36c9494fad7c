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

import { ByteSink } from './byte-sink.ts';
import { findArrayStart, hasByteEscape, looksLikeBareRow, readArrayContent, readBareLine, readEscapedLine } from './literal.ts';
import type { ArrayState, Nibble } from './literal.ts';
import { readOffsetField, readOffsetRow } from './offset-row.ts';
import type { OffsetField, RowProblem } from './offset-row.ts';
import { isHexDigits, tokenize, trimmedEnd, trimmedStart } from './text.ts';
import type {
  HexDumpDiagnostic,
  HexDumpDiagnosticCode,
  HexDumpFormat,
  HexDumpOptions,
  HexDumpResult,
  HexDumpSeverity,
  HexPacket,
  HexPane,
  HexPaneKind,
} from './types.ts';

type Radix = 8 | 10 | 16;

/**
 * Bytes that `*` repeats and filled gaps may add over the whole text. An offset is only a claim: a
 * three-line text must not make the parser allocate the 4 GiB its last offset names.
 */
export const MAX_EXPANDED_BYTES = 16 * 1024 * 1024;

/** State of a packet read from rows with an offset column. */
interface OffsetState {
  readonly colon: boolean;
  /** Width of the offset digits on the first row. */
  readonly width: number;
  /** Radices the offsets seen so far agree with; the first is used. */
  radices: Radix[];
  /** Offset the row after the last one should carry, minus the bytes read (changes after a gap). */
  base: number;
  lastRow: Uint8Array | undefined;
  /** An unresolved `*` line. */
  repeat: { line: number; column: number } | undefined;
  expectsAscii: boolean;
  asciiColumn: number | undefined;
  /** Widest group seen, in bytes; a final offset this much short of the bytes read is padding. */
  groupBytes: number;
  /** A final offset line was read: the next row starts a new packet. */
  ended: boolean;
  /** The last row had an error, so a following offset gap is already explained. */
  lastRowHadErrors: boolean;
  /** `0x` before the offset (tcpdump -x / -X): rows of another family start a new packet. */
  readonly prefixed: boolean;
}

interface Draft {
  format: HexDumpFormat;
  readonly sink: ByteSink;
  readonly firstLine: number;
  lastLine: number;
  readonly startOffset: number;
  readonly frame: number;
  readonly pane: HexPane | undefined;
  readonly offset: OffsetState | undefined;
  /** A digit left over by a bare stream line, with its line. */
  carry: (Nibble & { line: number }) | undefined;
  /** Indexes into the diagnostics list of entries that point at this draft. */
  readonly diagnostics: number[];
  /** Bytes left out past {@link HexDumpOptions.maxPacketBytes} (reported once). */
  dropped: number;
}

interface MutableDiagnostic {
  severity: HexDumpSeverity;
  code: HexDumpDiagnosticCode;
  message: string;
  line: number;
  column: number;
  endLine?: number;
  packet?: number;
}

const PANE_LABEL = /^(\S.*?)\s*\((\d+) bytes?\):$/;

/** A bit-field line of tshark `-V` / Wireshark's tree: `0100 .... = Version: 4`. Prose, though it starts with hex. */
const BITFIELD = /^[01.]+(?:[ \t][01.]+)*[ \t]+=[ \t]/;

function paneKind(label: string): HexPaneKind {
  if (/^frame\b/i.test(label)) return 'frame';
  if (/^reassembled\b/i.test(label)) return 'reassembled';
  return 'other';
}

function parseOffset(digits: string, radix: Radix): number | undefined {
  if (radix === 8 && !/^[0-7]+$/.test(digits)) return undefined;
  if (radix === 10 && !/^[0-9]+$/.test(digits)) return undefined;
  return Number.parseInt(digits, radix);
}

function showOffset(value: number, radix: Radix): string {
  if (radix === 16) return `0x${value.toString(16)}`;
  if (radix === 8) return `0${value.toString(8)}`;
  return String(value);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The line-by-line parser behind {@link parseHexDump}, for text that arrives in pieces: feed
 * lines in order with {@link line} (or {@link overlong} for a line too long to keep), take the
 * packets closed so far with {@link take}, and end with {@link finish}.
 */
export class HexDumpParser {
  /** Packets closed and not yet taken. */
  private packets: HexPacket[] = [];
  /** Packets closed so far (taken or not): the index the next one gets. */
  private closed = 0;
  /** Lines read as part of a dump (rows, escapes, array lines, `*`), as opposed to blank lines and prose. */
  rows = 0;
  private readonly diagnostics: MutableDiagnostic[] = [];
  private readonly maxDiagnostics: number;
  private diagnosticsFull = false;
  private draft: Draft | undefined;
  private array: (ArrayState & { line: number; column: number }) | undefined;
  private pendingPane: { pane: HexPane; line: number } | undefined;
  private skipped: { from: number; to: number } | undefined;
  /** A blank line, prose or a pane label since the last dump line. */
  private separated = true;
  /** A blank line since the last packet ended (panes of one tshark frame have none between them). */
  private blankSincePacket = true;
  private frames = 0;
  /** Format of the packet read last, for `mixed-format`. */
  private lastFormat: HexDumpFormat | undefined;
  /** Bytes added by repeats and filled gaps so far (at most {@link MAX_EXPANDED_BYTES}). */
  private expanded = 0;

  private readonly maxPacketBytes: number;

  constructor(private readonly options: HexDumpOptions = {}) {
    this.maxDiagnostics = options.maxDiagnostics ?? 1000;
    this.maxPacketBytes = options.maxPacketBytes ?? Infinity;
  }

  /** The packets closed since the last call, in order. */
  take(): HexPacket[] {
    const out = this.packets;
    this.packets = [];
    return out;
  }

  /** Line `n` was too long to keep (a stream's line limit): skipped as prose, with a warning. */
  overlong(n: number, limit: number): void {
    if (this.array !== undefined) {
      this.report('error', 'unterminated', this.array.line, this.array.column + 1, `array literal opened here is not closed before line ${n}, which is longer than ${limit} characters`, true);
      this.array = undefined;
    }
    this.flushSkipped();
    this.push({ severity: 'warning', code: 'line-too-long', message: `line ${n}, column 1: longer than ${limit} characters: skipped`, line: n, column: 1 });
    this.prose(n);
    this.flushSkipped();
  }

  line(line: string, n: number): void {
    this.classify(line, n);
    const draft = this.draft;
    if (draft !== undefined && draft.sink.length > this.maxPacketBytes) this.cap(draft, n);
  }

  /** Leaves out what a packet holds past the limit (one warning a packet); its offsets stay true. */
  private cap(draft: Draft, n: number): void {
    const extra = draft.sink.length - this.maxPacketBytes;
    if (draft.dropped === 0) {
      this.report('warning', 'too-large', n, 1, `packet longer than ${this.maxPacketBytes} bytes: the rest of it is left out`, true);
    }
    draft.dropped += extra;
    draft.sink.truncate(this.maxPacketBytes);
    if (draft.offset !== undefined) draft.offset.base += extra;
  }

  private classify(line: string, n: number): void {
    if (this.array !== undefined) {
      this.rows++;
      this.continueArray(line, n, 0);
      return;
    }
    const start = trimmedStart(line);
    if (start === line.length) {
      this.blank();
      return;
    }
    const trimmed = line.slice(start, trimmedEnd(line));

    const label = PANE_LABEL.exec(trimmed);
    if (label !== null) {
      this.flushSkipped();
      this.closeDraft();
      const text = label[1] as string;
      this.pendingPane = { pane: { label: text, kind: paneKind(text), declaredLength: Number(label[2]) }, line: n };
      this.separated = true;
      return;
    }

    if (BITFIELD.test(trimmed)) {
      this.prose(n);
      return;
    }

    if (trimmed === '*') {
      this.rows++;
      this.repeatLine(n, start);
      return;
    }

    const field = readOffsetField(line);
    if (field !== undefined && (field.prefixed || this.isOffsetRow(line, field))) {
      this.rows++;
      this.flushSkipped();
      this.offsetRow(line, n, field);
      return;
    }

    if (hasByteEscape(line)) {
      this.rows++;
      this.flushSkipped();
      this.escapedLine(line, n);
      return;
    }

    const arrayStart = findArrayStart(line);
    if (arrayStart !== undefined) {
      this.rows++;
      this.flushSkipped();
      this.closeDraft();
      this.startDraft('c-array', n, 0);
      this.array = { closer: arrayStart.closer, inBlockComment: false, line: n, column: arrayStart.openColumn };
      this.continueArray(line, n, arrayStart.contentStart);
      return;
    }

    if (looksLikeBareRow(line)) {
      this.rows++;
      this.flushSkipped();
      this.bareLine(line, n);
      return;
    }

    this.prose(n);
  }

  finish(): HexDumpResult {
    if (this.array !== undefined) {
      this.report('error', 'unterminated', this.array.line, this.array.column + 1, `array literal opened here is not closed (expected '${this.array.closer}')`, true);
      this.array = undefined;
    }
    this.closeDraft();
    this.flushSkipped();
    if (this.pendingPane !== undefined) this.emptyPane();
    const diagnostics = this.diagnostics
      .map((d, index) => ({ d, index }))
      .sort((a, b) => a.d.line - b.d.line || a.index - b.index)
      .map(({ d }): HexDumpDiagnostic => ({ ...d }));
    return { packets: this.packets, diagnostics, ok: !diagnostics.some((d) => d.severity === 'error') };
  }

  // -------------------------------------------------------------------------------------------
  // Line kinds

  private blank(): void {
    this.blankSincePacket = true;
    this.separated = true;
    const format = this.draft?.format;
    if (format === 'bare' || format === 'prefixed' || format === 'escaped') this.closeDraft();
  }

  private prose(n: number): void {
    if (this.skipped === undefined) this.skipped = { from: n, to: n };
    else this.skipped.to = n;
    this.separated = true;
    const format = this.draft?.format;
    if (format === 'bare' || format === 'prefixed' || format === 'escaped') this.closeDraft();
  }

  private repeatLine(n: number, column: number): void {
    this.flushSkipped();
    const offset = this.draft?.offset;
    if (offset === undefined || offset.lastRow === undefined || offset.ended) {
      this.report('error', 'misplaced-repeat', n, column + 1, "'*' (repeat the previous row) has no dump row before it");
      return;
    }
    if (offset.repeat === undefined) offset.repeat = { line: n, column: column + 1 };
    (this.draft as Draft).lastLine = n;
  }

  /**
   * Is this line an offset row (or a final offset line)? Yes if the offset has a colon (xxd), or
   * it continues the open offset dump's column, or its width differs from the groups after it
   * (`0010  53 41`, `000010 53 41`, `0000010 4153` but not the bare `5341 4d50`).
   */
  private isOffsetRow(line: string, field: OffsetField): boolean {
    const rest = tokenize(line, field.end);
    const open = this.draft?.offset;
    if (rest.length === 0) {
      return open !== undefined && !open.ended && open.colon === field.colon && open.width === field.digits.length;
    }
    if (field.colon) return field.digits.length >= 2;
    if (open !== undefined && !open.ended && !open.colon && open.width === field.digits.length) {
      // Continues the open dump's offset column, if at least half of the rest are hex groups
      // (the last tshark row `0030  01   .` is half ASCII).
      const groups = rest.filter((t) => isHexDigits(t.text) && t.text.length % 2 === 0).length;
      if (groups * 2 >= rest.length) return true;
    }
    if (field.digits.length < 4) return false;
    const firstGroup = rest.find((t) => isHexDigits(t.text) && t.text.length % 2 === 0);
    return firstGroup !== undefined && firstGroup.text.length !== field.digits.length;
  }

  private offsetRow(line: string, n: number, field: OffsetField): void {
    let draft = this.draft;
    let state = draft?.offset;
    const lone = tokenize(line, field.end).length === 0;
    if (lone && state !== undefined && draft !== undefined) {
      this.finalOffset(draft, state, n, field);
      return;
    }

    const wordOrder = field.colon || this.options.wordOrder === 'big' ? 'memory' : 'little';
    const sameFamily = draft !== undefined && state !== undefined && !state.ended && state.colon === field.colon && state.prefixed === field.prefixed;
    const row = readOffsetRow(line, field, {
      expectsAscii: sameFamily && state !== undefined ? state.expectsAscii : field.colon || field.digits.length === 4,
      asciiColumn: sameFamily && state !== undefined ? state.asciiColumn : undefined,
      wordOrder,
    });

    // Does the row continue the open packet?
    let continues = false;
    if (sameFamily && draft !== undefined && state !== undefined) {
      const expected = draft.sink.length + state.base;
      if (state.repeat !== undefined) {
        const claimed = parseOffset(field.digits, state.radices[0] as Radix);
        if (claimed !== undefined && claimed >= expected && state.lastRow !== undefined) {
          if (this.mayExpand(claimed - expected, state.repeat)) draft.sink.appendRepeated(state.lastRow, claimed - expected);
          else state.base += claimed - expected;
          state.repeat = undefined;
          continues = true;
        }
      } else {
        const agreeing = state.radices.filter((r) => parseOffset(field.digits, r) === expected);
        if (agreeing.length > 0) state.radices = agreeing;
        const claimed = parseOffset(field.digits, state.radices[0] as Radix);
        if (claimed === expected) {
          continues = true;
        } else if (claimed !== undefined && claimed > expected) {
          const missing = claimed - expected;
          if (!state.lastRowHadErrors) {
            const radix = state.radices[0] as Radix;
            this.report('warning', 'offset-gap', n, field.start + 1,
              `offset ${showOffset(claimed, radix)} where ${showOffset(expected, radix)} was expected: ${plural(missing, 'byte')} missing (a line was lost?)`, true);
          }
          if (this.options.fillGaps === true && this.mayExpand(missing, { line: n, column: field.start + 1 })) draft.sink.appendZeros(missing);
          else state.base += missing;
          continues = true;
        }
      }
    }

    if (!continues) {
      this.closeDraft();
      const radices = this.initialRadices(field, row.ascii);
      const claimed = parseOffset(field.digits, radices[0] as Radix) ?? 0;
      const format = field.prefixed ? 'tcpdump'
        : field.colon ? 'xxd'
        : row.ascii === 'pipe' ? 'hexdump-c'
        : row.ascii === 'angle' ? 'od'
        : row.ascii === 'implicit' ? 'tshark'
        : row.groupBytes === 2 && field.digits.length === 7 ? 'hexdump'
        : 'od';
      draft = this.startDraft(format, n, claimed, {
        colon: field.colon,
        width: field.digits.length,
        radices,
        base: claimed,
        lastRow: undefined,
        repeat: undefined,
        expectsAscii: field.colon || field.digits.length === 4 || row.ascii === 'implicit',
        asciiColumn: undefined,
        groupBytes: 1,
        ended: false,
        lastRowHadErrors: false,
        prefixed: field.prefixed,
      });
      state = draft.offset as OffsetState;
      if (claimed !== 0) {
        this.report('warning', 'missing-start', n, field.start + 1,
          `dump starts at offset ${showOffset(claimed, radices[0] as Radix)}, not 0: the bytes before it are missing`, true);
      }
    }
    if (draft === undefined || state === undefined) return;

    this.reportRow(n, row.problems);
    draft.sink.append(row.bytes);
    draft.lastLine = n;
    if (row.bytes.length > 0) state.lastRow = row.bytes;
    state.groupBytes = Math.max(state.groupBytes, row.groupBytes);
    state.lastRowHadErrors = row.problems.some((p) => p.severity === 'error');
    if (row.ascii === 'implicit') {
      state.expectsAscii = true;
      state.asciiColumn = row.asciiColumn;
      if (draft.format === 'od') draft.format = 'tshark';
    }
    if (draft.format === 'hexdump' && state.radices[0] !== 16) draft.format = 'od';
    this.separated = false;
  }

  /** Offsets of `od` and plain `hexdump` may be octal or decimal; those of the others are hex. */
  private initialRadices(field: OffsetField, ascii: string): Radix[] {
    const forced = this.options.offsetRadix;
    if (forced !== undefined && forced !== 'auto') return [forced];
    if (field.colon || ascii === 'pipe' || ascii === 'implicit') return [16];
    return [16, 8, 10];
  }

  /** An offset alone on a line: the total length (`hexdump`, `od`), or the end of a `*` run. */
  private finalOffset(draft: Draft, state: OffsetState, n: number, field: OffsetField): void {
    const expected = draft.sink.length + state.base;
    if (state.repeat === undefined) {
      const agreeing = state.radices.filter((r) => parseOffset(field.digits, r) === expected);
      if (agreeing.length > 0) state.radices = agreeing;
    }
    const radix = state.radices[0] as Radix;
    const claimed = parseOffset(field.digits, radix);
    draft.lastLine = n;
    state.ended = true;
    this.separated = false;
    if (draft.format === 'hexdump' && radix !== 16) draft.format = 'od';
    if (claimed === undefined) return;
    if (state.repeat !== undefined && state.lastRow !== undefined && claimed >= expected) {
      if (this.mayExpand(claimed - expected, state.repeat)) draft.sink.appendRepeated(state.lastRow, claimed - expected);
      state.repeat = undefined;
      return;
    }
    if (claimed === expected) return;
    if (claimed < expected && expected - claimed < state.groupBytes) {
      // The last word was padded with zero bytes (od -t x2 / hexdump of an odd-length input).
      draft.sink.truncate(draft.sink.length - (expected - claimed));
      return;
    }
    if (state.lastRowHadErrors) return;
    const read = draft.sink.length;
    this.report('warning', 'length-mismatch', n, field.start + 1,
      `final offset ${showOffset(claimed, radix)} does not match the ${plural(read, 'byte')} read (${showOffset(expected, radix)})`, true);
  }

  private escapedLine(line: string, n: number): void {
    const result = readEscapedLine(line);
    const draft = this.draft;
    if (draft === undefined || draft.format !== 'escaped' || result.startsStatement) {
      this.closeDraft();
      this.startDraft('escaped', n, 0);
    }
    const target = this.draft as Draft;
    this.reportRow(n, result.problems);
    for (const byte of result.bytes) target.sink.push(byte);
    target.lastLine = n;
    this.separated = false;
    if (result.endsStatement) this.closeDraft();
  }

  private continueArray(line: string, n: number, from: number): void {
    const array = this.array;
    const draft = this.draft;
    if (array === undefined || draft === undefined) return;
    const result = readArrayContent(line, from, array);
    this.reportRow(n, result.problems);
    for (const byte of result.bytes) draft.sink.push(byte);
    draft.lastLine = n;
    this.separated = false;
    if (result.closedAt !== undefined) {
      // Text after the closing bracket (`);`, `};`, a comment) is not data.
      this.array = undefined;
      this.closeDraft();
    }
  }

  private bareLine(line: string, n: number): void {
    let draft = this.draft;
    const format: HexDumpFormat = /0x/i.test(line) ? 'prefixed' : 'bare';
    if (draft === undefined || (draft.format !== 'bare' && draft.format !== 'prefixed')) {
      this.closeDraft();
      draft = this.startDraft(format, n, 0);
    }
    const carry = draft.carry;
    const result = readBareLine(line, carry);
    if (carry !== undefined && !result.stream) {
      this.report('error', 'odd-digits', carry.line, carry.column + 1, 'a hex digit is left over: odd number of hex digits', true);
    }
    draft.carry = result.carryOut === undefined ? undefined : { ...result.carryOut, line: n };
    this.reportRow(n, result.problems);
    for (const byte of result.bytes) draft.sink.push(byte);
    draft.lastLine = n;
    this.separated = false;
  }

  /** Takes `count` bytes of expansion from the budget, or reports that they are left out. */
  private mayExpand(count: number, at: { line: number; column: number }): boolean {
    if (count <= MAX_EXPANDED_BYTES - this.expanded) {
      this.expanded += count;
      return true;
    }
    this.report('warning', 'too-large', at.line, at.column,
      `${plural(count, 'byte')} of repeated or missing data would pass the limit of ${MAX_EXPANDED_BYTES} expanded bytes; they are left out`, true);
    return false;
  }

  // -------------------------------------------------------------------------------------------
  // Packets

  private startDraft(format: HexDumpFormat, n: number, startOffset: number, offset?: OffsetState): Draft {
    this.closeDraft();
    const previous = this.packets[this.packets.length - 1];
    if (!this.separated && this.lastFormat !== undefined && this.lastFormat !== format && !sameKind(this.lastFormat, format)) {
      this.report('warning', 'mixed-format', n, 1, `${format} dump follows ${this.lastFormat} dump without a blank line: starting a new packet`);
    }
    const pending = this.pendingPane;
    this.pendingPane = undefined;
    let frame: number;
    if (pending !== undefined && pending.pane.kind !== 'frame' && previous?.pane !== undefined && !this.blankSincePacket) {
      frame = previous.frame;
    } else {
      frame = this.frames++;
    }
    const draft: Draft = {
      format,
      sink: new ByteSink(),
      firstLine: pending?.line ?? n,
      lastLine: n,
      startOffset,
      frame,
      pane: pending?.pane,
      offset,
      carry: undefined,
      diagnostics: [],
      dropped: 0,
    };
    this.draft = draft;
    this.lastFormat = format;
    return draft;
  }

  private closeDraft(): void {
    const draft = this.draft;
    if (draft === undefined) return;
    this.draft = undefined;
    this.lastFormat = draft.format;
    const state = draft.offset;
    if (state?.repeat !== undefined) {
      this.report('warning', 'unresolved-repeat', state.repeat.line, state.repeat.column,
        "'*' is not followed by an offset, so the number of repeated bytes is unknown; they are left out", true, draft);
    }
    if (draft.carry !== undefined) {
      this.report('error', 'odd-digits', draft.carry.line, draft.carry.column + 1, 'a hex digit is left over: odd number of hex digits', true, draft);
    }
    if (draft.pane !== undefined && draft.pane.declaredLength !== draft.sink.length) {
      this.report('warning', 'length-mismatch', draft.firstLine, 1,
        `pane '${draft.pane.label}' announces ${plural(draft.pane.declaredLength, 'byte')} but ${draft.sink.length} were read`, true, draft);
    }
    if (draft.sink.length === 0) {
      for (const index of draft.diagnostics) delete (this.diagnostics[index] as MutableDiagnostic).packet;
      return;
    }
    const packet: HexPacket = {
      bytes: draft.sink.toBytes(),
      format: draft.format,
      firstLine: draft.firstLine,
      lastLine: draft.lastLine,
      startOffset: draft.startOffset,
      frame: draft.frame,
      ...(draft.pane === undefined ? {} : { pane: draft.pane }),
    };
    this.packets.push(packet);
    this.closed++;
    this.blankSincePacket = false;
  }

  private emptyPane(): void {
    const pending = this.pendingPane;
    this.pendingPane = undefined;
    if (pending === undefined || pending.pane.declaredLength === 0) return;
    this.report('warning', 'length-mismatch', pending.line, 1,
      `pane '${pending.pane.label}' announces ${plural(pending.pane.declaredLength, 'byte')} but no dump rows follow it`);
  }

  // -------------------------------------------------------------------------------------------
  // Diagnostics

  private flushSkipped(): void {
    const skipped = this.skipped;
    if (skipped === undefined) return;
    this.skipped = undefined;
    const count = skipped.to - skipped.from + 1;
    const where = count === 1 ? `line ${skipped.from}` : `lines ${skipped.from}-${skipped.to}`;
    this.push({
      severity: 'warning',
      code: 'skipped-text',
      message: `${where}: skipped text that is not part of a hex dump`,
      line: skipped.from,
      column: 1,
      ...(count === 1 ? {} : { endLine: skipped.to }),
    });
  }

  private reportRow(n: number, problems: readonly RowProblem[]): void {
    for (const problem of problems) this.report(problem.severity, problem.code, n, problem.column + 1, problem.text, true);
  }

  private report(severity: HexDumpSeverity, code: HexDumpDiagnosticCode, line: number, column: number, text: string, inPacket = false, draft = this.draft): void {
    const diagnostic: MutableDiagnostic = { severity, code, message: `line ${line}, column ${column}: ${text}`, line, column };
    if (inPacket && draft !== undefined) diagnostic.packet = this.closed;
    const index = this.push(diagnostic);
    if (index !== undefined && inPacket && draft !== undefined) draft.diagnostics.push(index);
  }

  private push(diagnostic: MutableDiagnostic): number | undefined {
    if (this.diagnosticsFull) return undefined;
    if (this.diagnostics.length >= this.maxDiagnostics) {
      this.diagnosticsFull = true;
      this.diagnostics.push({
        severity: 'warning',
        code: 'too-many-diagnostics',
        message: `line ${diagnostic.line}, column ${diagnostic.column}: more than ${this.maxDiagnostics} problems; the rest are not reported`,
        line: diagnostic.line,
        column: diagnostic.column,
      });
      return undefined;
    }
    this.diagnostics.push(diagnostic);
    return this.diagnostics.length - 1;
  }
}

/** `bare` and `prefixed` lines may be mixed in one packet without a warning. */
function sameKind(a: HexDumpFormat, b: HexDumpFormat): boolean {
  const loose = (f: HexDumpFormat): boolean => f === 'bare' || f === 'prefixed';
  return loose(a) && loose(b);
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
