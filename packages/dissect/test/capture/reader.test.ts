import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import pcapParser from 'pcap-parser';
import { describe, expect, it } from 'vitest';
import {
  CaptureParser,
  formatTimestamp,
  readCapture,
  readCaptureSync,
  timestampDifference,
  type CapturePacket,
} from '../../src/capture/index.ts';
import {
  block,
  blocksOf,
  CAPTURES,
  concat,
  fixture,
  FIXTURES,
  packetsOf,
  readAll,
  summary,
  toBigEndianPcapng,
  tshark,
  writePcap,
} from './helpers.ts';

/** tshark prints frame.time_epoch with 9 decimals; write ours the same way for comparison. */
function epochNanos(packet: CapturePacket): string {
  const text = formatTimestamp(packet.timestamp!);
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(9, '0')}`;
}

interface OraclePacket {
  header: { timestampSeconds: number; timestampMicroseconds: number; capturedLength: number; originalLength: number };
  data: Buffer;
}

/** Reads a file with pcap-parser 0.2.1 (microsecond pcap only), the reference implementation here. */
function oracle(input: string | Readable): Promise<OraclePacket[]> {
  return new Promise((resolve, reject) => {
    const packets: OraclePacket[] = [];
    const parser = pcapParser.parse(input);
    parser.on('packet', (packet: OraclePacket) => packets.push(packet));
    parser.on('error', reject);
    parser.on('end', () => resolve(packets));
  });
}

describe('readCapture on the committed captures', () => {
  it.each(CAPTURES)('%s: same frames, lengths, times and interfaces as tshark', async (name) => {
    const items = await readAll(fixture(name));
    expect(items.every((item) => item.kind === 'packet')).toBe(true);
    const packets = packetsOf(items);
    const rows = tshark(name);
    expect(packets.map((p) => [p.index, epochNanos(p), p.capturedLength, p.originalLength])).toEqual(
      rows.map((r) => [Number(r['frame.number']), r['frame.time_epoch'], Number(r['frame.cap_len']), Number(r['frame.len'])]),
    );
    if (name.endsWith('.pcapng')) {
      expect(packets.map((p) => p.interfaceId)).toEqual(rows.map((r) => Number(r['frame.interface_id'])));
    }
  });

  it('reads a file through fs.createReadStream', async () => {
    const items = [];
    for await (const item of readCapture(createReadStream(FIXTURES + 'veth-frag.pcap', { highWaterMark: 1000 }))) {
      items.push(item);
    }
    expect(summary(items)).toEqual(summary([...readCaptureSync(fixture('veth-frag.pcap'))]));
  });

  it.each(CAPTURES)('%s: chunks of 1, 7, 64 and 4096 bytes give the same items as the whole file', async (name) => {
    const bytes = fixture(name);
    const whole = summary([...readCaptureSync(bytes)]);
    for (const size of [1, 7, 64, 4096]) expect(summary(await readAll(bytes, size))).toEqual(whole);
  });

  it('gives the link types the files declare', async () => {
    const linkTypes = async (name: string) => [...new Set(packetsOf(await readAll(fixture(name))).map((p) => p.linkType))];
    expect(await linkTypes('lo-us.pcap')).toEqual([1]);
    expect(await linkTypes('any-sll.pcap')).toEqual([113]);
    expect(await linkTypes('any-sll2.pcap')).toEqual([276]);
    expect(await linkTypes('lo-v4.rawip4.pcap')).toEqual([228]);
    expect(await linkTypes('lo-v6.rawip6.pcap')).toEqual([229]);
    expect(await linkTypes('veth-frag.rawip.pcap')).toEqual([101]);
    expect(await linkTypes('lo-any.pcapng')).toEqual([1, 113]);
  });
});

describe('classic pcap against pcap-parser', () => {
  const microsecondPcaps = CAPTURES.filter((name) => name.endsWith('.pcap') && name !== 'lo-ns.pcap');

  it.each(microsecondPcaps)('%s: same packets, bytes and timestamps', async (name) => {
    const expected = await oracle(FIXTURES + name);
    const packets = packetsOf(await readAll(fixture(name), 100));
    expect(packets.length).toBe(expected.length);
    expect(
      packets.map((p) => ({
        seconds: p.timestamp!.seconds,
        ticks: p.timestamp!.ticks,
        caplen: p.capturedLength,
        len: p.originalLength,
        data: Buffer.from(p.data).toString('hex'),
      })),
    ).toEqual(
      expected.map((e) => ({
        seconds: e.header.timestampSeconds,
        ticks: e.header.timestampMicroseconds,
        caplen: e.header.capturedLength,
        len: e.header.originalLength,
        data: e.data.toString('hex'),
      })),
    );
  });

  it('reads a big-endian copy of lo-us.pcap like pcap-parser does', async () => {
    // No tool here writes big-endian pcap: re-encode the real records with the test's own writer.
    const packets = packetsOf(await readAll(fixture('lo-us.pcap')));
    const bigEndian = writePcap(
      packets.map((p) => ({ seconds: p.timestamp!.seconds, ticks: p.timestamp!.ticks, data: p.data })),
      { linkType: 1, bigEndian: true },
    );
    expect([...bigEndian.subarray(0, 4)]).toEqual([0xa1, 0xb2, 0xc3, 0xd4]);
    const expected = await oracle(Readable.from([Buffer.from(bigEndian)]));
    const again = packetsOf(await readAll(bigEndian, 7));
    expect(again.map((p) => [p.timestamp!.seconds, p.timestamp!.ticks, Buffer.from(p.data).toString('hex')])).toEqual(
      expected.map((e) => [e.header.timestampSeconds, e.header.timestampMicroseconds, e.data.toString('hex')]),
    );
    expect(summary(again)).toEqual(summary(packets));
  });
});

describe('nanosecond pcap', () => {
  it('keeps all nine decimals of lo-ns.pcap', async () => {
    const [first, second] = packetsOf(await readAll(fixture('lo-ns.pcap')));
    const rows = tshark('lo-ns.pcap');
    expect(formatTimestamp(first!.timestamp!)).toBe(rows[0]!['frame.time_epoch']);
    expect(first!.timestamp!.resolution.ticksPerSecond).toBe(1e9);
    const exact = BigInt(rows[1]!['frame.time_epoch']!.replace('.', '')) - BigInt(rows[0]!['frame.time_epoch']!.replace('.', ''));
    expect(timestampDifference(second!.timestamp!, first!.timestamp!)).toBe(`0.${exact.toString().padStart(9, '0')}`);
  });

  it('reads a big-endian nanosecond copy', async () => {
    const packets = packetsOf(await readAll(fixture('lo-ns.pcap')));
    const bigEndian = writePcap(
      packets.map((p) => ({ seconds: p.timestamp!.seconds, ticks: p.timestamp!.ticks, data: p.data })),
      { linkType: 1, bigEndian: true, nanoseconds: true },
    );
    expect([...bigEndian.subarray(0, 4)]).toEqual([0xa1, 0xb2, 0x3c, 0x4d]);
    expect(summary(await readAll(bigEndian, 64))).toEqual(summary(packets));
  });
});

describe('pcapng', () => {
  it('numbers the interfaces of lo-any.pcapng (lo Ethernet, any Linux SLL) 0 and 1', async () => {
    const packets = packetsOf(await readAll(fixture('lo-any.pcapng')));
    expect(packets.filter((p) => p.interfaceId === 0).every((p) => p.linkType === 1)).toBe(true);
    expect(packets.filter((p) => p.interfaceId === 1).every((p) => p.linkType === 113)).toBe(true);
  });

  it('restarts the interface list at a new section and counts sections', async () => {
    // two-sections.pcapng = lo.pcapng (ns, dumpcap) followed by lo-us.editcap.pcapng (µs, editcap).
    const packets = packetsOf(await readAll(fixture('two-sections.pcapng'), 64));
    expect(packets.map((p) => p.index)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(packets.slice(0, 16).map((p) => [p.sectionNumber, p.interfaceId, p.timestamp!.resolution.decimals])).toEqual(
      Array(16).fill([1, 0, 9]),
    );
    expect(packets.slice(16).map((p) => [p.sectionNumber, p.interfaceId, p.timestamp!.resolution.decimals])).toEqual(
      Array(16).fill([2, 0, 6]),
    );
  });

  it.each(['lo.pcapng', 'lo-any.pcapng', 'two-sections.pcapng'])('reads a big-endian copy of %s like the original', async (name) => {
    const original = summary(await readAll(fixture(name)));
    const swapped = toBigEndianPcapng(fixture(name));
    expect([...swapped.subarray(8, 12)]).toEqual([0x1a, 0x2b, 0x3c, 0x4d]);
    const again = summary(await readAll(swapped, 7)) as { offset: number }[];
    expect(again).toEqual(original);
  });

  it('switches byte order between sections', async () => {
    const mixed = concat(fixture('lo.pcapng'), toBigEndianPcapng(fixture('lo-us.editcap.pcapng')));
    expect(summary(await readAll(mixed, 13))).toEqual(summary(await readAll(fixture('two-sections.pcapng'))));
  });

  it('reads if_tsresol 2^-n exactly', async () => {
    // lo.pcapng re-encoded at 2^-30 s per tick: IDB option if_tsresol = 0x80 | 30, EPB times rescaled.
    const [shb, , ...rest] = blocksOf(fixture('lo.pcapng'));
    const idbBody = new Uint8Array(16);
    const idbView = new DataView(idbBody.buffer);
    idbView.setUint16(0, 1, true); // Ethernet
    idbView.setUint32(4, 262144, true);
    idbView.setUint32(8, 0x0001_0009, true); // option 9, length 1
    idbBody[12] = 0x80 | 30;
    const expected: bigint[] = [];
    const epbs = rest
      .filter((b) => new DataView(b.buffer, b.byteOffset).getUint32(0, true) === 6)
      .map((b) => {
        const copy = b.slice();
        const view = new DataView(copy.buffer);
        const ns = (BigInt(view.getUint32(12, true)) << 32n) | BigInt(view.getUint32(16, true));
        const ticks = (ns << 30n) / 1_000_000_000n;
        expected.push(ticks);
        view.setUint32(12, Number(ticks >> 32n), true);
        view.setUint32(16, Number(ticks & 0xffffffffn), true);
        return copy;
      });
    const file = concat(shb!, block(1, idbBody), ...epbs);
    const packets = packetsOf(await readAll(file, 5));
    expect(packets).toHaveLength(16);
    packets.forEach((p, i) => {
      const ticks = expected[i]!;
      expect(p.timestamp!.resolution).toMatchObject({ base: 2, exponent: 30, ticksPerSecond: 2 ** 30, decimals: 30 });
      expect(p.timestamp!.seconds).toBe(Number(ticks >> 30n));
      expect(p.timestamp!.ticks).toBe(Number(ticks & (2n ** 30n - 1n)));
      // 2^-30 s = 5^30 × 10^-30 s: thirty decimals, exact.
      const fraction = ((ticks & (2n ** 30n - 1n)) * 5n ** 30n).toString().padStart(30, '0');
      expect(formatTimestamp(p.timestamp!)).toBe(`${ticks >> 30n}.${fraction}`);
    });
  });

  it('applies if_tsoffset and reads Simple Packet Blocks, obsolete Packet Blocks and skips unknown blocks', async () => {
    const [shb, , first] = blocksOf(fixture('lo-us.editcap.pcapng'));
    const frame = new Uint8Array(first!.subarray(28, 28 + new DataView(first!.buffer, first!.byteOffset).getUint32(20, true)));
    // IDB: Ethernet, snaplen 40, if_tsresol 10^-3, if_tsoffset -100 s.
    const idb = new Uint8Array(32);
    const iv = new DataView(idb.buffer);
    iv.setUint16(0, 1, true);
    iv.setUint32(4, 40, true);
    iv.setUint32(8, 0x0001_0009, true);
    idb[12] = 3;
    iv.setUint32(16, 0x0008_000e, true);
    iv.setBigInt64(20, -100n, true);
    // SPB: original length of the frame, data cut to the snaplen of 40.
    const spb = new Uint8Array(4 + 40);
    new DataView(spb.buffer).setUint32(0, frame.length, true);
    spb.set(frame.subarray(0, 40), 4);
    // PB: interface 0 (u16), drops 0, time 1700000000.250 s in ms ticks, 20 of the frame's bytes.
    const pb = new Uint8Array(20 + 20);
    const pv = new DataView(pb.buffer);
    const ms = 1_700_000_000_250n;
    pv.setUint32(4, Number(ms >> 32n), true);
    pv.setUint32(8, Number(ms & 0xffffffffn), true);
    pv.setUint32(12, 20, true);
    pv.setUint32(16, frame.length, true);
    pb.set(frame.subarray(0, 20), 20);
    const custom = block(0x00000bad, new Uint8Array([1, 2, 3, 4, 5]));
    const nrb = block(4, new Uint8Array(4));
    const file = concat(shb!, custom, block(1, idb), nrb, block(3, spb), block(0x40000bad, new Uint8Array(8)), block(2, pb));
    const packets = packetsOf(await readAll(file, 3));
    expect(
      packets.map((p) => [
        p.index,
        p.timestamp === null ? null : formatTimestamp(p.timestamp),
        p.capturedLength,
        p.originalLength,
        p.interfaceId,
      ]),
    ).toEqual([
      [1, null, 40, frame.length, 0],
      [2, '1699999900.250', 20, frame.length, 0],
    ]);
    expect(packets[0]!.data).toEqual(frame.subarray(0, 40));
  });
});

describe('CaptureParser', () => {
  it('reports the format once the magic is seen', () => {
    const parser = new CaptureParser();
    expect(parser.format).toBeUndefined();
    Array.from(parser.push(fixture('lo.pcapng').subarray(0, 3)));
    expect(parser.format).toBeUndefined();
    Array.from(parser.push(fixture('lo.pcapng').subarray(3, 5)));
    expect(parser.format).toBe('pcapng');
    const pcap = new CaptureParser();
    Array.from(pcap.push(fixture('lo-ns.pcap')));
    expect(pcap.format).toBe('pcap');
  });

  it('copies a record that spans chunks into a buffer of exactly its own size, and no more', async () => {
    const packets = packetsOf(await readAll(fixture('lo-us.pcap'), 7));
    for (const p of packets) expect(p.data.buffer.byteLength).toBe(16 + p.capturedLength);
  });

  it('stops pulling from the source after an error', async () => {
    let pulled = 0;
    let closed = false;
    function* source() {
      try {
        yield new TextEncoder().encode('not a capture');
        for (;;) {
          pulled++;
          yield new Uint8Array(100);
        }
      } finally {
        closed = true;
      }
    }
    const items = [];
    for await (const item of readCapture(source())) items.push(item);
    expect(items).toHaveLength(1);
    expect(pulled).toBe(0);
    expect(closed).toBe(true);
  });

  it('hands out packet data as views into the chunk when a record lies inside one', () => {
    const bytes = fixture('lo-us.pcap');
    const [first] = packetsOf([...readCaptureSync(bytes)]);
    expect(first!.data.buffer).toBe(bytes.buffer);
    expect(first!.data.byteOffset).toBe(24 + 16);
  });
});
