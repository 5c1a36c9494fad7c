/**
 * A capture of a scan, one `i` exchange with each of 150 000 servers (a master list's worth),
 * counted and written as the statistics table and the charts page: every server has its row.
 * Widths and scales were once taken with `Math.max(...rows)`, which passes each row as an
 * argument and overflows the stack past some 120 000: `gamequery stats` of such a capture
 * printed "Maximum call stack size exceeded" and nothing else. The page's statistics come in
 * pieces (its servers' table was once one string of 70 MB: 1.1 GB peak RSS).
 */
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { captureStats, renderStatsTable } from '@gamequery/dissect';
import { chartsHtmlPieces } from '../../src/render/charts.ts';
import { udpFrame, writePcap } from '../capture/helpers.ts';

const SERVERS = 150_000;

/** Server `i`'s address: 10.0.0.0 and up. */
const serverIp = (i: number): [number, number, number, number] => [10, (i >>> 16) & 255, (i >>> 8) & 255, i & 255];

/** `frame` with its IPv4 source and destination set (udpFrame writes 127.0.0.1 both ways). */
function between(frame: Uint8Array, src: readonly number[], dst: readonly number[]): Uint8Array {
  frame.set(src, 26);
  frame.set(dst, 30);
  return frame;
}

/** Offsets in `a` where it differs from `b` (two encodings of one layout, one value apart). */
const differing = (a: Uint8Array, b: Uint8Array): number[] => [...a.keys()].filter((i) => a[i] !== b[i]);

function scan(): Uint8Array {
  const client = [192, 0, 2, 7];
  // Each server's exchange from one encoding of each message: the address they echo, the player
  // count and the name's digits written in (encoding 300 000 messages took 3 s of this test).
  const values = (ip: string, players: number, hostname: string) =>
    ({ serverIp: ip, serverPort: 7777, password: false, players, maxPlayers: 50, hostname, gamemode: 'g', language: 'l' }) as const;
  const request = samp.infoRequest.encode({ serverIp: '0.0.0.0', serverPort: 7777 });
  const reply = samp.infoResponse.encode(values('0.0.0.0', 0, 'server 000000'));
  const [ipAt] = differing(samp.infoRequest.encode({ serverIp: '255.0.0.0', serverPort: 7777 }), request);
  const [playersAt] = differing(samp.infoResponse.encode(values('0.0.0.0', 1, 'server 000000')), reply);
  const nameAt = differing(samp.infoResponse.encode(values('0.0.0.0', 0, 'server 999999')), reply);
  expect([ipAt, playersAt, nameAt.length]).toEqual([4, expect.any(Number), 6]);
  const records = [];
  for (let i = 0; i < SERVERS; i++) {
    const ip = serverIp(i);
    const q = request.slice();
    q.set(ip, ipAt!);
    const r = reply.slice();
    r.set(ip, ipAt!);
    r[playersAt!] = i % 50;
    const digits = String(i).padStart(6, '0');
    nameAt.forEach((at, k) => (r[at] = digits.charCodeAt(k)));
    records.push(
      {
        seconds: 1_700_000_000 + Math.floor(i / 1000),
        ticks: (i % 1000) * 1000,
        data: between(udpFrame(q, 50000, 7777), client, ip),
      },
      {
        seconds: 1_700_000_000 + Math.floor(i / 1000),
        ticks: (i % 1000) * 1000 + 300,
        data: between(udpFrame(r, 7777, 50000), ip, client),
      },
    );
  }
  return writePcap(records, { linkType: 1 });
}

describe('statistics of a capture with a row per server for 150 000 servers', () => {
  it('counts every server and writes each one a row of the table, and the charts', async () => {
    const { report, error } = await captureStats([scan()]);
    expect(error).toBeUndefined();
    expect(report.servers).toHaveLength(SERVERS);
    const lines = renderStatsTable(report);
    const last = `${serverIp(SERVERS - 1).join('.')}:7777`;
    // The counts, the details (round trip, players, name), the requests by message and the bytes each way: a row each.
    expect(lines.filter((l) => l.startsWith(`${last} `))).toHaveLength(4);
    expect(lines.find((l) => l.startsWith(`${last} `) && l.includes(`server ${SERVERS - 1}`))).toBeDefined();
    expect(lines.length).toBeGreaterThan(4 * SERVERS);
    // The page's statistics come in pieces, a row each, not as one string of tens of megabytes.
    const pieces = [...chartsHtmlPieces({ servers: report }, false)];
    expect(pieces.filter((p) => p.startsWith('<tr') && p.includes(`>${last}<`))).toHaveLength(1);
    expect(pieces.reduce((n, p) => Math.max(n, p.length), 0)).toBeLessThan(64 * 1024);
    expect(pieces.join('')).toContain('<svg');
  }, 120_000);
});
