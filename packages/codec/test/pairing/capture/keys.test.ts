import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcqueryProtocol, sampProtocol, vcmpProtocol, mcquery, samp, vcmp } from '@gamequery/codec';
import { sampAt, sampInfo } from '../helpers.ts';
import { Endpoints, Side, hashBytes, key, keyRule, tokenKey, type KeyRule } from '../../../src/pairing/capture/keys.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

/** The compiled keys, tagged as the capture pairer tags them (the built-in protocols' order, from 1). */
const sampKeys = keyRule(sampProtocol, 1)!;
const vcmpKeys = keyRule(vcmpProtocol, 2)!;
const mc = keyRule(mcqueryProtocol, 3)!;

/** An address and port: IPv4 dotted or IPv6 as eight groups. */
interface At {
  readonly address: string;
  readonly port: number;
}

const words = (address: string): number[] =>
  address.includes(':')
    ? [0, 1, 2, 3].map((i) => {
        const g = address.split(':').map((x) => parseInt(x, 16));
        return ((g[2 * i]! << 16) | g[2 * i + 1]!) >>> 0;
      })
    : [address.split('.').reduce((w, x) => ((w << 8) | Number(x)) >>> 0, 0)];

/** Endpoints of a datagram from `from` to `to`. */
function endpoints(from: At, to: At): Endpoints {
  const e = new Endpoints();
  e.v6 = from.address.includes(':');
  words(from.address).forEach((w, i) => (e.src[i] = w));
  words(to.address).forEach((w, i) => (e.dst[i] = w));
  e.srcPort = from.port;
  e.dstPort = to.port;
  return e;
}

/** The key of `bytes` sent from `from` to `to`, as a string of its halves. */
function keyOf(rule: KeyRule, bytes: Uint8Array, from: At, to: At, side: Side): string {
  rule.key(bytes, endpoints(from, to), side);
  return `${key.lo}:${key.hi}`;
}

/** A request's key (client to server) and its reply's (server to client). */
const requestKey = (rule: KeyRule, bytes: Uint8Array, client: At, server: At): string => keyOf(rule, bytes, client, server, Side.Request);
const replyKey = (rule: KeyRule, bytes: Uint8Array, server: At, client: At): string => keyOf(rule, bytes, server, client, Side.Reply);

const client: At = { address: '192.0.2.10', port: 50123 };
const sampServer: At = { address: '127.0.0.1', port: 7777 };
const vcmpServer: At = { address: '127.0.0.1', port: 8192 };
const mcServer: At = { address: '127.0.0.1', port: 25565 };
const v6Client: At = { address: '2001:db8:0:0:0:0:0:10', port: 50123 };
const v6Server: At = { address: '2001:db8:0:0:0:0:0:1', port: 7777 };

const vcmpAt = { serverIp: '127.0.0.1', serverPort: 8192 };
const vcmpInfo = vcmp.infoResponse.encode({
  ...vcmpAt,
  version: '04rel006',
  password: false,
  players: 1,
  maxPlayers: 50,
  hostname: 'VC',
  gamemode: 'DM',
  map: 'Vice',
});
const basicReply = (sessionId: number) =>
  mcquery.basicResponse.encode({
    sessionId,
    motd: 'A Minecraft Server',
    gametype: 'SMP',
    map: 'world',
    numPlayers: 2,
    maxPlayers: 20,
    hostPort: 25565,
    hostIp: '127.0.0.1',
  });

/** Each protocol's request and reply pairs, with the server they go to. */
const pairs: readonly [string, KeyRule, At, Uint8Array, Uint8Array][] = [
  ['samp info', sampKeys, sampServer, samp.infoRequest.encode(sampAt), sampInfo],
  [
    'samp ping',
    sampKeys,
    sampServer,
    samp.pingRequest.encode({ ...sampAt, nonce: 0xdeadbeef }),
    samp.pingResponse.encode({ ...sampAt, nonce: 0xdeadbeef }),
  ],
  [
    'samp omp',
    sampKeys,
    sampServer,
    samp.ompRequest.encode(sampAt),
    samp.ompResponse.encode({ ...sampAt, discord: 'd', bannerLight: '', bannerDark: '', logo: '' }),
  ],
  ['vcmp info', vcmpKeys, vcmpServer, vcmp.infoRequest.encode(vcmpAt), vcmpInfo],
  [
    'vcmp ping',
    vcmpKeys,
    vcmpServer,
    vcmp.pingRequest.encode({ ...vcmpAt, nonce: 42 }),
    vcmp.pingResponse.encode({ ...vcmpAt, nonce: 42 }),
  ],
  [
    'mcquery handshake',
    mc,
    mcServer,
    mcquery.handshakeRequest.encode({ sessionId: 0x01020304 }),
    mcquery.handshakeResponse.encode({ sessionId: 0x01020304, token: 9513307 }),
  ],
  ['mcquery basic', mc, mcServer, mcquery.basicRequest.encode({ sessionId: 0x0f0f0f0f, token: 9513307 }), basicReply(0x0f0f0f0f)],
];

describe('pairing keys', () => {
  it.each(pairs)('gives a %s request and its reply the same key, over IPv4 and IPv6', (_, rule, server, request, reply) => {
    const k = requestKey(rule, request, client, server);
    expect(requestKey(rule, request, client, server)).toBe(k);
    expect(replyKey(rule, reply, server, client)).toBe(k);
    const v6Request = requestKey(rule, request, v6Client, { ...v6Server, port: server.port });
    expect(replyKey(rule, reply, { ...v6Server, port: server.port }, v6Client)).toBe(v6Request);
    expect(v6Request).not.toBe(k);
  });

  it.each(pairs)(
    'gives a %s request another key from another client port, client or server address, or server port',
    (_, rule, server, request) => {
      const k = requestKey(rule, request, client, server);
      const others = [
        requestKey(rule, request, { ...client, port: client.port + 1 }, server),
        requestKey(rule, request, { ...client, address: '192.0.2.11' }, server),
        requestKey(rule, request, client, { ...server, address: '127.0.0.2' }),
        requestKey(rule, request, client, { ...server, port: server.port + 1 }),
        // Client and server swapped: the reply's side of the same datagram is another conversation.
        keyOf(rule, request, client, server, Side.Reply),
      ];
      expect(new Set([k, ...others]).size).toBe(others.length + 1);
    },
  );

  it('tells IPv6 endpoints apart by each of their four words', () => {
    const request = samp.infoRequest.encode(sampAt);
    const k = requestKey(sampKeys, request, v6Client, v6Server);
    const others = [
      requestKey(sampKeys, request, { ...v6Client, address: '2001:db9:0:0:0:0:0:10' }, v6Server),
      requestKey(sampKeys, request, { ...v6Client, address: '2001:db8:1:0:0:0:0:10' }, v6Server),
      requestKey(sampKeys, request, { ...v6Client, address: '2001:db8:0:0:0:1:0:10' }, v6Server),
      requestKey(sampKeys, request, { ...v6Client, address: '2001:db8:0:0:0:0:0:11' }, v6Server),
      requestKey(sampKeys, request, v6Client, { ...v6Server, address: '2001:db8:0:0:0:0:1:1' }),
      // The IPv4 address that is IPv6's first word: not the same endpoint.
      requestKey(sampKeys, request, { address: '32.1.13.184', port: v6Client.port }, { address: '32.1.13.184', port: v6Server.port }),
    ];
    expect(new Set([k, ...others]).size).toBe(others.length + 1);
  });

  it('gives requests that differ in the bytes a reply echoes different keys', () => {
    const k = (rule: KeyRule, request: Uint8Array, server = sampServer) => requestKey(rule, request, client, server);
    const keys = [
      k(sampKeys, samp.infoRequest.encode(sampAt)),
      k(sampKeys, samp.rulesRequest.encode(sampAt)),
      k(sampKeys, samp.infoRequest.encode({ ...sampAt, serverIp: '127.0.0.2' })),
      k(sampKeys, samp.infoRequest.encode({ ...sampAt, serverPort: 7778 })),
      k(sampKeys, samp.pingRequest.encode({ ...sampAt, nonce: 1 })),
      k(sampKeys, samp.pingRequest.encode({ ...sampAt, nonce: 2 })),
      // open.mp's 15-byte echo form of `o` echoes its 4 trailing bytes: not the 11-byte `o`'s key.
      k(sampKeys, samp.ompRequest.encode(sampAt)),
      k(sampKeys, new Uint8Array([...samp.ompRequest.encode(sampAt), 1, 2, 3, 4])),
      k(sampKeys, new Uint8Array([...samp.ompRequest.encode(sampAt), 1, 2, 3, 5])),
      // The same header bytes under another protocol.
      k(vcmpKeys, new Uint8Array([...new TextEncoder().encode('VCMP'), ...samp.infoRequest.encode(sampAt).subarray(4)])),
      k(mc, mcquery.handshakeRequest.encode({ sessionId: 1 }), mcServer),
      k(mc, mcquery.handshakeRequest.encode({ sessionId: 2 }), mcServer),
      k(mc, mcquery.basicRequest.encode({ sessionId: 1, token: 5 }), mcServer),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // What a reply does not echo (SA:MP's magic, a stat request's token) is not in the key.
    const magicless = samp.infoRequest.encode(sampAt).slice();
    magicless[0] = 0x58;
    expect(k(sampKeys, magicless)).toBe(keys[0]);
    expect(k(mc, mcquery.basicRequest.encode({ sessionId: 1, token: 6 }), mcServer)).toBe(keys[12]);
  });

  it('keys a datagram cut short before the end of its echo by what it has', () => {
    const ping = samp.pingRequest.encode({ ...sampAt, nonce: 0x01020304 });
    const keys = [11, 12, 13, 14, 15].map((n) => requestKey(sampKeys, ping.subarray(0, n), client, sampServer));
    expect(new Set(keys).size).toBe(5);
    // Also where the bytes it lacks would be zeros: its length is in the key.
    const zeros = samp.pingRequest.encode({ ...sampAt, nonce: 0 });
    expect(new Set([11, 12, 13, 14, 15].map((n) => requestKey(sampKeys, zeros.subarray(0, n), client, sampServer))).size).toBe(5);
    // Bytes past the echo do not count.
    expect(requestKey(sampKeys, new Uint8Array([...ping, 9, 9]), client, sampServer)).toBe(keys[4]);
  });

  it('finds the request a reply from another address was filed under, by the address its echo names', () => {
    const request = samp.infoRequest.encode(sampAt);
    const filed = requestKey(sampKeys, request, client, sampServer);
    // The server answers from another address of its host.
    const other: At = { address: '10.0.0.5', port: 7777 };
    const e = endpoints(other, client);
    expect(sampKeys.near(sampInfo, e, 0)).toBe(true);
    expect(`${key.lo}:${key.hi}`).toBe(filed);
    expect(replyKey(sampKeys, sampInfo, other, client)).not.toBe(filed);
    expect(sampKeys.near(sampInfo, e, 1)).toBe(false);
    // From another port too (the echo names the port, little-endian).
    expect(sampKeys.near(sampInfo, endpoints({ address: '127.0.0.1', port: 7778 }, client), 0)).toBe(true);
    expect(`${key.lo}:${key.hi}`).toBe(filed);
    // Ping: the nonce is in the key the echo names.
    const ping = samp.pingRequest.encode({ ...sampAt, nonce: 77 });
    expect(vcmpKeys.near(vcmp.pingResponse.encode({ ...vcmpAt, nonce: 77 }), endpoints(other, client), 0)).toBe(true);
    expect(`${key.lo}:${key.hi}`).toBe(requestKey(vcmpKeys, vcmp.pingRequest.encode({ ...vcmpAt, nonce: 77 }), client, vcmpServer));
    expect(sampKeys.near(ping, endpoints(other, client), 0)).toBe(true);
    expect(`${key.lo}:${key.hi}`).toBe(requestKey(sampKeys, ping, client, sampServer));
  });

  it('looks for no near miss from the address the echo names, over IPv6, or in a reply too short to name one', () => {
    expect(sampKeys.near(sampInfo, endpoints(sampServer, client), 0)).toBe(false);
    expect(sampKeys.near(sampInfo, endpoints(v6Server, v6Client), 0)).toBe(false);
    expect(sampKeys.near(sampInfo.subarray(0, 9), endpoints({ address: '10.0.0.5', port: 7777 }, client), 0)).toBe(false);
  });

  it('finds the Minecraft request of another type a reply names by its session id', () => {
    // A handshake reply to a client whose basic stat request waits: that request's key, and no other.
    const reply = mcquery.handshakeResponse.encode({ sessionId: 0x0f0f0f0f, token: 1 });
    const basic = requestKey(mc, mcquery.basicRequest.encode({ sessionId: 0x0f0f0f0f, token: 1 }), client, mcServer);
    const e = endpoints(mcServer, client);
    expect(mc.near(reply, e, 0)).toBe(true);
    expect(`${key.lo}:${key.hi}`).toBe(basic);
    expect(mc.near(reply, e, 1)).toBe(false);
    // And the other way: a stat reply names the waiting handshake.
    expect(mc.near(basicReply(0x0f0f0f0f), e, 0)).toBe(true);
    expect(`${key.lo}:${key.hi}`).toBe(requestKey(mc, mcquery.handshakeRequest.encode({ sessionId: 0x0f0f0f0f }), client, mcServer));
  });

  it('reads a Minecraft session id, and keys a request as if it carried another', () => {
    const request = mcquery.basicRequest.encode({ sessionId: 0xfedcba98, token: 1 });
    expect(mc.session(request, Side.Request)).toBe(0xfedcba98);
    expect(mc.session(basicReply(0x01020304), Side.Reply)).toBe(0x01020304);
    mc.withSession(request, endpoints(client, mcServer), 0x11111111);
    expect(`${key.lo}:${key.hi}`).toBe(requestKey(mc, mcquery.basicRequest.encode({ sessionId: 0x11111111, token: 1 }), client, mcServer));
    expect(sampKeys.session(samp.infoRequest.encode(sampAt), Side.Request)).toBe(0);
    expect(() => sampKeys.withSession(samp.infoRequest.encode(sampAt), endpoints(client, sampServer), 1)).toThrow(
      'an echo key has no session',
    );
  });

  it('keys a token by its conversation, from either side, and the token', () => {
    const at = (e: Endpoints, side: Side, token: number): string => {
      tokenKey(e, side, token);
      return `${key.lo}:${key.hi}`;
    };
    const k = at(endpoints(client, mcServer), Side.Request, -5);
    expect(at(endpoints(mcServer, client), Side.Reply, -5)).toBe(k);
    expect(at(endpoints(client, mcServer), Side.Request, 5)).not.toBe(k);
    expect(at(endpoints({ ...client, port: 1 }, mcServer), Side.Request, -5)).not.toBe(k);
  });

  it('reads IPv4 and IPv6 addresses out of a packet as big-endian words', () => {
    const bytes = new Uint8Array(40);
    bytes.set([192, 0, 2, 10], 12);
    bytes.set([127, 0, 0, 1], 16);
    const e = new Endpoints();
    e.read(bytes, false, 12, 16, 50123, 7777);
    expect([e.v6, e.src[0], e.dst[0], e.srcPort, e.dstPort]).toEqual([false, 0xc000020a, 0x7f000001, 50123, 7777]);
    const v6 = new Uint8Array(40);
    for (let i = 0; i < 16; i++) {
      v6[8 + i] = i + 1;
      v6[24 + i] = 0xf0 + i;
    }
    e.read(v6, true, 8, 24, 1, 2);
    expect([...e.src]).toEqual([0x01020304, 0x05060708, 0x090a0b0c, 0x0d0e0f10]);
    expect([...e.dst]).toEqual([0xf0f1f2f3, 0xf4f5f6f7, 0xf8f9fafb, 0xfcfdfeff]);
    e.none();
    expect([e.v6, ...e.src, ...e.dst, e.srcPort, e.dstPort].every((x) => x === 0 || x === false)).toBe(true);
  });
});

describe('hashBytes', () => {
  const hash = (b: Uint8Array): [number, number] => {
    hashBytes(b);
    return [key.lo, key.hi];
  };

  it('gives equal bytes the same hash, wherever they are held', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(16), (b, pad) => {
        const elsewhere = new Uint8Array(b.length + pad);
        elsewhere.set(b, pad);
        expect(hash(elsewhere.subarray(pad))).toEqual(hash(b));
        expect(hash(b.slice())).toEqual(hash(b));
      }),
      { numRuns: runs },
    );
  });

  it('gives bytes differing in one byte different hashes, in both halves', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (b, at, flip) => {
        const c = b.slice();
        const i = at % b.length;
        c[i] = c[i]! ^ flip;
        const [x, y] = [hash(b), hash(c)];
        // The low half always (a chain of invertible steps from the differing word on); the high half mixes in
        // the low lane, so it could agree by a 1-in-2^32 accident, never seen here.
        expect(x[0]).not.toBe(y[0]);
        expect(x[1]).not.toBe(y[1]);
      }),
      { numRuns: runs * 3 },
    );
  });

  it('gives bytes and the same bytes with one more byte different hashes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat(255), (b, extra) => {
        expect(hash(new Uint8Array([...b, extra]))).not.toEqual(hash(b));
      }),
      { numRuns: runs },
    );
    expect(hash(new Uint8Array(0))).not.toEqual(hash(new Uint8Array(1)));
  });
});
