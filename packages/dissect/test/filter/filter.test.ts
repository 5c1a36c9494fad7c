/**
 * Display filters: what Wireshark cannot check for us (our generated pairing fields,
 * secrets, hex dumps) and every error, with its position and suggestions. The operators on
 * capture and wire fields are held to tshark's in tshark.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { FilterError, compileFilter, dissectHexDump, filterFields, type PacketRecord } from '@gamequery/dissect';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { captures, dissectBytes, dissectFile, hexFixtures, retimedExchange, type Packet } from '../dissect/helpers.ts';

const frames = (ps: readonly PacketRecord[]): number[] => ps.map((p) => p.frame);
const pass = async (bytes: Uint8Array, filter: string): Promise<number[]> =>
  frames((await dissectBytes(bytes, { filter: compileFilter(filter) })).packets);

describe('generated pairing fields', () => {
  // lo-us.pcap's first exchange re-timed: a reply at 0.5 ms and its copy at 1 s (a duplicate);
  // and one whose only reply comes at 5.5 s, after the 5 s timeout (unanswered, then a late reply).
  const copies = retimedExchange([500, 1_000_000]);
  const late = retimedExchange([5_500_000]);

  it('duplicate_of names the first copy; response_to is on both', async () => {
    expect(await pass(copies, 'samp.duplicate_of')).toEqual([3]);
    expect(await pass(copies, 'samp.duplicate_of == 2')).toEqual([3]);
    expect(await pass(copies, 'samp.response_to == 1')).toEqual([2, 3]);
    expect(await pass(copies, 'samp.response_in == 2')).toEqual([1]);
  });

  it('unanswered and unmatched say why, and contains/matches read the reason', async () => {
    expect(await pass(late, 'samp.unanswered')).toEqual([1]);
    expect(await pass(late, 'samp.unmatched')).toEqual([2]);
    expect(await pass(late, 'samp.unmatched matches "^late reply"')).toEqual([2]);
    expect(await pass(late, 'samp.unmatched contains "timeout 5000 ms"')).toEqual([2]);
    expect(await pass(late, 'samp.response_in || samp.duplicate_of || samp.time')).toEqual([]);
    expect(await pass(copies, 'samp.unanswered or samp.unmatched')).toEqual([]);
  });

  it('stats.displayed counts what passed; links still name frames the filter dropped', async () => {
    const r = await dissectBytes(copies, { filter: compileFilter('samp.duplicate_of') });
    expect(r.stats.displayed).toBe(1);
    expect(r.stats.game).toBe(3);
    expect(r.packets[0]).toMatchObject({ frame: 3, duplicateOf: 2, requestIn: 1 });
    expect((await dissectBytes(copies)).stats.displayed).toBeUndefined();
  });

  it('frame.time_relative counts from the first frame, frame.time_epoch from 1970', async () => {
    expect(await pass(late, 'frame.time_relative > 5')).toEqual([2]);
    expect(await pass(late, 'frame.time_relative == 0')).toEqual([1]);
    expect(await pass(late, 'frame.time_epoch >= 1795346158')).toEqual([2]);
  });
});

describe('secrets', () => {
  const header = { serverIp: '127.0.0.1', serverPort: 7777 };
  const pcap = writePcap(
    [
      {
        seconds: 1_700_000_000,
        ticks: 0,
        data: udpFrame(samp.rconRequest.encode({ ...header, password: 'hunter2', command: 'players' }), 50000, 7777),
      },
      { seconds: 1_700_000_000, ticks: 1000, data: udpFrame(samp.rconResponse.encode({ ...header, output: 'no players' }), 7777, 50000) },
    ],
    { linkType: 1 },
  );

  it('a password compares as its mask unless secrets are shown', async () => {
    const test = async (filter: string, showSecrets: boolean) =>
      frames((await dissectBytes(pcap, { filter: compileFilter(filter, { showSecrets }) })).packets);
    expect(await test('samp.rcon.password == "hunter2"', false)).toEqual([]);
    expect(await test('samp.rcon.password contains "hunt"', false)).toEqual([]);
    expect(await test('samp.rcon.password', false)).toEqual([1]);
    expect(await test('samp.rcon.password == "hunter2"', true)).toEqual([1]);
    expect(await test('samp.rcon.command == "players" && samp.rcon.password.len == 7', false)).toEqual([1]);
  });
});

describe('hex dumps', () => {
  it('filter a dump like a capture; a bare payload has no ip or udp fields', () => {
    const text = readFileSync(hexFixtures + 'samp-info-response.xxd.txt', 'utf8');
    const all = dissectHexDump(text);
    expect(all.packets).toHaveLength(1);
    for (const [filter, n] of [
      ['samp.info.players > 0', 1],
      ['samp.info.players > 60000', 0],
      ['udp', 0],
      ['ip.src == 0.0.0.0', 0],
      ['samp && !udp', 1],
      ['frame.number == 1', 1],
    ] as const) {
      expect(dissectHexDump(text, { filter: compileFilter(filter) }).packets, filter).toHaveLength(n);
    }
  });
});

describe('semantics', () => {
  it('!= needs the field and no equal occurrence; ~= any unequal one; an absent field fails every comparison', async () => {
    const { packets } = await dissectFile(captures + 'veth-frag.pcap');
    const test = (f: string) => frames(packets.filter((p) => compileFilter(f).matches(p)));
    const players = frames(packets.filter((p) => p.layout === 'samp.players.response'));
    expect(test('samp.player.id == 7')).toEqual(players);
    expect(test('samp.player.id != 7')).toEqual([]);
    expect(test('samp.player.id ~= 7')).toEqual(players);
    expect(test('samp.player.id != 200')).toEqual(players);
    expect(test('!(samp.player.id == 7)')).toEqual(frames(packets).filter((f) => !players.includes(f)));
    expect(test('samp.player.id < 0')).toEqual([]);
    expect(test('samp.player.id in {200..255}')).toEqual([]);
    expect(test('samp.player.id in {99}')).toEqual(players);
    expect(test('minecraft')).toEqual(test('mcquery'));
    // The operators' word forms are the symbols.
    for (const [word, symbol] of [
      ['eq', '=='],
      ['ne', '!='],
      ['any_ne', '~='],
      ['lt', '<'],
      ['le', '<='],
      ['gt', '>'],
      ['ge', '>='],
    ]) {
      for (const n of [0, 50, 99]) expect(test(`samp.player.id ${word} ${n}`), word).toEqual(test(`samp.player.id ${symbol} ${n}`));
    }
    expect(test('samp.info.hostname ~ "FIXTURE"')).toEqual(test('samp.info.hostname matches "fixture"'));
    expect(test('samp and not ip or vcmp')).toEqual(test('(samp && !ip) || vcmp'));
    expect(test('samp or mcquery and ipv6')).toEqual(test('samp || (mcquery && ipv6)'));
    expect(test('!!samp')).toEqual(test('samp'));
    expect(test('samp.info.hostname matches "(?-i)FIXTURE"')).toEqual([]);
    expect(test('samp.info.hostname matches "(?-i)fixture"')).toHaveLength(2);
    expect(test('samp.info.password == false')).toHaveLength(2);
    expect(test('samp.info.password == true')).toEqual([]);
    expect(test('ipv6.src == fd00:0047:0:0:0:0:0:2')).toEqual(test('ipv6.src == fd00:47::2'));
    expect(test('ipv6.addr == fd00:47::/32')).toEqual(test('ipv6'));
    expect(test('"gamequery fixture server" == samp.info.hostname')).toEqual(test('samp.info.hostname == "gamequery fixture server"'));
    expect(test('100 < samp.info.max_players')).toHaveLength(2);
  });
});

describe('two ways to a field', () => {
  it('reads the same values from a decoded value as from the annotated tree, field by field', async () => {
    const fields = [
      'samp.info.hostname',
      'samp.info.players',
      'samp.info.password',
      'samp.server_ip',
      'samp.player.name',
      'samp.player.score',
      'samp.ping.nonce',
      'mcquery.basic.num_players',
      'mcquery.basic.host_port',
      'mcquery.session_id',
      'mcquery.handshake.token',
      'samp.info.hostname.len',
      'samp.players.count',
      'samp.magic',
      'samp.opcode',
      'vcmp.opcode',
      'mcquery.type',
      'mcquery.full.players.index',
    ];
    for (const name of ['veth-frag.pcap', 'lo-any.pcapng']) {
      const fast = (await dissectFile(captures + name)).packets;
      const built = (await dissectFile(captures + name)).packets;
      // The dissector decoded these without building their trees (the fast path); those have theirs built.
      const unbuilt = (ps: readonly PacketRecord[]) => ps.filter((p) => (p as { treeSource?: unknown }).treeSource !== undefined).length;
      expect(unbuilt(fast)).toBe(fast.length);
      for (const p of built) expect(p.fields.length).toBeGreaterThan(0);
      expect(unbuilt(built)).toBe(0);
      for (const field of fields) {
        const filter = compileFilter(field);
        const values = (ps: readonly PacketRecord[]) => ps.map((p) => filterFieldValues(field, p));
        expect(values(fast), field).toEqual(values(built));
        expect(
          fast.map((p) => filter.matches(p)),
          field,
        ).toEqual(built.map((p) => filter.matches(p)));
      }
    }
  });
});

describe('records a filter passes', () => {
  it('carry the tree JSON and summary an unfiltered run gives them (written once they pass)', async () => {
    for (const name of ['veth-frag.pcap', 'lo-any.pcapng', 'lo-us.pcap']) {
      const all = (await dissectFile(captures + name)).packets as Packet[];
      for (const text of ["samp.opcode == 'c' || mcquery.type == 0", 'samp.info.players > 0 || vcmp', 'udp.srcport > 40000']) {
        const some = (await dissectFile(captures + name, { filter: compileFilter(text) })).packets as Packet[];
        const filter = compileFilter(text);
        const expected = all.filter((p) => filter.matches(p));
        expect(
          some.map((p) => p.frame),
          `${name}: ${text}`,
        ).toEqual(expected.map((p) => p.frame));
        expect(some.map((p) => [p.summary, p.fieldsJson])).toEqual(expected.map((p) => [p.summary, p.fieldsJson]));
        expect(some.every((p) => p.fieldsJson !== undefined)).toBe(true);
      }
    }
  });
});

const filterFieldValues = (name: string, p: PacketRecord) => filterFields().get(name)!.values(p, { start: undefined, showSecrets: false });

describe('errors', () => {
  const error = (filter: string): FilterError => {
    try {
      compileFilter(filter);
    } catch (e) {
      if (e instanceof FilterError) return e;
      throw e;
    }
    throw new Error(`${filter} compiled`);
  };

  it.each([
    ['samp.info.hostnme == "x"', 0, 17, /neither a field nor a protocol name.*samp\.info\.hostname/],
    ['samp && smap', 8, 4, /"smap".*did you mean samp/],
    ['samp.info', 0, 9, /samp\.info\.password/],
    ['samp.info.players >', 19, 1, /unexpected end/],
    ['samp.info.players > > 1', 20, 1, /">" was unexpected/],
    ['(samp || vcmp', 0, 1, /parenthesis is not closed/],
    ['samp)', 4, 1, /"\)" was unexpected/],
    ['', 0, 1, /empty/],
    ['"samp"', 0, 6, /cannot be tested on its own/],
    ['samp.info.players == "many"', 21, 6, /is a number/],
    ["samp.opcode == 'ab'", 15, 4, /one character/],
    ['samp.info.password == maybe', 22, 5, /boolean/],
    ['ip.src == 10.0.0.256', 10, 10, /IPv4 address/],
    ['ip.src < 10.0.0.0/8', 9, 10, /network/],
    ['samp.player > 1', 0, 11, /no order/],
    ['samp.player == 1', 15, 1, /no value to compare/],
    ['samp.info.players contains "1"', 0, 17, /not text or bytes/],
    ['samp.info.hostname matches "("', 27, 3, /not a regular expression/],
    ['samp.info.hostname matches x', 27, 1, /double quotes/],
    ['samp.info.hostname == "x', 22, 2, /not closed/],
    ['samp.info.hostname == "\\q"', 23, 2, /unknown escape/],
    ['udp.port in {}', 12, 2, /at least one/],
    ['udp.port in {1, 2', 12, 1, /not closed/],
    ['samp.info.players == ip.src', 0, 27, /different kinds/],
    ['samp # vcmp', 5, 1, /"#" was unexpected/],
    // A value no field of its width holds: a typo, as tshark says (its "too big for this field").
    ['udp.port == 70000', 12, 5, /^70000 is too big for udp\.port: at most 65535$/],
    ['udp.port in {1..77777}', 16, 5, /77777 is too big for udp\.port/],
    ['ip.ttl > 256', 9, 3, /at most 255/],
    ['frame.number == 4294967296', 16, 10, /at most 4294967295/],
    ['samp.response_in == 0x100000000', 20, 11, /at most 4294967295/],
    ['samp.info.players == 65536', 21, 5, /too big for samp\.info\.players: at most 65535/],
    ['samp.player.score < -2147483649', 20, 11, /too small for samp\.player\.score: at least -2147483648/],
    ['udp.port == 1.5', 12, 3, /udp\.port is a whole number; 1\.5 is not one/],
  ] as const)('%s: at %i (%i characters)', (filter, position, length, message) => {
    const e = error(filter);
    expect(e.message).toMatch(message);
    expect([e.position, e.length]).toEqual([position, length]);
    expect(e.pointer.split('\n')[1]).toBe(`    ${' '.repeat(position)}^${'~'.repeat(length - 1)}`);
  });

  it('takes every value a whole-number field can hold, and what tshark takes below zero', () => {
    for (const f of ['udp.port == 65535', 'udp.port == 0xffff', 'ip.ttl == 255', 'samp.player.score == -2147483648', 'udp.port == -1'])
      expect(() => compileFilter(f), f).not.toThrow();
    expect(() => compileFilter("samp.opcode == 'i'")).not.toThrow();
    expect(() => compileFilter('samp.time > 0.0005')).not.toThrow();
  });

  it('suggests the nearest names, best first', () => {
    expect(error('samp.info.hostnme').suggestions[0]).toBe('samp.info.hostname');
    expect(error('udp.prt').suggestions).toContain('udp.port');
    expect(error('mcquery.basic.numplayers').suggestions[0]).toBe('mcquery.basic.num_players');
  });
});
