/**
 * `-O` (RenderOptions.only, render/only.ts): every top-level line of the `-V` text of every
 * committed capture is read as its protocol's title, so that no protocol's subtree is hidden
 * or shown by mistake when a writer's title changes; and `packetText` with `only` keeps what
 * `onlyLines` keeps of the whole text.
 */
import { describe, expect, it } from 'vitest';
import { ONLY_PROTOCOLS, captureStart, onlyLines, packetText, type DissectedRecord } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { newStats } from '@gamequery/dissect';
import { titleProtocol } from '../../src/render/only.ts';
import { captureFiles, captures } from '../dissect/helpers.ts';

/** Every record of a capture (every frame), and the capture's first frame's time. */
async function records(file: string) {
  const stats = newStats();
  const all: DissectedRecord[] = [];
  for await (const batch of dissectCaptureFile(file, { allFrames: true }, stats)) all.push(...batch.packets);
  return { all, start: captureStart(stats) };
}

describe('-O: the protocol of each top-level line', () => {
  it.each(captureFiles)('%s: every title is read as a protocol -O can name', async (name) => {
    const { all, start } = await records(captures + name);
    const seen = new Set<string>();
    for (const p of all) {
      for (const line of packetText(p, { layers: true }, start).split('\n')) {
        if (line === '' || line.startsWith(' ')) continue;
        // The two items without a subtree: a frame cut short says so, after the layer it cut.
        if (line.startsWith('[Packet size limited during capture: ')) continue;
        const protocol = titleProtocol(line);
        expect(protocol, `frame ${p.frame}: ${line}`).toBeDefined();
        expect(ONLY_PROTOCOLS).toContain(protocol);
        seen.add(protocol!);
      }
    }
    expect(seen.has('frame')).toBe(true);
  });

  it('packetText with only: the lines under the protocols named, the titles of the rest', async () => {
    const { all, start } = await records(`${captures}veth-frag.pcap`);
    let drawn = 0;
    for (const only of [new Set(['samp']), new Set(['ip', 'ipv6']), new Set(['frame', 'udp', 'mcquery'])]) {
      for (const p of all) {
        const whole = packetText(p, { layers: true }, start).split('\n');
        const some = packetText(p, { layers: true, only }, start).split('\n');
        expect(some).toEqual(onlyLines(whole, only));
        // The titles all stay; a subtree only under a protocol named.
        expect(some.filter((l) => !l.startsWith(' '))).toEqual(whole.filter((l) => !l.startsWith(' ')));
        let under: string | undefined;
        for (const line of some) {
          if (!line.startsWith(' ')) under = titleProtocol(line);
          else {
            expect(only.has(under!), `frame ${p.frame}: ${line}`).toBe(true);
            drawn++;
          }
        }
      }
    }
    expect(drawn).toBeGreaterThan(500);
  });

  it('reads a title by its words whole: ICMPv6 is not ICMP, a frame of ICMP is not Frame', () => {
    expect(titleProtocol('Internet Control Message Protocol v6')).toBe('icmpv6');
    expect(titleProtocol('Internet Control Message Protocol')).toBe('icmp');
    expect(titleProtocol('Linux cooked capture v2')).toBe('sll');
    expect(titleProtocol('Frame 3: 60 bytes on wire (480 bits), 60 bytes captured (480 bits)')).toBe('frame');
    expect(titleProtocol('Framed: 1')).toBeUndefined();
    expect(titleProtocol('0000  45 00 00 27')).toBeUndefined();
    expect(titleProtocol('SA:MP Query Protocol, info response')).toBe('samp');
  });
});
