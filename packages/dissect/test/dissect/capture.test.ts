import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { packetJson } from '@gamequery/dissect';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { sampAt, sampInfo } from '../../../codec/test/pairing/helpers.ts';
import { captureFiles, captures, complete, decimalDifference, dissectBytes, dissectFile, requests, tsharkRows } from './helpers.ts';

describe('dissecting captures', () => {
  it.each(complete)('%s: every query packet, endpoints and lengths as tshark saw them', async (name) => {
    const file = captures + name;
    const { packets, errors } = await dissectFile(file);
    const tshark = tsharkRows(file);
    expect(errors).toEqual([]);
    const udpFrames = [...tshark.values()].filter(
      (r) => (r['udp.srcport'] && !r['ip.fragment'] && !r['ipv6.fragment']) || r['frame.protocols']?.endsWith(':data'),
    );
    expect(packets.length).toBeGreaterThanOrEqual(8);
    for (const p of packets) {
      const row = tshark.get(p.frame)!;
      expect(row, `frame ${p.frame}`).toBeDefined();
      expect(String(p.src.port)).toBe(row['udp.srcport']);
      expect(String(p.dst.port)).toBe(row['udp.dstport']);
      expect(p.src.ip).toBe(row['ip.src'] || row['ipv6.src']);
      expect(p.payloadLength).toBe(Number(row['udp.length']) - 8);
      expect(p.malformed).toBeUndefined();
      // Capture time to the capture's resolution, from the same clock tshark read.
      expect(row['frame.time_epoch']!.startsWith(p.captureTime!)).toBe(true);
    }
    expect(packets.length).toBe(udpFrames.filter((r) => r['udp.srcport']).length);
  });

  it.each(complete)('%s: links each request and response both ways, with exact response times', async (name) => {
    const file = captures + name;
    const { packets } = await dissectFile(file);
    const tshark = tsharkRows(file);
    const byFrame = new Map(packets.map((p) => [p.frame, p]));
    for (const req of requests(packets)) {
      expect(req.responseIn, `frame ${req.frame}`).toBeDefined();
      const res = byFrame.get(req.responseIn!)!;
      expect(res.requestIn).toBe(req.frame);
      expect(res.message).toBe(req.message);
      const decimals = res.captureTime!.split('.')[1]!.length;
      expect(res.responseTime).toBe(
        decimalDifference(tshark.get(res.frame)!['frame.time_epoch']!, tshark.get(req.frame)!['frame.time_epoch']!, decimals),
      );
    }
    expect(packets.filter((p) => p.direction === 'response').every((p) => p.requestIn !== undefined)).toBe(true);
  });

  it.each([
    ['200 days', 200 * 86_400],
    ['ten years', 3_650 * 86_400],
  ])('gives exact response times to an exchange %s after the first frame (past 2^53 ns)', async (_, later) => {
    const t0 = 1_000_000_000;
    for (const nanoseconds of [false, true]) {
      // Odd times: past 2^53 a double of nanoseconds since the first frame holds neither them nor the microseconds.
      const request = nanoseconds ? 123_457_001 : 123_457;
      const pcap = writePcap(
        [
          { seconds: t0, ticks: 0, data: udpFrame(samp.infoRequest.encode(sampAt), 50000, 7777) },
          { seconds: t0 + later, ticks: request, data: udpFrame(samp.infoRequest.encode(sampAt), 50001, 7777) },
          { seconds: t0 + later, ticks: request + (nanoseconds ? 250_007 : 250), data: udpFrame(sampInfo, 7777, 50001) },
        ],
        { linkType: 1, nanoseconds },
      );
      const { packets, errors } = await dissectBytes(pcap);
      expect(errors).toEqual([]);
      expect(packets.map((p) => [p.frame, p.requestIn, p.responseIn, p.responseTime])).toEqual([
        [1, undefined, undefined, undefined],
        [2, undefined, 3, undefined],
        [3, 2, undefined, nanoseconds ? '0.000250007' : '0.000250'],
      ]);
    }
  });

  it('reassembles the 3413-byte `d` reply from IPv4 and IPv6 fragments', async () => {
    const { packets } = await dissectFile(captures + 'veth-frag.pcap');
    const d = packets.filter((p) => p.layout === 'samp.players.response');
    expect(d.map((p) => p.fragments)).toEqual([
      [10, 11, 12],
      [24, 25, 26],
    ]);
    for (const p of d) {
      expect(p.payloadLength).toBe(3413);
      expect(p.fields.filter((n) => n.abbrev === 'samp.player')).toHaveLength(100);
    }
  });

  it('reads a first IPv4 fragment the snapshot length cut as far as it goes, as tshark does, and links it', async () => {
    // veth-frag.pcap cut to 200 bytes a frame (editcap -s 200): no fragment of the `d` replies is whole.
    const { packets, stats } = await dissectFile(captures + 'veth-frag.snap200.pcap');
    const at = (frame: number) => packets.find((p) => p.frame === frame);
    // IPv4: the first fragment is the reply, cut short, answering its request; the others stay fragments.
    expect(at(10)).toMatchObject({ layout: 'samp.players.response', requestIn: 9, malformed: { type: 'TruncatedError' } });
    expect(at(10)!.fragments).toBeUndefined();
    expect(at(10)!.summary).toContain('[Malformed Packet]');
    expect(at(9)!.responseIn).toBe(10);
    expect(at(11)).toBeUndefined();
    expect(at(12)).toBeUndefined();
    // IPv6: tshark keeps a first fragment a fragment while it reassembles, so this does too; its request waits in vain.
    expect(at(24)).toBeUndefined();
    expect(at(23)!.responseIn).toBeUndefined();
    expect(stats).toMatchObject({ exchanges: 9, unanswered: 1, skipped: { 'fragment-dropped': 5 } });
    // Whole, the same frames are reassembled (veth-frag.pcap), and no frame is read twice.
    const rows = tsharkRows(captures + 'veth-frag.snap200.pcap');
    expect(rows.get(10)!['frame.protocols']).toBe('eth:ethertype:ip:udp:data');
    expect(rows.get(24)!['frame.protocols']).toBe('eth:ethertype:ipv6:ipv6.fraghdr:data');
  });

  it('finds no query traffic in DNS', async () => {
    const { packets, stats } = await dissectFile(captures + 'dns-lo.pcap');
    expect(packets).toEqual([]);
    expect(stats).toMatchObject({ udp: 4, nonGame: 4, game: 0 });
  });

  it('shows what a short snapshot length left, with a malformed item', async () => {
    const { packets } = await dissectFile(captures + 'lo-snap60.pcap');
    const cut = packets.filter((p) => p.malformed);
    expect(cut.length).toBeGreaterThan(0);
    for (const p of cut) {
      expect(p.summary).toContain('[Malformed Packet]');
      expect(p.fields.at(-1)!.abbrev).toBe(`${p.protocol}.malformed`);
      expect(p.malformed!.type).toBe('TruncatedError');
      expect(p.fields.find((n) => n.abbrev.endsWith('.magic') || n.abbrev === 'mcquery.type')).toBeDefined();
    }
  });

  it('keeps every intact packet of a capture cut mid-record and names the offset', async () => {
    const whole = await dissectFile(captures + 'lo-us.pcap');
    const cut = await dissectFile(captures + 'lo-us.cut.pcap');
    expect(cut.errors).toHaveLength(1);
    expect(cut.errors[0]!.code).toBe('truncated');
    expect(cut.errors[0]!.message).toMatch(/offset \d+/);
    expect(cut.packets.length).toBeGreaterThan(0);
    expect(cut.packets.length).toBeLessThan(whole.packets.length);
    for (const p of cut.packets) {
      expect(packetJson(p).fields).toEqual(packetJson(whole.packets.find((w) => w.frame === p.frame)!).fields);
    }
  });

  it('gives the same output whatever the chunk size of the stream', async () => {
    const a = await dissectFile(captures + 'veth-frag.pcap', {}, 1 << 16);
    const b = await dissectFile(captures + 'veth-frag.pcap', {}, 7);
    expect(b.packets.map((p) => packetJson(p))).toEqual(a.packets.map((p) => packetJson(p)));
  });

  it.each(captureFiles)('%s matches its expected JSON', async (name) => {
    const { packets, stats } = await dissectFile(captures + name);
    const doc = { packets: packets.map((p) => packetJson(p)), stats };
    await expect(JSON.stringify(doc, null, 1) + '\n').toMatchFileSnapshot(`../fixtures/expected/${name}.json`);
  });
});
