/**
 * A pcapng file written frame by frame (`gamequery dissect FILE -Y FILTER -w OUT`, as tshark's
 * `-w`): a Section Header Block, an Interface Description Block for each link type and clock
 * resolution met (the resolution as its `if_tsresol`, so that every time is written exactly at
 * its own), and an Enhanced Packet Block a frame, little-endian. The bytes go to `write` as they
 * are made (browser-safe: no file here).
 *
 * pcapng, not classic pcap: one file holds frames of several link types (a pcapng read with
 * several interfaces) and nanosecond times. Block layouts: the pcapng specification
 * (draft-ietf-opsawg-pcapng), sections 4.1, 4.2 and 4.3.
 * @module
 */
import type { Timestamp, TimeResolution } from './timestamp.ts';

const SHB = 0x0a0d0d0a;
const IDB = 0x00000001;
const EPB = 0x00000006;
const BYTE_ORDER_MAGIC = 0x1a2b3c4d;
const IF_TSRESOL = 9;
const OPT_COMMENT = 1;

/** What a frame needs to be written: its link type, bytes, length on the wire and time. */
export interface WrittenFrame {
  readonly linkType: number;
  readonly data: Uint8Array;
  /** Its length on the wire (more than `data` where the snapshot length cut it). */
  readonly originalLength: number;
  /** Null: none was captured (a pcapng Simple Packet Block); written as 0, with a comment saying so. */
  readonly timestamp: Timestamp | null;
}

const pad4 = (n: number): number => (n + 3) & ~3;
const NO_TIME = new TextEncoder().encode('gamequery: the frame had no capture time (a Simple Packet Block): 0 written');

/** Writes frames as a pcapng file, block by block, into `write` (see the module comment). */
export class PcapngWriter {
  readonly #write: (bytes: Uint8Array) => void;
  /** Interface numbers by link type and resolution. */
  readonly #interfaces = new Map<string, number>();
  /** Frames written. */
  frames = 0;

  constructor(write: (bytes: Uint8Array) => void) {
    this.#write = write;
    const b = new Uint8Array(28);
    const v = new DataView(b.buffer);
    v.setUint32(0, SHB, true);
    v.setUint32(4, 28, true);
    v.setUint32(8, BYTE_ORDER_MAGIC, true);
    v.setUint16(12, 1, true);
    v.setUint16(14, 0, true);
    // Section length: not given (-1).
    v.setInt32(16, -1, true);
    v.setInt32(20, -1, true);
    v.setUint32(24, 28, true);
    write(b);
  }

  /** Writes one frame (an Interface Description Block first if its link type and resolution are new). */
  frame(f: WrittenFrame): void {
    const resolution = f.timestamp?.resolution;
    const id = this.#interface(f.linkType, resolution);
    const data = f.data;
    const comment = f.timestamp ? 0 : 4 + pad4(NO_TIME.length) + 4;
    const length = 32 + pad4(data.length) + comment;
    const b = new Uint8Array(length);
    const v = new DataView(b.buffer);
    v.setUint32(0, EPB, true);
    v.setUint32(4, length, true);
    v.setUint32(8, id, true);
    if (f.timestamp) {
      // Ticks since the epoch at the interface's resolution, a 64-bit count in two halves (exact past 2^53: a bigint).
      const t = f.timestamp;
      const ticks = BigInt.asUintN(64, BigInt(t.seconds) * BigInt(t.resolution.ticksPerSecond) + BigInt(t.ticks));
      v.setUint32(12, Number(ticks >> 32n), true);
      v.setUint32(16, Number(ticks & 0xffffffffn), true);
    }
    v.setUint32(20, data.length, true);
    v.setUint32(24, Math.max(f.originalLength, data.length), true);
    b.set(data, 28);
    if (comment) {
      // The comment, then opt_endofopt (zeros).
      const at = 28 + pad4(data.length);
      v.setUint16(at, OPT_COMMENT, true);
      v.setUint16(at + 2, NO_TIME.length, true);
      b.set(NO_TIME, at + 4);
    }
    v.setUint32(length - 4, length, true);
    this.#write(b);
    this.frames++;
  }

  #interface(linkType: number, resolution: TimeResolution | undefined): number {
    const key = resolution ? `${linkType}/${resolution.base}/${resolution.exponent}` : `${linkType}`;
    let id = this.#interfaces.get(key);
    if (id !== undefined) return id;
    id = this.#interfaces.size;
    this.#interfaces.set(key, id);
    const options = resolution ? 8 + 4 : 0;
    const length = 20 + options;
    const b = new Uint8Array(length);
    const v = new DataView(b.buffer);
    v.setUint32(0, IDB, true);
    v.setUint32(4, length, true);
    v.setUint16(8, linkType, true);
    // Reserved (10), snapshot length 0: not limited (12).
    if (resolution) {
      v.setUint16(16, IF_TSRESOL, true);
      v.setUint16(18, 1, true);
      b[20] = resolution.base === 10 ? resolution.exponent : 0x80 | resolution.exponent;
      // Three bytes of padding, then opt_endofopt (zeros).
    }
    v.setUint32(length - 4, length, true);
    this.#write(b);
    return id;
  }
}
