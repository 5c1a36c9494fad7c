/**
 * Issue 30's proof: the numbers a layout of one's own may need beyond the built-in protocols'
 * — 64-bit integers (a bigint in the value) and IEEE floats — each declared once (numbers.ts)
 * and taken by every path. Valve's A2S (test/fixtures/protocols/a2s), declared through the
 * public API only, with its u64 Steam ID and game ID and its f32 player times, goes through
 * decode, encode, annotate, the compiled JSON and text emitters, measure, the interpreter a
 * strict Content-Security-Policy gets, the Kaitai export (compiled and run by
 * kaitai-struct-compiler) and the Wireshark plugin (run by tshark); the synthetic layout of every
 * other new type (`numeric` in helpers/synthetic.ts: i16, u64 BE, f32 BE, f64) through the same
 * exports. gamedig's reading of the same A2S bytes is test/node/a2s-gamedig.test.ts, the
 * dissector's packages/dissect/test/dissect/a2s-fixture.test.ts.
 *
 * The bytes are written by `B` (scripts/vectors/builder.ts; the A2S ones in the fixture's
 * samples.ts), which knows nothing of the codec: Node's Buffer writes the 64-bit integers and the
 * floats, and what `B` records of each field — offset, length, and the value Buffer reads back,
 * as JSON shows it — is the expected tree.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import KaitaiStructCompiler from 'kaitai-struct-compiler';
import KaitaiRuntime from 'kaitai-struct';
import { parse as parseYaml } from 'yaml';
import {
  TruncatedError,
  builtInProtocols,
  nodeJson,
  protocolSet,
  valueFromJson,
  valueToJson,
  type AnyLayout,
  type FieldNode,
} from '@gamequery/codec';
import { ByteSink, buildRegistry, internals, interpretedLayout } from '@gamequery/codec/internal';
import { exportKaitai, exportWireshark } from '@gamequery/codec/export';
import { B, type Node } from '../../scripts/vectors/builder.ts';
import { answersOf } from '../helpers/answers.ts';
import { checkRoundTrip } from '../helpers/roundtrip.ts';
import { numeric } from '../helpers/synthetic.ts';
import { exchangeCapture } from '../helpers/text2pcap.ts';
import { collect, compareFields, parsePdml, type Links } from '../helpers/tshark.ts';
import { a2sMessages, a2sProtocol } from '../fixtures/protocols/a2s/protocol.ts';
import {
  bytesOf,
  f32,
  infoRequest,
  infoResponse,
  playerRequest,
  playerResponse,
  players,
  server,
} from '../fixtures/protocols/a2s/samples.ts';

// kaitai-struct's index.d.ts types KaitaiStream as its module ({ default: the class }); the script's export is the class itself.
const { KaitaiStream } = KaitaiRuntime as unknown as { KaitaiStream: (typeof KaitaiRuntime.KaitaiStream)['default'] };
const { info, player } = a2sMessages;

// The numeric synthetic layout: every other new type, at the top, in a group and in a list entry.
const numericValue = {
  small: -300,
  mask: -2,
  big: 18446744073709551615n,
  id: 730n,
  ratio: f32(0.1),
  ratioBe: f32(-1e-7),
  precise: 1 / 3,
  weight: 6.02214076e23,
  samples: [
    { tick: 90071992547409921n, level: f32(1234.56), delta: -32768, at: 'x' },
    { tick: 1n, level: f32(3.5), delta: 32767, at: 'yz' },
  ],
};
const numericBytes = (): B => {
  const v = numericValue;
  const b = new B()
    .ascii('NUM', 'samp.numeric.magic')
    .i16le(v.small, 'samp.numeric.small')
    .i16be(v.mask, 'samp.numeric.mask')
    .u64le(v.big, 'samp.numeric.big')
    .u64be(v.id, 'samp.numeric.id')
    .f32le(v.ratio, 'samp.numeric.ratio')
    .f32be(v.ratioBe, 'samp.numeric.ratio_be')
    .f64le(v.precise, 'samp.numeric.precise')
    .group('samp.numeric.block', (g) => g.i16be(-2, 'samp.numeric.block.marker').f64le(v.weight, 'samp.numeric.block.weight'))
    .u16be(v.samples.length, 'samp.numeric.count');
  for (const s of v.samples) {
    b.group('samp.numeric.sample', (e) =>
      e
        .u64be(s.tick, 'samp.numeric.sample.tick')
        .f32le(s.level, 'samp.numeric.sample.level')
        .i16be(s.delta, 'samp.numeric.sample.delta')
        .cstr(s.at, 'samp.numeric.sample.at'),
    );
  }
  return b;
};

/** Each message: its layout, what B wrote and recorded, and the value it decodes to. */
const cases: readonly { readonly layout: AnyLayout; readonly b: B; readonly value: Record<string, unknown> }[] = [
  { layout: info.request, b: infoRequest(), value: {} },
  { layout: info.response, b: infoResponse(), value: server },
  { layout: player.request, b: playerRequest(), value: { challenge: -1 } },
  { layout: player.response, b: playerResponse(), value: { players } },
  { layout: numeric, b: numericBytes(), value: numericValue },
];

/** A tree as B records one: abbreviation, offset, length, the value as JSON has it, children. */
const recorded = (
  nodes: readonly { abbrev: string; offset: number; length: number; value: unknown; children?: readonly unknown[] }[],
): Node[] =>
  nodes.map((n) => ({
    abbrev: n.abbrev,
    offset: n.offset,
    length: n.length,
    value: n.value as Node['value'],
    ...(n.children ? { children: recorded(n.children as typeof nodes) } : {}),
  }));

function* walk(nodes: readonly FieldNode[], depth = 0): Generator<[FieldNode, number]> {
  for (const n of nodes) {
    yield [n, depth];
    if (n.children) yield* walk(n.children, depth + 1);
  }
}

describe.each(cases.map((c) => [c.layout.id, c] as const))('%s', (_, { layout, b, value }) => {
  const bytes = bytesOf(b);

  it('decodes what B wrote (64-bit integers as bigints, floats as Buffer reads them) and encodes it back byte for byte', () => {
    expect(layout.decode(bytes)).toEqual({ value, bytesRead: bytes.length, warnings: [] });
    expect(layout.encode(value)).toEqual(bytes);
    checkRoundTrip(layout, value);
  });

  it('annotates every field where B wrote it, with the value B read back', () => {
    const tree = layout.annotate(bytes);
    expect(tree.error).toBeUndefined();
    expect(recorded(tree.fields.map((n) => nodeJson(n, false)))).toEqual(b.expected().fields);
  });

  it('writes the same tree as JSON on the compiled fast path, 64-bit integers as strings of their digits', () => {
    const fast = internals(layout).annotateJson(bytes);
    expect(fast?.value).toEqual(value);
    expect(recorded(JSON.parse(fast!.json) as Node[])).toEqual(b.expected().fields);
    expect(fast!.json).toBe(JSON.stringify(layout.annotate(bytes).fields.map((n) => nodeJson(n, false))));
    const sink = new ByteSink(16);
    expect(internals(layout).emitJson(bytes, sink, {})).toEqual(value);
    expect(sink.text(0)).toBe(fast!.json);
  });

  // The compiled text emitter (the dissector's) is held to this tree in packages/dissect/test/render/text-emitter.test.ts.
  it('shows each float in the tree as the shortest decimal that reads back to it', () => {
    const tree = layout.annotate(bytes).fields;
    const rows = new Map(buildRegistry([layout]).map((r) => [r.abbrev, r]));
    for (const [n] of walk(tree)) {
      const type = rows.get(n.abbrev)!.type;
      if (type === 'FT_FLOAT' || type === 'FT_DOUBLE') {
        const read = type === 'FT_FLOAT' ? Math.fround : (x: number) => x;
        const v = n.value as number;
        // It reads back to the value, and no decimal of fewer significant digits does.
        expect(read(Number(n.show)), n.abbrev).toBe(v);
        const digits = n.show
          .replace(/^-|e.*$/g, '')
          .replace('.', '')
          .replace(/^0+/, '').length;
        for (let p = 1; p < digits; p++) expect(read(Number(v.toPrecision(p))), `${n.abbrev} in ${p} digits`).not.toBe(v);
      }
      if (type === 'FT_UINT64') {
        const digits = BigInt(n.value as bigint);
        expect(n.show).toBe(rows.get(n.abbrev)!.base === 'hex' ? `0x${digits.toString(16).padStart(16, '0')}` : String(digits));
      }
    }
  });

  it('measures the message as decode reads it, and -1 wherever it is cut', () => {
    const measure = (b: Uint8Array) => internals(layout).measure(b);
    expect(measure(bytes)).toBe(bytes.length);
    for (let n = 0; n < bytes.length; n++) {
      expect(measure(bytes.subarray(0, n)), `cut at ${n}`).toBe(-1);
      expect(() => layout.decode(bytes.subarray(0, n))).toThrow(TruncatedError);
    }
  });

  it('gives what the compiled layout gives when it may not generate code (a strict CSP), whole and cut', () => {
    const interpreting = interpretedLayout(layout);
    for (let n = 0; n <= bytes.length; n++) {
      expect(answersOf(interpreting, bytes.subarray(0, n)), `cut at ${n}`).toEqual(answersOf(layout, bytes.subarray(0, n)));
    }
  });
});

describe('the A2S fixture', () => {
  it('stops where B says a cut reply stops: inside the Steam ID, inside the last player time', () => {
    const within = (b: B, field: string, into: number) => {
      const node = b.expected().fields.flatMap(function flat(n: Node): Node[] {
        return [n, ...(n.children ?? []).flatMap(flat)];
      });
      return node.filter((n) => n.abbrev === field).at(-1)!.offset + into;
    };
    const steam = infoResponse();
    steam.cutAt(within(steam, 'a2s.info.steam_id', 5), 'a2s.info.steam_id');
    const time = playerResponse();
    time.cutAt(within(time, 'a2s.player.duration', 3), 'a2s.player.duration');
    for (const [layout, b] of [
      [info.response, steam],
      [player.response, time],
    ] as const) {
      const want = b.expected().error!;
      const cut = layout.annotate(bytesOf(b));
      expect({ type: cut.error?.name, offset: cut.error?.info.offset, field: cut.error?.info.field, message: cut.error?.message }).toEqual(
        want,
      );
    }
  });

  it('registers its 64-bit integers and floats as Wireshark types, in its byte order', () => {
    const rows = new Map(buildRegistry(a2sProtocol.layouts).map((r) => [r.abbrev, r]));
    expect(rows.get('a2s.info.steam_id')).toMatchObject({ type: 'FT_UINT64', endian: 'le', base: 'dec' });
    expect(rows.get('a2s.info.game_id')).toMatchObject({ type: 'FT_UINT64', endian: 'le', base: 'hex' });
    expect(rows.get('a2s.player.duration')).toMatchObject({ type: 'FT_FLOAT', endian: 'le', base: 'none' });
    expect(rows.get('a2s.player.score')).toMatchObject({ type: 'FT_INT32', endian: 'le', base: 'dec' });
    const numbers = new Map(buildRegistry([numeric]).map((r) => [r.abbrev, r]));
    expect(numbers.get('samp.numeric.mask')).toMatchObject({ type: 'FT_INT16', endian: 'be' });
    expect(numbers.get('samp.numeric.id')).toMatchObject({ type: 'FT_UINT64', endian: 'be', base: 'hex' });
    expect(numbers.get('samp.numeric.ratio_be')).toMatchObject({ type: 'FT_FLOAT', endian: 'be' });
    expect(numbers.get('samp.numeric.precise')).toMatchObject({ type: 'FT_DOUBLE', endian: 'le', base: 'none' });
  });

  it('is recognised by its header byte beside the built-in protocols, each message in its direction', () => {
    const set = protocolSet([...builtInProtocols, a2sProtocol]);
    for (const { layout, b } of cases.slice(0, 4)) {
      expect(set.recognize(bytesOf(b))).toMatchObject({ protocol: 'a2s', message: layout.message, direction: layout.direction, layout });
    }
  });

  it('encodes a 64-bit integer given as a safe-integer number, and refuses one past 2^53 or out of range', () => {
    expect(info.response.encode({ ...server, steamId: (2 ** 52) as unknown as bigint })).toEqual(
      info.response.encode({ ...server, steamId: 4503599627370496n }),
    );
    expect(info.response.encode({ ...server, steamId: 730 as unknown as bigint })).toEqual(
      info.response.encode({ ...server, steamId: 730n }),
    );
    expect(() => info.response.encode({ ...server, steamId: (2 ** 60) as unknown as bigint })).toThrow(
      // The number as JavaScript writes it: past 2^53 it is no longer the integer it looks like.
      'a2s.info.steam_id: 1152921504606847000 is not an integer in 0..18446744073709551615 (u64le)',
    );
    expect(() => info.response.encode({ ...server, steamId: -1n })).toThrow('is not an integer in 0..18446744073709551615 (u64le)');
    expect(() => player.response.encode({ players: [{ ...players[0]!, duration: 1e39 }] })).toThrow('1e+39 is beyond the range of f32le');
    expect(() => player.response.encode({ players: [{ ...players[0]!, duration: '1' as unknown as number }] })).toThrow(
      '1 is not a number (f32le)',
    );
  });

  it('writes a value as JSON with 64-bit integers as their digits, and reads it back (valueToJson, valueFromJson)', () => {
    const json = JSON.parse(JSON.stringify(valueToJson(info.response, server))) as Record<string, unknown>;
    expect(json).toMatchObject({ steamId: String(server.steamId), gameId: String(server.gameId), appId: server.appId });
    expect(valueFromJson(info.response, json)).toEqual(server);
    const odd = { players: [NaN, -Infinity].map((duration, index) => ({ index, name: 'p', score: 0, duration })) };
    const text = JSON.stringify(valueToJson(player.response, odd));
    expect(text).toContain('"duration":"NaN"');
    expect(valueFromJson(player.response, JSON.parse(text) as Record<string, unknown>)).toEqual(odd);
  });

  it('writes NaN and ±Infinity as JSON strings, valid JSON that keeps which one it was', () => {
    const odd = [NaN, Infinity, -Infinity, -0];
    const bytes = player.response.encode({ players: odd.map((duration, index) => ({ index, name: 'p', score: 0, duration })) });
    const fast = internals(player.response).annotateJson(bytes)!;
    const times = (JSON.parse(fast.json) as Node[]).filter((n) => n.children).map((n) => n.children!.at(-1)!);
    // -0 is a number, which JSON writes as 0 (JSON.stringify does); its show keeps the sign.
    expect(times.map((n) => n.value)).toEqual(['NaN', 'Infinity', '-Infinity', 0]);
    expect(times.map((n) => (n as { show?: string }).show)).toEqual(['NaN', 'Infinity', '-Infinity', '-0']);
    expect(fast.json).toBe(JSON.stringify(player.response.annotate(bytes).fields.map((n) => nodeJson(n, false))));
  });
});

describe('the Kaitai export, compiled by kaitai-struct-compiler', () => {
  type Ks = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- what the generated parsers give is untyped
  const parse = async (layout: AnyLayout, files: Map<string, string>, bytes: Uint8Array): Promise<Ks> => {
    const ksy = parseYaml(files.get(`${layout.id.replace(/\./g, '_')}.ksy`)!) as { meta: { id: string } };
    const out = (await KaitaiStructCompiler.compile('javascript', ksy, null, false)) as Record<string, string>;
    const name = ksy.meta.id.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
    const module = { exports: {} as Record<string, new (io: unknown) => Ks> };
    const require = (id: string): unknown => {
      if (id === 'kaitai-struct/KaitaiStream') return KaitaiStream;
      throw new Error(`unexpected require(${id})`);
    };
    new Function('module', 'exports', 'require', out[`${name}.js`]!)(module, module.exports, require);
    return new module.exports[name]!(new KaitaiStream(bytes.slice().buffer));
  };
  const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

  it('reads the A2S replies as B wrote them: 64-bit integers as Kaitai has them (a double, exact below 2^53), floats exactly', async () => {
    const files = exportKaitai(a2sProtocol.layouts, { protocols: [a2sProtocol] });
    const i = await parse(info.response, files, bytesOf(infoResponse()));
    expect([text(i['name']), text(i['map']), i['appId'], i['maxPlayers'], i['serverType'], i['port']]).toEqual([
      server.name,
      server.map,
      server.appId,
      server.maxPlayers,
      server.serverType,
      server.port,
    ]);
    // Kaitai's JavaScript runtime reads a u8 as 2^32·high + low in a double.
    expect(i['steamId']).toBe(Number(server.steamId));
    expect(i['gameId']).toBe(Number(server.gameId));
    const p = await parse(player.response, files, bytesOf(playerResponse()));
    expect((p['players'] as Ks[]).map((e) => [e['index'], text(e['name']), e['score'], e['duration']])).toEqual(
      players.map((e) => [e.index, e.name, e.score, e.duration]),
    );
  });

  it('reads every other new type (i16, u64 big-endian, f32 big-endian, f64) as B wrote it', async () => {
    const k = await parse(numeric, exportKaitai([numeric]), bytesOf(numericBytes()));
    const v = numericValue;
    expect([k['small'], k['mask'], k['big'], k['id'], k['ratio'], k['ratioBe'], k['precise'], k['blockSection']['weight']]).toEqual([
      v.small,
      v.mask,
      Number(v.big),
      Number(v.id),
      v.ratio,
      v.ratioBe,
      v.precise,
      v.weight,
    ]);
    expect((k['samples'] as Ks[]).map((s) => [s['tick'], s['level'], s['delta']])).toEqual(
      v.samples.map((s) => [Number(s.tick), s.level, s.delta]),
    );
  });
});

describe('the Wireshark plugin, run by tshark', () => {
  const work = mkdtempSync(join(tmpdir(), 'gamequery-a2s-lua-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** tshark's PDML of the capture of `datagrams` with `plugin`: per packet, our protocol's items, the links and the Info column. */
  const tshark = (plugin: string, port: number, proto: string, datagrams: readonly Uint8Array[]) => {
    writeFileSync(join(work, 'plugin.lua'), plugin);
    const capture = exchangeCapture(work, port, ...datagrams);
    const env = { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), HOME: work };
    const run = (...args: string[]) =>
      execFileSync('tshark', ['-2', '-n', '-X', `lua_script:${join(work, 'plugin.lua')}`, '-r', capture, ...args], {
        encoding: 'utf8',
        env,
      });
    const info = run('-T', 'fields', '-e', '_ws.col.Info').trimEnd().split('\n');
    return parsePdml(run('-T', 'pdml')).map((packet, i) => {
      const links: Links = new Map();
      const node = packet.find((p) => p.name === proto);
      return { items: node ? collect(node.children, proto, 42, links) : [], links, info: info[i] };
    });
  };

  it('shows every field of both A2S exchanges as our tree has it (floats as C %.6g, as Wireshark 4.0 does), and links each reply', () => {
    const datagrams = cases.slice(0, 4).map((c) => bytesOf(c.b));
    const packets = tshark(exportWireshark(a2sProtocol.layouts, { protocols: [a2sProtocol] }), a2sProtocol.defaultPort, 'a2s', datagrams);
    const rows = new Map(buildRegistry(a2sProtocol.layouts).map((r) => [r.abbrev, r]));
    const problems: string[] = [];
    cases.slice(0, 4).forEach(({ layout }, i) => {
      const tree = layout.annotate(datagrams[i]!);
      expect(compareFields(tree.fields, packets[i]!.items, layout.id, problems, rows)).toBe(nodeCount(cases[i]!.b));
      expect(packets[i]!.info).toBe(tree.info);
    });
    expect(problems).toEqual([]);
    expect(packets.map((p) => p.links.get(p === packets[0] || p === packets[2] ? 'response_in' : 'response_to'))).toEqual([
      '2',
      '1',
      '4',
      '3',
    ]);
  });

  it('shows every other new type as our tree has it, and the Info column naming floats and 64-bit integers as describe writes it', () => {
    const bytes = bytesOf(numericBytes());
    const [packet] = tshark(exportWireshark([numeric], { ports: { samp: [7777] } }), 7777, 'samp', [bytes]);
    const tree = numeric.annotate(bytes);
    const problems: string[] = [];
    const rows = new Map(buildRegistry([numeric]).map((r) => [r.abbrev, r]));
    expect(compareFields(tree.fields, packet!.items, numeric.id, problems, rows)).toBe(nodeCount(numericBytes()));
    expect(problems).toEqual([]);
    expect(packet!.info).toBe(tree.info);
  });
});

/** How many nodes B recorded, subtrees' included. */
function nodeCount(builder: B): number {
  const count = (nodes: readonly Node[]): number => nodes.reduce((n, x) => n + 1 + count(x.children ?? []), 0);
  return count(builder.expected().fields);
}
