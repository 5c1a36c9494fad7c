import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charsets, fromHex, layouts } from '@gamequery/codec';
import { valueArb } from '../helpers/arbitrary.ts';
import { checkRoundTrip } from '../helpers/roundtrip.ts';
import { loadVectors } from '../helpers/vectors.ts';
import { checkHostileBytes, checkJson, hostileBytes } from '../../fuzz/codec.ts';
import { mutations as mutated } from '../../fuzz/mutate.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 150);

describe.each(layouts.map((l) => [l.id, l] as const))('%s', (_, layout) => {
  it('writes the annotated tree as JSON on the fast path, and declines exactly where annotate reports something', () => {
    const secret = layout.id === 'samp.rcon.request';
    for (const charset of charsets) {
      fc.assert(fc.property(valueArb(layout, charset), (value) => {
        expect(checkJson(layout, layout.encode(value, { charset }), charset)).toBe(!secret);
      }), { numRuns: Math.ceil(runs / 4), seed: 11 });
    }
    const seeds = loadVectors().filter((v) => v.layout === layout.id).map((v) => fromHex(v.hex)).filter((b) => b.length >= 4);
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), ...seeds.map(mutated)), (bytes) => {
      checkJson(layout, bytes);
    }), { numRuns: runs, seed: 13 });
  });

  it('round-trips random valid values in every charset', () => {
    for (const charset of charsets) {
      fc.assert(fc.property(valueArb(layout, charset), (value) => {
        checkRoundTrip(layout, value, { charset });
      }), { numRuns: Math.ceil(runs / 2), seed: 42 });
    }
  });

  it('gives typed errors or the same answer from the compiled decoder and the interpreter on random and mutated bytes', () => {
    fc.assert(fc.property(hostileBytes(layout), (bytes) => checkHostileBytes(layout, bytes)), { numRuns: runs, seed: 7 });
  });
});
