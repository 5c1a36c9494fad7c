/**
 * A layout of one's own, declared as another project would: through the package's entries
 * only (`@gamequery/codec`, `/define`, `/export`; `/internal` for the JSON emitters the
 * dissector writes with), no path into `src/`. A small private protocol, "ACME", with a magic,
 * an opcode, a counted list of players and a length-prefixed message of the day, gets decode,
 * encode, annotate, the JSON emitters (annotateJson, emitJson) and both exports, each checked by
 * the real tool (kaitai-struct-compiler and its runtime, tshark with the generated plugin).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import KaitaiStructCompiler from 'kaitai-struct-compiler';
import KaitaiRuntime from 'kaitai-struct';
import { parse as parseYaml } from 'yaml';
import { TruncatedError, layouts } from '@gamequery/codec';
import { constant, countedList, defineLayout, magic, prefixedString, u16le } from '@gamequery/codec/define';
import { ByteSink, internals } from '@gamequery/codec/internal';
import { exportKaitai, exportWireshark } from '@gamequery/codec/export';
import { tsharkExchange } from '../helpers/text2pcap.ts';

// kaitai-struct's index.d.ts types KaitaiStream as its module ({ default: the class }); the script's export is the class itself.
const { KaitaiStream } = KaitaiRuntime as unknown as { KaitaiStream: (typeof KaitaiRuntime.KaitaiStream)['default'] };

const opcodes = { 0x01: 'Status' };
const header = [
  magic('ACME', { abbrev: 'acme.magic', label: 'Magic', doc: 'Protocol signature' }),
  constant('u8', 0x01, { abbrev: 'acme.opcode', label: 'Opcode', base: 'hex', values: opcodes }),
] as const;

const statusRequest = defineLayout({
  protocol: 'acme',
  protocolName: 'ACME',
  message: 'status',
  direction: 'request',
  title: 'Server status',
  fields: header,
});

const statusResponse = defineLayout({
  protocol: 'acme',
  protocolName: 'ACME',
  message: 'status',
  direction: 'response',
  title: 'Server status',
  info: '"{motd}"',
  fields: [
    ...header,
    countedList(
      'players',
      { type: 'u8', abbrev: 'acme.status.num_players', label: 'Players' },
      {
        abbrev: 'acme.status.player',
        label: 'Player',
        summary: '{name}: {score}',
        fields: [
          prefixedString('name', 'u8', { abbrev: 'acme.status.player.name', label: 'Name' }),
          u16le('score', { abbrev: 'acme.status.player.score', label: 'Score' }),
        ],
      },
    ),
    prefixedString('motd', 'u8', { abbrev: 'acme.status.motd', label: 'Message of the day' }),
  ],
});

// printf 'ACME\x01\x02\x05alice\x0a\x00\x03bob\x07\x00\x0bhello world' | xxd -g1
// 00000000: 41 43 4d 45 01 02 05 61 6c 69 63 65 0a 00 03 62  ACME...alice...b
// 00000010: 6f 62 07 00 0b 68 65 6c 6c 6f 20 77 6f 72 6c 64  ob...hello world
const reply = Uint8Array.from(Buffer.from('41434d4501020561' + '6c6963650a0003626f6207000b68656c6c6f20776f726c64', 'hex'));
// printf 'ACME\x01' | xxd -g1
// 00000000: 41 43 4d 45 01                                   ACME.
const request = Uint8Array.of(0x41, 0x43, 0x4d, 0x45, 0x01);
const value = {
  players: [
    { name: 'alice', score: 10 },
    { name: 'bob', score: 7 },
  ],
  motd: 'hello world',
};

describe('a layout declared outside the package', () => {
  it('decodes to a value typed from its declaration, counts and length prefixes left out', () => {
    const decoded = statusResponse.decode(reply);
    expect(decoded).toEqual({ value, bytesRead: reply.length, warnings: [] });
    expect(statusRequest.decode(request).value).toEqual({});
  });

  it('encodes the same bytes, computing the count and the lengths', () => {
    expect(statusResponse.encode(value)).toEqual(reply);
    expect(statusResponse.encodingLength(value)).toBe(reply.length);
    expect(statusRequest.encode({})).toEqual(request);
  });

  it('annotates every field with its offset, and on a cut reply says where and why it stopped', () => {
    const tree = statusResponse.annotate(reply);
    expect(tree.info).toBe('ACME status response: "hello world"');
    expect(tree.fields.map((n) => [n.abbrev, n.offset, n.length, n.show])).toEqual([
      ['acme.magic', 0, 4, 'ACME'],
      ['acme.opcode', 4, 1, 'Status (0x01)'],
      ['acme.status.num_players', 5, 1, '2'],
      ['acme.status.player', 6, 8, 'alice: 10'],
      ['acme.status.player', 14, 6, 'bob: 7'],
      ['acme.status.motd.len', 20, 1, '11'],
      ['acme.status.motd', 21, 11, 'hello world'],
    ]);
    expect(tree.fields[3]!.children!.map((n) => n.abbrev)).toEqual([
      'acme.status.player.name.len',
      'acme.status.player.name',
      'acme.status.player.score',
    ]);

    const cut = statusResponse.annotate(reply.subarray(0, 17));
    expect(cut.error).toBeInstanceOf(TruncatedError);
    expect(cut.error!.message).toBe('acme.status.player.name: requested 3 bytes, but only 2 bytes available at offset 15');
    expect(cut.fields.at(-1)).toMatchObject({ abbrev: 'acme.malformed', offset: 15, length: 2 });
    expect(() => statusResponse.decode(reply.subarray(0, 17))).toThrow(TruncatedError);
  });

  it('writes the tree as JSON, as text and into a ByteSink', () => {
    const json = internals(statusResponse).annotateJson(reply);
    expect(json!.value).toEqual(value);
    const nodes = JSON.parse(json!.json) as { abbrev: string; children?: unknown[] }[];
    expect(nodes.map((n) => n.abbrev)).toEqual(statusResponse.annotate(reply).fields.map((n) => n.abbrev));
    const sink = new ByteSink();
    expect(internals(statusResponse).emitJson(reply, sink)).toEqual(value);
    expect(sink.text()).toBe(json!.json);
  });

  it('exports to a Kaitai Struct .ksy that kaitai-struct-compiler compiles and whose parser reads the reply', async () => {
    const files = exportKaitai([statusRequest, statusResponse]);
    expect([...files.keys()]).toEqual(['acme_status_request.ksy', 'acme_status_response.ksy']);
    const ksy = parseYaml(files.get('acme_status_response.ksy')!) as { meta: { id: string; license?: string } };
    expect(ksy.meta).toMatchObject({ id: 'acme_status_response', endian: 'le' });
    expect(ksy.meta.license).toBeUndefined();
    const out = (await KaitaiStructCompiler.compile('javascript', ksy, null, false)) as Record<string, string>;
    const module = { exports: {} as Record<string, new (io: unknown) => Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- the classes the Kaitai compiler generates at run time are untyped
    const require = (name: string): unknown => {
      if (name === 'kaitai-struct/KaitaiStream') return KaitaiStream;
      throw new Error(`unexpected require(${name})`);
    };
    new Function('module', 'exports', 'require', out['AcmeStatusResponse.js']!)(module, module.exports, require);
    const parsed = new module.exports['AcmeStatusResponse']!(new KaitaiStream(reply.slice().buffer));
    const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
    expect(parsed['numPlayers']).toBe(2);
    expect((parsed['players'] as { name: Uint8Array; score: number }[]).map((p) => [latin1(p.name), p.score])).toEqual([
      ['alice', 10],
      ['bob', 7],
    ]);
    expect(latin1(parsed['motd'] as Uint8Array)).toBe('hello world');
  });

  describe('the Wireshark plugin for it, run by tshark', () => {
    const work = mkdtempSync(join(tmpdir(), 'gamequery-acme-lua-'));
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('names the protocol and its ports, and tshark shows every field of a request and its reply, linked', () => {
      expect(exportWireshark([statusRequest, statusResponse], { ports: { acme: [4999] } })).toContain('Ports (Decode As): acme 4999;');
      // Ours and the built-in protocols in one plugin, as docs/declaring-protocols.md shows.
      const plugin = exportWireshark([...layouts, statusRequest, statusResponse], { ports: { acme: [4999] } });
      expect(plugin).toContain('Ports (Decode As): samp 7777; vcmp 8192; mcquery 25565, 19132; acme 4999;');
      const lines = tsharkExchange(work, plugin, 4999, request, reply, [
        '_ws.col.Protocol',
        'acme.opcode',
        'acme.status.num_players',
        'acme.status.player.name',
        'acme.status.player.score',
        'acme.status.motd',
        'acme.response_in',
        'acme.response_to',
        '_ws.col.Info',
      ]);
      expect(lines).toEqual([
        'ACME|0x01|||||2||ACME status request',
        'ACME|0x01|2|alice,bob|10,7|hello world||1|ACME status response: "hello world"',
      ]);
    });
  });
});
