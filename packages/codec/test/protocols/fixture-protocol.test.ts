/**
 * The claim of issue 21: a new message layout touches its protocol's folder and nothing else
 * but, for a built-in protocol, its test vectors (the cases in scripts/vectors/<protocol>, the
 * files they write under test-vectors/<protocol>).
 * TinyQ (test/fixtures/protocols/tinyq) is declared the way the built-in protocols are, and
 * its `bye` message was added there only (bye.ts, one line of the message table, the opcode's
 * label). Each consumer of a declaration is shown to pick `bye` up: the decoder, the encoder,
 * the annotated tree, the field listing, recognition, the Kaitai export (compiled and run by
 * kaitai-struct-compiler) and the Wireshark plugin (run by tshark). A declaration without
 * `bye` shows the difference is the table line.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import KaitaiStructCompiler from 'kaitai-struct-compiler';
import KaitaiRuntime from 'kaitai-struct';
import { parse as parseYaml } from 'yaml';
import { UnknownOpcodeError, builtInProtocols, protocolSet, recognize } from '@gamequery/codec';
import { buildRegistry } from '../../src/grammar/registry.ts';
import { exportKaitai, exportWireshark } from '@gamequery/codec/export';
import { tsharkExchange } from '../helpers/text2pcap.ts';
import { declareTinyq, tinyqMessages, tinyqProtocol } from '../fixtures/protocols/tinyq/protocol.ts';

// kaitai-struct's index.d.ts types KaitaiStream as its module ({ default: the class }); the script's export is the class itself.
const { KaitaiStream } = KaitaiRuntime as unknown as { KaitaiStream: (typeof KaitaiRuntime.KaitaiStream)['default'] };
const { request: byeRequest, response: byeResponse } = tinyqMessages.bye;

// printf 'TNYQb\x2a\x00\x00\x00' | xxd -g1
// 00000000: 54 4e 59 51 62 2a 00 00 00                       TNYQb*...
const request = Uint8Array.from(Buffer.from('544e5951622a000000', 'hex'));
// printf 'TNYQb\x2a\x00\x00\x00\x0dserver closed' | xxd -g1
// 00000000: 54 4e 59 51 62 2a 00 00 00 0d 73 65 72 76 65 72  TNYQb*....server
// 00000010: 20 63 6c 6f 73 65 64                              closed
const reply = Uint8Array.from(Buffer.from('544e5951622a0000000d73657276657220636c6f736564', 'hex'));
// printf 'TNYQs\x04home\x03\x00' | xxd -g1
// 00000000: 54 4e 59 51 73 04 68 6f 6d 65 03 00              TNYQs.home..
const status = Uint8Array.from(Buffer.from('544e59517304686f6d650300', 'hex'));

const withoutBye = declareTinyq({ status: tinyqMessages.status });

describe('a message added to a fixture protocol, in its folder only', () => {
  it('is named nowhere in the codec sources: the fixture folder is the whole change', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
    const src = join(import.meta.dirname, '../../src');
    expect(files(src).filter((f) => /tinyq|TNYQ/i.test(readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('is in the declaration: its layouts, and the signature read from their magic', () => {
    expect(tinyqProtocol.layouts.map((l) => l.id)).toEqual([
      'tinyq.status.request',
      'tinyq.status.response',
      'tinyq.bye.request',
      'tinyq.bye.response',
    ]);
    expect(withoutBye.layouts.map((l) => l.id)).toEqual(['tinyq.status.request', 'tinyq.status.response']);
    expect(tinyqProtocol.signatures).toEqual([{ bytes: Uint8Array.from([0x54, 0x4e, 0x59, 0x51]), directions: ['request', 'response'] }]);
    expect(tinyqProtocol).toMatchObject({
      name: 'tinyq',
      aliases: ['tq'],
      title: 'TinyQ Query Protocol',
      shortTitle: 'TinyQ',
      ports: [4999],
    });
  });

  it('decodes and encodes (the reason length computed), and annotates every field with its offset', () => {
    expect(byeResponse.decode(reply)).toEqual({ value: { token: 42, reason: 'server closed' }, bytesRead: reply.length, warnings: [] });
    expect(byeRequest.decode(request).value).toEqual({ token: 42 });
    expect(byeResponse.encode({ token: 42, reason: 'server closed' })).toEqual(reply);
    expect(byeRequest.encode({ token: 42 })).toEqual(request);
    const tree = byeResponse.annotate(reply);
    expect(tree.info).toBe('TinyQ bye response: "server closed"');
    expect(tree.fields.map((n) => [n.abbrev, n.offset, n.length, n.show])).toEqual([
      ['tinyq.magic', 0, 4, 'TNYQ'],
      ['tinyq.opcode', 4, 1, 'b (Bye) (0x62)'],
      ['tinyq.bye.token', 5, 4, '0x0000002a'],
      ['tinyq.bye.reason.len', 9, 1, '13'],
      ['tinyq.bye.reason', 10, 13, 'server closed'],
    ]);
  });

  it('is in the field listing built from the declaration', () => {
    const abbrevs = (p: typeof tinyqProtocol) => buildRegistry(p.layouts).map((r) => r.abbrev);
    expect(abbrevs(tinyqProtocol).filter((a) => !abbrevs(withoutBye).includes(a))).toEqual([
      'tinyq.bye.token',
      'tinyq.bye.reason.len',
      'tinyq.bye.reason',
    ]);
  });

  it('is recognised by the signature and the rule of the declaration, beside the built-in protocols', () => {
    const all = protocolSet([...builtInProtocols, tinyqProtocol]);
    expect(all.recognize(reply)).toMatchObject({ protocol: 'tinyq', message: 'bye', direction: 'response', layout: byeResponse });
    expect(all.recognize(request)).toMatchObject({ protocol: 'tinyq', message: 'bye', direction: 'request', layout: byeRequest });
    expect(all.recognize(status)).toMatchObject({ protocol: 'tinyq', message: 'status', direction: 'response' });
    expect(all.signatureOf(reply)).toBe('tinyq');
    expect(all.layoutFor('tinyq', 'bye', 'response')).toBe(byeResponse);
    // The built-in protocols are recognised as before, and the built-in set does not know TinyQ.
    const samp = Uint8Array.from(Buffer.from('53414d507f0000016111' + '69', 'hex'));
    expect(all.recognize(samp)).toEqual(recognize(samp));
    expect(() => recognize(reply)).toThrow('no SA:MP, VC:MP or Minecraft query signature (starts 54 4e 59 51 62 2a 00 00)');
    expect(() => all.recognize(Uint8Array.of(1, 2, 3, 4, 5, 6))).toThrow(
      'no SA:MP, VC:MP, Minecraft query or TinyQ signature (starts 01 02 03 04 05 06)',
    );
    // Without the table line, `b` is an unknown opcode.
    expect(() => protocolSet([withoutBye]).recognize(reply)).toThrow(UnknownOpcodeError);
    expect(protocolSet([withoutBye]).identify(reply)).toBeUndefined();
  });

  it('is exported to Kaitai Struct in the declared byte order, and the compiled parser reads the reply', async () => {
    const files = exportKaitai(tinyqProtocol.layouts, { protocols: [tinyqProtocol] });
    expect([...files.keys()].filter((n) => !exportKaitai(withoutBye.layouts, { protocols: [withoutBye] }).has(n))).toEqual([
      'tinyq_bye_request.ksy',
      'tinyq_bye_response.ksy',
    ]);
    const ksy = parseYaml(files.get('tinyq_bye_response.ksy')!) as { meta: { id: string; endian: string } };
    expect(ksy.meta).toMatchObject({ id: 'tinyq_bye_response', endian: 'le' });
    const out = (await KaitaiStructCompiler.compile('javascript', ksy, null, false)) as Record<string, string>;
    const module = { exports: {} as Record<string, new (io: unknown) => Record<string, unknown>> };
    const require = (name: string): unknown => {
      if (name === 'kaitai-struct/KaitaiStream') return KaitaiStream;
      throw new Error(`unexpected require(${name})`);
    };
    new Function('module', 'exports', 'require', out['TinyqByeResponse.js']!)(module, module.exports, require);
    const parsed = new module.exports['TinyqByeResponse']!(new KaitaiStream(reply.slice().buffer));
    expect(parsed['token']).toBe(42);
    expect(Buffer.from(parsed['reason'] as Uint8Array).toString('latin1')).toBe('server closed');
  });

  describe('the Wireshark plugin, run by tshark', () => {
    const work = mkdtempSync(join(tmpdir(), 'gamequery-tinyq-lua-'));
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('claims the declared port and shows every field of a bye request and its reply, linked', () => {
      const plugin = exportWireshark(tinyqProtocol.layouts, { protocols: [tinyqProtocol] });
      expect(plugin).toContain('Ports (Decode As): tinyq 4999;');
      expect(plugin).toContain('"tinyq.bye.response"');
      expect(exportWireshark(withoutBye.layouts, { protocols: [withoutBye] })).not.toContain('"tinyq.bye.response"');
      const lines = tsharkExchange(work, plugin, tinyqProtocol.defaultPort, request, reply, [
        '_ws.col.Protocol',
        'tinyq.opcode',
        'tinyq.bye.token',
        'tinyq.bye.reason',
        'tinyq.response_in',
        'tinyq.response_to',
        '_ws.col.Info',
      ]);
      expect(lines).toEqual([
        'TinyQ|0x62|0x0000002a||2||TinyQ bye request: token 0x0000002a',
        'TinyQ|0x62|0x0000002a|server closed||1|TinyQ bye response: "server closed"',
      ]);
    });
  });
});
