/**
 * IPv4 text as the display filter reads it (filter/addresses.ts `ipv4Number`), a character at a
 * time, against the rule it keeps: split at the dots, four parts of one to three ASCII digits,
 * each at most 255.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv4Number } from '../../src/filter/addresses.ts';

/** The rule, written the plain way. */
function byParts(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const part of parts) {
    if (!/^[0-9]{1,3}$/.test(part) || Number(part) > 255) return undefined;
    n = n * 256 + Number(part);
  }
  return n;
}

describe('ipv4Number', () => {
  it('reads every address, leading zeros and all, as the rule does', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), fc.boolean(), (bytes, pad) => {
        const text = bytes.map((b) => (pad ? String(b).padStart(3, '0') : String(b))).join('.');
        expect(ipv4Number(text)).toBe(((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!);
        expect(ipv4Number(text)).toBe(byParts(text));
      }),
    );
  });

  it('refuses what the rule refuses, on any text of digits, dots and a few others', () => {
    const chars = fc.constantFrom('0', '1', '2', '5', '9', '.', '.', 'a', ' ', '-', '٣');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 20 }), (cs) => {
        const text = cs.join('');
        expect(ipv4Number(text)).toBe(byParts(text));
      }),
      { numRuns: 5000 },
    );
    for (const bad of [
      '',
      '1.2.3',
      '1.2.3.4.5',
      '1..3.4',
      '.1.2.3',
      '1.2.3.',
      '256.0.0.1',
      '1.2.3.1000',
      '0001.2.3.4',
      '1.2.3.4 ',
      'a.b.c.d',
    ])
      expect(ipv4Number(bad), bad).toBeUndefined();
  });
});
