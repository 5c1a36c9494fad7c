/**
 * Character-level helpers shared by the row readers. Columns are 0-based here; the parser adds 1
 * when it reports them.
 */

/** Space, tab, form feed, vertical tab and the no-break space that forum pages paste in. */
export function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0xa0 || code === 0x0b || code === 0x0c;
}

/** Value of one hex digit, or -1. */
export function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

export function isHexDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) if (hexValue(text.charCodeAt(i)) < 0) return false;
  return true;
}

/** A whitespace-delimited piece of a line. */
export interface Token {
  readonly text: string;
  /** 0-based column of the first character. */
  readonly start: number;
  /** 0-based column just past the last character. */
  readonly end: number;
}

/** Splits `line[from, to)` at runs of blanks (and, if `commas`, at commas too). */
export function tokenize(line: string, from: number = 0, to: number = line.length, commas: boolean = false): Token[] {
  const tokens: Token[] = [];
  let i = from;
  while (i < to) {
    while (i < to && isSeparator(line.charCodeAt(i), commas)) i++;
    if (i >= to) break;
    const start = i;
    while (i < to && !isSeparator(line.charCodeAt(i), commas)) i++;
    tokens.push({ text: line.slice(start, i), start, end: i });
  }
  return tokens;
}

function isSeparator(code: number, commas: boolean): boolean {
  return isBlank(code) || (commas && code === 0x2c);
}

/** Index just past the last non-blank character of `line` (0 for a blank line). */
export function trimmedEnd(line: string): number {
  let end = line.length;
  while (end > 0 && isBlank(line.charCodeAt(end - 1))) end--;
  return end;
}

/** Index of the first non-blank character of `line` (`line.length` for a blank line). */
export function trimmedStart(line: string): number {
  let start = 0;
  while (start < line.length && isBlank(line.charCodeAt(start))) start++;
  return start;
}

/** Decodes an even-length run of hex digits in the order written. The caller checks the digits. */
export function decodeHexRun(text: string, into: number[]): void {
  for (let i = 0; i + 1 < text.length; i += 2) {
    into.push(hexValue(text.charCodeAt(i)) * 16 + hexValue(text.charCodeAt(i + 1)));
  }
}

/** How a dump tool shows one byte in its ASCII column. */
export function isPrintable(byte: number): boolean {
  return byte >= 0x20 && byte <= 0x7e;
}

/** Renders a string for a message: `'zz'`, shortened if long. */
export function quote(text: string): string {
  const shown = text.length > 24 ? `${text.slice(0, 21)}...` : text;
  return `'${shown}'`;
}
