/**
 * Readers for dumps without an offset column: bare hex, `0x` lists, `\x` escapes and array
 * literals.
 *
 * ```
 * 534d41507f000001611e69                    bare (xxd -p, Wireshark "…as Hex Stream")
 * 53 4D 41 50   53:4d:41:50   53-4d-41-50   bare with separators
 * 0x53, 0x41, 0x4d                          prefixed
 * \x53\x41\x4d   "SAMP\x7f\x00"  b'SAMP'    escaped (Wireshark "…as Escaped String", C, Python)
 * { 0x53, 0x41 }   [83, 65]   new Uint8Array([83, 65])   new byte[] { (byte)0xfe, -3 }    c-array
 * ```
 *
 * @module
 */

import type { RowProblem } from './offset-row.ts';
import { hexValue, isBlank, isHexDigits, quote, tokenize } from './text.ts';
import type { Token } from './text.ts';

// ---------------------------------------------------------------------------------------------
// Bare hex and 0x lists

/** A hex digit left over from a line with an odd number of digits, waiting for the next line. */
export interface Nibble {
  readonly value: number;
  /** 0-based column of the digit. */
  readonly column: number;
}

export interface BareLineResult {
  readonly bytes: number[];
  readonly problems: RowProblem[];
  /** Some token had a `0x` prefix. */
  readonly prefixed: boolean;
  /**
   * The line is one unbroken run of hex digits (a wrapped hex stream such as `xxd -p` output);
   * such lines are joined before digits are paired, so a stream wrapped at an odd width reads.
   */
  readonly stream: boolean;
  /** Set when a stream line leaves one digit over. */
  readonly carryOut: Nibble | undefined;
}

/** Is `token` a byte, a run of bytes or a `0x` byte by itself? Used by the junk policy. */
function isByteLike(text: string): boolean {
  if (text.length >= 3 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X')) {
    const digits = text.slice(2);
    return isHexDigits(digits) && (digits.length <= 2 || digits.length % 2 === 0);
  }
  if (isHexDigits(text)) return text.length % 2 === 0;
  return splitJoinedPairs(text) !== undefined;
}

/** `53:4d:41` / `53-4d-41` → [`53`, `4d`, `41`] (each part one or two hex digits). */
function splitJoinedPairs(text: string): string[] | undefined {
  const separator = text.includes(':') ? ':' : text.includes('-') ? '-' : undefined;
  if (separator === undefined) return undefined;
  const parts = text.split(separator);
  if (parts.length < 2) return undefined;
  if (parts[parts.length - 1] === '') parts.pop();
  for (const part of parts) if (part.length < 1 || part.length > 2 || !isHexDigits(part)) return undefined;
  return parts;
}

/**
 * The junk policy for lines that are neither offset rows, escapes nor arrays: a line is read as
 * bare hex when its first token is a byte (or the line is a single run of hex digits) and more
 * than half of its tokens are bytes. Anything else is prose and is skipped with a warning.
 * So `53 41 zz 50` is a dump row with an error at `zz`, and `be careful with byte 3` is prose.
 */
export function looksLikeBareRow(line: string): boolean {
  const tokens = tokenize(line, 0, line.length, true);
  const first = tokens[0];
  if (first === undefined) return false;
  if (tokens.length === 1) return isByteLike(first.text) || (isHexDigits(first.text) && first.text.length >= 2);
  if (!isByteLike(first.text)) return false;
  let bytes = 0;
  for (const token of tokens) if (isByteLike(token.text)) bytes++;
  return bytes * 2 > tokens.length;
}

/** Reads a bare or `0x` line. `carryIn` is a digit left over by the previous stream line. */
export function readBareLine(line: string, carryIn: Nibble | undefined): BareLineResult {
  const tokens = tokenize(line, 0, line.length, true);
  const bytes: number[] = [];
  const problems: RowProblem[] = [];
  let prefixed = false;
  const only = tokens.length === 1 ? (tokens[0] as Token) : undefined;

  if (only !== undefined && isHexDigits(only.text) && (carryIn !== undefined || only.text.length % 2 === 1)) {
    let pending = carryIn?.value;
    let carryOut: Nibble | undefined;
    for (let i = 0; i < only.text.length; i++) {
      const digit = hexValue(only.text.charCodeAt(i));
      if (pending === undefined) {
        pending = digit;
        carryOut = { value: digit, column: only.start + i };
      } else {
        bytes.push(pending * 16 + digit);
        pending = undefined;
        carryOut = undefined;
      }
    }
    return { bytes, problems, prefixed, stream: true, carryOut };
  }

  for (const token of tokens) {
    const text = token.text;
    if (text.length >= 3 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X')) {
      prefixed = true;
      const digits = text.slice(2);
      if (!isHexDigits(digits)) {
        problems.push({ severity: 'error', code: 'not-hex', column: token.start, text: `${quote(text)} is not a hex byte` });
      } else if (digits.length === 1) {
        bytes.push(hexValue(digits.charCodeAt(0)));
      } else if (digits.length % 2 === 1) {
        problems.push({ severity: 'error', code: 'odd-digits', column: token.start, text: `${quote(text)} has an odd number of hex digits` });
      } else {
        for (let i = 0; i < digits.length; i += 2) bytes.push(hexValue(digits.charCodeAt(i)) * 16 + hexValue(digits.charCodeAt(i + 1)));
      }
      continue;
    }
    if (isHexDigits(text)) {
      if (text.length % 2 === 1) {
        problems.push({ severity: 'error', code: 'odd-digits', column: token.start, text: `${quote(text)} has an odd number of hex digits` });
      } else {
        for (let i = 0; i < text.length; i += 2) bytes.push(hexValue(text.charCodeAt(i)) * 16 + hexValue(text.charCodeAt(i + 1)));
      }
      continue;
    }
    const parts = splitJoinedPairs(text);
    if (parts !== undefined) {
      for (const part of parts) bytes.push(Number.parseInt(part, 16));
      continue;
    }
    const what = text.length <= 2 ? 'a hex byte' : 'hex';
    problems.push({ severity: 'error', code: 'not-hex', column: token.start, text: `${quote(text)} is not ${what}` });
  }
  const stream = only !== undefined && isHexDigits(only.text);
  return { bytes, problems, prefixed, stream, carryOut: undefined };
}

// ---------------------------------------------------------------------------------------------
// Escapes inside and outside string literals

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  n: 0x0a, r: 0x0d, t: 0x09, a: 0x07, b: 0x08, f: 0x0c, v: 0x0b, e: 0x1b,
  '\\': 0x5c, "'": 0x27, '"': 0x22, '?': 0x3f,
};

/**
 * Is this an escape line: a `\x` escape with at least one hex digit anywhere, or a string
 * literal with an octal escape (`"SAMP\177\0"`)?
 */
export function hasByteEscape(line: string): boolean {
  let at = line.indexOf('\\x');
  while (at >= 0) {
    if (at + 2 < line.length && hexValue(line.charCodeAt(at + 2)) >= 0) return true;
    at = line.indexOf('\\x', at + 2);
  }
  return /["'][^"']*\\[0-7]/.test(line);
}

interface EscapeRead {
  /** The byte, or undefined after a problem. */
  readonly byte: number | undefined;
  /** Index just past the escape. */
  readonly next: number;
  readonly problem?: RowProblem;
}

/** Reads the escape whose backslash is at `at`: `\xHH` (one or two digits), `\ooo`, `\n` and friends. */
function readEscape(line: string, at: number): EscapeRead {
  const kind = line[at + 1];
  if (kind === 'x' || kind === 'X') {
    let i = at + 2;
    let value = 0;
    while (i < line.length && i < at + 4 && hexValue(line.charCodeAt(i)) >= 0) value = value * 16 + hexValue(line.charCodeAt(i++));
    if (i === at + 2) {
      return { byte: undefined, next: i, problem: { severity: 'error', code: 'not-hex', column: at, text: `${quote(line.slice(at, at + 3))} is not a hex escape` } };
    }
    return { byte: value, next: i };
  }
  if (kind !== undefined && kind >= '0' && kind <= '7') {
    let i = at + 1;
    let value = 0;
    while (i < line.length && i < at + 4 && line[i] !== undefined && (line[i] as string) >= '0' && (line[i] as string) <= '7') value = value * 8 + (line.charCodeAt(i++) - 0x30);
    if (value > 0xff) {
      return { byte: undefined, next: i, problem: { severity: 'error', code: 'byte-out-of-range', column: at, text: `${quote(line.slice(at, i))} is more than 255` } };
    }
    return { byte: value, next: i };
  }
  const simple = kind === undefined ? undefined : SIMPLE_ESCAPES[kind];
  if (simple !== undefined) return { byte: simple, next: at + 2 };
  return { byte: undefined, next: at + 2, problem: { severity: 'error', code: 'not-hex', column: at, text: `${quote(line.slice(at, at + 2))} is not a byte escape` } };
}

export interface EscapedLineResult {
  readonly bytes: number[];
  readonly problems: RowProblem[];
  /** An `=` before the first literal: a new declaration, so a new packet. */
  readonly startsStatement: boolean;
  /** A `;` after the last literal: the declaration ends here. */
  readonly endsStatement: boolean;
}

/**
 * Reads `\x53\x41…` (escapes only, blanks and commas between them are allowed) or a line of string
 * literals: `"SAMP\x7f\x00" "\x00\x01"`, `b'SAMP\x7f'`, `char q[] = "…";`, `"…" \` (continued).
 * Inside literals printable ASCII characters stand for themselves and `\xHH` takes at most two
 * digits (as in Python and JavaScript; C would keep reading digits).
 */
export function readEscapedLine(line: string): EscapedLineResult {
  const bytes: number[] = [];
  const problems: RowProblem[] = [];
  const firstQuote = firstQuoteIndex(line);
  if (firstQuote < 0) {
    readBareEscapes(line, 0, line.length, bytes, problems);
    return { bytes, problems, startsStatement: false, endsStatement: false };
  }
  // Code before the first literal (`char q[] = `, `payload = b`) is not data, unless it holds
  // escapes itself (`\x53 "AMP"`).
  const prefix = line.slice(0, firstQuote);
  if (prefix.includes('\\')) readBareEscapes(line, 0, firstQuote, bytes, problems);

  const startsStatement = line.slice(0, firstQuote).includes('=');
  let endsStatement = false;
  let i = firstQuote;
  while (i < line.length) {
    const ch = line[i] as string;
    if (ch === '"' || ch === "'") {
      const quoteChar = ch;
      const open = i;
      i++;
      let closed = false;
      while (i < line.length) {
        const c = line[i] as string;
        if (c === quoteChar) {
          closed = true;
          i++;
          break;
        }
        if (c === '\\') {
          const escape = readEscape(line, i);
          if (escape.problem !== undefined) problems.push(escape.problem);
          else if (escape.byte !== undefined) bytes.push(escape.byte);
          i = escape.next;
          continue;
        }
        const code = line.charCodeAt(i);
        if (code > 0x7e) {
          problems.push({ severity: 'error', code: 'byte-out-of-range', column: i, text: `${quote(c)} is not an ASCII character; write it as an escape` });
        } else {
          bytes.push(code);
        }
        i++;
      }
      if (!closed) problems.push({ severity: 'error', code: 'unterminated', column: open, text: 'string literal is not closed on this line' });
      continue;
    }
    const code = line.charCodeAt(i);
    if (ch === ';') {
      // The declaration ends; whatever follows on the line is not data.
      endsStatement = true;
      break;
    }
    // Between literals: blanks, concatenation, a line continuation, the end of a call or
    // statement, and Python's b/r/u prefixes before the next quote.
    if (isBlank(code) || ch === '+' || ch === '\\' || ch === ',' || ch === ')' || ch === '}' || ch === ']') {
      i++;
      continue;
    }
    if (/[bBrRuU]/.test(ch) && (line[i + 1] === '"' || line[i + 1] === "'")) {
      i++;
      continue;
    }
    if (ch === '/' && line[i + 1] === '/') break;
    let end = i;
    while (end < line.length && !isBlank(line.charCodeAt(end))) end++;
    problems.push({ severity: 'error', code: 'not-hex', column: i, text: `${quote(line.slice(i, end))} is not part of a string literal` });
    i = end;
  }
  return { bytes, problems, startsStatement, endsStatement };
}

/** `\x53\x41 \x4d`: escapes with blanks or commas between them, nothing else. */
function readBareEscapes(line: string, from: number, to: number, bytes: number[], problems: RowProblem[]): void {
  let i = from;
  while (i < to) {
    const code = line.charCodeAt(i);
    if (isBlank(code) || code === 0x2c) {
      i++;
      continue;
    }
    if (code === 0x5c) {
      const escape = readEscape(line, i);
      if (escape.problem !== undefined) problems.push(escape.problem);
      else if (escape.byte !== undefined) bytes.push(escape.byte);
      i = escape.next;
      continue;
    }
    let end = i;
    while (end < to && !isBlank(line.charCodeAt(end)) && line.charCodeAt(end) !== 0x5c) end++;
    problems.push({ severity: 'error', code: 'not-hex', column: i, text: `${quote(line.slice(i, end))} is not a hex escape` });
    i = end;
  }
}

function firstQuoteIndex(line: string): number {
  const a = line.indexOf('"');
  const b = line.indexOf("'");
  if (a < 0) return b;
  if (b < 0) return a;
  return Math.min(a, b);
}

// ---------------------------------------------------------------------------------------------
// Array literals

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
      const element = readCharLiteral(line, i);
      if (element.problem !== undefined) problems.push(element.problem);
      else if (element.byte !== undefined) bytes.push(element.byte);
      i = element.next;
      continue;
    }
    let end = i;
    while (end < line.length && !isBlank(line.charCodeAt(end)) && line[end] !== ',' && line[end] !== state.closer && !(line[end] === '/' && (line[end + 1] === '/' || line[end + 1] === '*'))) end++;
    const text = line.slice(i, end);
    const value = parseIntegerLiteral(text);
    if (value === undefined) {
      problems.push({ severity: 'error', code: 'not-hex', column: i, text: `${quote(text)} is not a byte (array elements are 0x-prefixed hex or decimal)` });
    } else if (value < -128 || value > 0xff) {
      problems.push({ severity: 'error', code: 'byte-out-of-range', column: i, text: `${quote(text)} is not a byte (${value} is outside -128..255)` });
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
    read = { byte: undefined, next: i, problem: { severity: 'error', code: 'not-hex', column: at, text: `${quote(line.slice(at, at + 3))} is not a character literal` } };
  }
  if (line[i] !== "'") {
    return { byte: undefined, next: i, problem: read.problem ?? { severity: 'error', code: 'unterminated', column: at, text: 'character literal is not closed' } };
  }
  return { ...read, next: i + 1 };
}
