/**
 * Lines of byte escapes: `\x53\x41\x4d`, `"SAMP\x7f\x00"`, `b'SAMP'` (Wireshark "…as Escaped String",
 * C, Python), and the one escape reader that array literals' character constants share.
 */
import type { RowProblem } from './offset-row.ts';
import { hexValue, isBlank, quote } from './text.ts';

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  v: 0x0b,
  e: 0x1b,
  '\\': 0x5c,
  "'": 0x27,
  '"': 0x22,
  '?': 0x3f,
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

export interface EscapeRead {
  /** The byte, or undefined after a problem. */
  readonly byte: number | undefined;
  /** Index just past the escape. */
  readonly next: number;
  readonly problem?: RowProblem;
}

/** Reads the escape whose backslash is at `at`: `\xHH` (one or two digits), `\ooo`, `\n` and friends. */
export function readEscape(line: string, at: number): EscapeRead {
  const kind = line[at + 1];
  if (kind === 'x' || kind === 'X') {
    let i = at + 2;
    let value = 0;
    while (i < line.length && i < at + 4 && hexValue(line.charCodeAt(i)) >= 0) value = value * 16 + hexValue(line.charCodeAt(i++));
    if (i === at + 2) {
      return {
        byte: undefined,
        next: i,
        problem: { severity: 'error', code: 'not-hex', column: at, text: `${quote(line.slice(at, at + 3))} is not a hex escape` },
      };
    }
    return { byte: value, next: i };
  }
  if (kind !== undefined && kind >= '0' && kind <= '7') {
    let i = at + 1;
    let value = 0;
    while (i < line.length && i < at + 4 && line[i] !== undefined && (line[i] as string) >= '0' && (line[i] as string) <= '7')
      value = value * 8 + (line.charCodeAt(i++) - 0x30);
    if (value > 0xff) {
      return {
        byte: undefined,
        next: i,
        problem: { severity: 'error', code: 'byte-out-of-range', column: at, text: `${quote(line.slice(at, i))} is more than 255` },
      };
    }
    return { byte: value, next: i };
  }
  const simple = kind === undefined ? undefined : SIMPLE_ESCAPES[kind];
  if (simple !== undefined) return { byte: simple, next: at + 2 };
  return {
    byte: undefined,
    next: at + 2,
    problem: { severity: 'error', code: 'not-hex', column: at, text: `${quote(line.slice(at, at + 2))} is not a byte escape` },
  };
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
          i = takeEscape(readEscape(line, i), bytes, problems);
          continue;
        }
        const code = line.charCodeAt(i);
        if (code > 0x7e) {
          problems.push({
            severity: 'error',
            code: 'byte-out-of-range',
            column: i,
            text: `${quote(c)} is not an ASCII character; write it as an escape`,
          });
        } else {
          bytes.push(code);
        }
        i++;
      }
      if (!closed)
        problems.push({ severity: 'error', code: 'unterminated', column: open, text: 'string literal is not closed on this line' });
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
      i = takeEscape(readEscape(line, i), bytes, problems);
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

/** An escape's byte into `bytes`, or its problem into `problems`; the index after it. */
export function takeEscape(read: EscapeRead, bytes: number[], problems: RowProblem[]): number {
  if (read.problem !== undefined) problems.push(read.problem);
  else if (read.byte !== undefined) bytes.push(read.byte);
  return read.next;
}
