/**
 * Statistics counted in the first pass alone (`captureStats`: no second read, no record) are
 * those the records give (`ServerStats` fed every packet of `dissectCaptureFile`), and a
 * capture read once and written as its exchanges settle (a pipe: `order: 'settled'`) holds the
 * packets the two passes write in frame order, as do records made without their tree's JSON: on every committed capture (a cut one
 * included: the statistics of what came before the damage, and the same error), a generated
 * real mix and a query flood whose exact counts are known. In process, so that thirty
 * captures take a second or two.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  ServerStats,
  captureStats,
  dissectCaptureBatches,
  newStats,
  packetLine,
  type DissectStats,
  type PacketRecord,
  type StatsReport,
} from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { samp } from '@gamequery/codec';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { generateFlood } from '../../../../bench/flood.ts';
import { generateTraffic } from '../../../../bench/traffic.ts';
import type { PacketOptions } from '../dissect/helpers.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** Every committed capture: *.pcap, *.pcapng and gzip of them under packages/<name>/test/fixtures. */
function committedCaptures(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.pcap(ng)?(\.gz)?$/.test(e.name)) found.push(relative(root, path));
    }
  };
  for (const pkg of readdirSync(join(root, 'packages'))) {
    try {
      walk(join(root, 'packages', pkg, 'test', 'fixtures'));
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
    }
  }
  return found.sort();
}

/** A capture's bytes in chunks of 1500 (a pipe's reads), unpacked if gzip. */
function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 1500) out.push(bytes.subarray(i, i + 1500));
  return out;
}

/** The records of the two passes over the bytes (written to a temporary file by the caller), with their statistics. */
async function twoPasses(
  path: string,
  options: PacketOptions = {},
): Promise<{ packets: PacketRecord[]; stats: DissectStats; report: StatsReport; error?: string }> {
  const stats = newStats();
  const servers = new ServerStats();
  const packets: PacketRecord[] = [];
  let error: string | undefined;
  for await (const b of dissectCaptureFile(path, options, stats)) {
    for (const p of b.packets) {
      packets.push(p);
      servers.add(p);
    }
    if (b.error) error = b.error.message;
  }
  return { packets, stats, report: servers.report(), ...(error ? { error } : {}) };
}

/** What the first pass alone counts of the chunks. */
async function firstPass(chunks: Uint8Array[]): Promise<{ stats: DissectStats; report: StatsReport; error?: string }> {
  const { FirstPassStats } = await import('@gamequery/dissect');
  const stats = newStats();
  const r = await captureStats(chunks, {}, new FirstPassStats({}, stats));
  return { stats, report: r.report, ...(r.error ? { error: r.error.message } : {}) };
}

/** The records of one pass over the chunks, each as its exchange settles. */
async function settled(chunks: Uint8Array[]): Promise<{ packets: PacketRecord[]; error?: string }> {
  const packets: PacketRecord[] = [];
  let error: string | undefined;
  for await (const b of dissectCaptureBatches(chunks, { order: 'settled' })) {
    packets.push(...b.packets);
    if (b.error) error = b.error.message;
  }
  return { packets, ...(error ? { error } : {}) };
}

/** How many records carry their tree's JSON. */
const withJson = (packets: readonly PacketRecord[]): number => packets.filter((p) => (p as { json?: Uint8Array }).json).length;

const lines = (packets: readonly PacketRecord[]): string[] => [...packets].sort((a, b) => a.frame - b.frame).map((p) => packetLine(p));

describe('statistics of the first pass = statistics of the records; one pass as exchanges settle = two passes', () => {
  const captures = committedCaptures();

  it('finds the committed captures', () => {
    expect(captures.length).toBeGreaterThanOrEqual(30);
    expect(captures).toContain('packages/dissect/test/fixtures/captures/lo.cut.pcapng');
  });

  it.each(captures)('%s', async (name) => {
    const path = join(root, name);
    const raw = readFileSync(path);
    const bytes = name.endsWith('.gz') ? gunzipSync(raw) : raw;
    const chunks = chunksOf(bytes);
    // A gzip file is read once: the records of its two passes are those of its unpacked bytes (the library reads a file by path).
    const file = name.endsWith('.gz') ? undefined : await twoPasses(path);
    const first = await firstPass(chunks);
    const one = await settled(chunks);
    if (file) {
      expect(first.report).toEqual(file.report);
      expect(first.stats).toEqual(file.stats);
      expect(first.error).toEqual(file.error);
      expect(lines(one.packets)).toEqual(lines(file.packets));
      expect(one.error).toEqual(file.error);
      // Records made without their tree's JSON (for text output): the same summaries and warnings, the same lines once rendered.
      const bare = await twoPasses(path, { treeJson: false });
      expect(withJson(bare.packets)).toBe(0);
      expect(lines(bare.packets)).toEqual(lines(file.packets));
      expect(bare.stats).toEqual(file.stats);
    }
    // From a pipe's chunks, the one pass's records counted again give the first pass's statistics.
    const servers = new ServerStats();
    for (const p of one.packets) servers.add(p);
    expect(first.report).toEqual(servers.report());
  });

  /** Writes generated chunks to a file; returns its path and the generator's summary. */
  async function written<S>(name: string, chunks: Generator<Uint8Array, S>): Promise<{ path: string; bytes: Uint8Array; summary: S }> {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const parts: Uint8Array[] = [];
    let r = chunks.next();
    for (; !r.done; r = chunks.next()) parts.push(r.value);
    const bytes = Buffer.concat(parts);
    const path = join(mkdtempSync(join(tmpdir(), 'gamequery-first-pass-')), name);
    writeFileSync(path, bytes);
    return { path, bytes, summary: r.value };
  }

  it('a real mix of 20 000 frames (bench/traffic.ts, seed 3)', async () => {
    const { path, bytes, summary } = await written('mix.pcap', generateTraffic({ frames: 20_000, seed: 3 }));
    const file = await twoPasses(path);
    const first = await firstPass(chunksOf(bytes));
    expect(first.report).toEqual(file.report);
    expect(first.stats).toEqual(file.stats);
    expect(first.stats.frames).toBe(summary.frames);
    expect(first.report.servers.length).toBeGreaterThan(10);
    const bare = await twoPasses(path, { treeJson: false });
    expect(withJson(file.packets)).toBeGreaterThan(10_000);
    expect(withJson(bare.packets)).toBe(0);
    expect(lines(bare.packets)).toEqual(lines(file.packets));
  }, 60_000);

  it('the report a row at a time (reportRows): the same servers and totals as the report, each row made as it is read', async () => {
    const { path, bytes } = await written('mix-rows.pcap', generateTraffic({ frames: 6_000, seed: 5 }));
    const { FirstPassStats } = await import('@gamequery/dissect');
    const pass = new FirstPassStats({}, newStats());
    const r = await captureStats(chunksOf(bytes), {}, pass);
    // The capture's report is made when first read, once.
    expect(r.report).toBe(r.report);
    const rows = pass.reportRows();
    expect(Array.isArray(rows.servers)).toBe(false);
    const it = rows.servers[Symbol.iterator]();
    const first = it.next();
    expect(first.done).toBe(false);
    expect({ servers: [first.value, ...{ [Symbol.iterator]: () => it }], totals: rows.totals }).toEqual(r.report);
    expect(r.report.servers.length).toBeGreaterThan(10);
    // The records' statistics the same way.
    const servers = new ServerStats();
    for await (const b of dissectCaptureFile(path, {})) for (const p of b.packets) servers.add(p);
    const recorded = servers.reportRows();
    expect(Array.isArray(recorded.servers)).toBe(false);
    expect({ servers: [...recorded.servers], totals: recorded.totals }).toEqual(servers.report());
    expect(servers.report()).toEqual(r.report);
    // Made as read, not before: a server's row read after more of its packets came counts them.
    const before = servers.report().servers;
    const later = servers.reportRows().servers[Symbol.iterator]();
    expect(later.next().value).toEqual(before[0]);
    for await (const b of dissectCaptureFile(path, {})) for (const p of b.packets) servers.add(p);
    const second = later.next().value!;
    expect(second.server).toEqual(before[1]!.server);
    expect(second.replies).toBe(2 * before[1]!.replies);
  }, 60_000);

  it('a query flood of 20 000 requests (bench/flood.ts, seed 1), and its exact counts', async () => {
    const { path, bytes, summary } = await written('flood.pcap', generateFlood({ requests: 20_000, seed: 1 }));
    const file = await twoPasses(path);
    const first = await firstPass(chunksOf(bytes));
    expect(first.report).toEqual(file.report);
    expect(first.stats).toEqual(file.stats);
    const [ip, port] = summary.server.split(':');
    expect(first.report.servers.map((s) => s.server)).toEqual([{ ip, port: Number(port) }]);
    const server = first.report.servers[0]!;
    expect(server.requests).toEqual(summary.requests);
    expect([server.answered, server.unanswered, server.replies]).toEqual([summary.answered, summary.unanswered, summary.replies]);
  }, 60_000);

  it('a query flood with a fragment flood beside it, more first fragments that never complete than are held (bench/flood.ts)', async () => {
    const { path, bytes, summary } = await written('fragmented.pcap', generateFlood({ requests: 70_000, seed: 2, fragments: true }));
    expect(summary.fragments).toBeGreaterThan(65_536);
    const file = await twoPasses(path);
    const first = await firstPass(chunksOf(bytes));
    expect(first.report).toEqual(file.report);
    expect(first.stats).toEqual(file.stats);
    expect(first.stats.skipped).toEqual({ fragment: summary.fragments });
    const server = first.report.servers[0]!;
    expect(first.report.servers).toHaveLength(1);
    expect(server.requests).toEqual(summary.requests);
    expect([server.answered, server.unanswered, server.replies]).toEqual([summary.answered, summary.unanswered, summary.replies]);
  }, 120_000);
});

describe('a server whose replies are cut short', () => {
  const SERVER = { serverIp: '127.0.0.1', serverPort: 7777 };
  /** An info reply naming the server `hostname`, cut inside its game mode (the name whole, the rest not). */
  const cutReply = (hostname: string): Uint8Array => {
    const whole = samp.infoResponse.encode({
      ...SERVER,
      password: false,
      players: 3,
      maxPlayers: 10,
      hostname,
      gamemode: 'a game mode',
      language: 'en',
    });
    return whole.subarray(0, whole.length - 'en'.length - 4 - 4);
  };

  it('names it from each as it comes: what each cut reply has of the name, the newest one winning', async () => {
    // Requests and cut replies in turn: A, A, B, A, then B. Each cut reply is malformed; its name is what it has.
    const names = ['first', 'first', 'second', 'first', 'second'];
    const records = names.flatMap((name, i) => [
      { seconds: 1_700_000_000 + i, ticks: 0, data: udpFrame(samp.infoRequest.encode(SERVER), 50_000 + i, 7777) },
      { seconds: 1_700_000_000 + i, ticks: 300, data: udpFrame(cutReply(name), 7777, 50_000 + i) },
    ]);
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-cut-'));
    try {
      for (let n = 2; n <= records.length; n += 2) {
        const bytes = writePcap(records.slice(0, n), { linkType: 1 });
        const path = join(dir, `cut-${n}.pcap`);
        writeFileSync(path, bytes);
        const first = await firstPass(chunksOf(bytes));
        const server = first.report.servers[0]!;
        expect([server.hostname, server.malformed], `after ${n / 2} replies`).toEqual([names[n / 2 - 1], n / 2]);
        // Malformed, each is still its request's answer (its header names the request): linked both ways, timed.
        expect([server.answered, server.unanswered, server.unmatched]).toEqual([n / 2, 0, 0]);
        const two = await twoPasses(path);
        expect(two.packets.map((p) => [p.frame, p.direction === 'request' ? p.responseIn : p.requestIn, !!p.malformed])).toEqual(
          two.packets.map((p) => [p.frame, p.direction === 'request' ? p.frame + 1 : p.frame - 1, p.direction === 'response']),
        );
        expect(first.report).toEqual(two.report);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
