/**
 * The protocol hierarchy's nodes as filters (the page's table gives each row one, render/charts.ts):
 * a node's display filter passes exactly the frames the node counts, in our filter engine and in
 * tshark's (with our plugin, whose `frame.protocols` names the query protocols too, behind a
 * `_ws.lua.fake` the filter steps over as it steps over `ethertype`); and the page's own test, a
 * frame's place in the hierarchy beginning with the node's protocols, picks the same frames.
 * Captures with IPv6 extension headers, fragments, ICMPv6, frames the snapshot length cut
 * (`_ws.short`), and hierarchies of a filter (one that reads the frame, which puts `frame` on top).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFilter } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { tsharkFilterFrames, tsharkWithPlugin } from '../../../codec/test/helpers/tshark.ts';
import { captures } from '../dissect/helpers.ts';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { ProtocolHierarchy, phsDisplay, phsPath, recordPhsPath, type PhsNode } from '../../src/stats/phs.ts';
import { within } from '../../src/render/charts.ts';
import type { DissectedRecord } from '../../src/frame-record.ts';

const tshark = tsharkWithPlugin('phs');
afterAll(() => tshark.dispose());

/**
 * Written here: UDP datagrams that end at their transport, one empty and whole, one cut by the snapshot
 * length after its header (`_ws.short`: a frame shorter than on the wire), and one cut in its payload.
 */
const SHORT = 'short.pcap';

/** Capture, and the hierarchy's filter (empty: every frame). */
const cases: readonly (readonly [string, string])[] = [
  [SHORT, ''],
  ['veth-frag.pcap', ''],
  ['veth-frag.pcap', 'udp'],
  ['veth-frag.snap38.pcap', ''],
  ['lo-snap60.pcap', ''],
  ['lo-snap60.pcap', 'frame.len > 60'],
  ['lo-any.pcapng', ''],
];

interface Row {
  readonly path: readonly string[];
  readonly frames: number;
}

/** Every frame's record, as `dissect -z io,phs` counts them. */
async function recordsOf(file: string): Promise<DissectedRecord[]> {
  const all: DissectedRecord[] = [];
  for await (const b of dissectCaptureFile(file, { allFrames: true })) all.push(...b.packets);
  return all;
}

const frameOf = (p: DissectedRecord): number => (p as { readonly frame: number }).frame;

/** The nodes of a hierarchy with their places: the protocols from the outermost (the `frame` node on top: none). */
function rowsOf(nodes: readonly PhsNode[], above: readonly string[] = [], top = true): Row[] {
  return nodes.flatMap((n) => {
    const path = top && n.protocol === 'frame' ? [] : [...above, n.protocol];
    return [{ path, frames: n.frames }, ...rowsOf(n.children, path, false)];
  });
}

const found = new Map<string, { rows: Row[]; ours: Map<string, number[]>; page: Map<string, number[]>; theirs: Map<string, number[]> }>();

beforeAll(async () => {
  const payload = udpFrame(new Uint8Array(20).fill(0x41), 40000, 7777);
  const records = [udpFrame(new Uint8Array(0), 40000, 7777), payload.subarray(0, 42), payload.subarray(0, 50)];
  const frames = records.map((data, i) => ({ seconds: 1_700_000_000, ticks: i, data, originalLength: i ? payload.length : data.length }));
  writeFileSync(join(tshark.work, SHORT), writePcap(frames, { linkType: 1 }));
  for (const [name, filter] of cases) {
    const file = name === SHORT ? join(tshark.work, SHORT) : join(captures, name);
    const records = await recordsOf(file);
    const passes = filter ? compileFilter(filter) : undefined;
    const hierarchy = new ProtocolHierarchy(filter);
    const counted = records.filter((p) => !passes || passes.matches(p));
    for (const p of counted) hierarchy.addRecord(p);
    const rows = rowsOf(hierarchy.report().protocols);
    const displays = rows.map((r) => within(filter, phsDisplay(r.path)));
    const ours = new Map(displays.map((d) => [d, records.filter((p) => compileFilter(d).matches(p)).map(frameOf)]));
    const page = new Map(
      rows.map((r, i) => {
        const at = r.path.join(':');
        const shown = counted.filter((p) => !at || recordPhsPath(p) === at || recordPhsPath(p).startsWith(`${at}:`));
        return [displays[i]!, shown.map(frameOf)];
      }),
    );
    const theirs = tsharkFilterFrames(['-2', '-n', '-X', `lua_script:${tshark.plugin}`, '-r', file], displays, tshark.env);
    found.set(`${name} ${filter}`, { rows, ours, page, theirs });
  }
}, 120_000);

describe('the protocol hierarchy, a node as a display filter', () => {
  it.each(cases)('%s (filter %j): each node passes the frames it counts, ours, tshark and the page alike', (name, filter) => {
    const { rows, ours, page, theirs } = found.get(`${name} ${filter}`)!;
    expect(rows.length).toBeGreaterThan(3);
    for (const r of rows) {
      const display = within(filter, phsDisplay(r.path));
      expect(ours.get(display)!.length, display).toBe(r.frames);
      expect(theirs.get(display), display).toEqual(ours.get(display));
      expect(page.get(display), display).toEqual(ours.get(display));
    }
  });

  it('covers what the hierarchy hides and adds: extension headers, ethertype, a cut transport, the frame on top', () => {
    const paths = [...found.values()].flatMap((f) => f.rows.map((r) => r.path.join(':')));
    expect(paths).toContain('eth:ipv6:udp:_ws.short');
    // An empty datagram ends at its transport too, and is no _ws.short: only the cut one is.
    expect(found.get(`${SHORT} `)!.rows.map((r) => [r.path.join(':'), r.frames])).toContainEqual(['eth:ip:udp:_ws.short', 1]);
    expect(paths).toContain('eth:ipv6:icmpv6');
    expect(paths).toContain('');
    expect(paths).toContain('sll:ip:udp:samp');
    // A node below another passes fewer frames: the filters are not all everything.
    const sizes = [...found.values()].flatMap((f) => f.rows.map((r) => r.frames));
    expect(new Set(sizes).size).toBeGreaterThan(5);
  });

  it('a place in the hierarchy: ethertype and extension headers left out, _ws.short after a transport the snapshot length cut', () => {
    expect(phsPath('eth:ethertype:ipv6:ipv6.hopopts:icmpv6', false)).toEqual(['eth', 'ipv6', 'icmpv6']);
    expect(phsPath('eth:ethertype:ipv6:udp', true)).toEqual(['eth', 'ipv6', 'udp', '_ws.short']);
    expect(phsPath('eth:ethertype:ip:udp:samp', true)).toEqual(['eth', 'ip', 'udp', 'samp']);
    expect(phsDisplay(['eth', 'ip', 'udp'])).toBe(
      'frame.protocols matches "^eth(:ethertype|:[^:]*[.][^:]*)*:ip(:ethertype|:[^:]*[.][^:]*)*:udp(:|$)"',
    );
    expect(within('samp', phsDisplay(['eth', 'ip', 'udp', '_ws.short']))).toBe(
      '(samp) && (frame.protocols matches "^eth(:ethertype|:[^:]*[.][^:]*)*:ip(:ethertype|:[^:]*[.][^:]*)*:udp(:ethertype|:[^:]*[.][^:]*)*$" && frame.cap_len < frame.len)',
    );
    expect(phsDisplay([])).toBe('frame');
  });
});
