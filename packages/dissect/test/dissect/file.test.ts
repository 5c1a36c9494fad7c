import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newStats, packetLine } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { captureFiles, captures, dissectBytes, dissectFile, retimedExchange, type PacketOptions } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'gamequery-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file dissected in two passes, `chunk` bytes a read: its packets' lines, errors and stats. */
async function twoPasses(file: string, options: PacketOptions = {}, chunk?: number) {
  const stats = newStats();
  const lines: string[] = [];
  const errors: unknown[] = [];
  for await (const batch of dissectCaptureFile(file, options, stats, chunk)) {
    for (const p of batch.packets) lines.push(packetLine(p));
    if (batch.error) errors.push(batch.error);
  }
  return { lines, errors, stats };
}

describe('dissectCaptureFile: two passes over a file', () => {
  it.each(captureFiles)('%s: the packets, links, errors and stats of one pass, read whole and 700 bytes at a time', async (name) => {
    const file = join(captures, name);
    const one = await dissectFile(file);
    const expected = { lines: one.packets.map((p) => packetLine(p)), errors: one.errors, stats: one.stats };
    expect(await twoPasses(file)).toEqual(expected);
    expect(await twoPasses(file, {}, 700)).toEqual(expected);
  });

  it.each([
    // Replies 1 ms, 4 s (a copy, inside the duplicate window) and 5.6 s (after it) after the request.
    [
      'a copy in the window and a stray after it',
      [1_000, 4_000_000, 5_600_000],
      [
        { frame: 1, responseIn: 2 },
        { frame: 2, requestIn: 1 },
        { frame: 3, requestIn: 1, duplicateOf: 2 },
        { frame: 4, unmatched: 'no pending request for this reply' },
      ],
    ],
    // The only reply 5.5 s after the request: it timed out, and the reply names it.
    [
      'a late reply',
      [5_500_000],
      [
        { frame: 1, unanswered: 'no reply within 5000 ms' },
        { frame: 2, requestIn: 1, unmatched: 'late reply, 5500 ms after the request (timeout 5000 ms)' },
      ],
    ],
  ])('links across chunks as one pass does: %s', async (_, replies, expected) => {
    const bytes = retimedExchange(replies);
    const file = join(dir, 'retimed.pcap');
    writeFileSync(file, bytes);
    const one = await dissectBytes(bytes);
    const two = await twoPasses(file, {}, 64);
    expect(two.lines).toEqual(one.packets.map((p) => packetLine(p)));
    expect(two.lines.map((l) => JSON.parse(l) as unknown)).toMatchObject(expected);
    // The code beside the words, on the record (programs decide on it; JSON carries the words).
    const causes = (await dissectBytes(bytes)).packets.map((p) => p.unmatchedCause);
    expect(causes).toEqual(expected.map((e) => ('unmatched' in e ? (e.unmatched!.startsWith('late') ? 'late' : 'no-request') : undefined)));
  });

  it('writes the same lines when it reuses its buffers, as long as each batch is written before the next', async () => {
    // A capture read 300 bytes a time, so that batches span chunks and arenas are written over.
    for (const name of ['lo-us.pcap', 'veth-frag.pcap', 'lo.pcapng']) {
      const file = join(captures, name);
      const lines: string[] = [];
      for await (const batch of dissectCaptureFile(file, { reuseBuffers: true }, newStats(), 300))
        for (const p of batch.packets) lines.push(packetLine(p));
      expect(lines).toEqual((await twoPasses(file, {}, 300)).lines);
    }
  });

  it('stops at a damaged record with every packet before it, then one error', async () => {
    const file = join(dir, 'cut.pcap');
    copyFileSync(join(captures, 'lo-us.cut.pcap'), file);
    const one = await dissectFile(file);
    const two = await twoPasses(file, {}, 100);
    expect(two.errors).toHaveLength(1);
    expect(two.errors).toEqual(one.errors);
    expect(two.lines).toEqual(one.packets.map((p) => packetLine(p)));
  });
});
