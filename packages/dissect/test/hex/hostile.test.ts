/**
 * Regression cases the fuzz targets found in the hex-dump parser: offsets that claim far more
 * bytes than the text holds. The files are in test/fixtures/hostile/.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHexDump } from '../../src/hex/index.ts';
import { MAX_EXPANDED_BYTES } from '../../src/hex/parse.ts';

const hostile = (name: string): string => readFileSync(new URL(`../fixtures/hostile/${name}`, import.meta.url), 'utf8');

/** Parses, and says how long it took. */
function timedParse(...args: Parameters<typeof parseHexDump>): [ReturnType<typeof parseHexDump>, number] {
  const started = performance.now();
  const result = parseHexDump(...args);
  return [result, performance.now() - started];
}

describe('offsets that claim more than the text holds', () => {
  it('leaves out a * repeat that a final offset of ffffffff would stretch to 4 GiB', () => {
    const [result, ms] = timedParse(hostile('repeat-to-4gib.hexdump-C.txt'));
    expect(ms).toBeLessThan(1000);
    expect(result.packets.map((p) => p.bytes.length)).toEqual([16]);
    expect(result.diagnostics).toEqual([
      {
        severity: 'warning',
        code: 'too-large',
        line: 2,
        column: 1,
        packet: 0,
        message: `line 2, column 1: 4294967279 bytes of repeated or missing data would pass the limit of ${MAX_EXPANDED_BYTES} expanded bytes; they are left out`,
      },
    ]);
  });

  it('does not fill a gap up to offset fffffff0 with zeros, even when asked to', () => {
    const [result, ms] = timedParse(hostile('gap-to-4gib.xxd.txt'), { fillGaps: true });
    expect(ms).toBeLessThan(1000);
    expect(result.packets.map((p) => p.bytes.length)).toEqual([32]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['offset-gap', 'too-large']);
  });

  it('still expands repeats and fills gaps up to the limit', () => {
    const row = '00000000  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|';
    const [repeated] = timedParse(`${row}\n*\n00100000\n`);
    expect(repeated.packets[0]?.bytes.length).toBe(0x100000);
    expect(repeated.diagnostics).toEqual([]);
    const [filled] = timedParse(`${row}\n00000100  42 42 42 42 42 42 42 42  42 42 42 42 42 42 42 42  |BBBBBBBBBBBBBBBB|\n`, {
      fillGaps: true,
    });
    expect(filled.packets[0]?.bytes.length).toBe(0x110);
    expect(filled.diagnostics.map((d) => d.code)).toEqual(['offset-gap']);
  });
});
