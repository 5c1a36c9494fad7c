/**
 * Fuzz target `hex`: `parseHexDump`, `bytesFromHexDump` and `dissectHexDump` on hostile text.
 *
 * Inputs are the committed dumps of real tools, damaged line by line (lines lost, repeated,
 * swapped; characters replaced by junk, non-hex letters, control and non-ASCII characters; offsets
 * made huge; `*` repeat lines added; dumps of two formats run together; very long lines), or token
 * soup, or any text at all, with any parser options. What must hold:
 * - nothing throws (but `bytesFromHexDump`'s typed `HexDumpError`);
 * - every diagnostic and packet points at a real line, `ok` means no error, no packet is empty;
 * - the bytes returned are bounded by the text and the expansion limit, whatever offsets it claims;
 * - time stays linear in the length of the text and of the bytes it makes (a `*` line or a gap between
 *   offsets makes up to 16 MiB that the text does not hold).
 */
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { expect } from 'vitest';
import { invariant, propertyTarget, type FuzzTarget } from '../../codec/fuzz/harness.ts';
import { HexDumpError, bytesFromHexDump, parseHexDump, type HexDumpOptions } from '../src/hex/index.ts';
import { MAX_EXPANDED_BYTES } from '../src/hex/parse.ts';
import { dissectHexDump } from '../src/hexdump.ts';
import { fixtureText } from '../test/hex/fixtures.ts';

const dumps = readdirSync(new URL('../test/fixtures/hex/', import.meta.url))
  .filter((f) => f.endsWith('.txt'))
  .sort()
  .map(fixtureText);

/** Pieces of every format, and of what breaks them. */
const TOKENS = [
  '0000',
  '0010',
  '00000010:',
  '000010',
  '0000010',
  'ffffffff',
  'ffffffffffffffff',
  '99999999999999999999',
  '53',
  '5341',
  '534d4150',
  'zz',
  'g',
  '*',
  '|SA|',
  '|',
  '>a<',
  '"\\x53',
  "b'",
  "'",
  '\\x',
  '\\x4',
  '\\777',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '0x',
  '0x535',
  '0xZZ',
  '(byte)',
  '-1',
  '-129',
  '256',
  '=',
  ';',
  ',',
  '//',
  '/*',
  '*/',
  'Frame (3 bytes):',
  'Reassembled TCP (67 bytes):',
  '0100 .... = Version: 4',
  '',
  '\t',
  '\u00a0',
  '\u3000',
  'cafe',
  '.',
  ':',
  '\\',
  '\r',
  '\0',
  '\u{1f600}',
  '\ud800',
  'é',
  'new Uint8Array([',
  ']);',
  'unsigned char x[] = {',
  '};',
];

const junkChar = fc.oneof(
  fc.constantFrom(...'0123456789abcdefABCDEFxXgGzZ:|*<>[]{}(),;\'"\\/ \t\r\0.-=#'),
  fc.constantFrom('\u00a0', '\u2028', '\u{1f600}', '\ud800', 'é', '\u0301'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

const soup = fc
  .array(
    fc
      .array(fc.constantFrom(...TOKENS), { maxLength: 12 })
      .chain((tokens) => fc.constantFrom(' ', '  ', '\t', '').map((sep) => tokens.join(sep))),
    { minLength: 1, maxLength: 12 },
  )
  .map((lines) => lines.join('\n'));

/** A very long line of one kind. */
const longLine = fc
  .tuple(fc.constantFrom('41 ', 'a', '0', '\\x41', '0x41, ', '65,', 'zz ', ' '), fc.integer({ min: 1000, max: 60000 }))
  .map(([unit, n]) => unit.repeat(n));

type LineEdit = (lines: string[]) => void;

const lineEdit: fc.Arbitrary<LineEdit> = fc.oneof(
  fc.nat().map((i): LineEdit => (l) => {
    l.splice(i % l.length, 1);
  }),
  fc.nat().map((i): LineEdit => (l) => {
    l.splice(i % l.length, 0, l[i % l.length]!);
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([i, j]): LineEdit => (l) => {
    const a = i % l.length,
      b = j % l.length;
    [l[a], l[b]] = [l[b]!, l[a]!];
  }),
  fc.tuple(fc.nat(), soup).map(([i, text]): LineEdit => (l) => {
    l.splice(i % (l.length + 1), 0, ...text.split('\n'));
  }),
  fc.tuple(fc.nat(), fc.nat(), fc.array(junkChar, { minLength: 1, maxLength: 4 })).map(([i, at, chars]): LineEdit => (l) => {
    const k = i % l.length;
    const line = l[k]!;
    const p = at % (line.length + 1);
    l[k] = line.slice(0, p) + chars.join('') + line.slice(p + 1);
  }),
  fc
    .tuple(fc.nat(), fc.constantFrom('ffffffff', '0fffffff', '7fffffffffffffff', '99999999999999999999', '0', '00000001', '777777777777'))
    .map(([i, offset]): LineEdit => (l) => {
      const k = i % l.length;
      l[k] = l[k]!.replace(/^\s*[0-9a-fA-F]+/, offset);
    }),
  fc.nat().map((i): LineEdit => (l) => {
    l.splice(i % (l.length + 1), 0, '*');
  }),
  fc.tuple(fc.nat(), longLine).map(([i, line]): LineEdit => (l) => {
    l.splice(i % (l.length + 1), 0, line);
  }),
  fc.nat().map((i): LineEdit => (l) => {
    const k = i % l.length;
    if (k + 1 < l.length) l.splice(k, 2, l[k]! + l[k + 1]!);
  }),
);

const damagedDump = fc.tuple(fc.constantFrom(...dumps), fc.array(lineEdit, { minLength: 1, maxLength: 4 })).map(([text, edits]) => {
  const lines = text.split('\n');
  for (const edit of edits) edit(lines);
  return lines.join('\n');
});

/** Two dumps run together, with a blank line between them or not. */
const mixedDumps = fc
  .tuple(fc.constantFrom(...dumps), fc.constantFrom(...dumps), fc.constantFrom('\n', '\n\n', '', '\r\n'))
  .map(([a, b, join]) => a.trimEnd() + join + b);

export const hexTexts: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: damagedDump, weight: 6 },
  { arbitrary: mixedDumps, weight: 1 },
  { arbitrary: soup, weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 300 }), weight: 1 },
  { arbitrary: fc.constantFrom(...dumps).map((t) => t.replaceAll('\n', '\r\n')), weight: 1 },
);

const hexOptions: fc.Arbitrary<HexDumpOptions> = fc.record(
  {
    wordOrder: fc.constantFrom('little', 'big'),
    offsetRadix: fc.constantFrom<NonNullable<HexDumpOptions['offsetRadix']>>('auto', 8, 10, 16),
    fillGaps: fc.boolean(),
    maxDiagnostics: fc.constantFrom(1, 5, 1000),
  },
  { requiredKeys: [] },
);

export interface HexCase {
  readonly text: string;
  readonly options: HexDumpOptions;
}

export function checkHexText({ text, options }: HexCase): void {
  const lines = text.split('\n').length;
  const result = parseHexDump(text, options);
  invariant(result.ok === !result.diagnostics.some((d) => d.severity === 'error'), '`ok` disagrees with the diagnostics');
  for (const d of result.diagnostics) {
    invariant(
      d.line >= 1 && d.line <= lines && d.column >= 1 && (d.endLine ?? d.line) >= d.line && (d.endLine ?? d.line) <= lines,
      () => `diagnostic at ${d.line}:${d.column}-${d.endLine} of ${lines} lines: ${d.message}`,
    );
    invariant(d.packet === undefined || result.packets[d.packet] !== undefined, () => `diagnostic of packet ${d.packet}: ${d.message}`);
    invariant(
      d.message.startsWith(`line ${d.line}`) || d.message.startsWith(`lines ${d.line}-`),
      () => `diagnostic at line ${d.line} says ${d.message}`,
    );
  }
  let total = 0;
  for (const p of result.packets) {
    invariant(
      p.bytes.length > 0 && p.firstLine >= 1 && p.firstLine <= p.lastLine && p.lastLine <= lines,
      () => `packet of ${p.bytes.length} bytes on lines ${p.firstLine}-${p.lastLine} of ${lines}`,
    );
    total += p.bytes.length;
  }
  invariant(total <= text.length + MAX_EXPANDED_BYTES, () => `${total} bytes from ${text.length} characters`);

  try {
    bytesFromHexDump(text, options);
  } catch (e) {
    if (!(e instanceof HexDumpError)) throw e;
  }
  const dissected = dissectHexDump(text, { hex: options });
  expect(dissected.diagnostics).toEqual(result.diagnostics);
}

export const hexTarget: FuzzTarget = propertyTarget(
  'hex',
  'hex-dump parser and dissectHexDump on damaged dumps, junk and long lines: typed results, bounded, linear time',
  fc.record({ text: hexTexts, options: hexOptions }),
  checkHexText,
  // Linear in the text and in the bytes it makes: 250 ms, 10 µs a character (the parser reads about 10 MB a
  // second), and 25 ns a byte. A `*` line or a gap between offsets adds bytes the text does not hold (up to
  // MAX_EXPANDED_BYTES, 16 MiB), which each of the three readers makes again: 0.35-0.43 s of the process's CPU
  // (its collector's threads too) for a few lines of text, over a budget that counted the text alone.
  ({ text, options }) => 250 + text.length / 100 + madeBytes(text, options) / 40_000,
);

/** The bytes a text's packets hold, as the parser reads them (counted before an input is timed). */
function madeBytes(text: string, options: HexDumpOptions): number {
  return parseHexDump(text, options).packets.reduce((n, p) => n + p.bytes.length, 0);
}
