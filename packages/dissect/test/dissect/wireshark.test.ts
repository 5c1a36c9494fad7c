/**
 * The generated Wireshark plugin against our dissector on every committed capture: tshark
 * reads each capture with the plugin, and every packet it gives one of our protocols must
 * be one we dissect, with the same items (abbreviation, offset, length, value, display
 * text), the same Info column as our summary, the same request/response links and the
 * same response times, the same warnings as the declared expert items of their codes; and
 * every packet we dissect must be one it claims. The codec's `test/export/wireshark.test.ts`
 * does the same on every test vector.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import type { PacketRecord } from '@gamequery/dissect';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { checkPacket, gameNode, requireTshark, tsharkWithPlugin, type Links, type PdmlNode } from '../../../codec/test/helpers/tshark.ts';
import { captureFiles, captures, dissectFile, retimedExchange } from './helpers.ts';

requireTshark();
const t = tsharkWithPlugin('captures');
afterAll(() => t.dispose());

/** UDP header length: a reassembled datagram's payload starts this far into the reassembled IP payload. */
const UDP_HEADER = 8;

/**
 * Where tshark counts this packet's positions from: the frame, or for a datagram that came
 * in IP fragments the "Reassembled IPv4/IPv6" data source, which starts at the UDP header.
 */
const payloadBase = (p: PacketRecord): number => (p.fragments ? UDP_HEADER : p.payloadOffset);

/** Our links as the plugin's generated items show them (`time` in nanoseconds). */
function ourLinks(p: PacketRecord): Links {
  const links: Links = new Map();
  if (p.responseIn !== undefined) links.set('response_in', String(p.responseIn));
  if (p.requestIn !== undefined) links.set('response_to', String(p.requestIn));
  if (p.responseTime !== undefined) {
    const [whole, fraction = ''] = p.responseTime.split('.');
    links.set('time', `${whole}.${fraction.padEnd(9, '0')}`);
  }
  return links;
}

const lastUdp = (packet: readonly PdmlNode[] | undefined): PdmlNode | undefined => packet?.findLast((n) => n.name === 'udp');

/**
 * Every capture but those that hold another's datagrams again in another container (lo-us.pcap's in
 * editcap's pcapng, in two sections joined, as raw IPv4 and raw IPv6; veth-frag.pcap's as raw IP) and
 * those cut before any payload (veth-frag.pcap's frames cut to 30 and 38 bytes: no datagram for the
 * plugin or for us): the plugin reads a datagram the same whatever holds it, and our reading of those
 * containers and cut headers is checked against tshark elsewhere (fields-output, phs, verbose-layers).
 * Two tshark runs each with the plugin, some 0.7 s of CPU each.
 */
const AGAIN = new Set([
  'lo-us.editcap.pcapng',
  'two-sections.pcapng',
  'lo-v4.rawip4.pcap',
  'lo-v6.rawip6.pcap',
  'veth-frag.rawip.pcap',
  'veth-frag.snap30.pcap',
  'veth-frag.snap38.pcap',
]);
const PLUGIN_CAPTURES = captureFiles.filter((f) => !AGAIN.has(f));

let fieldsCompared = 0;
let packetsCompared = 0;

describe('the Wireshark plugin on every capture, against our dissector', () => {
  it('has captures to check', () => {
    expect(captureFiles.length).toBeGreaterThanOrEqual(16);
  });

  it.each(PLUGIN_CAPTURES)('%s: the same packets, items, Info column, links and response times', async (name) => {
    const file = captures + name;
    const [ours, theirs] = await Promise.all([dissectFile(file), t.dissect(file, ['ip.defragment:TRUE', 'ipv6.defragment:TRUE'])]);
    // A capture cut mid-record: both keep every packet before the cut, and say so.
    if (name.includes('.cut.')) {
      expect(theirs.stderr).toMatch(/cut short in the middle of a packet/);
      expect(ours.errors.map((e) => e.code)).toEqual(['truncated']);
    } else {
      expect(theirs.status, theirs.stderr).toBe(0);
      expect(ours.errors).toEqual([]);
    }
    expect(theirs.stdout).not.toMatch(/Lua Error/);
    expect(theirs.stderr).not.toMatch(/Lua/);
    expect(theirs.packets.length).toBe(ours.stats.frames);
    expect(theirs.info.length).toBe(ours.stats.frames);

    const problems: string[] = [];
    const byFrame = new Map(ours.packets.map((p) => [p.frame, p]));
    theirs.packets.forEach((packet, i) => {
      const frame = i + 1;
      const p = byFrame.get(frame);
      const id = `${name} frame ${frame}`;
      if (!p) {
        checkPacket({ id, protocol: null, fields: [], base: 0 }, packet, theirs.info[i], problems);
        return;
      }
      const base = payloadBase(p);
      const udp = lastUdp(packet);
      if (udp?.pos !== base - UDP_HEADER) problems.push(`${id}: tshark's UDP header at ${udp?.pos}, ours at ${base - UDP_HEADER}`);
      const { links, compared } = checkPacket(
        { id, protocol: p.protocol, fields: p.fields, summary: p.summary, base, warnings: p.warnings },
        packet,
        theirs.info[i],
        problems,
      );
      if (!gameNode(packet)) return;
      fieldsCompared += compared;
      packetsCompared++;
      const want = ourLinks(p);
      if (JSON.stringify([...links].sort()) !== JSON.stringify([...want].sort())) {
        problems.push(`${id}: tshark links ${JSON.stringify(Object.fromEntries(links))}, ours ${JSON.stringify(Object.fromEntries(want))}`);
      }
    });
    expect(problems).toEqual([]);
    expect(packetsCompared).toBeGreaterThan(0);
  });

  it.each([
    [
      'a copy of a reply: its request, without a response time',
      // The info exchange of lo-us.pcap, its reply delivered twice: 368 µs and 900 µs after the request.
      () => retimedExchange([368, 900]),
      [{ response_in: '2' }, { response_to: '1', time: '0.000368000' }, { response_to: '1' }],
    ],
    [
      "an RCON command's lines: each its response time",
      () => {
        const at = { serverIp: '127.0.0.1', serverPort: 7777 };
        const frames = [
          samp.rconRequest.encode({ ...at, password: 'secret', command: 'players' }),
          samp.rconResponse.encode({ ...at, output: 'ID\tName\tPing\tIP' }),
          samp.rconResponse.encode({ ...at, output: '0\tAlice\t35\t127.0.0.1' }),
        ];
        return writePcap(
          frames.map((payload, i) => ({
            seconds: 1_700_000_000,
            ticks: i * 250,
            data: udpFrame(payload, i ? 7777 : 50_000, i ? 50_000 : 7777),
          })),
          { linkType: 1 },
        );
      },
      [{ response_in: '2' }, { response_to: '1', time: '0.000250000' }, { response_to: '1', time: '0.000500000' }],
    ],
  ])('%s, as our dissector gives them', async (label, bytes, expected) => {
    const file = join(t.work, `${label.replaceAll(/\W+/g, '-')}.pcap`);
    writeFileSync(file, bytes());
    const [ours, theirs] = await Promise.all([dissectFile(file), t.dissect(file)]);
    expect(theirs.status, theirs.stderr).toBe(0);
    const problems: string[] = [];
    const links = ours.packets.map((p) => {
      const { links: got } = checkPacket(
        {
          id: `${label} frame ${p.frame}`,
          protocol: p.protocol,
          fields: p.fields,
          summary: p.summary,
          base: p.payloadOffset,
          warnings: p.warnings,
        },
        theirs.packets[p.frame - 1],
        theirs.info[p.frame - 1],
        problems,
      );
      return [Object.fromEntries([...got].sort()), Object.fromEntries([...ourLinks(p)].sort())];
    });
    expect(problems).toEqual([]);
    for (const [got, want] of links) expect(got).toEqual(want);
    expect(links.map(([, want]) => want)).toEqual(expected);
  });

  it('raises our warnings as the expert items of their codes (expert-lo.pcap), and leaves a Minecraft reply without its request', async () => {
    const file = new URL('../fixtures/expert/expert-lo.pcap', import.meta.url).pathname;
    const [ours, theirs] = await Promise.all([dissectFile(file), t.dissect(file)]);
    expect(theirs.status, theirs.stderr).toBe(0);
    expect(theirs.stderr).not.toMatch(/Lua/);
    const problems: string[] = [];
    const raised: Record<number, string[]> = {};
    for (const p of ours.packets) {
      const id = `expert-lo.pcap frame ${p.frame}`;
      const packet = theirs.packets[p.frame - 1];
      if (p.warnings.some((w) => w.code === 'request-not-seen')) {
        // The plugin reads a Minecraft reply only through the request it answers (it has no shape rule):
        // mcquery.expert.request_not_seen is registered, never raised. Ours reads these by their shape.
        if (gameNode(packet)) problems.push(`${id}: the plugin claims a Minecraft reply without its request`);
        continue;
      }
      const r = checkPacket(
        { id, protocol: p.protocol, fields: p.fields, summary: p.summary, base: p.payloadOffset, warnings: p.warnings },
        packet,
        theirs.info[p.frame - 1],
        problems,
      );
      if (r.experts.length) raised[p.frame] = r.experts.map((x) => `${x.abbrev} (${x.severity}/${x.group})`);
    }
    expect(problems).toEqual([]);
    expect(raised).toEqual({
      2: ['samp.expert.flag_byte (Warning/Malformed)'],
      4: ['samp.expert.short_list (Warning/Malformed)'],
      6: ['samp.expert.short_list (Warning/Malformed)'],
    });
  });

  it('compared every field of every game packet', () => {
    console.info(
      `dissect wireshark.test.ts: ${packetsCompared} packets and ${fieldsCompared} fields of ${PLUGIN_CAPTURES.length} captures compared with tshark`,
    );
    expect(fieldsCompared).toBeGreaterThan(1000);
  });
});
