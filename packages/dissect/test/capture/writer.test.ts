/**
 * PcapngWriter: frames written and read back by our reader and by tshark, at every clock
 * resolution (decimal and binary if_tsresol), cut by a snapshot length, several link types in one
 * file, and a frame without a capture time (written as 0, with a comment that says so).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MICROSECONDS, NANOSECONDS, PcapngWriter, readCaptureSync, timeResolution, type CapturePacket } from '../../src/capture/index.ts';

describe('PcapngWriter', () => {
  it('writes frames that our reader and tshark read back as they were', () => {
    const chunks: Uint8Array[] = [];
    const w = new PcapngWriter((b) => chunks.push(b.slice()));
    const frames = [
      {
        linkType: 1,
        data: Uint8Array.from({ length: 61 }, (_, i) => i),
        originalLength: 61,
        timestamp: { seconds: 1_700_000_000, ticks: 123_456_789, resolution: NANOSECONDS },
      },
      {
        linkType: 1,
        data: Uint8Array.of(1, 2, 3),
        originalLength: 1500,
        timestamp: { seconds: 1_700_000_001, ticks: 5, resolution: MICROSECONDS },
      },
      {
        linkType: 113,
        data: new Uint8Array(20),
        originalLength: 20,
        timestamp: { seconds: 1_700_000_002, ticks: 8, resolution: timeResolution(2, 4)! },
      },
      { linkType: 1, data: Uint8Array.of(9), originalLength: 1, timestamp: null },
    ] as const;
    for (const f of frames) w.frame(f);
    expect(w.frames).toBe(4);
    const file = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    chunks.reduce((at, c) => (file.set(c, at), at + c.length), 0);
    const read = [...readCaptureSync(file)] as CapturePacket[];
    expect(read.map((p) => p.kind)).toEqual(['packet', 'packet', 'packet', 'packet']);
    read.forEach((p, i) => {
      const f = frames[i]!;
      expect(p.linkType).toBe(f.linkType);
      expect([...p.data]).toEqual([...f.data]);
      expect(p.originalLength).toBe(f.originalLength);
      if (f.timestamp) expect(p.timestamp).toEqual(f.timestamp);
      else expect(p.timestamp?.seconds).toBe(0);
    });
    // An interface each: Ethernet at ns, Ethernet at µs, Linux cooked at 2^-4, and Ethernet without times (the default µs).
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-writer-'));
    try {
      const path = join(dir, 'w.pcapng');
      writeFileSync(path, file);
      const r = spawnSync(
        'tshark',
        [
          '-r',
          path,
          '-T',
          'fields',
          '-e',
          'frame.time_epoch',
          '-e',
          'frame.len',
          '-e',
          'frame.cap_len',
          '-e',
          'frame.interface_id',
          '-e',
          'frame.comment',
        ],
        { encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual([
        '1700000000.123456789\t61\t61\t0\t',
        '1700000001.000005000\t1500\t3\t1\t',
        '1700000002.500000000\t20\t20\t2\t',
        '0.000000000\t1\t1\t3\tgamequery: the frame had no capture time (a Simple Packet Block): 0 written',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
