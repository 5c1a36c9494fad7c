/**
 * Array literals: `{ 0x53, 0x41 }`, `[83, 65]`, `new Uint8Array([83, 65])`, `new byte[] { (byte)0xfe, -3 }`
 * (Wireshark "…as C Array", JavaScript, Java, Python), possibly over several lines.
 */
import type { RowProblem } from './offset-row.ts';
import { readEscape, takeEscape, type EscapeRead } from './escaped.ts';
import { isBlank, quote, tokenize } from './text.ts';

/** State of an array literal that spans lines. */
export interface ArrayState {
  readonly closer: ']' | '}';
  inBlockComment: boolean;
}

export interface ArrayStart {
  readonly closer: ']' | '}';
  /** 0-based column just past the opening bracket. */
  readonly contentStart: number;
  /** 0-based column of the opening bracket. */
  readonly openColumn: number;
}

/**
 * Finds where an array literal's data begins: after the first `=` if there is one (so the `[11]`
 * of `uint8_t buf[11] = {` is a declarator, not data), at the first `[` or `{` that is not an
 * empty `[]` (as in `new byte[] {`). Returns undefined unless the text after the bracket starts
 * with an element, a comment, the closing bracket or the end of the line.
 */
/**
 * Do only hex groups (an offset, bytes: `0x0010:`, `4500`, `53`), and at least one, come before
 * the word that holds column `at`? Then a bracket there is in a dump's ASCII column (tcpdump -X
 * shows `[.nSAMP`), not code.
 */
function afterHexGroups(line: string, at: number): boolean {
  const before = tokenize(line, 0, at).filter((t) => t.end < at || isBlank(line.charCodeAt(t.end)));
  return before.length > 0 && before.every((t) => /^(?:0[xX])?[0-9a-fA-F]+:?$/.test(t.text));
}

export function findArrayStart(line: string): ArrayStart | undefined {
  const equals = line.indexOf('=');
  let i = equals >= 0 && line[equals + 1] !== '=' && line[equals + 1] !== '>' ? equals + 1 : 0;
  for (;;) {
    const square = line.indexOf('[', i);
    const curly = line.indexOf('{', i);
    const open = square < 0 ? curly : curly < 0 ? square : Math.min(square, curly);
    if (open < 0) return undefined;
    // After hex groups only (an offset, bytes), a bracket is in an ASCII column, not code.
    if (i === 0 && afterHexGroups(line, open)) return undefined;
    const closer = line[open] === '[' ? ']' : '}';
    let j = open + 1;
    while (j < line.length && isBlank(line.charCodeAt(j))) j++;
    if (closer === ']' && line[j] === ']') {
      i = j + 1;
      continue;
    }
    const state: ArrayState = { closer, inBlockComment: false };
    const probe = readArrayContent(line, open + 1, state, 1);
    if (probe.problems.length > 0) return undefined;
    return { closer, contentStart: open + 1, openColumn: open };
  }
}

export interface ArrayContentResult {
  readonly bytes: number[];
  readonly problems: RowProblem[];
  /** 0-based column just past the closing bracket, when the array ends on this line. */
  readonly closedAt: number | undefined;
}

/**
 * Reads array elements from `line[from…]`: `0x53`, `83`, `-2` (a Java byte: 0xfe), `0b1010`,
 * `'A'`, `'\x41'`, each optionally after a cast such as `(byte)` and followed by an integer suffix
 * (`u`, `U`, `L`); elements are separated by commas or blanks; `//` and `/* … *\/` comments are
 * skipped. Decimal numbers are decimal, even with a leading zero. `limit` stops after that many
 * elements (used to probe whether a line starts an array).
 */
export function readArrayContent(line: string, from: number, state: ArrayState, limit: number = Infinity): ArrayContentResult {
  const bytes: number[] = [];
  const problems: RowProblem[] = [];
  let seen = 0;
  let i = from;
  while (i < line.length && seen < limit) {
    if (state.inBlockComment) {
      const end = line.indexOf('*/', i);
      if (end < 0) return { bytes, problems, closedAt: undefined };
      state.inBlockComment = false;
      i = end + 2;
      continue;
    }
    const ch = line[i] as string;
    const code = line.charCodeAt(i);
    if (isBlank(code) || ch === ',') {
      i++;
      continue;
    }
    if (ch === '/' && line[i + 1] === '/') break;
    if (ch === '/' && line[i + 1] === '*') {
      state.inBlockComment = true;
      i += 2;
      continue;
    }
    if (ch === state.closer) return { bytes, problems, closedAt: i + 1 };
    if (ch === '(') {
      const close = line.indexOf(')', i);
      if (close > i && /^\(\s*[A-Za-z_][\w ]*\)$/.test(line.slice(i, close + 1))) {
        i = close + 1;
        continue;
      }
    }
    seen++;
    if (ch === "'") {
      i = takeEscape(readCharLiteral(line, i), bytes, problems);
      continue;
    }
    let end = i;
    while (
      end < line.length &&
      !isBlank(line.charCodeAt(end)) &&
      line[end] !== ',' &&
      line[end] !== state.closer &&
      !(line[end] === '/' && (line[end + 1] === '/' || line[end + 1] === '*'))
    )
      end++;
    const text = line.slice(i, end);
    const value = parseIntegerLiteral(text);
    if (value === undefined) {
      problems.push({
        severity: 'error',
        code: 'not-hex',
        column: i,
        text: `${quote(text)} is not a byte (array elements are 0x-prefixed hex or decimal)`,
      });
    } else if (value < -128 || value > 0xff) {
      problems.push({
        severity: 'error',
        code: 'byte-out-of-range',
        column: i,
        text: `${quote(text)} is not a byte (${value} is outside -128..255)`,
      });
    } else {
      bytes.push(value & 0xff);
    }
    i = end;
  }
  return { bytes, problems, closedAt: undefined };
}

function parseIntegerLiteral(text: string): number | undefined {
  const match = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)(?:[uU]?[lL]{0,2}|[lL]{1,2}[uU]|n)?$/.exec(text);
  if (match === null) return undefined;
  const sign = match[1] === '-' ? -1 : 1;
  const body = match[2] as string;
  const second = body[1];
  let value: number;
  if (second === 'x' || second === 'X') value = Number.parseInt(body.slice(2), 16);
  else if (second === 'b' || second === 'B') value = Number.parseInt(body.slice(2), 2);
  else value = Number.parseInt(body, 10);
  return sign * value;
}

function readCharLiteral(line: string, at: number): EscapeRead {
  let i = at + 1;
  let read: EscapeRead;
  if (line[i] === '\\') {
    read = readEscape(line, i);
    i = read.next;
  } else if (i < line.length && line.charCodeAt(i) <= 0x7e && line[i] !== "'") {
    read = { byte: line.charCodeAt(i), next: i + 1 };
    i++;
  } else {
    read = {
      byte: undefined,
      next: i,
      problem: { severity: 'error', code: 'not-hex', column: at, text: `${quote(line.slice(at, at + 3))} is not a character literal` },
    };
  }
  if (line[i] !== "'") {
    return {
      byte: undefined,
      next: i,
      problem: read.problem ?? { severity: 'error', code: 'unterminated', column: at, text: 'character literal is not closed' },
    };
  }
  return { ...read, next: i + 1 };
}
