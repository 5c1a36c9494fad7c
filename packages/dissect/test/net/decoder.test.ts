import { describe, expect, it } from 'vitest';
import type { UdpDatagram } from '../../src/net/index.ts';
import { CAPTURES, tshark } from '../capture/helpers.ts';
import { decodeAll, packets, splice, withData } from './helpers.ts';

const udp = (result: unknown) => result as UdpDatagram;
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('UdpDecoder on the committed captures', () => {
  it.each(CAPTURES)('%s: same UDP endpoints, lengths and fragments as tshark', (name) => {
    const frames = packets(name);
    const { results } = decodeAll(frames);
    const expected = tshark(name).map((row) => {
      const fragments = (row['ip.fragment'] || row['ipv6.fragment'] || '').split(',').filter(Boolean).map(Number);
      const completes = fragments.length === 0 || fragments.at(-1) === Number(row['frame.number']);
      if (row['udp.srcport'] === '' || !completes) return 'skipped';
      return {
        src: { ip: row['ip.src'] || row['ipv6.src'], port: Number(row['udp.srcport']) },
        dst: { ip: row['ip.dst'] || row['ipv6.dst'], port: Number(row['udp.dstport']) },
        udpLength: Number(row['udp.length']),
        fragments: fragments.length > 0 ? fragments : undefined,
      };
    });
    expect(
      results.map((r) => (r.kind === 'udp' ? { src: r.src, dst: r.dst, udpLength: r.udpLength, fragments: r.fragments } : 'skipped')),
    ).toEqual(expected);
  });

  it.each(CAPTURES)('%s: payloadOffset points at the payload in the frame', (name) => {
    const frames = packets(name);
    const { results } = decodeAll(frames);
    results.forEach((r) => {
      if (r.kind !== 'udp') return;
      const first = frames.find((f) => f.index === (r.fragments?.[0] ?? -1));
      const frame = first ?? frames[results.indexOf(r)]!;
      const inFrame = frame.data.subarray(r.payloadOffset, r.payloadOffset + r.payload.length);
      expect(inFrame).toEqual(r.payload.subarray(0, inFrame.length));
      if (!r.truncated) expect(r.payload.length).toBe(r.udpLength - 8);
    });
  });

  it('finds the SA:MP and Minecraft payloads the traffic script sent', () => {
    const { results } = decodeAll(packets('lo-us.pcap'));
    const payloads = results.filter((r) => r.kind === 'udp').map((r) => udp(r).payload);
    expect(text(payloads[0]!)).toBe('SAMP\x7f\x00\x00\x01\xa1\xbai');
    expect(text(payloads[1]!.subarray(0, 11))).toBe('SAMP\x7f\x00\x00\x01\xa1\xbai');
    expect(text(payloads[1]!)).toContain('gamequery fixture server');
    expect(Buffer.from(payloads[4]!).toString('hex')).toBe('fefd0900000001');
    expect(Buffer.from(payloads[5]!).toString('hex')).toBe('09000000013935313333303700');
    expect(results.filter((r) => r.kind === 'udp' && r.ipVersion === 6).map((r) => udp(r).src.ip)).toEqual(Array(8).fill('::1'));
  });

  it('reassembles the 3413-byte SA:MP player list over IPv4 and IPv6 alike', () => {
    const { results, decoder } = decodeAll(packets('veth-frag.pcap'));
    const lists = results.filter((r) => r.kind === 'udp' && r.payload.length === 3413).map(udp);
    expect(lists.map((r) => [r.ipVersion, r.fragments, r.payloadOffset])).toEqual([
      [4, [10, 11, 12], 42],
      [6, [24, 25, 26], 70],
    ]);
    // What each fragment carried (tshark's "#10(1480), #11(1480), #12(461)"), and the bytes they made: the UDP header, then the payload.
    expect(lists.map((r) => r.reassembly!.sizes)).toEqual([
      [1480, 1480, 461],
      [1448, 1448, 525],
    ]);
    for (const r of lists) {
      const { data, udpAt } = r.reassembly!;
      expect([data.length, udpAt, (data[4]! << 8) | data[5]!]).toEqual([3421, 0, 3421]);
      expect(data.subarray(8)).toEqual(r.payload);
    }
    expect(lists[0]!.payload.subarray(10)).toEqual(lists[1]!.payload.subarray(10)); // bytes 4-9: server address
    expect(text(lists[0]!.payload.subarray(0, 4))).toBe('SAMP');
    expect(text(lists[0]!.payload.subarray(15, 38))).toBe('player_000_gamequery_fx');
    expect(results.filter((r) => r.kind === 'skipped' && r.reason === 'fragment')).toHaveLength(4);
    expect(decoder.stats).toMatchObject({ fragments: 6, reassembled: 2, duplicates: 0 });
  });

  it('skips ICMPv6 quietly and says why', () => {
    const { results } = decodeAll(packets('veth-frag.pcap'));
    expect(results[0]).toEqual({ kind: 'skipped', reason: 'not-udp', detail: 'IP protocol 58' });
  });

  it('flags datagrams cut by a 60-byte snapshot length and keeps what was captured', () => {
    const frames = packets('lo-snap60.pcap');
    const { results } = decodeAll(frames);
    const reply = udp(results[1]);
    expect(reply).toMatchObject({ truncated: true, udpLength: 79, payloadOffset: 42 });
    expect(reply.payload).toHaveLength(60 - 42);
    expect(udp(results[0]).truncated).toBe(false);
    // IPv6 frames keep only 6 bytes of the UDP header: ports and length, no payload.
    expect(udp(results[8])).toMatchObject({ truncated: true, udpLength: 19, payload: new Uint8Array(0) });
  });

  it('decodes the DNS capture as ordinary UDP to port 53', () => {
    const { results } = decodeAll(packets('dns-lo.pcap'));
    expect(results.map((r) => udp(r).dst.port)).toEqual([53, 47053, 53, 47053]);
  });
});

describe('link layers built from the real frames', () => {
  const ethernet = packets('lo-us.pcap');
  const reference = decodeAll(ethernet).results.map(udp);

  function expectSameAsReference(frames: ReturnType<typeof packets>, shift: number) {
    const results = decodeAll(frames).results.map(udp);
    expect(results.map((r) => ({ ...r, payloadOffset: r.payloadOffset - shift }))).toEqual(reference);
  }

  it('steps over an 802.1Q tag', () => {
    expectSameAsReference(
      ethernet.map((p) => withData(p, splice(p.data, 12, 0, [0x81, 0x00, 0x00, 0x64]))),
      4,
    );
  });

  it('steps over stacked 802.1ad + 802.1Q and 0x9100 tags', () => {
    expectSameAsReference(
      ethernet.map((p) => withData(p, splice(p.data, 12, 0, [0x88, 0xa8, 0x01, 0x2c, 0x81, 0x00, 0x01, 0x90]))),
      8,
    );
    expectSameAsReference(
      ethernet.map((p) => withData(p, splice(p.data, 12, 0, [0x91, 0x00, 0x00, 0x05, 0x81, 0x00, 0x00, 0x06, 0x81, 0x00, 0x00, 0x07]))),
      12,
    );
  });

  it.each([
    ['NULL, little-endian, OpenBSD AF_INET6', 0, true, 24],
    ['NULL, big-endian, FreeBSD AF_INET6', 0, false, 28],
    ['LOOP, big-endian, Darwin AF_INET6', 108, false, 30],
    ['LOOP, little-endian', 108, true, 24],
  ])('reads BSD loopback: %s', (_, linkType, little, inet6) => {
    const frames = ethernet.map((p) => {
      const family = p.data[12] === 0x86 ? inet6 : 2;
      const header = little ? [family, 0, 0, 0] : [0, 0, 0, family];
      return withData(p, splice(p.data, 0, 14, header), { linkType });
    });
    expectSameAsReference(frames, 4 - 14);
  });

  it('reads raw IP under link types 101, 12 and 14, and 228 / 229', () => {
    const raw = packets('veth-frag.rawip.pcap');
    const expected = decodeAll(raw).results;
    for (const linkType of [12, 14]) {
      expect(decodeAll(raw.map((p) => ({ ...p, linkType }))).results).toEqual(expected);
    }
    const v4 = decodeAll(packets('lo-v4.rawip4.pcap')).results.map(udp);
    const v6 = decodeAll(packets('lo-v6.rawip6.pcap')).results.map(udp);
    expect([...v4, ...v6].map((r) => ({ ...r, payloadOffset: r.payloadOffset + 14 }))).toEqual(reference);
  });

  it('reads Linux cooked captures v1 and v2 like the Ethernet one', () => {
    for (const [name, header] of [
      ['any-sll.pcap', 16],
      ['any-sll2.pcap', 20],
    ] as const) {
      const results = decodeAll(packets(name)).results.map(udp);
      expect(
        results.map((r) => [r.src.port === 47777 || r.dst.port === 47777 || r.dst.port === 47778 || r.src.port === 47778, r.payloadOffset]),
      ).toEqual(results.map((r) => [true, header + (r.ipVersion === 4 ? 20 : 40) + 8]));
      expect(results.map((r) => text(r.payload.subarray(0, 4)))).toEqual(reference.map((r) => text(r.payload.subarray(0, 4))));
    }
  });

  it('skips what it cannot reach, with the reason', () => {
    const frame = ethernet[0]!;
    const decode = (data: Uint8Array, linkType = 1) => decodeAll([withData(frame, data, { linkType })]).results[0];
    expect(decode(frame.data, 147)).toEqual({ kind: 'skipped', reason: 'link-type', detail: 'link type 147' });
    expect(decode(splice(frame.data, 12, 2, [0x08, 0x06]))).toEqual({ kind: 'skipped', reason: 'not-ip', detail: 'EtherType 0x0806' });
    expect(decode(frame.data.subarray(0, 10))).toMatchObject({ kind: 'skipped', reason: 'malformed' });
    expect(decode(frame.data.subarray(0, 16))).toEqual({
      kind: 'skipped',
      reason: 'malformed',
      detail: 'frame ends 2 bytes into the IPv4 header',
    });
    expect(decode(new Uint8Array([0, 0, 0, 7, 0x45]), 0)).toEqual({ kind: 'skipped', reason: 'not-ip', detail: 'address family 7' });
    expect(decode(new Uint8Array([0x50]), 101)).toEqual({ kind: 'skipped', reason: 'not-ip', detail: 'IP version 5' });
  });
});

describe('IPv4 and UDP header checks', () => {
  const frame = packets('lo-us.pcap')[1]!; // the 79-byte SA:MP info reply: 14 + 20 + 8 + 71
  const decode = (data: Uint8Array) => decodeAll([withData(frame, data)]).results[0];
  const patched = (at: number, values: number[]) => {
    const copy = frame.data.slice();
    copy.set(values, at);
    return copy;
  };

  it('trims Ethernet padding by the IP total length', () => {
    const padded = decode(splice(frame.data, frame.data.length, 0, [0, 0, 0, 0, 0, 0]));
    expect(padded).toEqual(decode(frame.data));
  });

  it('reads past IPv4 options', () => {
    // IHL 6: four bytes of options (a NOP list) inserted after the 20-byte header, total length + 4.
    const data = splice(frame.data, 34, 0, [1, 1, 1, 0]);
    data[14] = 0x46;
    data[17]! += 4;
    expect(udp(decode(data))).toMatchObject({ payloadOffset: 46, udpLength: 79 });
    expect(udp(decode(data)).payload).toEqual(udp(decode(frame.data)).payload);
  });

  it('takes a total length of 0 (segmentation offload) as the frame length', () => {
    expect(udp(decode(patched(16, [0, 0]))).payload).toEqual(udp(decode(frame.data)).payload);
  });

  it.each([
    [14, [0x44], 'IPv4 header length 16 is below 20'],
    [14, [0x4f], 'IPv4 header length 60 runs past the 0 bytes captured'],
    [16, [0, 10], 'IPv4 total length 10 is below its header length 20'],
    [14, [0x65], 'IP version 6 in an IPv4 header'],
    [38, [0, 5], 'UDP length 5 is below 8'],
  ])('skips a malformed packet (byte %i = %j): %s', (at, values, detail) => {
    const data = patched(at, values);
    const result = decode(at === 14 && values[0] === 0x4f ? data.subarray(0, 14 + 20) : data);
    if (values[0] === 0x4f) expect(result).toMatchObject({ reason: 'malformed' });
    else expect(result).toEqual({ kind: 'skipped', reason: 'malformed', detail });
  });

  it('flags a UDP length larger than the IP packet as truncated', () => {
    const result = udp(decode(patched(38, [0, 200])));
    expect(result).toMatchObject({ truncated: true, udpLength: 200 });
    expect(result.payload).toHaveLength(71);
  });
});

describe('IPv6 extension headers', () => {
  const frame = packets('lo-us.pcap')[9]!; // SA:MP info reply over ::1: 14 + 40 + 8 + 71
  const decode = (data: Uint8Array) => decodeAll([withData(frame, data)]).results[0];

  /** Inserts an extension header of type `type` (8 bytes, or `length`) before the UDP header. */
  function withExtension(data: Uint8Array, type: number, body: number[]): Uint8Array {
    const next = data[14 + 6]!;
    const out = splice(data, 54, 0, [next, ...body]);
    out[14 + 6] = type;
    const payloadLength = ((out[18]! << 8) | out[19]!) + body.length + 1;
    out[18] = payloadLength >> 8;
    out[19] = payloadLength & 0xff;
    return out;
  }

  it('walks hop-by-hop, routing, destination options and AH to UDP', () => {
    const reference = udp(decode(frame.data));
    let data = withExtension(frame.data, 60, [0, 1, 4, 0, 0, 0, 0]); // destination options: PadN
    data = withExtension(data, 51, [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // AH, 16 bytes
    data = withExtension(data, 43, [0, 0, 0, 0, 0, 0, 0]); // routing, type 0, no segments left
    data = withExtension(data, 0, [0, 1, 4, 0, 0, 0, 0]); // hop-by-hop
    const result = udp(decode(data));
    // The extension headers count in the IPv6 payload length.
    expect(result).toEqual({ ...reference, payloadOffset: reference.payloadOffset + 8 + 16 + 8 + 8, ipLength: reference.ipLength! + 40 });
  });

  it('processes an atomic fragment (offset 0, no more fragments) in place', () => {
    const reference = udp(decode(frame.data));
    const result = udp(decode(withExtension(frame.data, 44, [0, 0, 0, 0x12, 0x34, 0x56, 0x78])));
    expect(result).toEqual({ ...reference, payloadOffset: reference.payloadOffset + 8, ipLength: reference.ipLength! + 8 });
  });

  it('skips other upper layers and cut extension headers', () => {
    const icmp = frame.data.slice();
    icmp[20] = 58;
    expect(decode(icmp)).toEqual({ kind: 'skipped', reason: 'not-udp', detail: 'IP protocol 58' });
    const cut = withExtension(frame.data, 60, [10, 0, 0, 0, 0, 0, 0]); // claims 88 bytes
    expect(decode(cut)).toMatchObject({ kind: 'skipped', reason: 'malformed' });
  });
});
