/**
 * Reading one row of a dump that has an offset column: tshark `-x`, xxd, `hexdump -C`, plain
 * `hexdump`, `od`.
 *
 * ```
 * 0020  00 01 cd e9 cd ea 00 5b fe 6e 53 41 4d 50 7f 00   .......[.nSAMP..      tshark -x
 * 00000010: 1f00 0000 6361 6665 2062 6162 6520 3031  ....cafe babe 01      xxd
 * 00000040  30 2e 33 2e 37 2d 52 32  07 00 00 00 45 6e 67 6c  |0.3.7-R2....Engl|   hexdump -C
 * 000010 1f 00 00 00 63 61 66 65 20 62 61 62 65 20 30 31  >....cafe babe 01<   od -A x -t x1z
 * 0000010 001f 0000 6163 6566 6220 6261 2065 3130      hexdump (little-endian words)
 * ```
 *
 * The ASCII column of tshark and xxd has no delimiter and may look like hex ("cafe babe 01").
 * It is found by checking, for each place the hex could end, whether the rest of the line is the
 * ASCII rendering of the bytes before it (printable bytes as themselves, others as `.`). That
 * check does not depend on column alignment, so dumps whose spacing a forum collapsed still read.
 *
 * @module
 */

import type { HexDumpDiagnosticCode, HexDumpSeverity } from './types.ts';
import { hexValue, isBlank, isHexDigits, isPrintable, quote, tokenize, trimmedEnd, trimmedStart } from './text.ts';
import type { Token } from './text.ts';

/** The offset at the start of a row: `0010`, `00000010:`, `000010`, `0x0010:` (tcpdump). */
export interface OffsetField {
  /** The digits, without the colon (and without a `0x`). */
  readonly digits: string;
  /** 0-based column of the first digit. */
  readonly start: number;
  readonly colon: boolean;
  /** Written `0x…:`, as tcpdump -x / -X do (only with a colon: `0x53` alone is a byte). */
  readonly prefixed: boolean;
  /** 0-based column just past the offset (and its colon). */
  readonly end: number;
}

/**
 * The first token of `line` if it is a run of hex digits (optionally followed by `:`) that ends
 * at a blank or at the end of the line. Whether it really is an offset is decided by the caller.
 */
export function readOffsetField(line: string): OffsetField | undefined {
  let start = trimmedStart(line);
  const prefixed = line.charCodeAt(start) === 0x30 && (line.charCodeAt(start + 1) | 0x20) === 0x78;
  if (prefixed) start += 2;
  let i = start;
  while (i < line.length && hexValue(line.charCodeAt(i)) >= 0) i++;
  if (i === start) return undefined;
  const digits = line.slice(start, i);
  let colon = false;
  if (i < line.length && line.charCodeAt(i) === 0x3a) {
    colon = true;
    i++;
  }
  if (prefixed && !colon) return undefined;
  if (i < line.length && !isBlank(line.charCodeAt(i))) return undefined;
  return { digits, start, colon, prefixed, end: i };
}

export interface RowContext {
  /**
   * The block is known to carry an undelimited ASCII column (xxd, tshark), so a single blank is
   * enough to separate it from the hex (after a forum collapsed the spacing).
   */
  readonly expectsAscii: boolean;
  /** Column where earlier rows' ASCII column started; used to split a row that has junk in it. */
  readonly asciiColumn: number | undefined;
  /** Order of multi-byte groups when no ASCII column says otherwise. */
  readonly wordOrder: 'memory' | 'little';
}

export interface RowProblem {
  readonly severity: HexDumpSeverity;
  readonly code: HexDumpDiagnosticCode;
  /** 0-based. */
  readonly column: number;
  /** Without the location prefix. */
  readonly text: string;
}

export type AsciiKind = 'none' | 'implicit' | 'pipe' | 'angle';

export interface RowResult {
  readonly bytes: Uint8Array;
  readonly ascii: AsciiKind;
  /** 0-based column where an implicit ASCII column starts. */
  readonly asciiColumn: number | undefined;
  /** Widest group in bytes (1 for `53 41`, 2 for `5341`, 4 for `od -t x4`). */
  readonly groupBytes: number;
  readonly problems: RowProblem[];
}

interface Group {
  readonly token: Token;
  readonly valid: boolean;
  /** Bytes in the order the digits are written. */
  readonly bytes: number[];
}

function readGroup(token: Token): Group {
  const text = token.text;
  if (!isHexDigits(text) || text.length % 2 !== 0) return { token, valid: false, bytes: [] };
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 2) {
    bytes.push(hexValue(text.charCodeAt(i)) * 16 + hexValue(text.charCodeAt(i + 1)));
  }
  return { token, valid: true, bytes };
}

function groupProblem(token: Token): RowProblem {
  if (isHexDigits(token.text)) {
    return { severity: 'error', code: 'odd-digits', column: token.start, text: `${quote(token.text)} has an odd number of hex digits` };
  }
  const what = token.text.length <= 2 ? 'a hex byte' : 'hex';
  return { severity: 'error', code: 'not-hex', column: token.start, text: `${quote(token.text)} is not ${what}` };
}

function flatten(groups: readonly Group[], count: number, order: 'memory' | 'little'): number[] {
  const out: number[] = [];
  for (let g = 0; g < count; g++) {
    const bytes = (groups[g] as Group).bytes;
    if (order === 'memory') for (const b of bytes) out.push(b);
    else for (let i = bytes.length - 1; i >= 0; i--) out.push(bytes[i] as number);
  }
  return out;
}

/** Does a group (not the first) start at or after the ASCII column of earlier rows? */
function lateToken(groups: readonly Group[], asciiColumn: number | undefined): boolean {
  return asciiColumn !== undefined && groups.some((g, i) => i > 0 && g.token.start >= asciiColumn);
}

/** `.` stands for any byte; a printable byte must be shown as itself. */
function charShowsByte(code: number, byte: number): boolean {
  return code === 0x2e || (isPrintable(byte) && code === byte);
}

/** Does `text` (a delimited ASCII column) show `bytes`? A shorter text (padding, trimming) is tolerated. */
function delimitedAsciiAgrees(text: string, bytes: readonly number[]): boolean {
  if (text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) if (!charShowsByte(text.charCodeAt(i), bytes[i] as number)) return false;
  return true;
}

/**
 * Looks for the split `j` (hex is `groups[0, j)`, ASCII starts at `groups[j]`) where the rest of
 * the line shows exactly those bytes. Spaces at either end of the ASCII column may have merged
 * into the gap or been trimmed, so the comparison skips leading and trailing 0x20 bytes, or
 * takes them as shown (tcpdump -X writes a space as `.`).
 * Linear in the row: for each candidate the length test is O(1) and at most a few reach the
 * character comparison.
 */
function findAsciiSplit(
  line: string,
  lineEnd: number,
  groups: readonly Group[],
  validPrefix: number,
  order: 'memory' | 'little',
  minGap: number,
): number | undefined {
  const bytes = flatten(groups, validPrefix, order);
  const before: number[] = [0];
  for (let g = 0; g < validPrefix; g++) before.push((before[g] as number) + (groups[g] as Group).bytes.length);
  let leadRun = 0;
  while (leadRun < bytes.length && bytes[leadRun] === 0x20) leadRun++;
  const spaceRun: number[] = new Array<number>(bytes.length);
  for (let i = 0; i < bytes.length; i++) spaceRun[i] = bytes[i] === 0x20 ? (i > 0 ? (spaceRun[i - 1] as number) : 0) + 1 : 0;

  for (let j = Math.min(validPrefix, groups.length - 1); j >= 1; j--) {
    const asciiStart = (groups[j] as Group).token.start;
    const gap = asciiStart - (groups[j - 1] as Group).token.end;
    const count = before[j] as number;
    const shown = lineEnd - asciiStart;
    // Spaces at the ends merged into the gap or trimmed; or shown, as `.` (tcpdump -X shows only graphic characters).
    const spaced = Math.min(leadRun, count);
    for (const lead of spaced > 0 ? [spaced, 0] : [0]) {
      if (gap - lead < minGap) continue;
      const trailing = lead === count ? 0 : (spaceRun[count - 1] as number);
      for (const trail of trailing > 0 ? [trailing, 0] : [0]) {
        if (shown !== count - lead - trail) continue;
        let agrees = true;
        for (let i = 0; i < shown && agrees; i++) agrees = charShowsByte(line.charCodeAt(asciiStart + i), bytes[lead + i] as number);
        if (agrees) return j;
      }
    }
  }
  return undefined;
}

/**
 * Reads the data part of an offset row (everything after `field`). Never throws.
 *
 * A `|` starts the ASCII column of `hexdump -C` and a `>` … `<` pair that of `od -t x1z`; but an
 * undelimited ASCII column (tshark, xxd) may contain those characters too, so when reading up to
 * the delimiter leaves a problem and reading without it does not, the latter wins.
 */
export function readOffsetRow(line: string, field: OffsetField, context: RowContext): RowResult {
  const lineEnd = trimmedEnd(line);
  const candidates: Array<{ at: number; read: () => RowResult }> = [];
  const pipe = line.indexOf('|', field.end);
  if (pipe >= 0) {
    const lastPipe = line.lastIndexOf('|', lineEnd - 1);
    candidates.push({
      at: pipe,
      read: () => readRow(line, field, context, pipe, 'pipe', line.slice(pipe + 1, lastPipe > pipe ? lastPipe : lineEnd)),
    });
  }
  const gt = line.indexOf('>', field.end);
  if (gt >= 0 && lineEnd - 1 > gt && line.charCodeAt(lineEnd - 1) === 0x3c) {
    candidates.push({ at: gt, read: () => readRow(line, field, context, gt, 'angle', line.slice(gt + 1, lineEnd - 1)) });
  }
  // The delimiter that comes first is the likelier one; the other may be inside the ASCII column.
  candidates.sort((a, b) => a.at - b.at);
  let first: RowResult | undefined;
  for (const candidate of candidates) {
    const result = candidate.read();
    if (result.problems.length === 0) return result;
    first ??= result;
  }
  const plain = readRow(line, field, context, lineEnd, 'none', undefined);
  if (first === undefined || plain.problems.length === 0) return plain;
  return first;
}

function readRow(
  line: string,
  field: OffsetField,
  context: RowContext,
  hexEnd: number,
  delimiter: AsciiKind,
  asciiText: string | undefined,
): RowResult {
  const problems: RowProblem[] = [];
  const lineEnd = trimmedEnd(line);
  let ascii: AsciiKind = delimiter;

  const groups = tokenize(line, field.end, hexEnd).map(readGroup);
  let validPrefix = 0;
  while (validPrefix < groups.length && (groups[validPrefix] as Group).valid) validPrefix++;

  let hexCount = groups.length;
  let order = context.wordOrder;
  let asciiColumn: number | undefined;

  if (ascii === 'none') {
    const minGap = context.expectsAscii ? 1 : 2;
    let split = findAsciiSplit(line, lineEnd, groups, validPrefix, 'memory', minGap);
    if (split !== undefined) {
      order = 'memory';
    } else if (groups.some((g) => g.bytes.length > 1)) {
      split = findAsciiSplit(line, lineEnd, groups, validPrefix, 'little', minGap);
      if (split !== undefined) order = 'little';
    }
    if (split !== undefined) {
      hexCount = split;
      ascii = 'implicit';
    } else if (validPrefix < groups.length || lateToken(groups, context.asciiColumn)) {
      // Junk, or an ASCII column that does not show the bytes (an edited row). Split where the
      // earlier rows' ASCII column started, else at the last wide gap whose remainder is no longer
      // than the bytes before it could be.
      let cut: number | undefined;
      if (context.asciiColumn !== undefined) {
        const at = groups.findIndex((g) => g.token.start >= (context.asciiColumn as number));
        if (at > 0) cut = at;
      }
      if (cut === undefined) {
        let approxBytes = 0;
        for (let j = 1; j < groups.length; j++) {
          const prev = groups[j - 1] as Group;
          const next = groups[j] as Group;
          approxBytes += Math.max(1, Math.floor(prev.token.text.length / 2));
          if (next.token.start - prev.token.end >= 2 && lineEnd - next.token.start <= approxBytes) cut = j;
        }
      }
      if (cut !== undefined) {
        hexCount = cut;
        ascii = 'implicit';
        if (cut <= validPrefix) {
          const at = (groups[cut] as Group).token.start;
          problems.push({
            severity: 'warning',
            code: 'ascii-mismatch',
            column: at,
            text: 'the ASCII column does not show the bytes of this row',
          });
        }
      }
    }
    if (ascii === 'implicit') asciiColumn = (groups[hexCount] as Group).token.start;
  }

  for (let g = 0; g < hexCount; g++) {
    const group = groups[g] as Group;
    if (!group.valid) problems.push(groupProblem(group.token));
  }
  const hexGroups = groups.slice(0, hexCount).filter((g) => g.valid);
  const groupBytes = hexGroups.reduce((widest, g) => Math.max(widest, g.bytes.length), 1);

  if (asciiText !== undefined) {
    const memory = flatten(hexGroups, hexGroups.length, 'memory');
    if (delimitedAsciiAgrees(asciiText, memory)) {
      order = 'memory';
    } else if (groupBytes > 1 && delimitedAsciiAgrees(asciiText, flatten(hexGroups, hexGroups.length, 'little'))) {
      order = 'little';
    } else if (problems.length === 0) {
      problems.push({
        severity: 'warning',
        code: 'ascii-mismatch',
        column: hexEnd + 1,
        text: 'the ASCII column does not show the bytes of this row',
      });
    }
  }

  return {
    bytes: Uint8Array.from(flatten(hexGroups, hexGroups.length, order)),
    ascii,
    asciiColumn,
    groupBytes,
    problems,
  };
}
