import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, charsets, fromHex, layouts, nodeJson, type Charset, type Layout } from '@gamequery/codec';
import { interpret } from '../../src/grammar/annotate.ts';
import { textCodec } from '../../src/grammar/charset.ts';
import { valueArb } from '../helpers/arbitrary.ts';
import { checkRoundTrip } from '../helpers/roundtrip.ts';
import { loadVectors } from '../helpers/vectors.ts';
import { mutations as mutated } from '../../fuzz/mutate.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 150);

/** annotateJson must write exactly the annotated tree's JSON, or decline where annotate reports something. */
function checkJson(layout: Layout<any>, bytes: Uint8Array, charset?: Charset): boolean { // eslint-disable-line @typescript-eslint/no-explicit-any
  const options = charset ? { charset } : {};
  const fast = layout.annotateJson(bytes, options);
  const tree = layout.annotate(bytes, options);
  const clean = !tree.error && tree.warnings.length === 0 && !tree.fields.some(function secret(n): boolean { return !!n.secret || !!n.children?.some(secret); });
  if (!clean) {
    expect(fast).toBeUndefined();
    return false;
  }
  expect(fast).toBeDefined();
  expect(fast!.json).toBe(JSON.stringify(tree.fields.map((n) => nodeJson(n, false))));
  expect(fast!.value).toEqual(tree.value);
  return true;
}

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
