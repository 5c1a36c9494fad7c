/**
 * A capture that ends while an RCON command's quiet period runs (an admin's session cut right
 * after a command), with another datagram after its line: the command is settled with its line
 * at the end, in both passes of a file and in one pass of a stream (in settled order), and no
 * packet is called incomplete. It once came out "[Incomplete]", blamed on a memory ceiling that
 * was never reached; from a stream, as a bare 70-byte frame.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { newStats, type PacketRecord } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { dissectBytes } from './helpers.ts';

const at = { serverIp: '127.0.0.1', serverPort: 7777 };
const pcap = writePcap(
  [
    {
      seconds: 1_700_000_000,
      ticks: 0,
      data: udpFrame(samp.rconRequest.encode({ ...at, password: 'secret', command: 'players' }), 50000, 7777),
    },
    { seconds: 1_700_000_000, ticks: 300, data: udpFrame(samp.rconResponse.encode({ ...at, output: 'ID Name Ping IP' }), 7777, 50000) },
    { seconds: 1_700_000_000, ticks: 1000, data: udpFrame(samp.infoRequest.encode(at), 50001, 7777) },
  ],
  { linkType: 1 },
);

const EXPECTED = [
  { frame: 1, summary: 'SA:MP rcon request: players', responseIn: 2 },
  { frame: 2, summary: 'SA:MP rcon response: "ID Name Ping IP"', requestIn: 1 },
  { frame: 3, summary: 'SA:MP info request', unanswered: 'no reply before the input ended' },
];

/** Each packet's frame, summary, links and verdicts, in frame order (`incomplete` would show here too). */
const summaries = (packets: readonly PacketRecord[]): object[] =>
  [...packets]
    .sort((a, b) => a.frame - b.frame)
    .map((p) => {
      const { frame, summary, responseIn, requestIn, unanswered, incomplete } = p as PacketRecord & { incomplete?: string };
      return Object.fromEntries(
        Object.entries({ frame, summary, responseIn, requestIn, unanswered, incomplete }).filter(([, v]) => v !== undefined),
      );
    });

describe('the end of a capture during an RCON quiet period', () => {
  it('settles the command with its line: a file in two passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-rcon-end-'));
    try {
      const file = join(dir, 'rcon-end.pcap');
      writeFileSync(file, pcap);
      const packets: PacketRecord[] = [];
      const stats = newStats();
      for await (const batch of dissectCaptureFile(file, {}, stats)) for (const p of batch.packets) packets.push(p as PacketRecord);
      expect(summaries(packets)).toEqual(EXPECTED);
      expect(stats.frames).toBe(3);
      expect(stats.incomplete).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('settles the command with its line: a stream in one pass, in settled order too', async () => {
    for (const order of ['capture', 'settled'] as const) {
      const { packets, stats } = await dissectBytes(pcap, { order }, 50);
      expect(summaries(packets as PacketRecord[]), order).toEqual(EXPECTED);
      expect(stats.incomplete, order).toBeUndefined();
    }
  });
});
