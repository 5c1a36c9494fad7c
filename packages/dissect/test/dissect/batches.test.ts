/**
 * One pass holds a frame until its facts are final, and then makes its record: a query
 * flood's end (or a gap in it) settles every request still waiting at once. The records come
 * out in batches of at most DISSECT_BATCH, the rest waiting as frame numbers: made all at
 * once, the records of a flood's two million requests held gigabytes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISSECT_BATCH, Dissector, dissectCaptureBatches, packetLine, readCaptureSync } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { generateFlood } from '../../../../bench/flood.ts';
import type { PacketOptions } from './helpers.ts';

/** A flood of 20 000 requests (40 ms of capture: every unanswered one still waits at its end), in its chunks and as one file. */
const chunks = [...generateFlood({ requests: 20_000, seed: 3, chunkBytes: 1 << 16 })];
const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
chunks.reduce((at, c) => (bytes.set(c, at), at + c.length), 0);
const dir = mkdtempSync(join(tmpdir(), 'gq-batches-'));
const file = join(dir, 'flood.pcap');
writeFileSync(file, bytes);

/** Every record of the file, read in two passes, as NDJSON lines by frame. */
async function fileLines(): Promise<Map<number, string>> {
  const lines = new Map<number, string>();
  for await (const batch of dissectCaptureFile(file, {})) for (const p of batch.packets) lines.set(p.frame, packetLine(p));
  return lines;
}

describe('one pass makes its records in bounded batches', () => {
  it.each([
    ['settled order', { order: 'settled' }],
    ['frame order', {}],
  ] as const)('%s: no batch is larger than DISSECT_BATCH, and the records are those of two passes', async (_, order) => {
    const options: PacketOptions = { ...order, reuseBuffers: true };
    const lines = new Map<number, string>();
    let largest = 0;
    let batches = 0;
    for await (const batch of dissectCaptureBatches(chunks, options)) {
      largest = Math.max(largest, batch.packets.length);
      batches++;
      // Written before the next batch is asked for: its buffers are reused then.
      for (const p of batch.packets) lines.set(p.frame, packetLine(p));
    }
    expect(largest).toBeLessThanOrEqual(DISSECT_BATCH);
    const expected = await fileLines();
    // The end settled most of the 20 000 requests: several batches of them.
    expect(batches).toBeGreaterThan(expected.size / DISSECT_BATCH);
    expect(lines.size).toBe(expected.size);
    for (const [frame, line] of expected) expect(lines.get(frame), `frame ${frame}`).toBe(line);
  });

  it('a live input gone quiet: the tick settles every request waiting, and drain makes the rest of their records', () => {
    const d = new Dissector({ order: 'settled' });
    let made = 0;
    for (const item of readCaptureSync(bytes)) if (item.kind === 'packet') made += d.pushFrame(item).length;
    expect(d.pending).toBe(false);
    const first = d.tick(10_000);
    expect(first).toHaveLength(DISSECT_BATCH);
    expect(d.pending).toBe(true);
    made += first.length;
    let rounds = 0;
    while (d.pending) {
      const next = d.drain();
      expect(next.length).toBeLessThanOrEqual(DISSECT_BATCH);
      // Requests that timed out, and RCON commands whose quiet period ended (their lines came).
      for (const p of next) expect(p.unanswered ?? (p.message === 'rcon' && p.responseIn !== undefined)).toBeTruthy();
      made += next.length;
      rounds++;
    }
    expect(rounds).toBeGreaterThan(1);
    // Nothing is left for the end, and every request and reply was made once.
    expect(d.finish()).toEqual([]);
    expect(made).toBe(d.stats.game);
  });

  it('finish still returns every record not made yet, whatever their number', () => {
    const d = new Dissector({ order: 'settled' });
    let made = 0;
    for (const item of readCaptureSync(bytes)) if (item.kind === 'packet') made += d.pushFrame(item).length;
    const rest = d.finish();
    expect(rest.length).toBeGreaterThan(DISSECT_BATCH);
    expect(made + rest.length).toBe(d.stats.game);
    expect(d.pending).toBe(false);
  });
});
