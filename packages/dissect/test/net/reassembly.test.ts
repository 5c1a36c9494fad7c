import { describe, expect, it } from 'vitest';
import type { CapturePacket } from '../../src/capture/index.ts';
import { PIECE_COST, Reassembler, UdpDecoder, type DroppedDatagram, type UdpDatagram } from '../../src/net/index.ts';
import { decodeAll, packets, withData } from './helpers.ts';

// veth-frag.pcap: frames 10, 11, 12 are the IPv4 fragments (offsets 0, 1480, 2960) of the 3421-byte
// SA:MP `d' reply; frames 24, 25, 26 the IPv6 ones (offsets 0, 1448, 2896).
const all = packets('veth-frag.pcap');
const frame = (n: number) => all[n - 1]!;
const v4 = [frame(10), frame(11), frame(12)] as const;
const v6 = [frame(24), frame(25), frame(26)] as const;
const inOrder = decodeAll(v4).results[2] as UdpDatagram;
const inOrder6 = decodeAll(v6).results[2] as UdpDatagram;

/** A copy of an IPv4 fragment frame with other fragment fields / id / data length. */
function ipv4Fragment(
  packet: CapturePacket,
  change: { offset?: number; more?: boolean; id?: number; length?: number; fill?: number; seconds?: number },
): CapturePacket {
  const data = packet.data.slice(0, change.length === undefined ? packet.data.length : 34 + change.length);
  const field = (data[20]! << 8) | data[21]!;
  const offset = change.offset ?? (field & 0x1fff) * 8;
  const more = change.more ?? (field & 0x2000) !== 0;
  const value = (more ? 0x2000 : 0) | (offset / 8);
  data[20] = value >> 8;
  data[21] = value & 0xff;
  if (change.id !== undefined) {
    data[18] = change.id >> 8;
    data[19] = change.id & 0xff;
  }
  const total = data.length - 14;
  data[16] = total >> 8;
  data[17] = total & 0xff;
  if (change.fill !== undefined) data.fill(change.fill, 34);
  const timestamp =
    change.seconds === undefined ? packet.timestamp : { ...packet.timestamp!, seconds: packet.timestamp!.seconds + change.seconds };
  return withData(packet, data, { timestamp });
}

function collect(): { drops: DroppedDatagram[]; onDrop: (d: DroppedDatagram) => void } {
  const drops: DroppedDatagram[] = [];
  return { drops, onDrop: (d) => drops.push(d) };
}

describe('IPv4 and IPv6 fragment reassembly', () => {
  it('gives the datagram at the completing frame, whatever the order', () => {
    for (const order of [
      [0, 1, 2],
      [2, 0, 1],
      [1, 2, 0],
      [2, 1, 0],
    ]) {
      const { results } = decodeAll(order.map((i) => v4[i]!));
      expect(results.slice(0, 2)).toEqual([
        { kind: 'skipped', reason: 'fragment', detail: 'fragment held for reassembly' },
        { kind: 'skipped', reason: 'fragment', detail: 'fragment held for reassembly' },
      ]);
      // The IP header's length is the completing fragment's, which depends on the order.
      const header = { ipLength: expect.any(Number), ipTtl: expect.any(Number) };
      expect(results[2]).toEqual({ ...inOrder, ...header });
      const { results: results6 } = decodeAll(order.map((i) => v6[i]!));
      expect(results6[2]).toEqual({ ...inOrder6, ...header });
    }
  });

  it('ignores exact duplicates', () => {
    const { results, decoder } = decodeAll([v4[0], v4[1], v4[0], v4[1], v4[2]]);
    expect(results[4]).toEqual(inOrder);
    expect(decoder.stats).toMatchObject({ fragments: 5, duplicates: 2, reassembled: 1 });
  });

  it('drops the whole datagram on an overlap, and its later fragments', () => {
    const { drops, onDrop } = collect();
    const overlapping = ipv4Fragment(v4[1], { offset: 1472 });
    const { results, decoder } = decodeAll([v4[0], overlapping, v4[1], v4[2]], { onDrop });
    expect(results.slice(1).map((r) => r.kind === 'skipped' && r.reason)).toEqual([
      'fragment-dropped',
      'fragment-dropped',
      'fragment-dropped',
    ]);
    expect(drops).toEqual([
      {
        reason: 'overlap',
        ipVersion: 4,
        src: '10.231.0.2',
        dst: '10.231.0.1',
        id: (v4[0].data[18]! << 8) | v4[0].data[19]!,
        frames: [10, 11],
      },
    ]);
    expect(decoder.stats).toMatchObject({ lateFragments: 2, reassembled: 0 });
  });

  it('treats a same-offset fragment with other bytes as an overlap, not a duplicate', () => {
    const { drops, onDrop } = collect();
    decodeAll([v4[0], ipv4Fragment(v4[0], { fill: 0x55 })], { onDrop });
    expect(drops.map((d) => d.reason)).toEqual(['overlap']);
  });

  it('drops an incomplete datagram 30 s of capture time after its first fragment', () => {
    const { drops, onDrop } = collect();
    const later = (seconds: number) => ({ ...all[4]!, timestamp: { ...all[4]!.timestamp!, seconds: v4[0].timestamp!.seconds + seconds } });
    const { results, decoder } = decodeAll([v4[0], v4[2], later(30), later(31), v4[1]], { onDrop });
    expect(results[2]!.kind).toBe('udp');
    expect(drops).toEqual([expect.objectContaining({ reason: 'timeout', frames: [10, 12] })]);
    expect(results[4]).toMatchObject({ kind: 'skipped', reason: 'fragment' }); // starts a new datagram
    decoder.finish();
    expect(drops.map((d) => [d.reason, d.frames])).toEqual([
      ['timeout', [10, 12]],
      ['end-of-capture', [11]],
    ]);
    expect(decoder.stats!.dropped).toMatchObject({ timeout: 1, 'end-of-capture': 1 });
  });

  it('refuses malformed fragment sets', () => {
    const { drops, onDrop } = collect();
    decodeAll(
      [
        ipv4Fragment(v4[0], { id: 1, length: 100 }), // not a multiple of 8
        ipv4Fragment(v4[2], { id: 2, offset: 65528 }), // beyond 65535
        ipv4Fragment(v4[2], { id: 3 }),
        ipv4Fragment(v4[2], { id: 3, offset: 2952 }), // two different ends
        withData(v4[0], v4[0].data.subarray(0, 600)), // cut by the snapshot length
      ],
      { onDrop },
    );
    expect(drops.map((d) => d.reason)).toEqual(['invalid-fragment', 'too-large', 'invalid-fragment', 'truncated-fragment']);
  });

  it('keeps at most maxDatagrams, dropping the oldest', () => {
    const { drops, onDrop } = collect();
    const firsts = [1, 2, 3, 4].map((id) => ipv4Fragment(v4[0], { id }));
    const { decoder } = decodeAll(firsts, { onDrop, reassembly: { maxDatagrams: 2 } });
    expect(drops.map((d) => [d.reason, d.id])).toEqual([
      ['datagram-limit', 1],
      ['datagram-limit', 2],
    ]);
    expect(decoder.stats!.dropped['datagram-limit']).toBe(2);
  });

  it('keeps at most maxPendingBytes (data and bookkeeping), dropping the oldest', () => {
    const { drops, onDrop } = collect();
    const firsts = [1, 2, 3].map((id) => ipv4Fragment(v4[0], { id }));
    // Two first fragments fit (2 × (data + PIECE_COST)), the third evicts the oldest.
    expect(2 * (v4[0].data.length - 34 + PIECE_COST)).toBeLessThan(4000);
    decodeAll(firsts, { onDrop, reassembly: { maxPendingBytes: 4000 } });
    expect(drops.map((d) => [d.reason, d.id])).toEqual([['byte-limit', 1]]);
    const { drops: tiny, onDrop: onTiny } = collect();
    decodeAll([v4[0]], { onDrop: onTiny, reassembly: { maxPendingBytes: 1000 } });
    expect(tiny.map((d) => d.reason)).toEqual(['byte-limit']);
  });

  it('with reuse, puts each datagram together in one buffer, read before the next frame', () => {
    const decoder = new UdpDecoder({ reuse: true });
    const bytes: Uint8Array[] = [];
    for (const f of [...v4, ...v6]) {
      const r = decoder.decode(f);
      // Read as the first pass reads it: before the next frame.
      if (r.kind === 'udp') bytes.push(r.payload.slice());
      if (r.kind === 'udp') expect(r).toEqual({ ...(f === v4[2] ? inOrder : inOrder6), payload: r.payload });
    }
    expect(bytes).toEqual([inOrder.payload, inOrder6.payload]);
    // The second went into the first one's buffer: a caller that kept the first would read the second.
    const again = new UdpDecoder({ reuse: true });
    const first = [...v4].map((f) => again.decode(f))[2] as UdpDatagram;
    const second = [...v6].map((f) => again.decode(f))[2] as UdpDatagram;
    expect(second.payload.buffer).toBe(first.payload.buffer);
    expect(first.payload.subarray(0, 64)).toEqual(inOrder6.payload.subarray(0, 64));
    expect(first.payload).not.toEqual(inOrder.payload);
  });

  it('holds a bounded amount however many fragments arrive', () => {
    const reassembler = new Reassembler({ maxDatagrams: 64, maxPendingBytes: 100_000 });
    const data = new Uint8Array(1480);
    for (let id = 0; id < 5000; id++) {
      reassembler.add({
        ipVersion: 4,
        src: '10.0.0.1',
        dst: '10.0.0.2',
        protocol: 17,
        id,
        start: 0,
        more: true,
        data,
        dataOffset: 34,
        frame: id + 1,
        time: id / 1000,
        truncated: false,
      });
      expect(reassembler.size).toBeLessThanOrEqual(64);
      expect(reassembler.bytes).toBeLessThanOrEqual(100_000);
    }
    expect(reassembler.stats.dropped['byte-limit'] + reassembler.stats.dropped['datagram-limit']).toBe(5000 - reassembler.size);
  });

  it('passes fragments through as skipped when reassembly is off', () => {
    const { results } = decodeAll([...v4, ...v6], { reassembly: false });
    expect(results.every((r) => r.kind === 'skipped' && r.reason === 'fragment')).toBe(true);
  });

  it('keys IPv6 fragments by addresses and identification', () => {
    const other = v6[2].data.slice();
    other[14 + 40 + 7]! ^= 1; // another identification
    const { results } = decodeAll([v6[0], v6[1], withData(v6[2], other)]);
    expect(results.map((r) => r.kind === 'skipped' && r.reason)).toEqual(['fragment', 'fragment', 'fragment']);
  });
});
