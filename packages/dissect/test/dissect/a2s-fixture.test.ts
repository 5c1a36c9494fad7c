/**
 * A protocol of one's own with 64-bit integers and floats, dissected from a capture: Valve's
 * A2S (the codec's test fixture, declared through the public API), given to the dissector among
 * its protocols. Its records carry the tree B wrote (64-bit integers exact, as digit strings in
 * JSON), display filters compare its 64-bit integers exactly and its floats as numbers, and
 * `-T fields` writes them as the tree shows them.
 */
import { describe, expect, it } from 'vitest';
import { builtInProtocols } from '@gamequery/codec';
import { FieldsLine, compileFilter, packetLine, packetText, type PacketRecord } from '@gamequery/dissect';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { dissectBytes, type Packet } from './helpers.ts';
import { a2sProtocol } from '../../../codec/test/fixtures/protocols/a2s/protocol.ts';
import {
  bytesOf,
  csgo,
  infoRequest,
  infoResponse,
  playerRequest,
  playerResponse,
  players,
  server,
} from '../../../codec/test/fixtures/protocols/a2s/samples.ts';

const CLIENT = 50000;
const SERVER = a2sProtocol.defaultPort;
// Two servers' info, then the first one's players: query, reply, query, reply, …
const built = [infoRequest(), infoResponse(), infoRequest(), infoResponse(csgo), playerRequest(), playerResponse()];
const capture = writePcap(
  built.map((b, i) => ({
    seconds: 1_795_346_153,
    ticks: i * 100,
    data: i % 2 === 0 ? udpFrame(bytesOf(b), CLIENT, SERVER) : udpFrame(bytesOf(b), SERVER, CLIENT),
  })),
  { linkType: 1 },
);
const protocols = [...builtInProtocols, a2sProtocol];

/** The frames a filter passes. */
const passed = (packets: readonly PacketRecord[], filter: string): number[] =>
  packets.filter((p) => compileFilter(filter, { protocols }).matches(p)).map((p) => p.frame);

describe('A2S, declared outside the codec, in a capture', () => {
  it('is recognised, paired in order on its conversation, and its records carry the tree B wrote', async () => {
    const { packets } = await dissectBytes(capture, { protocols });
    // The dissector's records are its Packet class: their shared `kind` read.
    expect(
      (packets as Packet[]).map((p) => [p.frame, p.kind.protocol, p.kind.message, p.kind.direction, p.responseIn, p.requestIn]),
    ).toEqual([
      [1, 'a2s', 'info', 'request', 2, undefined],
      [2, 'a2s', 'info', 'response', undefined, 1],
      [3, 'a2s', 'info', 'request', 4, undefined],
      [4, 'a2s', 'info', 'response', undefined, 3],
      [5, 'a2s', 'player', 'request', 6, undefined],
      [6, 'a2s', 'player', 'response', undefined, 5],
    ]);
    // The NDJSON record's tree, written while decoding: B's offsets, lengths and values, a 64-bit integer as its digits.
    const strip = (nodes: readonly Record<string, unknown>[]): unknown[] =>
      nodes.map(({ abbrev, offset, length, value, children }) => ({
        abbrev,
        offset,
        length,
        value,
        ...(children ? { children: strip(children as Record<string, unknown>[]) } : {}),
      }));
    packets.forEach((p, i) => {
      const fields = (JSON.parse(packetLine(p)) as { fields: Record<string, unknown>[] }).fields;
      expect(strip(fields), `frame ${p.frame}`).toEqual(built[i]!.expected().fields);
    });
    const text = packetText(packets[1]!).split('\n');
    expect(text).toContain('Valve Server Query, info response');
    expect(text).toContain(`    Steam ID: ${server.steamId}`);
    expect(text).toContain(`    Game ID: 0x${server.gameId.toString(16).padStart(16, '0')}`);
  });

  it('filters on 64-bit integers exactly (one past a Steam ID is another, though a double holds both alike) and on floats as numbers', async () => {
    const { packets } = await dissectBytes(capture, { protocols });
    expect(Number(server.steamId + 1n)).toBe(Number(server.steamId));
    expect(passed(packets, `a2s.info.steam_id == ${server.steamId}`)).toEqual([2]);
    expect(passed(packets, `a2s.info.steam_id == ${server.steamId + 1n}`)).toEqual([]);
    expect(passed(packets, `a2s.info.steam_id > ${server.steamId}`)).toEqual([4]);
    expect(passed(packets, 'a2s.info.game_id == 730')).toEqual([4]);
    expect(passed(packets, `a2s.info.game_id == 0x${server.gameId.toString(16)}`)).toEqual([2]);
    expect(passed(packets, 'a2s.info.game_id < 1000 and a2s.info.visibility')).toEqual([4]);
    expect(passed(packets, 'a2s.player.duration > 10.5')).toEqual([6]);
    expect(passed(packets, `a2s.player.duration == ${players[2]!.duration}`)).toEqual([6]);
    expect(passed(packets, 'a2s.player.duration > 4000')).toEqual([]);
    expect(passed(packets, 'a2s.player.duration < 0')).toEqual([]);
    expect(() => compileFilter('a2s.info.game_id == 730')).toThrow('"a2s.info.game_id" is neither a field nor a protocol name');
  });

  it('writes -T fields of 64-bit integers exactly (hexadecimal where declared) and floats as the tree shows them', async () => {
    const { packets } = await dissectBytes(capture, { protocols });
    const line = new FieldsLine(['frame.number', 'a2s.info.steam_id', 'a2s.info.game_id', 'a2s.player.duration', 'a2s.player.score'], {
      protocols,
    });
    const hex = (n: bigint) => `0x${n.toString(16).padStart(16, '0')}`;
    const shown = packets[5]!.fields.flatMap((e) => e.children?.filter((n) => n.abbrev === 'a2s.player.duration').map((n) => n.show) ?? []);
    // Each the shortest decimal that reads back to the float on the wire.
    expect(shown.map((s) => Math.fround(Number(s)))).toEqual(players.map((p) => p.duration));
    expect(packets.map((p) => line.line(p))).toEqual([
      '1\t\t\t\t',
      `2\t${server.steamId}\t${hex(server.gameId)}\t\t`,
      '3\t\t\t\t',
      `4\t${csgo.steamId}\t${hex(csgo.gameId)}\t\t`,
      '5\t\t\t\t',
      `6\t\t\t${shown.join(',')}\t${players.map((p) => p.score).join(',')}`,
    ]);
  });
});
