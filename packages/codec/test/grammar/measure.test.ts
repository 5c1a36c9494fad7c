import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, charsets, fromHex, layouts, mcquery, type Charset, type QueryLayout } from '@gamequery/codec';
import { internals } from '@gamequery/codec/internal';
import { valueArb } from '../helpers/arbitrary.ts';
import { loadVectors } from '../helpers/vectors.ts';
import { numeric, secretive, synthetic } from '../helpers/synthetic.ts';
import { hostileBytes } from '../../fuzz/codec.ts';
import { mutatedMany } from '../../fuzz/mutate.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 150);
type AnyLayout = QueryLayout;

/**
 * `measure` must give `decode`'s bytesRead where it decodes and a negative number where it
 * throws; returns whether it decodes. The synthetic layouts hold what binary-parser is not
 * asked to compile (a group of several fields), so they are held to the interpreter, which
 * is what `decode` falls back to and where its errors come from.
 */
function agrees(layout: AnyLayout, bytes: Uint8Array, charset?: Charset): boolean {
  const options = charset === undefined ? {} : { charset };
  let read: number | undefined;
  if (!layouts.includes(layout)) {
    const tree = layout.annotate(bytes, options);
    read = tree.error ? undefined : tree.bytesRead;
  } else {
    try {
      read = layout.decode(bytes, options).bytesRead;
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
    }
  }
  const n = internals(layout).measure(bytes, options);
  if (read === undefined) expect(n, `${layout.id} decode throws on ${Buffer.from(bytes).toString('hex')}`).toBeLessThan(0);
  else expect(n, `${layout.id} decodes ${read} bytes of ${Buffer.from(bytes).toString('hex')}`).toBe(read);
  return read !== undefined;
}

const vectors = loadVectors();
const all: readonly AnyLayout[] = [...layouts, synthetic, secretive, numeric];

describe.each(all.map((l) => [l.id, l] as const))('%s: measure', (_, layout) => {
  it('agrees with decode on every test vector of every layout, cut at every length and extended', () => {
    for (const v of vectors) {
      const bytes = fromHex(v.hex);
      for (let n = 0; n <= bytes.length; n++) agrees(layout, bytes.subarray(0, n));
      agrees(layout, Uint8Array.of(...bytes, 0));
      agrees(layout, Uint8Array.of(...bytes, 0x41, 0x42, 0x43));
      if (v.charset) agrees(layout, bytes, v.charset);
    }
  });

  it('measures random valid values in every charset as all of their bytes, and with bytes after them as the message alone', () => {
    for (const charset of charsets) {
      fc.assert(
        fc.property(valueArb(layout, charset), fc.uint8Array({ maxLength: 4 }), (value, tail) => {
          const bytes = layout.encode(value, { charset });
          expect(internals(layout).measure(bytes, { charset })).toBe(bytes.length);
          agrees(layout, Uint8Array.of(...bytes, ...tail), charset);
        }),
        { numRuns: Math.ceil(runs / 4), seed: 31 },
      );
    }
  });

  it('agrees with decode on damaged bytes: cut, extended, bits flipped, lengths and counts claimed, spliced', () => {
    const damaged = layouts.includes(layout) ? hostileBytes(layout) : valueArb(layout).chain((value) => mutatedMany(layout.encode(value)));
    fc.assert(
      fc.property(damaged, fc.option(fc.constantFrom(...charsets), { nil: undefined }), (bytes, charset) => {
        agrees(layout, bytes, charset);
      }),
      { numRuns: runs * 2, seed: 37 },
    );
  });
});

describe('measure', () => {
  // 09 | session 00 00 00 01 | token as decimal text, NUL-terminated
  const handshake = (token: string): Uint8Array => Uint8Array.of(0x09, 0, 0, 0, 1, ...Array.from(token, (c) => c.charCodeAt(0)), 0);

  it('checks decimal text as decode does: canonical, in range, and a UTF-8 byte order mark dropped only in UTF-8', () => {
    const cases: [string, Charset | undefined, boolean][] = [
      ['12', undefined, true],
      ['0', undefined, true],
      ['-0', undefined, true],
      ['-2147483648', undefined, true],
      ['2147483647', undefined, true],
      ['2147483648', undefined, false],
      ['-2147483649', undefined, false],
      ['007', undefined, false],
      ['', undefined, false],
      ['-', undefined, false],
      ['+1', undefined, false],
      [' 1', undefined, false],
      ['1-2', undefined, false],
      ['--1', undefined, false],
      ['12345678901', undefined, false],
      ['\xef\xbb\xbf12', 'utf8', true],
      ['\xef\xbb\xbf12', 'latin1', false],
      ['\xef\xbb\xbf12', undefined, false],
      ['\xb9', 'windows-1251', false],
    ];
    for (const [token, charset, ok] of cases) {
      const bytes = handshake(token);
      expect(agrees(mcquery.handshakeResponse, bytes, charset), JSON.stringify(token)).toBe(ok);
      expect(internals(mcquery.handshakeResponse).measure(bytes, charset ? { charset } : {})).toBe(ok ? bytes.length : -1);
    }
  });

  it('reads a count of 2^32 - 1 entries only as far as the bytes go', () => {
    // "SAMP" 127.0.0.1:7777 'd' | count ff ff | one player: id 01, name "a", score 0, ping 0
    const bytes = fromHex('53414d507f000001611e64 ffff 01 01 61 00000000 00000000');
    expect(
      agrees(
        layouts.find((l) => l.id === 'samp.players.response')!,
        bytes,
      ),
    ).toBe(true);
  });
});
