/**
 * Bare hex and `0x` lists (no offset column): `534d4150` (xxd -p, Wireshark "…as Hex Stream"),
 * `53 4D 41 50`, `53:4d:41:50`, `53-4d-41-50`, `0x53, 0x41, 0x4d`; and whether a line looks like such a row.
 */
import type { RowProblem } from './offset-row.ts';
import { hexValue, isHexDigits, quote, tokenize } from './text.ts';
import type { Token } from './text.ts';

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

/** How many hex digits, one of them a decimal digit, a lone token must begin with to be a hex stream with a stray character in it. */
const STREAM_RUN = 8;

/** How many hex digits `text` begins with. */
function hexRun(text: string): number {
  let n = 0;
  while (n < text.length && hexValue(text.charCodeAt(n)) >= 0) n++;
  return n;
}

/**
 * A hex stream with a stray character (`53414d507f0000011e6169zz`): it begins with
 * {@link STREAM_RUN} hex digits or more, a decimal digit among them (no word of prose does).
 */
function isStrayStream(text: string): boolean {
  const n = hexRun(text);
  return n >= STREAM_RUN && n < text.length && /[0-9]/.test(text.slice(0, n));
}

/**
 * The junk policy for lines that are neither offset rows, escapes nor arrays: a line is read as
 * bare hex when its first token is a byte (or the line is a single run of hex digits, or one
 * with a stray character after at least eight of them) and more than half of its tokens are
 * bytes. Anything else is prose and is skipped with a warning. So `53 41 zz 50` is a dump row
 * with an error at `zz`, `53414d507f00zz` one with an error at the first `z`, and
 * `be careful with byte 3` is prose.
 */
export function looksLikeBareRow(line: string): boolean {
  const tokens = tokenize(line, 0, line.length, true);
  const first = tokens[0];
  if (first === undefined) return false;
  if (tokens.length === 1)
    return isByteLike(first.text) || (isHexDigits(first.text) && first.text.length >= 2) || isStrayStream(first.text);
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
        problems.push({
          severity: 'error',
          code: 'odd-digits',
          column: token.start,
          text: `${quote(text)} has an odd number of hex digits`,
        });
      } else {
        for (let i = 0; i < digits.length; i += 2) bytes.push(hexValue(digits.charCodeAt(i)) * 16 + hexValue(digits.charCodeAt(i + 1)));
      }
      continue;
    }
    if (isHexDigits(text)) {
      if (text.length % 2 === 1) {
        problems.push({
          severity: 'error',
          code: 'odd-digits',
          column: token.start,
          text: `${quote(text)} has an odd number of hex digits`,
        });
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
    if (isStrayStream(text)) {
      // The bytes before the stray character are read (an odd digit left before it goes with the error).
      const n = hexRun(text);
      for (let i = 0; i + 1 < n; i += 2) bytes.push(hexValue(text.charCodeAt(i)) * 16 + hexValue(text.charCodeAt(i + 1)));
      problems.push({ severity: 'error', code: 'not-hex', column: token.start + n, text: `${quote(text[n]!)} is not hex` });
      continue;
    }
    const what = text.length <= 2 ? 'a hex byte' : 'hex';
    problems.push({ severity: 'error', code: 'not-hex', column: token.start, text: `${quote(text)} is not ${what}` });
  }
  const stream = only !== undefined && isHexDigits(only.text);
  return { bytes, problems, prefixed, stream, carryOut: undefined };
}
