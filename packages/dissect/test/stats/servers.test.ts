/**
 * Per-server statistics against counts made another way: a capture of real-mix traffic from
 * the benchmark's generator (bench/traffic.ts), whose ground truth says what every frame is
 * (request, reply, unanswered, late, duplicate, …); the server of each frame is read from its
 * own UDP header, and round trips from the capture's timestamps of the truth's pairs. At a
 * fiftieth of the usual rate, 40 000 frames span more than the 5 s timeout: replies come late.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBATABLE, Truth, generateTraffic, type Category } from '../../../../bench/traffic.ts';
import { samp } from '@gamequery/codec';
import {
  RttDigest,
  ServerStats,
  UdpDecoder,
  readCaptureSync,
  renderStatsTable,
  timestampToNumber,
  type StatsReport,
} from '@gamequery/dissect';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { ServerState, reportOf } from '../../src/stats/servers.ts';
import type { ProtocolName } from '../../src/packet-record.ts';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { captures, dissectBytes, dissectFile } from '../dissect/helpers.ts';

const REQUESTS = new Set<Category>(['request', 'rcon-request', 'rcon-next-request', 'unanswered', 'late-request']);
const REPLIES = new Set<Category>([
  'reply',
  'warning-reply',
  'fragmented-reply',
  'rcon-line',
  'rcon-next-line',
  'late',
  'duplicate',
  'unexpected-port',
]);

interface Count {
  requests: number;
  unanswered: number;
  replies: number;
  late: number;
  duplicates: number;
  unmatched: number;
  rtts: number[];
  debatable: boolean;
}

let dir: string;
let report: StatsReport;
/** The same statistics' report a row at a time, and its table's lines. */
let rowsLines: string[];
const independent = new Map<string, Count>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gamequery-stats-'));
  const file = join(dir, 'traffic.pcap');
  const truth = new Truth();
  const chunks = [...generateTraffic({ frames: 40_000, seed: 22, truth, rate: 0.02 })];
  const bytes = Buffer.concat(chunks);
  writeFileSync(file, bytes);

  const stats = new ServerStats();
  for await (const b of dissectCaptureFile(file)) for (const p of b.packets) stats.add(p);
  rowsLines = renderStatsTable(stats.reportRows());
  report = stats.report();

  // The other way: each frame's datagram and time, its category from the truth.
  const udp = new UdpDecoder();
  const times = new Map<number, number>();
  const firstTimed = new Set<number>();
  for (const item of readCaptureSync(bytes)) {
    if (item.kind !== 'packet') continue;
    const d = udp.decode(item);
    if (d.kind !== 'udp') continue;
    const e = truth.expected(item.index)!;
    const request = REQUESTS.has(e.category) || e.category === 'malformed-request';
    const server = request ? d.dst : d.src;
    const key = `${server.ip}:${server.port}`;
    let c = independent.get(key);
    if (!c)
      independent.set(
        key,
        (c = { requests: 0, unanswered: 0, replies: 0, late: 0, duplicates: 0, unmatched: 0, rtts: [], debatable: false }),
      );
    times.set(item.index, item.timestamp ? timestampToNumber(item.timestamp) : 0);
    if (DEBATABLE.has(e.category)) c.debatable = true;
    if (REQUESTS.has(e.category)) {
      c.requests++;
      if (e.unanswered) c.unanswered++;
    } else if (REPLIES.has(e.category)) {
      c.replies++;
      if (e.category === 'late') c.late++;
      else if (e.category === 'duplicate') c.duplicates++;
      else if (e.category === 'unexpected-port') c.unmatched++;
      else if (!firstTimed.has(e.requestIn)) {
        // A request's first reply (an RCON command's first output line) is its round trip.
        firstTimed.add(e.requestIn);
        c.rtts.push(times.get(item.index)! - times.get(e.requestIn)!);
      }
    }
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ServerStats on generated real-mix traffic', () => {
  it('counts requests, replies, unanswered, late replies and duplicates per server as the ground truth does', () => {
    const compared = report.servers.filter((s) => !independent.get(`${s.server.ip}:${s.server.port}`)?.debatable);
    expect(compared.length).toBeGreaterThan(50);
    for (const s of compared) {
      const c = independent.get(`${s.server.ip}:${s.server.port}`)!;
      const requests = Object.values(s.requests).reduce((a, b) => a + b, 0);
      expect(
        { requests, unanswered: s.unanswered, replies: s.replies, late: s.late, duplicates: s.duplicates, unmatched: s.unmatched },
        `${s.server.ip}:${s.server.port}`,
      ).toEqual({
        requests: c.requests,
        unanswered: c.unanswered,
        replies: c.replies,
        late: c.late,
        duplicates: c.duplicates,
        unmatched: c.unmatched,
      });
    }
    // Each kind of event occurs, so none of the comparisons above is trivially zero.
    for (const k of ['unanswered', 'late', 'duplicates', 'unmatched'] as const)
      expect(
        compared.some((s) => s[k] > 0),
        k,
      ).toBe(true);
  });

  it('gives each server the round trips of its requests: min, median, p95, max by nearest rank', () => {
    for (const s of report.servers) {
      const c = independent.get(`${s.server.ip}:${s.server.port}`)!;
      if (c.debatable || !c.rtts.length) continue;
      const sorted = [...c.rtts].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
      const ms = (v: number) => Math.round(v * 1e6) / 1e3;
      expect(s.rtt.count).toBe(sorted.length);
      const tolerance = (v: number) => (s.rtt.exact ? 0.0011 : ms(v) * 0.0055 + 0.0011);
      for (const [got, want] of [
        [s.rtt.min, sorted[0]!],
        [s.rtt.median, at(0.5)],
        [s.rtt.p95, at(0.95)],
        [s.rtt.max, sorted.at(-1)!],
      ] as const) {
        expect(Math.abs(got! - ms(want))).toBeLessThanOrEqual(tolerance(want));
      }
    }
  });

  it('totals are the sums over servers', () => {
    const t = report.totals;
    expect(t.servers).toBe(report.servers.length);
    for (const k of ['replies', 'answered', 'unanswered', 'duplicates', 'late', 'unmatched', 'malformed'] as const) {
      expect(t[k]).toBe(report.servers.reduce((n, s) => n + s[k], 0));
    }
    expect(t.rtt.count).toBe(report.servers.reduce((n, s) => n + s.rtt.count, 0));
    for (const k of ['requestBytes', 'replyBytes', 'requestWireBytes', 'replyWireBytes'] as const) {
      expect(t.amplification[k], k).toBe(report.servers.reduce((n, s) => n + s.amplification[k], 0));
      expect(t.amplification[k], k).toBeGreaterThan(0);
    }
    // By message, each count the sum of the servers' for that message.
    const names = new Set(report.servers.flatMap((s) => Object.keys(s.byMessage)));
    expect([...names].sort()).toEqual(Object.keys(t.byMessage));
    for (const name of names)
      for (const k of ['requests', 'replies', 'requestBytes', 'replyBytes', 'requestWireBytes', 'replyWireBytes'] as const)
        expect(t.byMessage[name]![k], `${name} ${k}`).toBe(report.servers.reduce((n, s) => n + (s.byMessage[name]?.[k] ?? 0), 0));
  });
});

describe('reportOf: the servers in order', () => {
  it('by protocol name, then IPv4 (by number) before IPv6 (by text), then port, whatever order they came in', () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((b) => b.join('.'));
    const v6 = fc.ipV6();
    const server = fc.record({
      protocol: fc.constantFrom<ProtocolName>('samp', 'vcmp', 'mcquery'),
      ip: fc.oneof(v4, v6),
      port: fc.nat(65535),
    });
    fc.assert(
      fc.property(fc.uniqueArray(server, { selector: (s) => `${s.protocol} ${s.ip} ${s.port}`, maxLength: 60 }), (servers) => {
        const got = reportOf(
          servers.map((s) => new ServerState(s.ip, s.port, s.protocol)),
          0,
        ).servers.map((s) => `${s.protocol} ${s.server.ip} ${s.server.port}`);
        const number = (ip: string): number => ip.split('.').reduce((n, x) => n * 256 + Number(x), 0);
        const want = [...servers]
          .sort(
            (a, b) =>
              a.protocol.localeCompare(b.protocol) ||
              Number(a.ip.includes(':')) - Number(b.ip.includes(':')) ||
              (a.ip.includes(':') ? a.ip.localeCompare(b.ip) : number(a.ip) - number(b.ip)) ||
              a.port - b.port,
          )
          .map((s) => `${s.protocol} ${s.ip} ${s.port}`);
        expect(got).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ServerStats on a bundled capture', () => {
  it('reads the player count and host name of each server from its replies', async () => {
    const stats = new ServerStats();
    for (const p of (await dissectFile(captures + 'veth-frag.pcap')).packets) stats.add(p);
    const r = stats.report();
    expect(r.servers.map((s) => [s.protocol, `${s.server.ip}:${s.server.port}`, s.players, s.hostname, s.requests])).toEqual([
      ['mcquery', '10.231.0.2:47778', 2, 'A Minecraft Server', { handshake: 1, basic: 1 }],
      ['mcquery', 'fd00:47::2:47778', 2, 'A Minecraft Server', { handshake: 1, basic: 1 }],
      ['samp', '10.231.0.2:47777', 100, 'gamequery fixture server', { info: 1, ping: 1, players: 1 }],
      ['samp', 'fd00:47::2:47777', 100, 'gamequery fixture server', { info: 1, ping: 1, players: 1 }],
    ]);
    // frames 5/6, 7/8, 9/12 (µs timestamps): 0.871, 0.135, 0.737 ms.
    expect(r.servers[2]!.rtt).toMatchObject({ count: 3, min: 0.135, median: 0.737, p95: 0.871, max: 0.871, exact: true });
    // The three in 16 log-scale bins from 0.135 to 0.871 ms: the first, and two in the last ones.
    const { edges, counts } = r.servers[2]!.rtt.histogram;
    expect(edges[0]).toBe(0.135);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect([counts[0], counts.at(-1)]).toEqual([1, 1]);
  });
});

describe('renderStatsTable', () => {
  it('writes the same lines from the report a row at a time (reportRows) as from the report', () => {
    expect(report.servers.length).toBeGreaterThan(50);
    expect(rowsLines).toEqual(renderStatsTable(report));
    expect(rowsLines.length).toBeGreaterThan(4 * report.servers.length);
  });

  it('escapes control characters a server puts in its name, and says when there is nothing', async () => {
    const server = { serverIp: '127.0.0.1', serverPort: 7777 };
    const hostname = 'evil\x1b[2J\x07name\x7f';
    const pcap = writePcap(
      [
        { seconds: 1_700_000_000, ticks: 0, data: udpFrame(samp.infoRequest.encode(server), 50000, 7777) },
        {
          seconds: 1_700_000_000,
          ticks: 250,
          data: udpFrame(
            samp.infoResponse.encode({ ...server, password: false, players: 3, maxPlayers: 10, hostname, gamemode: 'g', language: 'l' }),
            7777,
            50000,
          ),
        },
      ],
      { linkType: 1 },
    );
    const stats = new ServerStats();
    for (const p of (await dissectBytes(pcap)).packets) stats.add(p);
    const table = renderStatsTable(stats.report()).join('\n');
    expect(table).toContain('evil\\x1b[2J\\x07name\\x7f');
    expect(
      [...table.replaceAll('\n', '')].filter((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f)),
    ).toEqual([]);
    expect(stats.report().servers[0]).toMatchObject({ hostname, players: 3, rtt: { count: 1, min: 0.25, max: 0.25 } });
    const none = renderStatsTable(new ServerStats().report());
    expect(none.find((l) => l.startsWith('0 servers'))).toMatch(/^0 servers +0 +0 +0 +0 +0 +0 +0 +0$/);
    expect(none.at(-1)).toMatch(/^all +-$/);
  });

  it('gives a host name its room by characters, not UTF-16 units: 30 emoji fit in 40, 50 are cut to 39 and …', async () => {
    const server = { serverIp: '127.0.0.1', serverPort: 7777 };
    const rowOf = async (hostname: string): Promise<string> => {
      const info = samp.infoResponse.encode(
        { ...server, password: false, players: 1, maxPlayers: 2, hostname, gamemode: 'g', language: 'l' },
        { charset: 'utf8' },
      );
      const pcap = writePcap(
        [
          { seconds: 1_700_000_000, ticks: 0, data: udpFrame(samp.infoRequest.encode(server), 50000, 7777) },
          { seconds: 1_700_000_000, ticks: 250, data: udpFrame(info, 7777, 50000) },
        ],
        { linkType: 1 },
      );
      const stats = new ServerStats();
      for (const p of (await dissectBytes(pcap, { charset: 'utf8' })).packets) stats.add(p);
      return renderStatsTable(stats.report()).find((l) => l.startsWith('127.0.0.1:7777') && l.includes('\u{1F3AE}'))!;
    };
    // Each emoji is two UTF-16 units: counted as units, 30 of them (60) would pass the 40 a name is given.
    expect(await rowOf('\u{1F3AE}'.repeat(30))).toMatch(/ (\u{1F3AE}){30}$/u);
    expect(await rowOf('\u{1F3AE}'.repeat(50))).toMatch(/ (\u{1F3AE}){39}…$/u);
  });
});

describe('RttDigest', () => {
  it('is exact up to 64 samples, then within 0.55 % of the exact quantiles, min and max exact', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const n of [1, 2, 3, 4, 5, 63, 64, 65, 1000, 50_000]) {
      const d = new RttDigest();
      const xs = Array.from({ length: n }, () => 1e-5 * Math.exp(random() * 9));
      for (const x of xs) d.add(x);
      const sorted = [...xs].sort((a, b) => a - b);
      expect(d.exact).toBe(n <= 64);
      for (const q of [0.01, 0.5, 0.95, 0.99, 1]) {
        const want = sorted[Math.max(1, Math.ceil(q * n)) - 1]!;
        const got = d.quantile(q);
        if (d.exact) expect(got).toBe(want);
        else expect(Math.abs(got - want) / want).toBeLessThanOrEqual(0.0055);
      }
      expect([d.min, d.max]).toEqual([sorted[0], sorted.at(-1)]);
    }
  });

  it('answers the same whatever order the samples came in (its counts grow down as well as up)', () => {
    const sample = fc.oneof(fc.constant(0), fc.double({ min: 1e-7, max: 30, noNaN: true }));
    fc.assert(
      fc.property(fc.array(sample, { minLength: 65, maxLength: 400 }), (xs) => {
        const fed = (order: readonly number[]): RttDigest => {
          const d = new RttDigest();
          for (const x of order) d.add(x);
          return d;
        };
        const [given, up, down] = [fed(xs), fed([...xs].sort((a, b) => a - b)), fed([...xs].sort((a, b) => b - a))];
        for (const d of [up, down]) {
          for (const q of [0.01, 0.25, 0.5, 0.9, 0.99, 1]) expect(d.quantile(q)).toBe(given.quantile(q));
          expect(d.histogram(12)).toEqual(given.histogram(12));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a few samples (held in arrays of their own length) merge and answer as one digest fed them all', () => {
    for (let a = 0; a <= 5; a++)
      for (let b = 0; b <= 5; b++) {
        const xs = Array.from({ length: a + b }, (_, i) => ((i * 37) % 11) * 1e-3 + 1e-4);
        const left = new RttDigest();
        const right = new RttDigest();
        const all = new RttDigest();
        xs.forEach((x, i) => {
          (i < a ? left : right).add(x);
          all.add(x);
        });
        left.merge(right);
        for (const q of [0.01, 0.5, 0.95, 1]) expect(left.quantile(q)).toBe(all.quantile(q));
        expect([left.count, left.exact, left.histogram(4)]).toEqual([all.count, true, all.histogram(4)]);
        // The digest merged from is as it was.
        expect(right.count).toBe(b);
      }
  });

  it('a digest merged into itself holds each of its samples twice, exact or not', () => {
    for (const n of [1, 3, 4, 10, 40, 100]) {
      const d = new RttDigest();
      const twice = new RttDigest();
      for (let i = 1; i <= n; i++) {
        const x = ((i * 13) % 29) * 1e-4 + 1e-5;
        d.add(x);
        twice.add(x);
        twice.add(x);
      }
      d.merge(d);
      expect(d.count).toBe(2 * n);
      for (const q of [0.1, 0.5, 0.9, 1]) expect(d.quantile(q)).toBe(twice.quantile(q));
      expect(d.histogram(8)).toEqual(twice.histogram(8));
    }
  });

  it('merged digests answer as one fed every sample', () => {
    const a = new RttDigest();
    const b = new RttDigest();
    const all = new RttDigest();
    for (let i = 1; i <= 300; i++) {
      const x = (i % 17) * 1e-4 + i * 1e-6;
      (i % 3 ? a : b).add(x);
      all.add(x);
    }
    a.merge(b);
    for (const q of [0.5, 0.95]) expect(a.quantile(q)).toBe(all.quantile(q));
    expect([a.count, a.min, a.max]).toEqual([all.count, all.min, all.max]);
  });

  it('counts past 2^32 samples in a bucket without wrapping', () => {
    const d = new RttDigest();
    const one = new RttDigest();
    for (let i = 0; i < 100; i++) {
      const x = 2e-4 + (i % 10) * 1e-5;
      d.add(x);
      one.add(x);
    }
    // Merged into itself 33 times: 100 × 2^33 samples, 10 a bucket × 2^33 each.
    for (let i = 0; i < 33; i++) d.merge(d);
    expect(d.count).toBe(100 * 2 ** 33);
    const { counts } = d.histogram(4);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(d.count);
    expect(counts).toEqual(one.histogram(4).counts.map((n) => n * 2 ** 33));
    for (const q of [0.1, 0.5, 0.95]) expect(d.quantile(q)).toBe(one.quantile(q));
  });

  it('reaches times below and above those it has, dense between', () => {
    const d = new RttDigest();
    const all: number[] = [];
    // Past the exact samples, then lower and higher by turns, far apart.
    for (let i = 0; i < 200; i++) {
      const x = i < 70 ? 1e-3 : i % 2 ? 1e-3 / 1.2 ** (i / 10) : 1e-3 * 1.3 ** (i / 10);
      d.add(x);
      all.push(x);
    }
    all.sort((a, b) => a - b);
    for (const q of [0.01, 0.25, 0.5, 0.75, 0.99]) {
      const exact = all[Math.ceil(q * all.length) - 1]!;
      expect(Math.abs(d.quantile(q) / exact - 1)).toBeLessThan(0.0055);
    }
    expect(d.histogram(8).counts.reduce((a, b) => a + b, 0)).toBe(200);
  });
});
