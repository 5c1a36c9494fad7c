/**
 * `-T fields` lines (render/fields-line.ts) against tshark's own `-T fields` output of the
 * same captures (the committed NAME.tshark.tsv, tshark 4.0.17): the frame, IP and UDP
 * fields the two share, value for value, with tshark's formatting (nine places of time,
 * empty where a packet lacks a field).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import {
  FieldsLine,
  UnknownFieldError,
  captureStart,
  compileFilter,
  dissectHexDump,
  type FieldsOptions,
  type PacketRecord,
} from '@gamequery/dissect';
import { ByteSink } from '@gamequery/codec/internal';
import { captureFiles, captures, complete, decimalDifference, dissectFile, hexFixtures, tsharkRows } from '../dissect/helpers.ts';

const hexFiles = readdirSync(hexFixtures).filter((f) => f.endsWith('.txt'));

const SHARED = ['frame.number', 'frame.time_epoch', 'ip.src', 'ip.dst', 'ipv6.src', 'ipv6.dst', 'udp.srcport', 'udp.dstport', 'udp.length'];

describe('-T fields', () => {
  it.each(complete)("%s: the frame, IP and UDP fields as tshark writes them, and time_relative from tshark's epochs", async (name) => {
    const file = captures + name;
    const { packets, stats } = await dissectFile(file);
    const tshark = tsharkRows(file);
    const first = [...tshark.values()][0]!['frame.time_epoch']!;
    const line = new FieldsLine([...SHARED, 'frame.time_relative']);
    expect(packets.length).toBeGreaterThan(0);
    for (const p of packets) {
      const row = tshark.get(p.frame)!;
      const relative = decimalDifference(row['frame.time_epoch']!, first, 9);
      expect(line.line(p, captureStart(stats)), `frame ${p.frame}`).toBe([...SHARED.map((n) => row[n]), relative].join('\t'));
    }
  });

  it("writes a grammar's fields by type, the generated ones, and -E's separator, occurrence, aggregator and quote", async () => {
    const { packets, stats } = await dissectFile(captures + 'lo-us.pcap');
    const start = captureStart(stats);
    const byFrame = new Map(packets.map((p) => [p.frame, p]));
    const p = (n: number): PacketRecord => byFrame.get(n)!;
    const info = new FieldsLine([
      'samp.opcode',
      'samp.info.hostname',
      'samp.info.players',
      'samp.info.password',
      'samp.time',
      'samp.response_to',
      'samp.magic',
    ]);
    // Frame 2: the info reply; its request is frame 1, 368 µs before it.
    expect(info.line(p(2), start)).toBe('0x69\tgamequery fixture server\t100\t0\t0.000368000\t1\tSAMP');
    expect(info.line(p(1), start)).toBe('0x69\t\t\t\t\t\tSAMP');
    expect(info.header()).toBe(
      'samp.opcode\tsamp.info.hostname\tsamp.info.players\tsamp.info.password\tsamp.time\tsamp.response_to\tsamp.magic',
    );
    const frag = (await dissectFile(captures + 'veth-frag.pcap')).packets;
    const players = frag.find((q) => q.message === 'players' && q.direction === 'response')!;
    const names = ['samp.player.name'];
    const all = new FieldsLine(names).line(players, start).split(',');
    expect(all.length).toBe(100);
    expect(new FieldsLine(names, { occurrence: 'f' }).line(players, start)).toBe(all[0]);
    expect(new FieldsLine(names, { occurrence: 'l' }).line(players, start)).toBe(all.at(-1));
    expect(new FieldsLine(names, { aggregator: '/s' }).line(players, start)).toBe(all.join(' '));
    const quoted = new FieldsLine(['frame.number', 'ipv6.src', 'udp.srcport'], { separator: ',', quote: 'd' });
    expect(quoted.line(p(1), start)).toBe('"1",,"43811"');
    expect(new FieldsLine(['frame.number', 'udp.dstport'], { separator: '/s', quote: 's' }).line(p(1), start)).toBe("'1' '47777'");
  });

  it('names the same fields a display filter does; an unknown one is an error naming the nearest', () => {
    for (const name of ['ip.src', 'udp.length', 'frame.time_relative', 'samp.unanswered', 'mcquery.basic.motd'])
      expect(() => new FieldsLine([name])).not.toThrow();
    expect(() => compileFilter('ip.srcc')).toThrow();
    let error: unknown;
    try {
      new FieldsLine(['frame.number', 'ip.srcc']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownFieldError);
    expect((error as UnknownFieldError).suggestions).toContain('ip.src');
    expect((error as UnknownFieldError).message).toMatch(/unknown field 'ip.srcc' \(did you mean .*ip\.src/);
  });

  it('escapes control characters, so that a value never breaks its line', () => {
    // An info reply (no request seen) whose host name holds a tab, a newline and a backslash.
    const text = (s: string) => Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, '0')).join('');
    const u32 = (n: number) => [n & 255, 0, 0, 0].map((b) => b.toString(16).padStart(2, '0')).join('');
    const name = 'a\tb\nc\\d\u0001';
    const hex = `53414d507f000001a1ba690001000200${u32(name.length)}${text(name)}${u32(2)}${text('gm')}${u32(2)}${text('en')}`;
    const { packets } = dissectHexDump(hex);
    expect(packets).toHaveLength(1);
    expect(new FieldsLine(['samp.info.hostname', 'samp.info.players']).line(packets[0]!)).toBe('a\\tb\\nc\\\\d\\x01\t1');
  });

  it("writes as bytes exactly the line it gives (FieldsLine.write, the command's way), the control characters escaped", () => {
    const hex = `53414d507f000001a1ba690001000200${'05000000'}${'61090a5c01'}${'02000000'}${'676d'}${'02000000'}${'656e'}`;
    const { packets } = dissectHexDump(hex);
    const line = new FieldsLine(['samp.info.hostname', 'samp.info.players', 'samp.server_ip'], { quote: 'd', separator: '/s' });
    const sink = new ByteSink();
    line.write(packets[0]!, sink);
    expect(sink.text()).toBe(`${line.line(packets[0]!)}\n`);
    expect(sink.text()).toBe(String.raw`"a\t\n\\\x01" "1" "127.0.0.1"` + '\n');
  });

  /** Field sets of every kind of value: numbers, addresses, strings, booleans, hex, bytes, items without a value, repeated ones, generated ones. */
  const SETS: readonly (readonly string[])[] = [
    ['frame.number', 'frame.time_relative', 'frame.time_delta', 'ip.src', 'ipv6.dst', 'udp.port', 'udp.length', 'frame.protocols'],
    ['samp.opcode', 'samp.server_ip', 'samp.info.hostname', 'samp.info.password', 'samp.ping.nonce', 'samp.rule', 'samp.rule.name'],
    ['samp.client.name', 'samp.player.score', 'mcquery.basic.motd', 'vcmp.info.version', 'data.data', 'samp.rcon.output'],
    ['samp.response_in', 'samp.time', 'samp.unanswered', 'mcquery.unmatched', '_ws.col.Info', '_ws.expert', 'samp.warning'],
  ];
  const OPTIONS: readonly FieldsOptions[] = [
    {},
    { quote: 'd', separator: ',', occurrence: 'l' },
    { quote: 's', aggregator: '/s', occurrence: 'f' },
  ];

  it.each([...captureFiles, ...hexFiles].flatMap((name) => SETS.map((names, i) => [name, i, names] as const)))(
    '%s, set %i: write gives line() and a newline, byte for byte, with every -E option',
    async (name, _i, names) => {
      const { packets, stats } = name.endsWith('.txt')
        ? dissectHexDump(readFileSync(hexFixtures + name, 'utf8'), { allFrames: true })
        : await dissectFile(captures + name, { allFrames: true });
      const start = captureStart(stats);
      const sink = new ByteSink();
      for (const options of OPTIONS) {
        const line = new FieldsLine(names, options);
        const written = new FieldsLine(names, options);
        const want: string[] = [];
        sink.at = 0;
        for (const p of packets) {
          want.push(`${line.line(p, start)}\n`);
          written.write(p, sink, start);
        }
        expect(sink.text()).toBe(want.join(''));
      }
    },
  );
});
