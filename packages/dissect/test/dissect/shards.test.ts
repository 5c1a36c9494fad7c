import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Dissector, dissectCaptureBatches, packetLine, renderPacketText, type DissectOptions, type DissectStats, type PacketRecord } from '@gamequery/dissect';
import { dissectCaptureParallel, type ParallelOptions } from '@gamequery/dissect/node';
import { infoRequest, infoResponse } from '@gamequery/codec';
import { shardOf } from '@gamequery/codec/rx';
import { generateCapture } from '../../../../bench/capture-gen.ts';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { captureFiles, captures } from './helpers.ts';

/** One dissector over the whole capture: the lines, stats and error the shards must reproduce. */
async function whole(chunks: Uint8Array[], options: DissectOptions = {}) {
  const dissector = new Dissector(options);
  const packets: PacketRecord[] = [];
  let error: string | undefined;
  for await (const b of dissectCaptureBatches(chunks, options, dissector)) {
    packets.push(...b.packets);
    if (b.error) error = b.error.message;
  }
  return { packets, lines: packets.map((p) => packetLine(p)), stats: dissector.stats, error };
}

/** `count` shard dissectors over the same chunks, merged by frame number. */
async function sharded(chunks: Uint8Array[], count: number, options: DissectOptions = {}) {
  const shards = Array.from({ length: count }, (_, index) => new Dissector({ ...options, shard: { index, count } }));
  const out = await Promise.all(shards.map(async (d) => {
    const packets: PacketRecord[] = [];
    for await (const b of dissectCaptureBatches(chunks, options, d)) packets.push(...b.packets);
    return packets;
  }));
  for (const packets of out) expect(packets.map((p) => p.frame)).toEqual([...packets.map((p) => p.frame)].sort((a, b) => a - b));
  const merged = out.flat().sort((a, b) => a.frame - b.frame);
  return { lines: merged.map((p) => packetLine(p)), stats: addUp(shards.map((d) => d.stats)), perShard: out.map((p) => p.length) };
}

function addUp(all: DissectStats[]): DissectStats {
  const sum: DissectStats = { frames: 0, udp: 0, game: 0, nonGame: 0, skipped: {}, exchanges: 0, unanswered: 0, unmatched: 0, duplicates: 0 };
  for (const s of all) {
    for (const k of ['frames', 'udp', 'game', 'nonGame', 'exchanges', 'unanswered', 'unmatched', 'duplicates'] as const) sum[k] += s[k];
    for (const [r, n] of Object.entries(s.skipped)) sum.skipped[r] = (sum.skipped[r] ?? 0) + n;
  }
  return sum;
}

const chunked = (bytes: Uint8Array, size = 1 << 12): Uint8Array[] => {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
};

/** A generated capture: thousands of clients and query rounds of all three protocols. */
const generated = Buffer.concat([...generateCapture({ packets: 30_000 })]);

describe('shards of conversations', () => {
  it.each(captureFiles)('%s: the shards, merged by frame, are the records and stats of one dissector', async (name) => {
    const chunks = chunked(readFileSync(captures + name));
    const one = await whole(chunks);
    for (const count of [2, 3, 5]) {
      const many = await sharded(chunks, count);
      expect(many.lines).toEqual(one.lines);
      expect(many.stats).toEqual(one.stats);
    }
  });

  it('holds on a generated capture of 30 000 packets, each shard taking its share', async () => {
    const chunks = chunked(generated, 1 << 16);
    const one = await whole(chunks, { timeoutMs: 200 });
    expect(one.packets.length).toBeGreaterThan(30_000);
    expect(one.stats.exchanges).toBeGreaterThan(14_000);
    for (const count of [2, 4]) {
      const many = await sharded(chunks, count, { timeoutMs: 200 });
      expect(many.lines).toEqual(one.lines);
      expect(many.stats).toEqual(one.stats);
      for (const n of many.perShard) expect(n).toBeGreaterThan(one.packets.length / count / 2);
    }
  });

  it('times a request out by the time of other shards\' datagrams, and lets its record go then', async () => {
    // Frame 1 asks and gets no reply; then another client's exchanges, every 10 ms for 10 s.
    const server = { serverIp: '127.0.0.1', serverPort: 7777 };
    const request = infoRequest.encode(server);
    const reply = infoResponse.encode({ ...server, password: false, players: 1, maxPlayers: 10, hostname: 'h', gamemode: 'g', language: 'l' });
    const shard = (port: number) => shardOf({ bytes: request, from: { address: '127.0.0.1', port }, to: { address: '127.0.0.1', port: 7777 } }, 2);
    const silent = 50000;
    let other = silent + 1;
    while (shard(other) === shard(silent)) other++;
    const records = [{ seconds: 1000, ticks: 0, data: udpFrame(request, silent, 7777) }];
    for (let i = 1; i <= 1000; i++) {
      records.push({ seconds: 1000 + Math.floor(i / 100), ticks: (i % 100) * 10_000, data: udpFrame(request, other, 7777) });
      records.push({ seconds: 1000 + Math.floor(i / 100), ticks: (i % 100) * 10_000 + 500, data: udpFrame(reply, 7777, other) });
    }
    const chunkBytes = 4096;
    const chunks = chunked(writePcap(records, { linkType: 1 }), chunkBytes);
    const one = await whole(chunks);
    expect(one.packets[0]!.unanswered).toBe('no reply within 5000 ms');
    expect((await sharded(chunks, 2)).lines).toEqual(one.lines);
    // The shard of frame 1 sees only its time pass, and lets the record go at the chunk where the
    // timeout passes (frame 1001, the first datagram after 1005.0 s), not at the end.
    const end = 24 + records.slice(0, 1001).reduce((sum, r) => sum + 16 + r.data.length, 0);
    let read = 0;
    const counted = function* () {
      for (const c of chunks) {
        read++;
        yield c;
      }
    };
    const out: number[] = [];
    for await (const b of dissectCaptureBatches(counted(), {}, new Dissector({ shard: { index: shard(silent), count: 2 } }))) {
      for (const p of b.packets) out.push(p.frame, read);
    }
    expect(out).toEqual([1, Math.ceil(end / chunkBytes)]);
  });
});

describe('dissectCaptureParallel (worker threads)', () => {
  const run = async (file: string, options: ParallelOptions) => {
    const parts: Buffer[] = [];
    let packets = 0;
    let error: string | undefined;
    let stats: DissectStats | undefined;
    for await (const b of dissectCaptureParallel(file, options)) {
      parts.push(Buffer.from(b.bytes));
      packets += b.packets;
      stats = b.stats;
      if (b.error) error = b.error.message;
    }
    return { text: Buffer.concat(parts).toString('utf8'), packets, error, stats };
  };

  it('writes every committed capture as one dissector does: NDJSON lines, errors and stats', async () => {
    for (const name of captureFiles) {
      const one = await whole(chunked(readFileSync(captures + name)));
      const par = await run(captures + name, { workers: 3, terminator: '\n', chunkBytes: 4096, ahead: 2 });
      expect(par.text, name).toBe(one.lines.map((l) => l + '\n').join(''));
      expect(par.packets).toBe(one.packets.length);
      expect(par.error, name).toBe(one.error);
      expect(par.stats, name).toEqual(one.stats);
    }
  }, 60_000);

  it('finishes when the consumer is slower than the workers (answers arrive while it holds a batch)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-parallel-'));
    const file = join(dir, 'generated.pcap');
    writeFileSync(file, generated);
    try {
      const one = await whole(chunked(generated, 1 << 16));
      let packets = 0;
      let batches = 0;
      for await (const b of dissectCaptureParallel(file, { workers: 2, chunkBytes: 1 << 16, ahead: 4 })) {
        packets += b.packets;
        batches++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(packets).toBe(one.packets.length);
      expect(batches).toBeGreaterThan(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('renders text blocks and JSON array items with their separators', async () => {
    const file = captures + 'lo-us.pcap';
    const one = await whole(chunked(readFileSync(file)));
    const text = await run(file, { workers: 2, as: 'text', separator: '\n' });
    expect(text.text).toBe(one.packets.map((p) => renderPacketText(p).join('\n') + '\n').join('\n'));
    const json = await run(file, { workers: 2, separator: ',\n' });
    expect(JSON.parse(`[${json.text}]`)).toEqual(one.lines.map((l) => JSON.parse(l)));
  });
});
