import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { mcquery, samp, type QueryLayout } from '@gamequery/codec';
import { cstring, decimalCstring, i32be, magic, u32be } from '../../../src/grammar/fields.ts';
import { defineLayout } from '../../../src/grammar/layout.ts';
import { keyedReader, numberReader, tokenReader } from '../../../src/pairing/capture/token.ts';

const vectorDir = new URL('../../../../../test-vectors/mcquery/', import.meta.url).pathname;

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

const i32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const u32 = fc.nat({ max: 0xffffffff });

/** What the layout's own decoder says the token is (undefined where it throws or gives no number). */
function decoded(layout: QueryLayout, bytes: Uint8Array): number | undefined {
  try {
    const token = (layout.decode(bytes).value as { token?: unknown }).token;
    return typeof token === 'number' ? token : undefined;
  } catch {
    return undefined;
  }
}

const readerOf = (layout: QueryLayout): ((bytes: Uint8Array) => number | undefined) => {
  const read = tokenReader(layout, {});
  if (!read) throw new Error(`${layout.id} has no token reader`);
  return read;
};

/** A handshake reply whose token is the text `token` (a string of bytes), then `tail` (its NUL, or not). */
const handshakeReply = (token: string, tail: readonly number[] = [0]): Uint8Array =>
  new Uint8Array([0x09, 0x01, 0x02, 0x03, 0x04, ...[...token].map((c) => c.charCodeAt(0)), ...tail]);

// Layouts with a token where the Minecraft ones do not put it.
const afterVariable = defineLayout({
  protocol: 'mcquery',
  message: 'token-after-text',
  direction: 'request',
  title: 'Token after a string',
  fields: [
    cstring('name', { abbrev: 'mcquery.test.name', label: 'Name' }),
    i32be('token', { abbrev: 'mcquery.test.token', label: 'Token' }),
  ],
}) as QueryLayout;
const unsignedToken = defineLayout({
  protocol: 'mcquery',
  message: 'unsigned-token',
  direction: 'request',
  title: 'Unsigned token',
  fields: [
    magic([0xab], { abbrev: 'mcquery.test.magic', label: 'Magic' }),
    u32be('token', { abbrev: 'mcquery.test.utoken', label: 'Token' }),
  ],
}) as QueryLayout;
const unsignedText = defineLayout({
  protocol: 'mcquery',
  message: 'unsigned-text',
  direction: 'response',
  title: 'Unsigned token as text',
  fields: [
    magic([0xab], { abbrev: 'mcquery.test.magic', label: 'Magic' }),
    decimalCstring('token', 'u32', { abbrev: 'mcquery.test.ttoken', label: 'Token' }),
  ],
}) as QueryLayout;

describe('tokenReader', () => {
  it('has no reader for a layout without a token', () => {
    expect(tokenReader(samp.infoRequest as QueryLayout, {})).toBeUndefined();
    expect(tokenReader(mcquery.handshakeRequest as QueryLayout, {})).toBeUndefined();
  });

  it.each([
    ['basic', mcquery.basicRequest as QueryLayout, (sessionId: number, token: number) => mcquery.basicRequest.encode({ sessionId, token })],
    [
      'full',
      mcquery.fullRequest as QueryLayout,
      (sessionId: number, token: number) => mcquery.fullRequest.encode({ sessionId, token, padding: new Uint8Array(4) }),
    ],
  ])("reads a %s stat request's token as its decoder does", (_, layout, encode) => {
    const read = readerOf(layout);
    fc.assert(
      fc.property(u32, i32, (sessionId, token) => {
        const bytes = encode(sessionId, token);
        expect(read(bytes)).toBe(token);
        expect(read(bytes)).toBe(decoded(layout, bytes));
      }),
      { numRuns: runs },
    );
    for (const token of [-0x80000000, -1, 0, 0x7fffffff]) expect(read(encode(0, token))).toBe(token);
    // Cut before the token's last byte: no token.
    expect(read(encode(0, 5).subarray(0, 10))).toBeUndefined();
  });

  it("reads a handshake reply's decimal token as its decoder does, on random tokens", () => {
    const read = readerOf(mcquery.handshakeResponse as QueryLayout);
    fc.assert(
      fc.property(u32, i32, (sessionId, token) => {
        const bytes = mcquery.handshakeResponse.encode({ sessionId, token });
        expect(read(bytes)).toBe(token);
        expect(read(bytes)).toBe(decoded(mcquery.handshakeResponse as QueryLayout, bytes));
      }),
      { numRuns: runs },
    );
  });

  it.each([
    ['0', 0],
    ['9513307', 9513307],
    ['-1', -1],
    ['2147483647', 0x7fffffff],
    ['-2147483648', -0x80000000],
    ['-0', -0],
  ])('reads the decimal token %s', (text, token) => {
    const bytes = handshakeReply(text);
    expect(readerOf(mcquery.handshakeResponse as QueryLayout)(bytes)).toBe(token);
    expect(decoded(mcquery.handshakeResponse as QueryLayout, bytes)).toBe(token);
  });

  it.each([
    ['past the i32 bounds', '2147483648'],
    ['below the i32 bounds', '-2147483649'],
    ['of eleven digits', '21474836470'],
    ['with leading zeros', '007'],
    ['of zeros', '00'],
    ['with junk', '12a'],
    ['with a plus sign', '+5'],
    ['with a space', ' 5'],
    ['empty', ''],
    ['a lone minus', '-'],
    ['with a minus after digits', '5-'],
  ])('agrees with the decoder on a token %s', (_, text) => {
    const bytes = handshakeReply(text);
    expect(readerOf(mcquery.handshakeResponse as QueryLayout)(bytes)).toBe(decoded(mcquery.handshakeResponse as QueryLayout, bytes));
  });

  it('agrees with the decoder on a token without its NUL, and with bytes after it', () => {
    const read = readerOf(mcquery.handshakeResponse as QueryLayout);
    for (const bytes of [handshakeReply('123', []), handshakeReply('123', [0, 0x41]), handshakeReply('', []), new Uint8Array([9, 1])]) {
      expect(read(bytes)).toBe(decoded(mcquery.handshakeResponse as QueryLayout, bytes));
    }
  });

  it('agrees with the decoder on random token text', () => {
    const read = readerOf(mcquery.handshakeResponse as QueryLayout);
    const text = fc.array(fc.constantFrom(...'0123456789-+ a'), { maxLength: 12 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, fc.boolean(), (t, nul) => {
        const bytes = handshakeReply(t, nul ? [0] : []);
        expect(read(bytes)).toBe(decoded(mcquery.handshakeResponse as QueryLayout, bytes));
      }),
      { numRuns: runs * 3 },
    );
  });

  it('reads a token after a field of no fixed size with the decoder', () => {
    const read = readerOf(afterVariable);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcxyz'), maxLength: 8 }), i32, (name, token) => {
        expect(read(afterVariable.encode({ name, token } as never))).toBe(token);
      }),
      { numRuns: runs },
    );
    expect(read(new Uint8Array([0x61, 0x62]))).toBeUndefined();
  });

  it('reads an unsigned token as unsigned, in binary and as text', () => {
    const binary = readerOf(unsignedToken);
    const text = readerOf(unsignedText);
    fc.assert(
      fc.property(u32, (token) => {
        const b = unsignedToken.encode({ token } as never);
        const t = unsignedText.encode({ token } as never);
        expect([binary(b), text(t)]).toEqual([token, token]);
        expect([binary(b), text(t)]).toEqual([decoded(unsignedToken, b), decoded(unsignedText, t)]);
      }),
      { numRuns: runs },
    );
    const bytes = (s: string) => new Uint8Array([0xab, ...[...s].map((c) => c.charCodeAt(0)), 0]);
    for (const s of ['4294967295', '4294967296', '-1', '-0', '0']) expect(text(bytes(s)), s).toBe(decoded(unsignedText, bytes(s)));
  });
});

describe('keyedReader', () => {
  const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
  const vectors = readdirSync(vectorDir)
    .filter((f) => f.startsWith('full-response.'))
    .map((f) => JSON.parse(readFileSync(`${vectorDir}${f}`, 'utf8')) as { hex: string });

  it("reads a full stat's values as its decoder does, on every full-response vector (cut ones too)", () => {
    const read = keyedReader(mcquery.fullResponse, 'kv')!;
    expect(read).toBeDefined();
    expect(vectors.length).toBeGreaterThanOrEqual(5);
    let compared = 0;
    for (const v of vectors) {
      const bytes = Uint8Array.from(Buffer.from(v.hex, 'hex'));
      let kv: { key: string; value: string }[] | undefined;
      try {
        kv = (mcquery.fullResponse.decode(bytes).value as { kv: { key: string; value: string }[] }).kv;
      } catch {
        kv = undefined;
      }
      for (const key of ['hostname', 'numplayers', 'map', 'no-such-key']) {
        const got = text(read(bytes, ascii(key)));
        // Where the message decodes, the same value; where it does not, at most what is there.
        if (kv) expect(got, key).toBe(kv.find((e) => e.key === key)?.value);
        if (got !== undefined) compared++;
      }
    }
    // Values found: hostname, numplayers and map of the vectors that hold them.
    expect(compared).toBeGreaterThanOrEqual(6);
    expect(keyedReader(mcquery.fullResponse, 'players')).toBeUndefined();
    expect(keyedReader(mcquery.basicRequest, 'kv')).toBeUndefined();
  });
});

describe('numberReader', () => {
  /** What the decoder says `name` is: the decoded value's, else what the annotation read before the cut. */
  function stated(layout: QueryLayout, bytes: Uint8Array, name: string): unknown {
    try {
      return (layout.decode(bytes).value as Record<string, unknown>)[name];
    } catch {
      return (layout.annotate(bytes).partial as Record<string, unknown> | undefined)?.[name];
    }
  }
  const basic = mcquery.basicResponse as QueryLayout;
  const text = fc.string({ maxLength: 12 }).map((s) => s.replace(/\0/g, ''));

  it("reads a basic stat's player count past its three strings as the decoder does, on random replies and every cut", () => {
    const read = numberReader(basic, 'numPlayers', {})!;
    expect(read).toBeDefined();
    let read_ = 0;
    fc.assert(
      fc.property(
        text,
        text,
        text,
        u32,
        u32,
        fc.nat({ max: 0xffff }),
        text,
        (motd, gametype, map, numPlayers, maxPlayers, hostPort, hostIp) => {
          const bytes = mcquery.basicResponse.encode({ sessionId: 1, motd, gametype, map, numPlayers, maxPlayers, hostPort, hostIp });
          for (let n = 0; n <= bytes.length; n++) {
            const cut = bytes.subarray(0, n);
            const want = stated(basic, cut, 'numPlayers');
            expect(read(cut), `cut at ${n}`).toBe(typeof want === 'number' ? want : undefined);
            if (want !== undefined) read_++;
          }
        },
      ),
      { numRuns: runs },
    );
    expect(read_).toBeGreaterThan(0);
  });

  it('leaves text that is not a plain number to the decoder, and agrees with it', () => {
    const read = numberReader(basic, 'numPlayers', {})!;
    const reply = mcquery.basicResponse.encode({
      sessionId: 1,
      motd: 'm',
      gametype: 'SMP',
      map: 'w',
      numPlayers: 7,
      maxPlayers: 20,
      hostPort: 25565,
      hostIp: '127.0.0.1',
    });
    const at = reply.indexOf(0x37); // the "7"
    expect(at).toBeGreaterThan(0);
    for (const b of [0x2d, 0x41, 0x00]) {
      const bytes = reply.slice();
      bytes[at] = b;
      const want = stated(basic, bytes, 'numPlayers');
      expect(read(bytes)).toBe(typeof want === 'number' ? want : undefined);
    }
  });
});
