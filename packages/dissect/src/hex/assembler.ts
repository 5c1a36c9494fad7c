/**
 * The packets of a hex dump as they are read: the open one (a draft: its bytes, lines, pane and
 * offset state), the ones closed so far, and the diagnostics, each pointing at the packet it
 * concerns. The line classifier (parse.ts) and the offset-dump reader (offset-dump.ts) drive it.
 */
import { GrowableBytes } from './growable-bytes.ts';
import type { Nibble } from './literal.ts';
import type { RowProblem } from './offset-row.ts';
import type {
  HexDumpDiagnostic,
  HexDumpDiagnosticCode,
  HexDumpFormat,
  HexDumpOptions,
  HexDumpSeverity,
  HexPacket,
  HexPane,
} from './types.ts';

export type Radix = 8 | 10 | 16;

/**
 * Bytes that `*` repeats and filled gaps may add over the whole text. An offset is only a claim: a
 * three-line text must not make the parser allocate the 4 GiB its last offset names.
 */
export const MAX_EXPANDED_BYTES = 16 * 1024 * 1024;

/** State of a packet read from rows with an offset column. */
export interface OffsetState {
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

export interface Draft {
  format: HexDumpFormat;
  readonly bytes: GrowableBytes;
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

export interface MutableDiagnostic {
  severity: HexDumpSeverity;
  code: HexDumpDiagnosticCode;
  message: string;
  line: number;
  column: number;
  endLine?: number;
  packet?: number;
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The packets and diagnostics of one parse (see the module comment). */
export class PacketAssembler {
  /** Packets closed and not yet taken. */
  packets: HexPacket[] = [];
  /** Packets closed so far (taken or not): the index the next one gets. */
  closed = 0;
  readonly diagnostics: MutableDiagnostic[] = [];
  readonly maxDiagnostics: number;
  diagnosticsFull = false;
  draft: Draft | undefined;
  pendingPane: { pane: HexPane; line: number } | undefined;
  skipped: { from: number; to: number } | undefined;
  /** A blank line, prose or a pane label since the last dump line. */
  separated = true;
  /** A blank line since the last packet ended (panes of one tshark frame have none between them). */
  blankSincePacket = true;
  frames = 0;
  /** Format of the packet read last, for `mixed-format`. */
  lastFormat: HexDumpFormat | undefined;
  /** Bytes added by repeats and filled gaps so far (at most {@link MAX_EXPANDED_BYTES}). */
  expanded = 0;
  readonly maxPacketBytes: number;

  constructor(readonly options: HexDumpOptions = {}) {
    this.maxDiagnostics = options.maxDiagnostics ?? 1000;
    this.maxPacketBytes = options.maxPacketBytes ?? Infinity;
  }

  /** The packets closed since the last call, in order. */
  take(): HexPacket[] {
    const out = this.packets;
    this.packets = [];
    return out;
  }

  /** Leaves out what a packet holds past the limit (one warning a packet); its offsets stay true. */
  cap(draft: Draft, n: number): void {
    const extra = draft.bytes.length - this.maxPacketBytes;
    if (draft.dropped === 0) {
      this.report('warning', 'too-large', n, 1, `packet longer than ${this.maxPacketBytes} bytes: the rest of it is left out`, true);
    }
    draft.dropped += extra;
    draft.bytes.truncate(this.maxPacketBytes);
    if (draft.offset !== undefined) draft.offset.base += extra;
  }

  /** Takes `count` bytes of expansion from the budget, or reports that they are left out. */
  mayExpand(count: number, at: { line: number; column: number }): boolean {
    if (count <= MAX_EXPANDED_BYTES - this.expanded) {
      this.expanded += count;
      return true;
    }
    this.report(
      'warning',
      'too-large',
      at.line,
      at.column,
      `${plural(count, 'byte')} of repeated or missing data would pass the limit of ${MAX_EXPANDED_BYTES} expanded bytes; they are left out`,
      true,
    );
    return false;
  }

  // -------------------------------------------------------------------------------------------
  // Packets

  startDraft(format: HexDumpFormat, n: number, startOffset: number, offset?: OffsetState): Draft {
    this.closeDraft();
    const previous = this.packets[this.packets.length - 1];
    if (!this.separated && this.lastFormat !== undefined && this.lastFormat !== format && !sameKind(this.lastFormat, format)) {
      this.report(
        'warning',
        'mixed-format',
        n,
        1,
        `${format} dump follows ${this.lastFormat} dump without a blank line: starting a new packet`,
      );
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
      bytes: new GrowableBytes(),
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

  closeDraft(): void {
    const draft = this.draft;
    if (draft === undefined) return;
    this.draft = undefined;
    this.lastFormat = draft.format;
    const state = draft.offset;
    if (state?.repeat !== undefined) {
      this.report(
        'warning',
        'unresolved-repeat',
        state.repeat.line,
        state.repeat.column,
        "'*' is not followed by an offset, so the number of repeated bytes is unknown; they are left out",
        true,
        draft,
      );
    }
    if (draft.carry !== undefined) {
      this.report(
        'error',
        'odd-digits',
        draft.carry.line,
        draft.carry.column + 1,
        'a hex digit is left over: odd number of hex digits',
        true,
        draft,
      );
    }
    if (draft.pane !== undefined && draft.pane.declaredLength !== draft.bytes.length) {
      this.report(
        'warning',
        'length-mismatch',
        draft.firstLine,
        1,
        `pane '${draft.pane.label}' announces ${plural(draft.pane.declaredLength, 'byte')} but ${draft.bytes.length} were read`,
        true,
        draft,
      );
    }
    if (draft.bytes.length === 0) {
      for (const index of draft.diagnostics) delete (this.diagnostics[index] as MutableDiagnostic).packet;
      return;
    }
    const packet: HexPacket = {
      bytes: draft.bytes.toBytes(),
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

  emptyPane(): void {
    const pending = this.pendingPane;
    this.pendingPane = undefined;
    if (pending === undefined || pending.pane.declaredLength === 0) return;
    this.report(
      'warning',
      'length-mismatch',
      pending.line,
      1,
      `pane '${pending.pane.label}' announces ${plural(pending.pane.declaredLength, 'byte')} but no dump rows follow it`,
    );
  }

  // -------------------------------------------------------------------------------------------
  // Diagnostics

  flushSkipped(): void {
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

  reportRow(n: number, problems: readonly RowProblem[]): void {
    for (const problem of problems) this.report(problem.severity, problem.code, n, problem.column + 1, problem.text, true);
  }

  report(
    severity: HexDumpSeverity,
    code: HexDumpDiagnosticCode,
    line: number,
    column: number,
    text: string,
    inPacket = false,
    draft = this.draft,
  ): void {
    const diagnostic: MutableDiagnostic = { severity, code, message: `line ${line}, column ${column}: ${text}`, line, column };
    if (inPacket && draft !== undefined) diagnostic.packet = this.closed;
    const index = this.push(diagnostic);
    if (index !== undefined && inPacket && draft !== undefined) draft.diagnostics.push(index);
  }

  push(diagnostic: MutableDiagnostic): number | undefined {
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

  /** The diagnostics in line order (those of one line in the order they were made). */
  sortedDiagnostics(): HexDumpDiagnostic[] {
    return this.diagnostics
      .map((d, index) => ({ d, index }))
      .sort((a, b) => a.d.line - b.d.line || a.index - b.index)
      .map(({ d }): HexDumpDiagnostic => ({ ...d }));
  }
}

/** `bare` and `prefixed` lines may be mixed in one packet without a warning. */
function sameKind(a: HexDumpFormat, b: HexDumpFormat): boolean {
  const loose = (f: HexDumpFormat): boolean => f === 'bare' || f === 'prefixed';
  return loose(a) && loose(b);
}
