/**
 * What an input is, from its first bytes: real captures (tcpdump, dumpcap, editcap), real dumps
 * (xxd, hexdump, od, tcpdump, tshark), gzip of them, and files that are neither.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { looksLikeText, sniffInput } from '../../src/capture/sniff.ts';
import { fixture, toBigEndianPcapng } from '../capture/helpers.ts';
import { bigEndianPcap } from './helpers.ts';

const hexFixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../fixtures/hex/${name}`, import.meta.url)));
const png = new Uint8Array(readFileSync(new URL('../../../cli/test/fixtures/input/tiny.png', import.meta.url)));

describe('sniffInput', () => {
  it.each([
    ['lo-us.pcap', 'pcap'],
    ['lo-ns.pcap', 'pcap'],
    ['lo.pcapng', 'pcapng'],
    ['lo-us.editcap.pcapng', 'pcapng'],
  ])('knows %s (as written) as %s', (name, format) => {
    expect(sniffInput(fixture(name)).format).toBe(format);
  });

  it('knows all four pcap magics: the byte-swapped copies of the micro- and nanosecond captures too', () => {
    const magics = [
      fixture('lo-us.pcap'),
      fixture('lo-ns.pcap'),
      bigEndianPcap(fixture('lo-us.pcap')),
      bigEndianPcap(fixture('lo-ns.pcap')),
    ].map((f) => [sniffInput(f).format, sniffInput(f).first.slice(0, 11)]);
    expect(magics).toEqual([
      ['pcap', 'd4 c3 b2 a1'],
      ['pcap', '4d 3c b2 a1'],
      ['pcap', 'a1 b2 c3 d4'],
      ['pcap', 'a1 b2 3c 4d'],
    ]);
    expect(sniffInput(toBigEndianPcapng(fixture('lo.pcapng'))).format).toBe('pcapng');
  });

  it('knows gzip, from its first two bytes', () => {
    expect(sniffInput(gzipSync(fixture('lo-us.pcap'))).format).toBe('gzip');
    expect(sniffInput(gzipSync(hexFixture('samp-udp.tcpdump-X.txt')).subarray(0, 2)).format).toBe('gzip');
  });

  it.each([
    'samp-info-response.xxd.txt',
    'samp-info-response.hexdump-C.txt',
    'samp-info-response.od-x1z.txt',
    'samp-udp.tshark-Vx.txt',
    'samp-udp.tcpdump-X.txt',
    'samp-info-response.xxd-i.txt',
    'samp-brackets.tcpdump-X.txt',
  ])('takes %s for text', (name) => {
    expect(sniffInput(hexFixture(name))).toMatchObject({ format: 'text', looks: 'text' });
  });

  it('takes Latin-1 and a coloured terminal paste for text', () => {
    expect(looksLikeText(Buffer.from('Caf\xe9 dump:\n0000  53 41 4d 50\n', 'latin1'))).toBe(true);
    expect(looksLikeText(Buffer.from('\x1b[32m00000000: 5341 4d50\x1b[0m  SAMP\n'))).toBe(true);
    expect(looksLikeText(Buffer.from('Größe: ½ 0x53 → 0x41\n'))).toBe(true);
  });

  it('names what it refuses, with the first bytes', () => {
    expect(sniffInput(png)).toEqual({ format: undefined, looks: 'a PNG image', first: '89 50 4e 47 0d 0a 1a 0a' });
    expect(sniffInput(new Uint8Array(4096))).toEqual({ format: undefined, looks: 'zero bytes', first: '00 00 00 00 00 00 00 00' });
    expect(sniffInput(new Uint8Array(0))).toMatchObject({ format: undefined, looks: 'empty' });
    expect(sniffInput(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0, 4])).looks).toMatch(
      /^xz-compressed data \(decompress it first: xz -dc FILE/,
    );
  });

  it('refuses random bytes, whatever their length, as binary', () => {
    for (const length of [64, 512, 4096, 65536]) {
      for (let i = 0; i < 20; i++) {
        const bytes = randomBytes(length);
        const s = sniffInput(bytes);
        // Random bytes can start with a capture or gzip magic (2^-16 for gzip): those are read as such.
        if (s.format === 'gzip' || s.format === 'pcap' || s.format === 'pcapng') continue;
        expect(s.format, bytes.toString('hex')).toBeUndefined();
      }
    }
  });
});
