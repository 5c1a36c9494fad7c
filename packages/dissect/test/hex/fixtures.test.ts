import { describe, expect, it } from 'vitest';
import { parseHexDump, preferReassembled } from '../../src/hex/index.ts';
import type { HexDumpFormat } from '../../src/hex/index.ts';
import { fixtureBytes, fixtureText, pcapRecords } from './fixtures.ts';

// What each tool printed, against the file it printed (see test/fixtures/hex/README.md).

const payloads = ['samp-info-response', 'samp-clients-40', 'repeat-300', 'repeat-tail-256', 'zero-tail-100'];

const tools: Array<[suffix: string, format: HexDumpFormat]> = [
  ['xxd', 'xxd'],
  ['xxd-g1', 'xxd'],
  ['xxd-c8', 'xxd'],
  ['hexdump-C', 'hexdump-c'],
  ['hexdump', 'hexdump'],
  ['od-x1', 'od'],
  ['od-x1z', 'od'],
  ['od-x2', 'od'],
];

const extras: Array<[file: string, payload: string, format: HexDumpFormat]> = [
  ['repeat-300.xxd-a.txt', 'repeat-300', 'xxd'],
  ['zero-tail-100.xxd-a.txt', 'zero-tail-100', 'xxd'],
  ['zero-tail-100.od-Ao-x1.txt', 'zero-tail-100', 'od'],
  ['repeat-300.od-Ad-x1.txt', 'repeat-300', 'od'],
  ['samp-info-response.od-x4.txt', 'samp-info-response', 'od'],
  ['samp-info-response.xxd-p.txt', 'samp-info-response', 'bare'],
];

const cases: Array<[file: string, payload: string, format: HexDumpFormat]> = [
  ...payloads.flatMap((payload) =>
    tools.map(([suffix, format]): [string, string, HexDumpFormat] => [`${payload}.${suffix}.txt`, payload, format]),
  ),
  ...extras,
];

describe('dumps made by xxd, hexdump and od', () => {
  it.each(cases)('%s reads back as the bytes of %s.bin', (file, payload, format) => {
    const result = parseHexDump(fixtureText(file));
    expect(result.diagnostics).toEqual([]);
    expect(result.packets).toHaveLength(1);
    const [packet] = result.packets;
    expect(packet?.format).toBe(format);
    expect(packet?.bytes).toEqual(fixtureBytes(`${payload}.bin`));
    expect(packet?.firstLine).toBe(1);
  });

  it('reads xxd -i output as a C array and skips its _len line with a warning', () => {
    const result = parseHexDump(fixtureText('samp-info-response.xxd-i.txt'));
    expect(result.ok).toBe(true);
    expect(result.packets).toHaveLength(1);
    expect(result.packets[0]?.format).toBe('c-array');
    expect(result.packets[0]?.bytes).toEqual(fixtureBytes('samp-info-response.bin'));
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([['skipped-text', 10]]);
  });

  it('reads an ASCII column that is all hex digits as ASCII (xxd row "deadbeefcafe0123")', () => {
    const text = fixtureText('samp-info-response.xxd.txt');
    expect(text).toContain('00000020: 6465 6164 6265 6566 6361 6665 3031 3233  deadbeefcafe0123');
    expect(parseHexDump(text).packets[0]?.bytes.length).toBe(83);
  });

  it('cuts the zero padding of the last od -t x2 word at the final offset (83 bytes, not 84)', () => {
    const text = fixtureText('samp-info-response.od-x2.txt');
    expect(text).toContain('000050 7369 0068\n000053');
    expect(parseHexDump(text).packets[0]?.bytes.length).toBe(83);
  });
});

describe('tshark -x', () => {
  const frames = pcapRecords(fixtureBytes('samp-udp.pcap'));

  it('reads two frames separated by a blank line as the two captured frames', () => {
    const result = parseHexDump(fixtureText('samp-udp.tshark-x.txt'));
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => p.bytes)).toEqual(frames);
    expect(result.packets.map((p) => [p.format, p.firstLine, p.frame])).toEqual([
      ['tshark', 1, 0],
      ['tshark', 6, 1],
    ]);
  });

  it('ends the response frame with the SA:MP payload the capture was made from', () => {
    const response = parseHexDump(fixtureText('samp-udp.tshark-x.txt')).packets[1]?.bytes;
    const payload = fixtureBytes('samp-info-response.bin');
    expect(response?.subarray(42)).toEqual(payload);
  });

  it('skips the packet tree of tshark -V -x, bit-field lines included', () => {
    const result = parseHexDump(fixtureText('samp-udp.tshark-Vx.txt'));
    expect(result.ok).toBe(true);
    expect(result.packets.map((p) => p.bytes)).toEqual(frames);
    expect(result.diagnostics.every((d) => d.code === 'skipped-text')).toBe(true);
    expect(result.diagnostics.map((d) => [d.line, d.endLine])).toEqual([
      [1, 57],
      [64, 120],
    ]);
  });

  describe('a frame with a reassembled pane', () => {
    const result = parseHexDump(fixtureText('http-two-segments.tshark-x.txt'));
    const captured = pcapRecords(fixtureBytes('http-two-segments.pcap'));
    const request = new TextEncoder().encode('GET /samp/info HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: gamequery\r\n\r\n');

    it('returns every frame and the reassembled buffer, with no diagnostics', () => {
      expect(result.diagnostics).toEqual([]);
      expect(result.packets).toHaveLength(13);
      const wire = result.packets.filter((p) => p.pane?.kind !== 'reassembled').map((p) => p.bytes);
      expect(wire).toEqual(captured);
    });

    it('labels the two panes of frame 6 and gives them the same frame number', () => {
      const panes = result.packets.filter((p) => p.pane !== undefined);
      expect(panes.map((p) => [p.pane, p.frame, p.firstLine])).toEqual([
        [{ label: 'Frame', kind: 'frame', declaredLength: 91 }, 5, 33],
        [{ label: 'Reassembled TCP', kind: 'reassembled', declaredLength: 67 }, 5, 40],
      ]);
      expect(panes[1]?.bytes).toEqual(request);
    });

    it('lets the caller keep the reassembled pane instead of the frame', () => {
      const chosen = preferReassembled(result.packets);
      expect(chosen).toHaveLength(12);
      expect(chosen[5]?.bytes).toEqual(request);
      expect(chosen.map((p) => p.frame)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    });
  });
});

describe('text2pcap round trip', () => {
  it('reads an od -A x -t x1 dump as the bytes text2pcap wrote to its pcap', () => {
    const [record] = pcapRecords(fixtureBytes('samp-info-response.text2pcap.pcap'));
    const result = parseHexDump(fixtureText('samp-info-response.od-x1.txt'));
    expect(result.packets.map((p) => p.bytes)).toEqual([record]);
  });

  it('splits two concatenated od dumps into the two packets text2pcap found', () => {
    const records = pcapRecords(fixtureBytes('two-packets.text2pcap.pcap'));
    expect(records).toHaveLength(2);
    const result = parseHexDump(fixtureText('two-packets.od-x1.txt'));
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => p.bytes)).toEqual(records);
    expect(result.packets.map((p) => [p.firstLine, p.lastLine])).toEqual([
      [1, 4],
      [5, 11],
    ]);
  });
});
