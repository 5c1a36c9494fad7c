import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex } from '@gamequery/codec';
import { clientOf, shardOf, type Endpoint } from '@gamequery/codec/rx';
import { loadVectors } from '../helpers/vectors.ts';
import { isDotted } from '../../src/pairing/rules.ts';
import { client, mcServer, sampServer, vcmpServer } from './helpers.ts';

const clean = loadVectors().filter((v) => !v.error);
const servers = { samp: sampServer, vcmp: vcmpServer, mcquery: mcServer };

/** A reply echoes the request's bytes 4–9, the server's address (SA:MP, VC:MP). */
const echoes = (q: (typeof clean)[number], r: (typeof clean)[number]): boolean =>
  q.protocol === 'mcquery' || q.hex.slice(8, 20) === r.hex.slice(8, 20);

/** Request and response vectors of one message that could be a request and its reply. */
const pairs = clean
  .filter((v) => v.direction === 'request')
  .flatMap((q) =>
    clean
      .filter((r) => r.direction === 'response' && r.protocol === q.protocol && r.message === q.message && echoes(q, r))
      .map((r) => ({ q, r })),
  );

describe('clientOf / shardOf', () => {
  it('has a request and response vector of every message to pair', () => {
    expect(new Set(pairs.map((p) => `${p.q.protocol}.${p.q.message}`)).size).toBeGreaterThanOrEqual(10);
  });

  it.each(clean.map((v) => [v.id, v] as const))('%s: names the client, whichever way the datagram goes', (_, v) => {
    const server = servers[v.protocol];
    const bytes = fromHex(v.hex);
    const d = v.direction === 'request' ? { bytes, from: client, to: server } : { bytes, from: server, to: client };
    expect(clientOf(d)).toBe(client);
    // The server seen at another address (NAT, a multi-homed host): its port still tells.
    const natted: Endpoint = { address: '10.9.8.7', port: server.port };
    expect(clientOf(v.direction === 'request' ? { bytes, from: client, to: natted } : { bytes, from: natted, to: client })).toBe(client);
  });

  it('puts a request and its reply in one shard, whatever the endpoints (NAT, equal ports, the client at the named address)', () => {
    const address = fc.constantFrom('127.0.0.1', '10.0.0.1', '192.0.2.7', '::1');
    const port = fc.constantFrom(7777, 8192, 25565, 50000, 50001);
    const endpoint = fc.record({ address, port });
    fc.assert(
      fc.property(fc.constantFrom(...pairs), endpoint, endpoint, fc.integer({ min: 1, max: 7 }), ({ q, r }, c, s) => {
        fc.pre(c.address !== s.address || c.port !== s.port);
        const request = { bytes: fromHex(q.hex), from: c, to: s };
        const reply = { bytes: fromHex(r.hex), from: s, to: c };
        expect(clientOf(reply)).toBe(clientOf(request));
      }),
      { numRuns: 2000, seed: 11 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...pairs), endpoint, endpoint, fc.integer({ min: 1, max: 7 }), ({ q, r }, c, s, count) => {
        fc.pre(c.address !== s.address || c.port !== s.port);
        expect(shardOf({ bytes: fromHex(r.hex), from: s, to: c }, count)).toBe(shardOf({ bytes: fromHex(q.hex), from: c, to: s }, count));
      }),
      { numRuns: 500, seed: 12 },
    );
  });

  it('spreads clients over the shards, the same way every time', () => {
    const bytes = fromHex(pairs[0]!.q.hex);
    const counts = [0, 0, 0, 0];
    for (let port = 40000; port < 42000; port++) {
      const shard = shardOf({ bytes, from: { address: '192.0.2.1', port }, to: sampServer }, 4);
      expect(shard).toBe(shardOf({ bytes, from: { address: '192.0.2.1', port }, to: sampServer }, 4));
      counts[shard]!++;
    }
    for (const n of counts) expect(n).toBeGreaterThan(350);
    expect(shardOf({ bytes, from: client, to: sampServer }, 1)).toBe(0);
  });

  it('tells an embedded address by comparing digits, as the text of the bytes would', () => {
    const byte = fc.integer({ min: 0, max: 255 });
    const quad = fc.tuple(byte, byte, byte, byte);
    // The address itself, and near misses of it: a digit more, leading zeros, three parts, a neighbour; IPv6, empty.
    const variants = [
      (q: number[]) => q.join('.'),
      (q: number[]) => `${q.join('.')}0`,
      (q: number[]) => q.map((x) => String(x).padStart(3, '0')).join('.'),
      (q: number[]) => q.slice(0, 3).join('.'),
      (q: number[]) => [...q.slice(0, 3), (q[3]! + 1) % 256].join('.'),
      (q: number[]) => `::ffff:${q.join('.')}`,
      () => '',
    ];
    fc.assert(
      fc.property(quad, fc.integer({ min: 0, max: variants.length - 1 }), quad, (q, v, other) => {
        const bytes = new Uint8Array([0, 0, 0, 0, ...q, 0, 0]);
        for (const address of [variants[v]!(q), other.join('.')]) expect(isDotted(bytes, 4, address)).toBe(address === q.join('.'));
      }),
      { numRuns: 5000, seed: 13 },
    );
  });
});
