/**
 * Display filters against Wireshark's own: tshark 4 with our generated plugin reads the
 * committed captures (merged into one by mergecap) with the same filter, and the frames it
 * passes are the frames ours passes (of the frames that carry query traffic; tshark also
 * shows the rest). IPv4 and IPv6, a reply reassembled from fragments, all three protocols.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFilter } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { tsharkFilterFrames, tsharkWithPlugin } from '../../../codec/test/helpers/tshark.ts';
import { captures } from '../dissect/helpers.ts';

const tshark = tsharkWithPlugin('filter');
afterAll(() => tshark.dispose());
const file = join(tshark.work, 'merged.pcapng');

async function ours(filter?: string): Promise<number[]> {
  const frames: number[] = [];
  const options = filter === undefined ? {} : { filter: compileFilter(filter) };
  for await (const b of dissectCaptureFile(file, options)) for (const p of b.packets) frames.push(p.frame);
  return frames;
}

// Every operator and connective, on capture fields, wire fields, generated links and protocols.
const filters = [
  'samp',
  'vcmp',
  'mcquery',
  '!samp',
  'not mcquery',
  'samp.info.hostname',
  'samp.player.name',
  'mcquery.handshake.token',
  'mcquery.magic == fe:fd',
  'mcquery.magic contains fd',
  'mcquery.padding == 00:00:00:00',
  'samp.info.players == 100',
  'samp.info.players != 100',
  'samp.info.players ~= 100',
  'samp.player.score < -45',
  'samp.player.score <= -45',
  'samp.player.score > 40',
  'samp.player.score >= 49',
  'samp.player.score eq 0',
  'samp.info.hostname == "gamequery fixture server"',
  'samp.info.hostname != "gamequery fixture server"',
  'samp.info.hostname contains "fixture"',
  'samp.info.hostname contains "FIXTURE"',
  'samp.info.hostname matches "FIXTURE serv"',
  'samp.info.hostname matches "^game.*server$"',
  'samp.player.name matches "_09[0-9]_"',
  'mcquery.basic.motd < "B"',
  'mcquery.basic.motd > "B"',
  'ip.src == 10.231.0.2',
  'ip.dst != 10.231.0.2',
  'ip.addr == 10.231.0.0/24',
  'ip.src == 127.0.0.1',
  'ipv6.src == fd00:47::2',
  'ipv6.addr == ::1',
  'udp.port == 47778',
  'udp.srcport == 47777 || udp.dstport == 47778',
  'udp.port in {47778, 47777}',
  'udp.port in {47000..47777}',
  'udp.length > 100',
  'samp.opcode == 0x70',
  "samp.opcode == 'd'",
  'samp.response_in',
  'samp.response_to',
  'mcquery.response_to == 13',
  'samp.time > 0.0005',
  'mcquery.time < 0.0002',
  "samp and ip && !(samp.opcode == 'p')",
  'mcquery or (samp and ipv6)',
  'samp.magic == "SAMP" and udp.length > 1000',
  'frame.number >= 20 && frame.number <= 26',
  'frame.time_relative > 1.6',
  'udp contains "SAMP"',
  'udp contains 53:41:4d:50:7f',
  'samp.response_in == frame.number',
];

let tsharkFrames: Map<string, number[]>;
let game: Set<number>;

beforeAll(async () => {
  const inputs = ['veth-frag.pcap', 'lo-us.pcap', 'lo-any.pcapng'].map((n) => captures + n);
  const merged = spawnSync('mergecap', ['-w', file, ...inputs], { encoding: 'utf8' });
  if (merged.status !== 0) throw new Error(`mergecap: ${merged.stderr}`);
  game = new Set(await ours());
  // Every filter in one run of tshark (two passes, so that requests know their replies): a tap each.
  tsharkFrames = tsharkFilterFrames(['-2', '-n', '-X', `lua_script:${tshark.plugin}`, '-r', file], filters, tshark.env);
}, 120_000);

describe('display filters', () => {
  it.each(filters)('%s passes the frames tshark passes', async (filter) => {
    expect(await ours(filter)).toEqual(tsharkFrames.get(filter)!.filter((f) => game.has(f)));
  });

  it('most of these filters pass some frames and not all (the comparisons are not all empty)', async () => {
    const sizes = await Promise.all(filters.map(async (f) => (await ours(f)).length));
    expect(sizes.filter((n) => n > 0 && n < game.size).length).toBeGreaterThan(40);
  });
});
