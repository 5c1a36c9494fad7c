import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, charsets, fromHex, layouts } from '@gamequery/codec';
import { interpret } from '../../src/grammar/annotate.ts';
import { textCodec } from '../../src/grammar/charset.ts';
import { valueArb } from '../helpers/arbitrary.ts';
import { checkRoundTrip } from '../helpers/roundtrip.ts';
import { loadVectors } from '../helpers/vectors.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 150);

/** Mutations that stress length prefixes and counts (bit flips, cuts, extensions, magic values). */
const mutated = (seed: Uint8Array) =>
  fc.oneof(
    fc.tuple(fc.nat(seed.length * 8 - 1), fc.nat(3)).map(([bit, n]) => {
      const b = seed.slice();
      for (let i = 0; i <= n; i++) b[((bit >> 3) + i * 7) % b.length]! ^= 1 << (bit & 7);
      return b;
    }),
    fc.nat(seed.length).map((n) => seed.slice(0, n)),
    fc.uint8Array({ maxLength: 16 }).map((tail) => Uint8Array.from([...seed, ...tail])),
    fc.tuple(fc.nat(Math.max(0, seed.length - 4)), fc.constantFrom(0, 0xff, 0xffff, 0xffffffff)).map(([at, v]) => {
      const b = seed.slice();
      new DataView(b.buffer).setUint32(Math.min(at, b.length - 4), v, true);
      return b;
    }),
  );

describe.each(layouts.map((l) => [l.id, l] as const))('%s', (_, layout) => {
  it('round-trips random valid values in every charset', () => {
    for (const charset of charsets) {
      fc.assert(fc.property(valueArb(layout, charset), (value) => {
        checkRoundTrip(layout, value, { charset });
      }), { numRuns: Math.ceil(runs / 2), seed: 42 });
    }
  });

  it('gives the compiled decoder and the interpreter the same answer on random and mutated bytes', () => {
    const seeds = loadVectors().filter((v) => v.layout === layout.id).map((v) => fromHex(v.hex)).filter((b) => b.length >= 4);
    const bytesArb = fc.oneof(fc.uint8Array({ maxLength: 64 }), ...seeds.map(mutated));
    fc.assert(fc.property(bytesArb, (bytes) => {
      const reference = interpret(layout.id, layout.fields, bytes, textCodec(layout.defaultCharset));
      let decoded;
      try {
        decoded = layout.decode(bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(CodecError);
        expect(reference.error).toBeInstanceOf(CodecError);
        expect((e as CodecError).message).toBe(reference.error!.message);
        return;
      }
      expect(reference.error).toBeUndefined();
      expect(decoded.value).toEqual(reference.value);
      expect(decoded.bytesRead).toBe(reference.bytesRead);
    }), { numRuns: runs, seed: 7 });
  });
});
