// The dissector on traffic as users capture it (bench/traffic.ts: the mix and rate of
// docs/traffic.md and what real captures add), every frame's links checked against the
// generator's ground truth. `pnpm bench dissect --check` does the same on 1 M frames through
// the built CLI.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Dissector, dissectCaptureBatches, type DissectStats } from '@gamequery/dissect';
import {
  CATEGORIES,
  DEBATABLE,
  LinkChecker,
  Truth,
  formatLinkReport,
  generateTraffic,
  type LinkReport,
  type TrafficOptions,
} from '../../../../bench/traffic.ts';

/** Per 100 exchanges (the table of docs/traffic.md, stat = full + basic), plus open.mp's `o`, which the table leaves out. */
const MIX: Readonly<Record<string, number>> = {
  'samp.info': 21.3,
  'samp.rules': 16.6,
  'samp.rcon': 9.7,
  'samp.clients': 9.4,
  'samp.ping': 4.9,
  'samp.players': 4.8,
  'mcquery.handshake': 14.2,
  'mcquery.stat': 9.5,
  'vcmp.info': 4.8,
  'vcmp.clients': 4.9,
  'samp.omp': 0.5,
};

interface Dissected {
  readonly report: LinkReport;
  readonly stats: DissectStats;
  /** Requests by `protocol.message`. */
  readonly requests: Map<string, number>;
  readonly clients: Set<string>;
  readonly servers: Set<string>;
  /** Reassembled datagrams by `protocol.message`. */
  readonly fragmented: Map<string, number>;
  /** Lines of the longest RCON reply. */
  readonly longestRcon: number;
  /** Frames from each answered request to its first reply. */
  readonly distances: number[];
  readonly seconds: number;
}

/** Generates a capture and dissects it as it is generated, the checker taking every packet. */
async function dissectGenerated(options: Omit<TrafficOptions, 'truth'>): Promise<Dissected> {
  const truth = new Truth();
  const checker = new LinkChecker(truth);
  const dissector = new Dissector();
  const requests = new Map<string, number>();
  const fragmented = new Map<string, number>();
  const rconLines = new Map<number, number>();
  const clients = new Set<string>();
  const servers = new Set<string>();
  const distances: number[] = [];
  let first = Number.NaN;
  let last = Number.NaN;
  const add = (m: Map<string, number>, key: string): void => void m.set(key, (m.get(key) ?? 0) + 1);
  for await (const batch of dissectCaptureBatches(generateTraffic({ ...options, truth }), {}, dissector)) {
    expect(batch.error).toBeUndefined();
    for (const p of batch.packets) {
      checker.add(p);
      const time = Number(p.captureTime);
      if (!(time >= first)) first = time;
      if (!(time <= last)) last = time;
      const name = `${p.protocol}.${p.message === 'full' || p.message === 'basic' ? 'stat' : p.message}`;
      if (p.fragments) add(fragmented, `${p.protocol}.${p.message}`);
      if (p.direction === 'request') {
        add(requests, name);
        clients.add(`${p.src.ip}:${p.src.port}`);
        servers.add(`${p.dst.ip}:${p.dst.port}`);
        if (p.responseIn) distances.push(p.responseIn - p.frame);
      } else if (p.message === 'rcon' && p.requestIn) {
        rconLines.set(p.requestIn, (rconLines.get(p.requestIn) ?? 0) + 1);
      }
    }
  }
  return {
    report: checker.finish(),
    stats: dissector.stats,
    requests,
    clients,
    servers,
    fragmented,
    longestRcon: [...rconLines.values()].reduce((a, b) => Math.max(a, b), 0),
    distances: distances.sort((a, b) => a - b),
    seconds: last - first,
  };
}

/** The shared 200 000-frame run, made once for the tests that read it. */
let atRate: Promise<Dissected> | undefined;
const real = (): Promise<Dissected> => (atRate ??= dissectGenerated({ frames: 200_000, seed: 1 }));

/** What the report shows of one category. */
const of = (report: LinkReport, category: (typeof CATEGORIES)[number]) => report.byCategory[category];

describe('traffic that looks real (bench/traffic.ts)', () => {
  it('links every request with its reply in the file both ways, to the right reply, and marks the unanswered ones: 200 000 frames at the rate of docs/traffic.md', async () => {
    const { report } = await real();
    // Every kind of frame the truth knows is in the capture (late replies need 5 s: see the next test).
    for (const c of CATEGORIES) if (c !== 'late' && c !== 'late-request') expect(of(report, c).frames, c).toBeGreaterThan(0);
    expect(report.failures, formatLinkReport(report)).toBe(0);
  }, 180_000);

  it('links late replies to the requests that timed out and keeps every other link right, at a twentieth of the rate (20 s of capture)', async () => {
    // 5.2–6 s after their request, late replies fit only in a capture longer than that: here 100 000 frames over ~20 s.
    const { report, seconds } = await dissectGenerated({ frames: 100_000, seed: 2, rate: 0.05 });
    expect(seconds).toBeGreaterThan(15);
    expect(of(report, 'late').frames).toBeGreaterThanOrEqual(5);
    expect(of(report, 'late-request').frames).toBeGreaterThanOrEqual(of(report, 'late').frames);
    expect(report.failures, formatLinkReport(report)).toBe(0);
  }, 180_000);

  it('reports cut-short replies apart, as debatable, never as failures', async () => {
    const { report } = await real();
    for (const c of DEBATABLE) expect(of(report, c).frames, c).toBeGreaterThan(0);
    const debatable = [...DEBATABLE].reduce((n, c) => n + of(report, c).mismatched, 0);
    expect(report.debatable).toBe(debatable);
    expect(report.debatableMismatches.every((m) => DEBATABLE.has(m.category as (typeof CATEGORIES)[number]))).toBe(true);
    expect(report.mismatches.some((m) => DEBATABLE.has(m.category as (typeof CATEGORIES)[number]))).toBe(false);
  }, 180_000);

  it('has the mix, rate and shape of docs/traffic.md: shares per message, ≥ 80 k packets/s of capture time, thousands of clients, overlapping exchanges, fragments, RCON pages, other traffic', async () => {
    const d = await real();
    const total = [...d.requests.values()].reduce((a, b) => a + b, 0);
    const weights = Object.values(MIX).reduce((a, b) => a + b, 0);
    for (const [name, share] of Object.entries(MIX)) {
      const measured = (100 * (d.requests.get(name) ?? 0)) / total;
      expect(Math.abs(measured - (100 * share) / weights), `${name}: ${measured.toFixed(2)} % of requests`).toBeLessThan(0.6);
    }
    expect([...d.requests.keys()].sort()).toEqual(Object.keys(MIX).sort());
    const rate = d.stats.frames / d.seconds;
    expect(rate).toBeGreaterThanOrEqual(80_000);
    expect(rate).toBeLessThan(120_000);
    expect(d.clients.size).toBeGreaterThanOrEqual(2000);
    expect(d.servers.size).toBeGreaterThanOrEqual(24);
    expect(d.servers.size).toBeLessThanOrEqual(1000);
    // Round trips of 0.04–0.9 ms at this rate: dozens of other frames between a request and its reply.
    expect(d.distances[d.distances.length >> 1]).toBeGreaterThanOrEqual(20);
    // 100-player `d` and `c` lists and long full-stat player lists arrive as IP fragments.
    for (const m of ['samp.players', 'samp.clients', 'mcquery.full']) expect(d.fragmented.get(m) ?? 0, m).toBeGreaterThan(10);
    expect(d.stats.skipped['fragment'] ?? 0).toBeGreaterThan(100);
    expect(d.longestRcon).toBeGreaterThanOrEqual(10);
    expect(d.stats.nonGame).toBeGreaterThan(0);
    expect(d.stats.skipped['not-udp'] ?? 0).toBeGreaterThan(0);
    expect((d.stats.nonGame + (d.stats.skipped['not-udp'] ?? 0)) / d.stats.frames).toBeGreaterThan(0.015);
  }, 180_000);

  it('generates the same bytes from the same seed, and other bytes from another', () => {
    const hash = (seed: number): string => {
      const h = createHash('sha256');
      for (const chunk of generateTraffic({ frames: 30_000, seed })) h.update(chunk);
      return h.digest('hex');
    };
    const one = hash(7);
    expect(hash(7)).toBe(one);
    expect(hash(8)).not.toBe(one);
  });
});
