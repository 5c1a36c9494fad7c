/**
 * A Minecraft full stat in a real capture (fixtures/mcquery/full-stat-lo.pcap: tcpdump on lo while the emulator
 * answered as two vanilla-query servers and `gamequery query minecraft` asked each for the full stat;
 * scripts/make-query-captures.sh mcquery): the reply recognised as a full stat, its keys, values and players
 * decoded, and paired with its stat request, which is paired with the handshake whose token it carries.
 */
import { describe, expect, it } from 'vitest';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import type { PacketRecord } from '@gamequery/dissect';

const file = new URL('../fixtures/mcquery/full-stat-lo.pcap', import.meta.url).pathname;

async function packets(): Promise<PacketRecord[]> {
  const out: PacketRecord[] = [];
  for await (const batch of dissectCaptureFile(file)) out.push(...batch.packets);
  return out;
}

type Node = PacketRecord['fields'][number];
const field = (nodes: readonly Node[], abbrev: string): Node | undefined => nodes.find((n) => n.abbrev === abbrev);

describe('a Minecraft full stat in a capture', () => {
  it('pairs handshake, stat request and full-stat reply per server', async () => {
    const all = await packets();
    const server = (p: PacketRecord): number => (p.direction === 'request' ? p.dst.port : p.src.port);
    const line = (p: PacketRecord): string =>
      `${p.frame} ${server(p)} ${p.message} ${p.direction} ${p.payloadLength}` +
      (p.responseIn !== undefined ? ` → ${p.responseIn}` : '') +
      (p.requestIn !== undefined ? ` ← ${p.requestIn}` : '') +
      (p.unanswered ? ` (${p.unanswered})` : '');
    expect(all.map(line)).toEqual([
      '1 47801 handshake request 7 → 3',
      '2 47802 handshake request 7 → 6',
      '3 47801 handshake response 14 ← 1',
      '4 47801 full request 15 → 5',
      '5 47801 full response 199 ← 4',
      '6 47802 handshake response 14 ← 2',
      '7 47802 full request 15 → 8',
      '8 47802 full response 251 ← 7',
    ]);
    // Each stat request carries the token of its own server's handshake reply, and the same session id.
    for (const [hs, stat, reply] of [
      [3, 4, 5],
      [6, 7, 8],
    ] as const) {
      const at = (f: number): PacketRecord => all.find((p) => p.frame === f)!;
      expect(field(at(stat).fields, 'mcquery.token')!.value).toBe(field(at(hs).fields, 'mcquery.handshake.token')!.value);
      const session = field(at(hs).fields, 'mcquery.session_id')!.value;
      expect(field(at(stat).fields, 'mcquery.session_id')!.value).toBe(session);
      expect(field(at(reply).fields, 'mcquery.session_id')!.value).toBe(session);
    }
    expect(all.filter((p) => p.malformed || p.warnings.length)).toEqual([]);
  });

  it('decodes every key, value and player name of the full stat', async () => {
    const all = await packets();
    const full = all.filter((p) => p.message === 'full' && p.direction === 'response');
    const kv = (p: PacketRecord): string[][] =>
      p.fields.filter((n) => n.abbrev === 'mcquery.full.kv').map((n) => n.children!.map((c) => String(c.value)));
    const players = (p: PacketRecord): string[] =>
      field(p.fields, 'mcquery.full.players')!
        .children!.filter((c) => c.abbrev === 'mcquery.full.player')
        .map((c) => String(c.value));
    expect(kv(full[0]!)).toEqual([
      ['hostname', 'Full stat on lo'],
      ['gametype', 'SMP'],
      ['game_id', 'MINECRAFT'],
      ['version', '1.21.4'],
      ['plugins', ''],
      ['map', 'world'],
      ['numplayers', '3'],
      ['maxplayers', '20'],
      ['hostport', '47801'],
      ['hostip', '127.0.0.1'],
    ]);
    expect(players(full[0]!)).toEqual(['Notch', 'jeb_', 'Dinnerbone']);
    expect(Object.fromEntries(kv(full[1]!))).toMatchObject({
      hostname: 'Paper with plugins',
      map: 'survival',
      numplayers: '0',
      maxplayers: '50',
      plugins: 'Paper on 1.21.4-R0.1-SNAPSHOT: LuckPerms 5.4.145; EssentialsX 2.20.1',
    });
    expect(players(full[1]!)).toEqual([]);
  });
});
