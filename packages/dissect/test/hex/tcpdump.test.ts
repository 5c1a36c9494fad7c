/**
 * Dump shapes people paste: tcpdump -x/-xx/-X/-XX (header lines, `0x0000:` offsets), brackets in
 * an ASCII column, and dumps pasted one after another. Real tool output (test/fixtures/hex/README.md).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseHexDump } from '../../src/hex/index.ts';
import { findArrayStart } from '../../src/hex/literal.ts';
import { fixtureBytes, fixtureText, pcapRecords } from './fixtures.ts';

describe('tcpdump -x, -xx, -X, -XX', () => {
  it.each([['-X'], ['-X', '-e'], ['-X', '-tttt'], ['-X', '-tt'], ['-X', '-t'], ['-XX', '-e'], ['-x', '-n']])(
    'skips the header lines of tcpdump %s silently, and reads a space shown as "." (tcpdump run on a capture)',
    (...flags) => {
      const capture = fileURLToPath(new URL('../fixtures/captures/veth-frag.pcap', import.meta.url));
      const text = spawnSync('tcpdump', [...flags, '-r', capture], { encoding: 'utf8' }).stdout;
      expect(text.split('\n').length).toBeGreaterThan(100);
      const r = parseHexDump(text);
      expect(r.packets.length).toBeGreaterThanOrEqual(18);
      expect(r.diagnostics).toEqual([]);
    },
  );

  it('still says what it skips that no tool writes', () => {
    const r = parseHexDump(`${fixtureText('samp-udp.tcpdump-X.txt')}\nsome words pasted in\n`);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['skipped-text', expect.stringMatching(/skipped text that is not part of a hex dump/)],
    ]);
  });

  const frames = pcapRecords(fixtureBytes('samp-udp.pcap'));
  // lo is Ethernet with zero MACs: -x and -X start after the 14-byte link header.
  it.each([
    ['x', 14],
    ['X', 14],
    ['xx', 0],
    ['XX', 0],
  ])('reads tcpdump -%s as the two captured frames (from byte %i)', (flag, from) => {
    const r = parseHexDump(fixtureText(`samp-udp.tcpdump-${flag}.txt`));
    expect(r.packets.map((p) => p.bytes)).toEqual(frames.map((f) => f.subarray(from)));
    expect(r.packets.map((p) => p.format)).toEqual(['tcpdump', 'tcpdump']);
    // The header line tcpdump writes before each packet is expected: nothing is reported.
    expect(r.diagnostics).toEqual([]);
  });

  it('reads brackets, braces and 0x in the ASCII column as ASCII, not as a C array', () => {
    const frames2 = pcapRecords(fixtureBytes('samp-brackets.pcap'));
    const x = fixtureText('samp-brackets.tcpdump-X.txt');
    expect(x).toContain('[1,2]..[2J.{3}.[');
    const r = parseHexDump(x);
    expect(r.ok).toBe(true);
    expect(r.packets.map((p) => p.bytes)).toEqual(frames2.map((f) => f.subarray(14)));
    for (const name of ['samp-brackets.tshark-x.txt', 'samp-brackets.xxd.txt']) {
      const other = parseHexDump(fixtureText(name));
      expect(other.diagnostics, name).toEqual([]);
    }
    expect(parseHexDump(fixtureText('samp-brackets.xxd.txt')).packets[0]?.bytes).toEqual(fixtureBytes('samp-brackets.bin'));
  });

  it('starts no array at a bracket that follows only hex groups, and still at one in code', () => {
    for (const line of fixtureText('samp-brackets.tcpdump-X.txt').split('\n')) expect(findArrayStart(line), line).toBeUndefined();
    expect(findArrayStart('53 41 [1, 2]')).toBeUndefined();
    expect(findArrayStart('unsigned char x[] = {')).toMatchObject({ closer: '}' });
    expect(findArrayStart('[0x53, 0x41]')).toMatchObject({ closer: ']' });
    expect(findArrayStart('new Uint8Array([83, 65])')).toMatchObject({ closer: ']' });
  });
});

describe('dumps pasted one after another', () => {
  const info = fixtureBytes('samp-info-response.bin');
  const clients = fixtureBytes('samp-clients-40.bin');
  it.each(['xxd', 'xxd-g1', 'hexdump-C', 'hexdump', 'od-x1', 'od-x1z', 'od-x2'])('reads two %s dumps as two packets', (tool) => {
    const r = parseHexDump(fixtureText(`samp-info-response.${tool}.txt`) + fixtureText(`samp-clients-40.${tool}.txt`));
    expect(r.packets.map((p) => p.bytes)).toEqual([info, clients]);
  });

  it('reads two tcpdump -X runs, and two tshark -x runs, pasted together as four packets', () => {
    for (const name of ['samp-udp.tcpdump-X.txt', 'samp-udp.tshark-x.txt']) {
      const r = parseHexDump(fixtureText(name) + fixtureText(name));
      expect(r.packets, name).toHaveLength(4);
    }
  });

  it('reads two xxd -p dumps with a header line between them as two packets', () => {
    const p = fixtureText('samp-info-response.xxd-p.txt');
    const r = parseHexDump(`${p}second packet:\n${p}`);
    expect(r.packets.map((x) => x.bytes)).toEqual([info, info]);
  });
});
