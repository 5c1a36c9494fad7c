/**
 * Abuse limits: the token buckets with a made-up clock, then floods over real UDP from
 * one loopback address while a second one (127.0.0.2) is still answered.
 */
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { SourceLimiter, defaultLimits, type SampServerState } from '@gamequery/codec/node';
import { client, setup } from './udp.ts';
import { flood as floodFigures } from './flood.ts';

describe('SourceLimiter', () => {
  const clock = () => {
    const c = { t: 0, now: () => c.t };
    return c;
  };

  it('defaults to 50 requests/s and 64 KiB/s per source', () => {
    expect(defaultLimits).toMatchObject({ requestsPerSecond: 50, requestBurst: 50, bytesPerSecond: 65536, byteBurst: 65536 });
  });

  it('admits a burst of requests, then the rate', () => {
    const c = clock();
    const l = new SourceLimiter({ requestsPerSecond: 10, requestBurst: 5 }, c.now);
    expect(Array.from({ length: 8 }, () => l.admitRequest('a'))).toEqual([true, true, true, true, true, false, false, false]);
    c.t += 100; // one more token
    expect([l.admitRequest('a'), l.admitRequest('a')]).toEqual([true, false]);
    c.t += 10_000; // refills to the burst, not beyond
    expect(Array.from({ length: 6 }, () => l.admitRequest('a')).filter(Boolean)).toHaveLength(5);
  });

  it('caps reply bytes per second and judges each reply whole', () => {
    const c = clock();
    const l = new SourceLimiter({ bytesPerSecond: 1000, byteBurst: 1000 }, c.now);
    expect(l.admitReply('a', 600)).toBe(true);
    expect(l.admitReply('a', 600)).toBe(false); // 400 left: dropped whole, not cut
    expect(l.admitReply('a', 400)).toBe(true);
    c.t += 500;
    expect(l.admitReply('a', 501)).toBe(false);
    expect(l.admitReply('a', 500)).toBe(true);
  });

  it('keeps one pair of buckets per source', () => {
    const c = clock();
    const l = new SourceLimiter({ requestsPerSecond: 1, requestBurst: 1 }, c.now);
    expect(l.admitRequest('a')).toBe(true);
    expect(l.admitRequest('a')).toBe(false);
    expect(l.admitRequest('b')).toBe(true);
  });

  it('forgets idle sources first, then the least recently seen, beyond maxSources', () => {
    const c = clock();
    const l = new SourceLimiter({ requestsPerSecond: 1, requestBurst: 2, maxSources: 3 }, c.now);
    for (const s of ['a', 'b', 'c']) l.admitRequest(s);
    l.admitRequest('a'); // a: 0 tokens, most recently seen
    l.admitRequest('d'); // full: evicts none idle (all spent), so the least recent: b
    expect(l.size).toBe(3);
    expect(l.admitRequest('a')).toBe(false); // a kept its empty bucket
  });

  it('makes room for a flood of new sources a sixteenth of maxSources at a time, the least recently seen first', () => {
    const c = clock();
    const l = new SourceLimiter({ requestsPerSecond: 1, requestBurst: 1, maxSources: 160 }, c.now);
    // 160 sources, each with its one token spent: none idle.
    for (let i = 0; i < 160; i++) expect(l.admitRequest(`s${i}`)).toBe(true);
    l.admitRequest('s5'); // seen again: now the most recent
    expect(l.admitRequest('new0')).toBe(true);
    // Ten went: s0-s4 and s6-s10 (s5 was seen since); the next nine new sources need no room made.
    expect(l.size).toBe(151);
    for (let i = 1; i <= 9; i++) l.admitRequest(`new${i}`);
    expect(l.size).toBe(160);
    // Kept: s5 and s11 still have their empty buckets; s0 and s10 were forgotten and start full.
    expect([l.admitRequest('s5'), l.admitRequest('s11'), l.admitRequest('s0'), l.admitRequest('s10')]).toEqual([false, false, true, true]);
  });

  it('rejects limits that are not positive', () => {
    expect(() => new SourceLimiter({ requestsPerSecond: 0 })).toThrow('limits.requestsPerSecond');
    expect(() => new SourceLimiter({ bytesPerSecond: Number.NaN })).toThrow('limits.bytesPerSecond');
  });
});

const crowd = Array.from({ length: 100 }, (_, i) => ({ name: `Player_${String(i).padStart(17, '0')}`, score: i, ping: 50 }));
const server: SampServerState = { flavor: 'samp037', port: 0, hostname: 'Flood target', maxPlayers: 100, players: crowd };

/**
 * Sends `count` copies of `bytes`, in bursts of 25 with a 2 ms pause between them so
 * the emulator's receive buffer does not overflow (the kernel would drop the excess
 * before the limiter ever saw it). Bounded.
 */
async function flood(
  c: Awaited<ReturnType<typeof client>>,
  bytes: Uint8Array,
  to: { address: string; port: number },
  count: number,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    await c.send(bytes, to);
    if (i % 25 === 24) await new Promise((r) => setTimeout(r, 2));
  }
}

describe('request rate over UDP', () => {
  it('drops a flood from one source beyond its rate while another source is still answered', async () => {
    const rate = 20;
    const s = await setup({ servers: [server], limits: { requestsPerSecond: rate, requestBurst: rate } });
    const other = await client('127.0.0.2');
    try {
      const to = { address: '127.0.0.1', port: s.server().port };
      const info = samp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: to.port });
      const start = performance.now();
      await flood(s.client, info, to, 300);
      const answeredOther = await other.query(info, to);
      await new Promise((r) => setTimeout(r, 200));
      const elapsed = (performance.now() - start) / 1000;
      const got = s.client.drain(to).length;

      expect(answeredOther).toHaveLength(1);
      expect(got).toBeGreaterThanOrEqual(rate);
      expect(got).toBeLessThanOrEqual(Math.ceil(rate + rate * elapsed));
      const stats = s.emulator.stats();
      expect(stats.total.received).toBe(301);
      expect(stats.total.answered).toBe(got + 1);
      expect(stats.total.rateLimited).toBe(300 - got);
      expect(stats.sources).toBe(2);
    } finally {
      await other.close();
      await s.done();
    }
  });
});

describe('reply bytes over UDP', () => {
  it('drops replies beyond the byte budget of one source while another source is still answered', async () => {
    const budget = 8192;
    const s = await setup({
      servers: [server],
      limits: { requestsPerSecond: 10_000, requestBurst: 10_000, bytesPerSecond: budget, byteBurst: budget },
    });
    const other = await client('127.0.0.2');
    try {
      const to = { address: '127.0.0.1', port: s.server().port };
      const d = samp.playersRequest.encode({ serverIp: '127.0.0.1', serverPort: to.port });
      const [one] = await other.query(d, to);
      const size = one!.length;
      expect(size).toBeGreaterThan(3000); // 100 players with 24-byte names: 3413 bytes

      const start = performance.now();
      await flood(s.client, d, to, 50);
      await new Promise((r) => setTimeout(r, 200));
      const elapsed = (performance.now() - start) / 1000;
      const bytes = s.client.drain(to).reduce((n, b) => n + b.length, 0);
      expect(bytes).toBeGreaterThan(0);
      expect(bytes).toBeLessThanOrEqual(budget + budget * elapsed);
      expect(s.emulator.stats().total.byteCapped).toBeGreaterThan(0);

      // The other source spent one reply of its own budget: it still gets one more.
      expect(await other.query(d, to)).toHaveLength(1);
    } finally {
      await other.close();
      await s.done();
    }
  });
});

describe('a flood from one source, with the default limits', () => {
  const header = (port: number) => ({ serverIp: '127.0.0.1', serverPort: port });

  it('holds the reply bytes of 3000 `d` requests a second to the byte budget, and keeps answering a second source', async () => {
    const f = await floodFigures({ request: (p) => samp.playersRequest.encode(header(p)), durationMs: 800, rate: 3000 });
    console.info(`flood of d: ${JSON.stringify(f)}`);
    expect(f.requests).toBeGreaterThan(500);
    expect(f.replyBytes).toBeGreaterThan(0);
    expect(f.replyBytes).toBeLessThanOrEqual(f.allowedBytes);
    expect(f.replies).toBeLessThanOrEqual(f.allowedRequests);
    // Unlimited, each 11-byte request would bring back 3413 bytes (310×).
    expect(f.amplification).toBeLessThan(f.allowedBytes / f.requestBytes + 0.01);
    expect(f.amplification).toBeLessThan(10);
    expect(f.rateLimited).toBeGreaterThan(0);
    expect(f.byteCapped).toBeGreaterThan(0);
    expect(f.polite.asked).toBeGreaterThan(5);
    expect(f.polite.answered).toBe(f.polite.asked);
  });

  it('holds 3000 `i` requests a second to the request rate, and keeps answering a second source', async () => {
    const f = await floodFigures({ request: (p) => samp.infoRequest.encode(header(p)), durationMs: 800, rate: 3000 });
    console.info(`flood of i: ${JSON.stringify(f)}`);
    expect(f.replies).toBeGreaterThanOrEqual(defaultLimits.requestBurst);
    expect(f.replies).toBeLessThanOrEqual(f.allowedRequests);
    expect(f.amplification).toBeLessThan(1);
    expect(f.byteCapped).toBe(0);
    expect(f.polite.answered).toBe(f.polite.asked);
  });
});
