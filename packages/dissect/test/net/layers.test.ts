/**
 * The layers under the game (net/layers.ts): the `frame.protocols` chain, the facts and the
 * `-V` tree, the same whether the tree is kept as lines (`frameLayers`) or written into a
 * sink (`writeFrameLayers`), and never an exception on bytes cut anywhere or made up.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSink } from '@gamequery/codec/internal';
import { frameLayers, writeFrameLayers, type FrameLayers } from '../../src/net/layers.ts';
import { LINKTYPE } from '../../src/net/link.ts';
import { writePcap } from '../capture/helpers.ts';
import { tsharkSync } from '../../../codec/test/helpers/tshark-run.ts';

/** Ethernet, `tags` 802.1Q tags, IPv4 and UDP carrying an SA:MP `i` request. */
function vlanFrame(tags: number): Uint8Array {
  const payload = [...Buffer.from('SAMP\x7f\x00\x00\x01\x61\x1ei', 'latin1')];
  const udp = [0x9c, 0x40, 0x1e, 0x61, 0, 8 + payload.length, 0x12, 0x34, ...payload];
  const ip = [0x45, 0, 0, 20 + udp.length, 0xbe, 0xef, 0x40, 0, 64, 17, 0xab, 0xcd, 10, 0, 0, 2, 10, 0, 0, 1];
  const head = [0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2];
  for (let i = 0; i < tags; i++) head.push(0x81, 0x00, 0x20 | (i >> 8), i & 0xff);
  return Uint8Array.from([...head, 0x08, 0x00, ...ip, ...udp]);
}

/** Raw IPv6 with a hop-by-hop header and a fragment header (the first fragment), then UDP. */
function v6Frame(): Uint8Array {
  const udp = [0x9c, 0x40, 0x1e, 0x61, 0, 19, 0, 0, ...Buffer.from('SAMP\x7f\x00\x00\x01\x61\x1ei', 'latin1')];
  const hopByHop = [44, 0, 1, 4, 0, 0, 0, 0];
  const fragment = [17, 0, 0, 1, 0x0b, 0xa2, 0xaf, 0xeb];
  const length = hopByHop.length + fragment.length + udp.length;
  const ip = [0x60, 0, 0, 0, 0, length, 0, 64, ...Array<number>(15).fill(0), 1, ...Array<number>(15).fill(0), 1];
  return Uint8Array.from([...ip, ...hopByHop, ...fragment, ...udp]);
}

/** The facts of a walk, without its lines. */
const facts = (l: FrameLayers): Omit<FrameLayers, 'lines'> => {
  const { lines: _lines, ...rest } = l;
  return rest;
};

/** The tree `writeFrameLayers` writes, as lines. */
function written(linkType: number, data: Uint8Array): { layers: FrameLayers; lines: string[] } {
  const sink = new ByteSink(64);
  const layers = writeFrameLayers(linkType, data, sink);
  const text = sink.text();
  return { layers, lines: text ? text.slice(0, -1).split('\n') : [] };
}

describe('frameLayers', () => {
  it.each([0, 1, 2, 40])('names every layer of a frame with %i VLAN tags in its protocols chain, and draws each tag', (tags) => {
    const data = vlanFrame(tags);
    const l = frameLayers(LINKTYPE.ETHERNET, data, true);
    expect(l.protocols).toBe(['eth:ethertype', ...Array<string>(tags).fill('vlan:ethertype'), 'ip:udp'].join(':'));
    expect(l.lines.filter((line) => line.startsWith('802.1Q Virtual LAN'))).toHaveLength(tags);
    expect(l.source).toBe('10.0.0.2');
    expect(l.udp).toMatchObject({ srcPort: 40000, dstPort: 7777, length: 19 });
    // The chains are kept: the same frame again gives the same text.
    expect(frameLayers(LINKTYPE.ETHERNET, data, false).protocols).toBe(l.protocols);
  });

  it('names the layers right past the chains it keeps (a frame of 1 500 VLAN tags makes more than are kept)', () => {
    for (const tags of [1500, 3, 1499]) {
      const l = frameLayers(LINKTYPE.ETHERNET, vlanFrame(tags), false);
      expect(l.protocols).toBe(['eth:ethertype', ...Array<string>(tags).fill('vlan:ethertype'), 'ip:udp'].join(':'));
      expect(l.udp).toMatchObject({ srcPort: 40000, dstPort: 7777 });
    }
  });

  it('draws VLAN tags as tshark -V does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gq-vlan-'));
    const file = join(dir, 'vlan.pcap');
    const data = vlanFrame(2);
    writeFileSync(file, writePcap([{ seconds: 1700000000, ticks: 0, data }], { linkType: LINKTYPE.ETHERNET }));
    const tshark = tsharkSync(['-r', file, '-V'], { encoding: 'utf8' });
    expect(tshark.status, tshark.stderr).toBe(0);
    const theirs = tshark.stdout.split('\n').map((line) => line.replace(/\S+ \(([0-9a-f]{2}(?::[0-9a-f]{2}){5})\)/g, '$1'));
    let at = 0;
    for (const line of frameLayers(LINKTYPE.ETHERNET, data, true).lines) {
      const found = theirs.indexOf(line, at);
      expect(found, JSON.stringify(line)).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    expect(theirs.filter((line) => line.startsWith('802.1Q Virtual LAN'))).toHaveLength(2);
  });

  it('flags a UDP length below 8 or past what the IP header holds, as tshark does (its Info column, its expert item); not one the capture cut', () => {
    // Ethernet, IPv4 and UDP carrying five bytes no query protocol claims, its length field set to `length`.
    const frame = (length: number): Uint8Array => {
      const f = vlanFrame(0).slice(0, 14 + 20 + 8 + 5);
      f.set([0x68, 0x65, 0x6c, 0x6c, 0x6f], 42);
      f[17] = 20 + 8 + 5; // IP total length
      f[38] = length >> 8;
      f[39] = length & 0xff;
      return f;
    };
    const frames = [frame(200), frame(3), frame(13)];
    const dir = mkdtempSync(join(tmpdir(), 'gq-udplen-'));
    const file = join(dir, 'udp-length.pcap');
    writeFileSync(
      file,
      writePcap(
        frames.map((data, i) => ({ seconds: 1700000000 + i, ticks: 0, data })),
        { linkType: LINKTYPE.ETHERNET },
      ),
    );
    const tshark = tsharkSync(['-r', file, '-T', 'fields', '-e', '_ws.col.Info'], { encoding: 'utf8' });
    expect(tshark.status, tshark.stderr).toBe(0);
    const ours = frames.map((f) => frameLayers(LINKTYPE.ETHERNET, f, true));
    expect(ours.map((l) => l.info)).toEqual(tshark.stdout.trimEnd().split('\n'));
    expect(ours.map((l) => l.info)).toEqual([
      '40000 → 7777 [BAD UDP LENGTH 200 > IP PAYLOAD LENGTH] Len=192',
      '40000 → 7777 [BAD UDP LENGTH 3 < 8]',
      '40000 → 7777 Len=5',
    ]);
    expect(ours[0]!.lines).toContain('        [Expert Info (Error/Malformed): Bad length value 200 > IP payload length]');
    expect(ours[1]!.lines).toContain('        [Expert Info (Error/Malformed): Bad length value 3 < 8]');
    // Cut by the capture after the UDP header: the length is the datagram's, not bogus.
    const cut = frameLayers(LINKTYPE.ETHERNET, frame(13).subarray(0, 44), true);
    expect([cut.info, cut.lines.some((l) => l.includes('Expert Info'))]).toEqual(['40000 → 7777 Len=5', false]);
  });

  it('flags an IPv4 header of another version, as tshark does, and reads nothing past it', () => {
    const data = vlanFrame(0);
    data[14] = 0x55;
    const dir = mkdtempSync(join(tmpdir(), 'gq-ipver-'));
    const file = join(dir, 'ip-version.pcap');
    writeFileSync(file, writePcap([{ seconds: 1700000000, ticks: 0, data }], { linkType: LINKTYPE.ETHERNET }));
    const tshark = tsharkSync(['-r', file, '-T', 'fields', '-e', '_ws.col.Info', '-e', 'frame.protocols'], { encoding: 'utf8' });
    expect(tshark.status, tshark.stderr).toBe(0);
    const l = frameLayers(LINKTYPE.ETHERNET, data, true);
    expect(`${l.info}\t${l.protocols}`).toBe(tshark.stdout.trimEnd());
    expect(l.info).toBe('Bogus IPv4 version (5, must be 4)');
    expect(l.lines.slice(-3)).toEqual([
      'Internet Protocol Version 4',
      '    0101 .... = Version: 5',
      '        [Expert Info (Error/Protocol): Bogus IPv4 version]',
    ]);
    expect([l.ip, l.udp]).toEqual([undefined, undefined]);
  });

  it('draws the extension headers of an IPv6 fragment inside its IPv6 subtree', () => {
    const l = frameLayers(LINKTYPE.IPV6, v6Frame(), true);
    expect(l.protocols).toBe('ipv6:ipv6.hopopts:ipv6.fraghdr:data');
    expect(l.ip?.fragment).toBe(true);
    const at = l.lines.indexOf('    IPv6 Hop-by-Hop Option');
    // The last of the tree: a fragment that completes nothing ends with its header.
    expect(l.lines.slice(at)).toEqual([
      '    IPv6 Hop-by-Hop Option',
      '        Next Header: Fragment Header for IPv6 (44)',
      '        Length: 0',
      '        [Length: 8 bytes]',
      '    Fragment Header for IPv6',
      '        Next header: UDP (17)',
      '        Reserved octet: 0x00',
      '        0000 0000 0000 0... = Offset: 0 (0 bytes)',
      '        .... .... .... .00. = Reserved bits: 0',
      '        .... .... .... ...1 = More Fragments: Yes',
      '        Identification: 0x0ba2afeb',
    ]);
  });

  it('reads the same facts and draws the same tree, as lines or into a sink, on bytes cut anywhere or made up', () => {
    const link = fc.constantFrom(LINKTYPE.ETHERNET, LINKTYPE.LINUX_SLL, LINKTYPE.LINUX_SLL2, LINKTYPE.RAW, LINKTYPE.NULL, LINKTYPE.IPV6);
    const cut = fc.tuple(fc.integer({ min: -1, max: 12 }), fc.nat()).map(([tags, at]) => {
      const frame = tags < 0 ? v6Frame() : vlanFrame(tags);
      return frame.subarray(0, at % (frame.length + 1));
    });
    const bytes = fc.oneof(cut, fc.uint8Array({ maxLength: 120 }));
    fc.assert(
      fc.property(link, bytes, (linkType, data) => {
        const kept = frameLayers(linkType, data, true);
        const bare = frameLayers(linkType, data, false);
        const { layers, lines } = written(linkType, data);
        expect(facts(bare)).toEqual(facts(kept));
        expect(facts(layers)).toEqual(facts(kept));
        expect(lines).toEqual(kept.lines);
        expect(bare.lines).toEqual([]);
        expect(layers.lines).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});
