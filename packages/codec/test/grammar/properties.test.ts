import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charsets, fromHex, layouts, mcquery, samp, type Charset, type QueryLayout } from '@gamequery/codec';
import { numeric, synthetic } from '../helpers/synthetic.ts';
import { valueArb } from '../helpers/arbitrary.ts';
import { checkRoundTrip } from '../helpers/roundtrip.ts';
import { loadVectors } from '../helpers/vectors.ts';
import { checkEmitJson, checkHostileBytes, checkJson, hostileBytes } from '../../fuzz/codec.ts';
import { mutations as mutated } from '../../fuzz/mutate.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 150);

describe.each(layouts.map((l) => [l.id, l] as const))('%s', (_, layout) => {
  it('writes the annotated tree as JSON on the fast path, and declines exactly where annotate reports something', () => {
    const secret = layout.id === 'samp.rcon.request';
    for (const charset of charsets) {
      fc.assert(
        fc.property(valueArb(layout, charset), (value) => {
          expect(checkJson(layout, layout.encode(value, { charset }), charset)).toBe(!secret);
        }),
        { numRuns: Math.ceil(runs / 4), seed: 11 },
      );
    }
    const seeds = loadVectors()
      .filter((v) => v.layout === layout.id)
      .map((v) => fromHex(v.hex))
      .filter((b) => b.length >= 4);
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), ...seeds.map(mutated)), (bytes) => {
        checkJson(layout, bytes);
      }),
      { numRuns: runs, seed: 13 },
    );
  });

  it('writes the same tree as UTF-8 bytes into a ByteSink at an offset, growing it mid-node, and leaves the sink as it was where it declines', () => {
    const secret = layout.id === 'samp.rcon.request';
    for (const charset of charsets) {
      fc.assert(
        fc.property(valueArb(layout, charset), fc.nat(40), (value, offset) => {
          expect(checkEmitJson(layout, layout.encode(value, { charset }), charset, offset)).toBe(!secret);
        }),
        { numRuns: Math.ceil(runs / 4), seed: 17 },
      );
    }
    const seeds = loadVectors()
      .filter((v) => v.layout === layout.id)
      .map((v) => fromHex(v.hex))
      .filter((b) => b.length >= 4);
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), ...seeds.map(mutated)), fc.nat(40), (bytes, offset) => {
        checkEmitJson(layout, bytes, undefined, offset);
      }),
      { numRuns: runs, seed: 19 },
    );
  });

  it('round-trips random valid values in every charset', () => {
    for (const charset of charsets) {
      fc.assert(
        fc.property(valueArb(layout, charset), (value) => {
          checkRoundTrip(layout, value, { charset });
        }),
        { numRuns: Math.ceil(runs / 2), seed: 42 },
      );
    }
  });

  it('gives typed errors or the same answer from the compiled decoder and the interpreter on random and mutated bytes', () => {
    fc.assert(
      fc.property(hostileBytes(layout), (bytes) => checkHostileBytes(layout, bytes)),
      { numRuns: runs, seed: 7 },
    );
  });
});

describe('the JSON fast path (annotateJson, emitJson)', () => {
  // 53 41 4d 50 7f 00 00 01 61 1e 69 | 00 | 01 00 | 02 00 | 01 00 00 00 61 | 01 00 00 00 62 | 01 00 00 00 63
  // "SAMP" 127.0.0.1:7777 'i'          pw   players maxPl  hostname "a"      gamemode "b"     language "c"
  const info = fromHex('53414d507f000001611e69 00 0100 0200 0100000061 0100000062 0100000063');
  const edited = (bytes: Uint8Array, at: number, byte: number): Uint8Array => {
    const b = bytes.slice();
    b[at] = byte;
    return b;
  };
  type AnyLayout = QueryLayout;
  const both = (layout: AnyLayout, bytes: Uint8Array, charset?: Charset): boolean => {
    const json = checkJson(layout, bytes, charset);
    expect(checkEmitJson(layout, bytes, charset, 5)).toBe(json);
    return json;
  };

  it('writes a clean info response', () => {
    expect(both(samp.infoResponse, info)).toBe(true);
  });

  it('declines a short read, a wrong opcode, a flag byte above 1 and trailing bytes, which annotate reports', () => {
    expect(both(samp.infoResponse, info.subarray(0, info.length - 1))).toBe(false);
    expect(both(samp.infoResponse, edited(info, 10, 0x72))).toBe(false);
    expect(both(samp.infoResponse, edited(info, 11, 2))).toBe(false);
    expect(both(samp.infoResponse, Uint8Array.of(...info, 0))).toBe(false);
  });

  it('declines a player list shorter than its count (tolerated, with a warning)', () => {
    // header 'd' | count 03 00 | id 01, name "ab", score -1, ping 5 | id 02, name "c", score 3, ping 6
    const d = fromHex('53414d507f000001611e64 0300 01 02 6162 ffffffff 05000000 02 01 63 03000000 06000000');
    expect(both(samp.playersResponse, d)).toBe(false);
    expect(both(samp.playersResponse, edited(d, 11, 2))).toBe(true);
  });

  it('declines decimal text that is not canonical or out of range, and writes -0 and a UTF-8 byte order mark as annotate does', () => {
    // 09 | session 00 00 00 01 | token as decimal text, NUL-terminated
    const handshake = (token: string): Uint8Array => Uint8Array.of(0x09, 0, 0, 0, 1, ...Array.from(token, (c) => c.charCodeAt(0)), 0);
    expect(both(mcquery.handshakeResponse, handshake('12'))).toBe(true);
    expect(both(mcquery.handshakeResponse, handshake('007'))).toBe(false);
    expect(both(mcquery.handshakeResponse, handshake('2147483648'))).toBe(false);
    expect(both(mcquery.handshakeResponse, handshake('-0'))).toBe(true);
    expect(both(mcquery.handshakeResponse, handshake('\xef\xbb\xbf12'), 'utf8')).toBe(true);
  });

  it.each([
    ['every kind of field', synthetic],
    ['every number type', numeric],
  ])('writes %s, wherever it sits, as annotate does', (_, layout) => {
    for (const charset of charsets) {
      fc.assert(
        fc.property(valueArb(layout, charset), fc.nat(40), (value, offset) => {
          const bytes = layout.encode(value, { charset });
          expect(checkJson(layout, bytes, charset)).toBe(true);
          expect(checkEmitJson(layout, bytes, charset, offset)).toBe(true);
        }),
        { numRuns: runs, seed: 23 },
      );
    }
    const damaged = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      valueArb(layout).chain((value) => mutated(layout.encode(value))),
    );
    fc.assert(
      fc.property(damaged, fc.nat(40), (bytes, offset) => {
        const json = checkJson(layout, bytes);
        expect(checkEmitJson(layout, bytes, undefined, offset)).toBe(json);
      }),
      { numRuns: runs * 4, seed: 29 },
    );
  });

  it('round-trips every number type: 64-bit integers as bigints, floats to the bit (NaN, ±Infinity and -0 too)', () => {
    fc.assert(
      fc.property(valueArb(numeric), (value) => {
        checkRoundTrip(numeric, value);
      }),
      { numRuns: runs, seed: 31 },
    );
  });

  it('escapes quotes, backslashes and control characters, and encodes what the charset decodes as UTF-8', () => {
    const hostname = Uint8Array.of(0x22, 0x5c, 0x0a, 0x00, 0x7f, 0xc0, 0xe9, 0x98);
    const bytes = Uint8Array.of(...info.subarray(0, 16), hostname.length, 0, 0, 0, ...hostname, ...info.subarray(21));
    expect(both(samp.infoResponse, bytes, 'windows-1251')).toBe(true);
    expect(both(samp.infoResponse, bytes, 'utf8')).toBe(true);
  });
});
