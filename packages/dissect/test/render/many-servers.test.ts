/**
 * A capture of a scan, one `i` exchange with each of 150 000 servers (a master list's worth),
 * counted and written as the statistics table and the charts page: every server has its row.
 * Widths and scales were once taken with `Math.max(...rows)`, which passes each row as an
 * argument and overflows the stack past some 120 000: `gamequery stats` of such a capture
 * printed "Maximum call stack size exceeded" and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { captureStats, renderStatsTable } from '@gamequery/dissect';
import { chartsHtml } from '../../src/render/charts.ts';
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

function scan(): Uint8Array {
  const client = [192, 0, 2, 7];
  const records = [];
  for (let i = 0; i < SERVERS; i++) {
    const ip = serverIp(i);
    const at = { serverIp: ip.join('.'), serverPort: 7777 };
    const request = samp.infoRequest.encode(at);
    const reply = samp.infoResponse.encode({
      ...at,
      password: false,
      players: i % 50,
      maxPlayers: 50,
      hostname: `server ${i}`,
      gamemode: 'g',
      language: 'l',
    });
    records.push(
      {
        seconds: 1_700_000_000 + Math.floor(i / 1000),
        ticks: (i % 1000) * 1000,
        data: between(udpFrame(request, 50000, 7777), client, ip),
      },
      {
        seconds: 1_700_000_000 + Math.floor(i / 1000),
        ticks: (i % 1000) * 1000 + 300,
        data: between(udpFrame(reply, 7777, 50000), ip, client),
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
    const html = chartsHtml({ servers: report });
    expect(html).toContain('<svg');
  }, 120_000);
});
