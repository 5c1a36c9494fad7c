import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CodecError,
  charsets,
  fromHex,
  identify,
  layouts,
  recognize,
  samp,
  type CodecOptions,
  type Recognized,
  type QueryLayout,
} from '@gamequery/codec';
import { valueArb } from './helpers/arbitrary.ts';
import { loadVectors } from './helpers/vectors.ts';
import { mutatedMany } from '../fuzz/mutate.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 150);
type AnyLayout = QueryLayout;

/**
 * How an RCON datagram was recognised before `measure` (packet.ts, until this test was
 * written): the first of request and reply that decodes it exactly, else the first that
 * decodes at all, else the request — by trying each decode and catching its error.
 */
function oldBestFit(candidates: readonly AnyLayout[], bytes: Uint8Array, options?: CodecOptions): AnyLayout {
  let fallback: AnyLayout | undefined;
  for (const l of candidates) {
    try {
      const r = l.decode(bytes, options);
      if (r.bytesRead === bytes.length) return l;
      fallback ??= l;
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
    }
  }
  return fallback ?? candidates[0]!;
}

const isRcon = (b: Uint8Array): boolean =>
  b.length >= 11 && b[0] === 0x53 && b[1] === 0x41 && b[2] === 0x4d && b[3] === 0x50 && b[10] === 0x78;

/** identify and recognize give one answer (recognize throwing where identify gives none), and for an RCON datagram the old one. */
function sameAnswer(bytes: Uint8Array, options?: CodecOptions): Recognized | undefined {
  const quiet = identify(bytes, {}, options);
  let loud: Recognized | undefined;
  try {
    loud = recognize(bytes, {}, options);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
  }
  expect(quiet).toEqual(loud);
  if (isRcon(bytes)) {
    const layout = oldBestFit([samp.rconRequest, samp.rconResponse], bytes, options);
    expect(quiet).toEqual({ protocol: 'samp', direction: layout.direction, message: 'rcon', layout });
  }
  return quiet;
}

const rconSeeds = loadVectors()
  .filter((v) => v.message === 'rcon')
  .map((v) => fromHex(v.hex));
/** RCON datagrams: the vectors and random requests and replies, as they are or damaged. */
const rconBytes = fc
  .oneof(
    fc.constantFrom(...rconSeeds),
    valueArb(samp.rconRequest).map((v) => samp.rconRequest.encode(v)),
    valueArb(samp.rconResponse).map((v) => samp.rconResponse.encode(v)),
  )
  .chain((seed) => fc.oneof(fc.constant(seed), mutatedMany(seed)));
/** Anything after an RCON header: the request and reply layouts both fail, or both fit. */
const afterHeader = fc.uint8Array({ maxLength: 24 }).map((tail) => Uint8Array.of(...fromHex('53414d507f000001611e78'), ...tail));

describe('recognising an RCON datagram by its length prefixes', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives the old answer for every test vector, cut at every length and extended, in every charset', () => {
    for (const v of loadVectors()) {
      const bytes = fromHex(v.hex);
      for (const charset of [undefined, ...charsets]) {
        const options = charset === undefined ? undefined : { charset };
        for (let n = 0; n <= bytes.length; n++) sameAnswer(bytes.subarray(0, n), options);
        sameAnswer(Uint8Array.of(...bytes, 0, 0), options);
      }
    }
  });

  it('gives the old answer for random and damaged requests and replies, and for whatever follows the header', () => {
    fc.assert(
      fc.property(fc.oneof(rconBytes, afterHeader), (bytes) => {
        sameAnswer(bytes);
      }),
      { numRuns: runs * 4, seed: 53 },
    );
  });

  it('tells a request from a reply, and names the request where neither fits', () => {
    const request = fromHex('53414d507f000001611e78050077726f6e670700706c6179657273');
    const reply = fromHex('53414d507f000001611e7802006869');
    expect(identify(request)?.direction).toBe('request');
    expect(identify(reply)?.direction).toBe('response');
    // A reply with a byte after it decodes, not exactly, as a reply; the request does not decode at all.
    expect(identify(Uint8Array.of(...reply, 0))?.direction).toBe('response');
    // A length past the end: neither decodes, and the request is the answer (decodePacket then says why).
    expect(identify(fromHex('53414d507f000001611e78ff00'))?.layout).toBe(samp.rconRequest);
  });

  it('decodes nothing and throws nothing to recognise one (no exception on the hot path)', () => {
    const calls: string[] = [];
    for (const l of layouts) {
      vi.spyOn(l, 'decode').mockImplementation(() => {
        calls.push(l.id);
        throw new Error('decode called');
      });
    }
    fc.assert(
      fc.property(fc.oneof(rconBytes, afterHeader), (bytes) => {
        identify(bytes);
      }),
      { numRuns: runs, seed: 59 },
    );
    expect(calls).toEqual([]);
  });
});
