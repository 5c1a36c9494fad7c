/**
 * Byte mutations, shared by the codec's and the capture reader's fuzz targets: each is an
 * arbitrary of a damaged copy of a well-formed seed (the seed itself is never changed).
 */
import fc from 'fast-check';

/** Lengths and counts a hostile sender likes: empty, the u8, u16 and u32 maxima. */
export const CLAIMED_LENGTHS = [0, 0xff, 0xffff, 0xffffffff] as const;

export type Width = 1 | 2 | 4;

/** Writes `value` (cut to `width` bytes) at `at`, in place. */
export function setUint(bytes: Uint8Array, at: number, width: Width, value: number, littleEndian: boolean): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (width === 1) view.setUint8(at, value & 0xff);
  else if (width === 2) view.setUint16(at, value & 0xffff, littleEndian);
  else view.setUint32(at, value >>> 0, littleEndian);
}

/** One to four flipped bits. */
export const flipBits = (seed: Uint8Array): fc.Arbitrary<Uint8Array> =>
  fc.array(fc.nat(seed.length * 8 - 1), { minLength: 1, maxLength: 4 }).map((bits) => {
    const b = seed.slice();
    for (const bit of bits) b[bit >> 3]! ^= 1 << (bit & 7);
    return b;
  });

/** The seed cut anywhere (from nothing to all of it). */
export const truncate = (seed: Uint8Array): fc.Arbitrary<Uint8Array> => fc.nat(seed.length).map((n) => seed.slice(0, n));

/** The seed with random bytes after it. */
export const extend = (seed: Uint8Array): fc.Arbitrary<Uint8Array> =>
  fc.uint8Array({ minLength: 1, maxLength: 32 }).map((tail) => Uint8Array.from([...seed, ...tail]));

/** A u8, u16 or u32 at any offset, either byte order, set to a claimed length or a random value. */
export const overwriteInt = (seed: Uint8Array): fc.Arbitrary<Uint8Array> =>
  fc
    .tuple(fc.constantFrom<Width>(1, 2, 4), fc.nat(seed.length), fc.oneof(fc.constantFrom(...CLAIMED_LENGTHS), fc.nat()), fc.boolean())
    .filter(([width]) => seed.length >= width)
    .map(([width, at, value, le]) => {
      const b = seed.slice();
      setUint(b, Math.min(at, b.length - width), width, value, le);
      return b;
    });

/** A run of one to eight random bytes written over the seed. */
export const overwriteBytes = (seed: Uint8Array): fc.Arbitrary<Uint8Array> =>
  fc.tuple(fc.nat(seed.length - 1), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([at, run]) => {
    const b = seed.slice();
    b.set(run.subarray(0, b.length - at), at);
    return b;
  });

/** A range taken out, or repeated in place. */
export const splice = (seed: Uint8Array): fc.Arbitrary<Uint8Array> =>
  fc.tuple(fc.nat(seed.length), fc.nat(seed.length), fc.boolean()).map(([a, b, repeat]) => {
    const [from, to] = a <= b ? [a, b] : [b, a];
    const middle = repeat ? [...seed.subarray(from, to), ...seed.subarray(from, to)] : [];
    return Uint8Array.from([...seed.subarray(0, from), ...middle, ...seed.subarray(to)]);
  });

/** Any one of the mutations above (just truncation and extension for an empty seed). */
export function mutations(seed: Uint8Array): fc.Arbitrary<Uint8Array> {
  if (seed.length === 0) return fc.oneof(truncate(seed), extend(seed));
  return fc.oneof(flipBits(seed), truncate(seed), extend(seed), overwriteInt(seed), overwriteBytes(seed), splice(seed));
}

/** Up to `most` mutations applied one after the other. */
export function mutatedMany(seed: Uint8Array, most = 3): fc.Arbitrary<Uint8Array> {
  let arb = mutations(seed);
  for (let i = 1; i < most; i++) {
    arb = fc.oneof(
      arb,
      arb.chain((once) => mutations(once)),
    );
  }
  return arb;
}
