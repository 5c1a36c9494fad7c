/**
 * Dumps with an offset column (tshark, xxd, hexdump, od, tcpdump -x): whether a line is an
 * offset row, how a row continues the open packet or starts a new one (the offset restarting,
 * a gap, a `*` run up to the next offset), and the final offset line that gives the length.
 */
import { plural, type Draft, type OffsetState, type PacketAssembler, type Radix } from './assembler.ts';
import { readOffsetRow, type OffsetField } from './offset-row.ts';
import { isHexDigits, tokenize } from './text.ts';

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

/** A `*` line: the previous row repeats up to the next offset. */
export function repeatLine(a: PacketAssembler, n: number, column: number): void {
  a.flushSkipped();
  const offset = a.draft?.offset;
  if (offset === undefined || offset.lastRow === undefined || offset.ended) {
    a.report('error', 'misplaced-repeat', n, column + 1, "'*' (repeat the previous row) has no dump row before it");
    return;
  }
  if (offset.repeat === undefined) offset.repeat = { line: n, column: column + 1 };
  (a.draft as Draft).lastLine = n;
}

/**
 * Is this line an offset row (or a final offset line)? Yes if the offset has a colon (xxd), or
 * it continues the open offset dump's column, or its width differs from the groups after it
 * (`0010  53 41`, `000010 53 41`, `0000010 4153` but not the bare `5341 4d50`).
 */
export function isOffsetRow(a: PacketAssembler, line: string, field: OffsetField): boolean {
  const rest = tokenize(line, field.end);
  const open = a.draft?.offset;
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

/** An offset row (or a final offset line): continues the open packet if its offset does, else starts one. */
export function offsetRow(a: PacketAssembler, line: string, n: number, field: OffsetField): void {
  let draft = a.draft;
  let state = draft?.offset;
  const lone = tokenize(line, field.end).length === 0;
  if (lone && state !== undefined && draft !== undefined) {
    finalOffset(a, draft, state, n, field);
    return;
  }

  const wordOrder = field.colon || a.options.wordOrder === 'big' ? 'memory' : 'little';
  const sameFamily =
    draft !== undefined && state !== undefined && !state.ended && state.colon === field.colon && state.prefixed === field.prefixed;
  const row = readOffsetRow(line, field, {
    expectsAscii: sameFamily && state !== undefined ? state.expectsAscii : field.colon || field.digits.length === 4,
    asciiColumn: sameFamily && state !== undefined ? state.asciiColumn : undefined,
    wordOrder,
  });

  // Does the row continue the open packet?
  let continues = false;
  if (sameFamily && draft !== undefined && state !== undefined) {
    const expected = draft.bytes.length + state.base;
    if (state.repeat !== undefined) {
      const claimed = parseOffset(field.digits, state.radices[0] as Radix);
      if (claimed !== undefined && claimed >= expected && state.lastRow !== undefined) {
        if (a.mayExpand(claimed - expected, state.repeat)) draft.bytes.appendRepeated(state.lastRow, claimed - expected);
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
          a.report(
            'warning',
            'offset-gap',
            n,
            field.start + 1,
            `offset ${showOffset(claimed, radix)} where ${showOffset(expected, radix)} was expected: ${plural(missing, 'byte')} missing (a line was lost?)`,
            true,
          );
        }
        if (a.options.fillGaps === true && a.mayExpand(missing, { line: n, column: field.start + 1 })) draft.bytes.appendZeros(missing);
        else state.base += missing;
        continues = true;
      }
    }
  }

  if (!continues) {
    a.closeDraft();
    const radices = initialRadices(a, field, row.ascii);
    const claimed = parseOffset(field.digits, radices[0] as Radix) ?? 0;
    const format = field.prefixed
      ? 'tcpdump'
      : field.colon
        ? 'xxd'
        : row.ascii === 'pipe'
          ? 'hexdump-c'
          : row.ascii === 'angle'
            ? 'od'
            : row.ascii === 'implicit'
              ? 'tshark'
              : row.groupBytes === 2 && field.digits.length === 7
                ? 'hexdump'
                : 'od';
    draft = a.startDraft(format, n, claimed, {
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
      a.report(
        'warning',
        'missing-start',
        n,
        field.start + 1,
        `dump starts at offset ${showOffset(claimed, radices[0] as Radix)}, not 0: the bytes before it are missing`,
        true,
      );
    }
  }
  if (draft === undefined || state === undefined) return;

  a.reportRow(n, row.problems);
  draft.bytes.append(row.bytes);
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
  a.separated = false;
}

/** Offsets of `od` and plain `hexdump` may be octal or decimal; those of the others are hex. */
function initialRadices(a: PacketAssembler, field: OffsetField, ascii: string): Radix[] {
  const forced = a.options.offsetRadix;
  if (forced !== undefined && forced !== 'auto') return [forced];
  if (field.colon || ascii === 'pipe' || ascii === 'implicit') return [16];
  return [16, 8, 10];
}

/** An offset alone on a line: the total length (`hexdump`, `od`), or the end of a `*` run. */
function finalOffset(a: PacketAssembler, draft: Draft, state: OffsetState, n: number, field: OffsetField): void {
  const expected = draft.bytes.length + state.base;
  if (state.repeat === undefined) {
    const agreeing = state.radices.filter((r) => parseOffset(field.digits, r) === expected);
    if (agreeing.length > 0) state.radices = agreeing;
  }
  const radix = state.radices[0] as Radix;
  const claimed = parseOffset(field.digits, radix);
  draft.lastLine = n;
  state.ended = true;
  a.separated = false;
  if (draft.format === 'hexdump' && radix !== 16) draft.format = 'od';
  if (claimed === undefined) return;
  if (state.repeat !== undefined && state.lastRow !== undefined && claimed >= expected) {
    if (a.mayExpand(claimed - expected, state.repeat)) draft.bytes.appendRepeated(state.lastRow, claimed - expected);
    state.repeat = undefined;
    return;
  }
  if (claimed === expected) return;
  if (claimed < expected && expected - claimed < state.groupBytes) {
    // The last word was padded with zero bytes (od -t x2 / hexdump of an odd-length input).
    draft.bytes.truncate(draft.bytes.length - (expected - claimed));
    return;
  }
  if (state.lastRowHadErrors) return;
  const read = draft.bytes.length;
  a.report(
    'warning',
    'length-mismatch',
    n,
    field.start + 1,
    `final offset ${showOffset(claimed, radix)} does not match the ${plural(read, 'byte')} read (${showOffset(expected, radix)})`,
    true,
  );
}
