/**
 * A protocol declared outside the codec, dissected from a capture like a built-in one: the
 * TinyQ fixture (packages/codec/test/fixtures/protocols/tinyq) given to the dissector among
 * its protocols is recognised, decoded, and its requests linked with their replies by its
 * declared pairing key.
 */
import { describe, expect, it } from 'vitest';
import { builtInProtocols, fromHex } from '@gamequery/codec';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import {
  FieldsLine,
  FilterError,
  ServerStats,
  UnknownFieldError,
  captureStats,
  compileFilter,
  filterFields,
  packetText,
  type StatsReport,
} from '@gamequery/dissect';
import { dissectBytes, type Packet } from './helpers.ts';
import { tinyqProtocol } from '../../../codec/test/fixtures/protocols/tinyq/protocol.ts';

// `bye` with token 42, a reply to token 43, the reply to token 42; `status` and its reply.
const bye = fromHex('544e5951622a000000');
const otherReply = fromHex('544e5951622b0000000d73657276657220636c6f736564');
const byeReply = fromHex('544e5951622a0000000d73657276657220636c6f736564');
const status = fromHex('544e595173');
const statusReply = fromHex('544e59517304686f6d650300');

const CLIENT = 50000;
const SERVER = tinyqProtocol.defaultPort;
const at = (us: number, data: Uint8Array) => ({ seconds: 1_795_346_153, ticks: us, data });
const capture = writePcap(
  [
    at(0, udpFrame(bye, CLIENT, SERVER)),
    at(100, udpFrame(otherReply, SERVER, CLIENT)),
    at(200, udpFrame(byeReply, SERVER, CLIENT)),
    at(300, udpFrame(status, CLIENT, SERVER)),
    at(400, udpFrame(statusReply, SERVER, CLIENT)),
  ],
  { linkType: 1 },
);

describe('a declared protocol in a capture', () => {
  it('is paired by its declared key when the dissector is given it', async () => {
    const { packets, stats } = await dissectBytes(capture, { protocols: [...builtInProtocols, tinyqProtocol] });
    // The dissector's records are its Packet class: their shared `kind` read.
    expect(
      (packets as Packet[]).map((p) => [p.frame, p.kind.protocol, p.kind.message, p.kind.direction, p.responseIn, p.requestIn]),
    ).toEqual([
      [1, 'tinyq', 'bye', 'request', 3, undefined],
      [2, 'tinyq', 'bye', 'response', undefined, undefined],
      [3, 'tinyq', 'bye', 'response', undefined, 1],
      [4, 'tinyq', 'status', 'request', 5, undefined],
      [5, 'tinyq', 'status', 'response', undefined, 4],
    ]);
    expect(packets[1]!.unmatched).toBe('no pending request for this reply');
    expect(packets[2]!.summary).toBe('TinyQ bye response: "server closed"');
    expect(stats).toMatchObject({ exchanges: 2, unmatched: 1 });
    // Its tree is titled by its declaration, as a built-in protocol's is.
    expect(packetText(packets[2]!).split('\n')).toContain('TinyQ Query Protocol, bye response');
  });

  it('is other traffic to a dissector that does not know it (the default)', async () => {
    const { packets } = await dissectBytes(capture);
    expect(packets.every((p) => p.responseIn === undefined && p.requestIn === undefined)).toBe(true);
    expect((packets as Packet[]).some((p) => p.kind.protocol === 'tinyq')).toBe(false);
  });
});

const protocols = [...builtInProtocols, tinyqProtocol];

describe("a declared protocol's servers in the statistics", () => {
  const tinyqServer = (report: StatsReport) => report.servers.find((s) => s.protocol === 'tinyq');

  it('have the player count and host name its declaration says its replies state, in the first pass', async () => {
    const { report } = await captureStats([capture], { protocols });
    expect(tinyqServer(report)).toMatchObject({ server: { port: SERVER }, players: 3, hostname: 'home', answered: 2 });
  });

  it('have them from records too (-z stats with a display filter), as the first pass has them', async () => {
    const { packets } = await dissectBytes(capture, { protocols });
    const stats = new ServerStats(undefined, undefined, protocols);
    for (const p of packets) stats.add(p);
    expect(tinyqServer(stats.report())).toMatchObject({ server: { port: SERVER }, players: 3, hostname: 'home' });
    // Without the protocols, the records' fields are not known as ones that state them.
    const builtIn = new ServerStats();
    for (const p of packets) builtIn.add(p);
    expect(tinyqServer(builtIn.report())).toMatchObject({ players: null, hostname: null });
  });
});

describe("a declared protocol's fields, named by the dissector's protocols", () => {
  it('are display-filter names, by its name and alias, only where the protocols include it', () => {
    const fields = filterFields(protocols);
    expect(fields.get('tinyq.status.players')).toMatchObject({ name: 'tinyq.status.players', type: 'number', doc: 'Players' });
    expect(fields.get('tinyq.bye.reason')?.type).toBe('string');
    // The generated items of every protocol, and its alias as a protocol name.
    expect(fields.get('tinyq.response_to')?.type).toBe('number');
    expect(fields.get('tq')).toMatchObject({ name: 'tq', type: 'protocol' });
    // The built-in ones are still there, with their aliases; the default catalog knows no tinyq.
    expect(fields.get('minecraft')?.type).toBe('protocol');
    expect(fields.has('samp.info.hostname')).toBe(true);
    expect(filterFields().has('tinyq.status.players')).toBe(false);
    expect(filterFields([...builtInProtocols, tinyqProtocol])).toBe(fields);
  });

  it('select its packets in -Y, by field, by protocol name and by alias', async () => {
    const shown = async (text: string) =>
      (await dissectBytes(capture, { protocols, filter: compileFilter(text, { protocols }) })).packets.map((p) => p.frame);
    expect(await shown('tinyq.status.players == 3')).toEqual([5]);
    expect(await shown('tinyq.bye.token == 0x2a')).toEqual([1, 3]);
    expect(await shown('tinyq.bye.reason contains "closed" && tinyq.response_to')).toEqual([3]);
    expect(await shown('tq && !tinyq.bye.token')).toEqual([4, 5]);
    expect(await shown('tinyq.unmatched')).toEqual([2]);
  });

  it('are unknown to a filter compiled without them, which names the nearest it knows', () => {
    expect(() => compileFilter('tinyq.status.players == 3')).toThrow(FilterError);
    expect(() => compileFilter('tinyq.status.player == 3', { protocols })).toThrow(/did you mean tinyq\.status\.players/);
  });

  it('are -T fields columns, written by their declared base', async () => {
    const { packets } = await dissectBytes(capture, { protocols });
    const line = new FieldsLine(['frame.number', 'tinyq.opcode', 'tinyq.bye.token', 'tinyq.status.name', 'tinyq.response_to'], {
      protocols,
    });
    expect(packets.map((p) => line.line(p))).toEqual([
      '1\t0x62\t0x0000002a\t\t',
      '2\t0x62\t0x0000002b\t\t',
      '3\t0x62\t0x0000002a\t\t1',
      '4\t0x73\t\t\t',
      '5\t0x73\t\thome\t4',
    ]);
    expect(() => new FieldsLine(['tinyq.bye.token'])).toThrow(UnknownFieldError);
  });

  it('name a datagram with its magic but an opcode it has not: its malformed packet, its type byte a field', async () => {
    const odd = writePcap([at(0, udpFrame(fromHex('544e595178'), CLIENT, SERVER))], { linkType: 1 });
    const [p] = (await dissectBytes(odd, { protocols })).packets as Packet[];
    expect([p!.kind.protocol, p!.layout, p!.malformed?.type]).toEqual(['tinyq', 'tinyq.unknown', 'UnknownOpcodeError']);
    expect(p!.fields.map((n) => [n.abbrev, n.show])).toEqual([
      ['tinyq.magic', 'TNYQ'],
      ['tinyq.opcode', 'x (0x78)'],
      ['tinyq.malformed', p!.malformed!.message],
    ]);
    expect(p!.summary).toBe(`TinyQ: ${p!.malformed!.message}`);
    const matched = await dissectBytes(odd, { protocols, filter: compileFilter('tinyq.opcode == 0x78', { protocols }) });
    expect(matched.packets).toHaveLength(1);
  });
});
