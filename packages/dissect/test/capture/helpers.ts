// Shared by the capture and net tests: fixture access, chunked reading, the committed tshark output, and
// small writers that derive variants (other byte order, other link types) from real captures.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readCapture, type CaptureItem, type CapturePacket } from '../../src/capture/index.ts';

export const FIXTURES = fileURLToPath(new URL('../fixtures/captures/', import.meta.url));

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(FIXTURES + name));
}

/** Every committed capture (the two cut copies aside), with its format. */
export const CAPTURES = [
  'any-sll.pcap',
  'any-sll2.pcap',
  'dns-lo.pcap',
  'lo-ns.pcap',
  'lo-snap60.pcap',
  'lo-us.pcap',
  'lo-v4.rawip4.pcap',
  'lo-v6.rawip6.pcap',
  'unknown-lo.pcap',
  'veth-frag.pcap',
  'veth-frag.rawip.pcap',
  'lo-any.pcapng',
  'lo-us.editcap.pcapng',
  'lo.pcapng',
  'two-sections.pcapng',
] as const;

/** Splits `bytes` into views of `size` bytes (the last one shorter). */
export function* chunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Reads a capture fed in chunks of `size` bytes through the async reader. */
export async function readAll(bytes: Uint8Array, size = 65536): Promise<CaptureItem[]> {
  const items: CaptureItem[] = [];
  for await (const item of readCapture(chunks(bytes, size))) items.push(item);
  return items;
}

export function packetsOf(items: readonly CaptureItem[]): CapturePacket[] {
  return items.filter((item): item is CapturePacket => item.kind === 'packet');
}

/** Packets in a form `toEqual` compares cheaply, data as hex. */
export function summary(items: readonly CaptureItem[]): unknown[] {
  return items.map((item) =>
    item.kind === 'error'
      ? item
      : {
          ...item,
          data: Buffer.from(item.data.buffer, item.data.byteOffset, item.data.byteLength).toString('hex'),
        },
  );
}

/** One row of the `NAME.tshark.tsv` files made by scripts/make-captures.sh (tshark 4.0.17). */
export type TsharkRow = Record<string, string>;

export function tshark(name: string): TsharkRow[] {
  const [header, ...lines] = readFileSync(`${FIXTURES}${name}.tshark.tsv`, 'utf8').trimEnd().split('\n');
  const columns = header!.split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']));
  });
}

export interface SimpleRecord {
  readonly seconds: number;
  readonly ticks: number;
  readonly data: Uint8Array;
  readonly originalLength?: number;
}

/** Writes a classic pcap file (an independent writer, used to re-encode real records). */
export function writePcap(
  records: readonly SimpleRecord[],
  options: {
    linkType: number;
    bigEndian?: boolean;
    nanoseconds?: boolean;
    snapLength?: number;
  },
): Uint8Array {
  const le = !options.bigEndian;
  const size = 24 + records.reduce((sum, r) => sum + 16 + r.data.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, options.nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4, le);
  view.setUint16(4, 2, le);
  view.setUint16(6, 4, le);
  view.setUint32(16, options.snapLength ?? 262144, le);
  view.setUint32(20, options.linkType, le);
  let pos = 24;
  for (const r of records) {
    view.setUint32(pos, r.seconds, le);
    view.setUint32(pos + 4, r.ticks, le);
    view.setUint32(pos + 8, r.data.length, le);
    view.setUint32(pos + 12, r.originalLength ?? r.data.length, le);
    out.set(r.data, pos + 16);
    pos += 16 + r.data.length;
  }
  return out;
}

/** An Ethernet/IPv4/UDP frame (linktype 1) from 127.0.0.1:`srcPort` to 127.0.0.1:`dstPort`, checksums left 0. */
export function udpFrame(payload: Uint8Array, srcPort: number, dstPort: number): Uint8Array {
  const f = new Uint8Array(42 + payload.length);
  const v = new DataView(f.buffer);
  v.setUint16(12, 0x0800);
  f.set([0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17], 14);
  v.setUint16(16, 28 + payload.length);
  f.set([127, 0, 0, 1, 127, 0, 0, 1], 26);
  v.setUint16(34, srcPort);
  v.setUint16(36, dstPort);
  v.setUint16(38, 8 + payload.length);
  f.set(payload, 42);
  return f;
}

/** Builds one pcapng block in the given byte order: type, length, body padded to 4, length. */
export function block(type: number, body: Uint8Array, littleEndian = true): Uint8Array {
  const padded = (body.length + 3) & ~3;
  const out = new Uint8Array(12 + padded);
  const view = new DataView(out.buffer);
  view.setUint32(0, type, littleEndian);
  view.setUint32(4, out.length, littleEndian);
  out.set(body, 8);
  view.setUint32(out.length - 4, out.length, littleEndian);
  return out;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

/** Splits a little-endian pcapng file into its blocks (views), for tests that splice blocks. */
export function blocksOf(file: Uint8Array): Uint8Array[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const out: Uint8Array[] = [];
  for (let pos = 0; pos < file.length;) {
    const length = view.getUint32(pos + 4, true);
    out.push(file.subarray(pos, pos + length));
    pos += length;
  }
  return out;
}

/**
 * Byte-swaps a little-endian pcapng file to big-endian: no tool writes big-endian pcapng on this machine,
 * so the real file is converted. Swapped: block headers and trailers, the fixed fields of SHB, IDB, EPB, SPB
 * and ISB, option codes and lengths, and the numeric option values dumpcap and editcap write (if_speed,
 * if_tsoffset, ISB counters and times). Strings stay as they are. tshark reads the result like the original.
 */
export function toBigEndianPcapng(file: Uint8Array): Uint8Array {
  const out = file.slice();
  const src = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const dst = new DataView(out.buffer);
  const swap32 = (p: number) => dst.setUint32(p, src.getUint32(p, true), false);
  const swap16 = (p: number) => dst.setUint16(p, src.getUint16(p, true), false);
  const swap64 = (p: number) => dst.setBigUint64(p, src.getBigUint64(p, true), false);
  for (const b of blocksOf(file)) {
    const pos = b.byteOffset - file.byteOffset;
    const type = src.getUint32(pos, true);
    const length = b.length;
    swap32(pos);
    swap32(pos + 4);
    swap32(pos + length - 4);
    let options = pos + length - 4; // no options unless the type says where they start
    let numeric: (code: number, at: number, len: number) => void = () => {};
    if (type === 0x0a0d0d0a) {
      swap32(pos + 8);
      swap16(pos + 12);
      swap16(pos + 14);
      swap64(pos + 16);
      options = pos + 24;
    } else if (type === 1) {
      swap16(pos + 8);
      swap16(pos + 10);
      swap32(pos + 12);
      options = pos + 16;
      numeric = (code, at, len) => {
        if ((code === 8 || code === 14) && len === 8) swap64(at);
      };
    } else if (type === 6) {
      for (const off of [8, 12, 16, 20, 24]) swap32(pos + off);
      options = pos + 28 + ((src.getUint32(pos + 20, true) + 3) & ~3);
      numeric = (code, at, len) => {
        if (code === 2 && len === 4) swap32(at);
        if (code === 4 && len === 8) swap64(at);
      };
    } else if (type === 3) {
      swap32(pos + 8);
    } else if (type === 5) {
      for (const off of [8, 12, 16]) swap32(pos + off);
      options = pos + 20;
      numeric = (code, at, len) => {
        if ((code === 2 || code === 3) && len === 8) {
          swap32(at);
          swap32(at + 4);
        } else if (code >= 4 && len === 8) swap64(at);
      };
    }
    for (let p = options; p + 4 <= pos + length - 4;) {
      const code = src.getUint16(p, true);
      const len = src.getUint16(p + 2, true);
      swap16(p);
      swap16(p + 2);
      if (code === 0) break;
      numeric(code, p + 4, len);
      p += 4 + ((len + 3) & ~3);
    }
  }
  return out;
}
