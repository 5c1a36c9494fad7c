import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { compileFilter, dissectHexDump, packetJson, type PacketRecord } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { captures, hexFixtures } from './helpers.ts';

const formats = ['xxd', 'xxd-g1', 'xxd-c8', 'hexdump-C', 'hexdump', 'od-x1', 'od-x1z', 'od-x2', 'od-x4', 'xxd-p', 'xxd-i'];

describe('dissecting hex dumps', () => {
  const bin = readFileSync(`${hexFixtures}samp-info-response.bin`);
  const expected = samp.infoResponse.decode(bin).value;

  it.each(formats)('a SA:MP info reply dumped by %s dissects to the bytes the tool read', (format) => {
    const r = dissectHexDump(readFileSync(`${hexFixtures}samp-info-response.${format}.txt`, 'utf8'));
    expect(r.packets).toHaveLength(1);
    const [p] = r.packets;
    expect(p!.layout).toBe('samp.info.response');
    expect(Buffer.from(p!.payload)).toEqual(bin);
    expect(p!.fields.find((n) => n.abbrev === 'samp.info.hostname')!.value).toBe(expected.hostname);
  });

  it("shows a four-byte magic with an unknown opcode as that protocol's malformed packet, not as other traffic", () => {
    // SA:MP header with opcode 'A'; VC:MP with opcode 'z'; then fe fd with type 0x42 (too weak a signature alone) and DNS.
    const r = dissectHexDump(
      ['53414d507f000001611e41', '', '56434d507f000001611e7a', '', 'fefd4200000001', '', '12340100000100000000000003777777'].join('\n'),
    );
    expect(r.packets.map((p) => [p.protocol, p.layout, p.direction, p.summary])).toEqual([
      ['samp', 'samp.unknown', 'either', 'SA:MP: samp.opcode: unknown opcode 0x41 at offset 10'],
      ['vcmp', 'vcmp.unknown', 'either', 'VC:MP: vcmp.opcode: unknown opcode 0x7a at offset 10'],
    ]);
    expect(r.stats).toMatchObject({ game: 2, nonGame: 2 });
    const [samp] = r.packets;
    // What could be decoded (the header before the opcode), the opcode, then the malformed item: as the Wireshark plugin shows it.
    expect(samp!.fields.map((n) => n.abbrev)).toEqual([
      'samp.magic',
      'samp.server_ip',
      'samp.server_port',
      'samp.opcode',
      'samp.malformed',
    ]);
    expect(samp!.fields[3]).toMatchObject({ offset: 10, length: 1, value: 0x41, show: 'A (0x41)' });
    // So a filter on the opcode finds it.
    const filtered = dissectHexDump('53414d507f000001611e41\n\n53414d507f000001611e69', { filter: compileFilter('samp.opcode == 0x41') });
    expect(filtered.packets.map((p) => p.frame)).toEqual([1]);
    expect(samp!.fields.at(-1)).toMatchObject({ offset: 10, length: 1, value: 'UnknownOpcodeError' });
    expect(packetJson(samp!).malformed).toEqual({
      type: 'UnknownOpcodeError',
      field: 'samp.opcode',
      offset: 10,
      message: 'samp.opcode: unknown opcode 0x41 at offset 10',
    });
    // Decode As claims anything on its ports.
    const forced = dissectHexDump('fefd4200000001', { decodeAs: { protocol: 'mcquery', ports: [0] } });
    expect(forced.packets.map((p) => p.summary)).toEqual(['Minecraft query: mcquery.type: unknown opcode 0x42 at offset 2']);
    expect(forced.packets[0]!.fields.map((n) => n.abbrev)).toEqual(['mcquery.magic', 'mcquery.type', 'mcquery.malformed']);
  });

  it('walks a whole frame from tshark -x down to UDP, and pairs the request with its reply', () => {
    const r = dissectHexDump(readFileSync(`${hexFixtures}samp-udp.tshark-x.txt`, 'utf8'));
    expect(r.packets.length).toBeGreaterThanOrEqual(1);
    for (const p of r.packets) {
      expect(p.protocol).toBe('samp');
      expect(p.src.ip).toBe('127.0.0.1');
      expect(p.payloadOffset).toBe(42);
    }
  });

  it.each([
    ['any-sll.pcap', 'Linux cooked v1', 16],
    ['any-sll2.pcap', 'Linux cooked v2', 20],
  ])('walks the frames tcpdump -i any -XX dumped (%s, %s) down to UDP, as the capture itself', async (name, _, header) => {
    const capture = `${captures}${name}`;
    const text = spawnSync('tcpdump', ['-XX', '-r', capture], { encoding: 'utf8' }).stdout;
    const dumped = dissectHexDump(text).packets;
    const read: PacketRecord[] = [];
    for await (const b of dissectCaptureFile(capture)) read.push(...b.packets);
    expect(dumped.length).toBeGreaterThanOrEqual(4);
    // Everything but the times, which a dump does not keep.
    const shape = (p: PacketRecord) => [p.frame, p.src, p.dst, p.layout, p.requestIn, p.responseIn, p.payloadOffset, p.summary];
    expect(dumped.map(shape)).toEqual(read.map(shape));
    expect(dumped[0]!.payloadOffset).toBe(header + 20 + 8);
  });

  it('dissects several payloads in one text and pairs them by content', () => {
    const text = `53 41 4d 50 7f 00 00 01 61 1e 70 12 34 56 78

53 41 4d 50 7f 00 00 01 61 1e 70 12 34 56 78
`;
    const r = dissectHexDump(text);
    expect(r.packets.map((p) => [p.direction, p.responseIn, p.requestIn])).toEqual([
      ['request', 2, undefined],
      ['response', undefined, 1],
    ]);
  });

  it('knows a lone Minecraft reply, which has no magic, by its shape, and says its request was not seen', () => {
    const reply = '09 00 00 00 01 39 35 31 33 33 30 37 00';
    for (const options of [{}, { decodeAs: { protocol: 'mcquery' as const, ports: [] } }]) {
      const [p, ...rest] = dissectHexDump(reply, options).packets;
      expect(rest).toEqual([]);
      expect(p).toMatchObject({ layout: 'mcquery.handshake.response', summary: 'Minecraft query handshake response: token 9513307' });
      expect(p!.warnings.map((w) => w.field)).toEqual(['mcquery.response_to']);
    }
    // Without its NUL it is no reply's shape; Decode As still reads it (cut short).
    expect(dissectHexDump(reply.slice(0, -3)).packets).toEqual([]);
    const [cut] = dissectHexDump(reply.slice(0, -3), { decodeAs: { protocol: 'mcquery', ports: [] } }).packets;
    expect(cut!.malformed?.field).toBe('mcquery.handshake.token');
  });
});
