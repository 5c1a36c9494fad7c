/**
 * pcapng (draft-ietf-opsawg-pcapng): sections, interfaces and the three packet-carrying blocks.
 *
 * ```
 * every block            | type (4) | total length (4) | body … | total length (4) |
 * Section Header   0x0a0d0d0a | byte-order magic 1a2b3c4d (4) | major (2) | minor (2) | section length (8) | options |
 * Interface Descr. 1     | link type (2) | reserved (2) | snaplen (4) | options (if_tsresol 9, if_tsoffset 14) |
 * Enhanced Packet  6     | interface (4) | ts high (4) | ts low (4) | captured (4) | original (4) | data, pad 4 | options |
 * Packet (obsolete) 2    | interface (2) | drops (2)   | ts high (4) | ts low (4) | captured (4) | original (4) | data … |
 * Simple Packet    3     | original length (4) | data: min(original, snaplen of interface 0) bytes, pad 4 |
 * ```
 * A new Section Header Block may switch the byte order and starts a new list of interfaces (packets carry
 * the section-local interface id and the section number, as Wireshark shows them). Other block types (statistics, name resolution,
 * secrets, custom) are skipped.
 * @module
 */
import { MICROSECONDS, splitTicks, timeResolution, type TimeResolution } from './timestamp.ts';
import type { CaptureError, CapturePacket } from './types.ts';
import { captureError, checkCapturedLength, hexBytes, makePacket, type UnitReader } from './unit.ts';

export const PCAPNG_SECTION_HEADER = 0x0a0d0d0a;
const INTERFACE_DESCRIPTION = 1;
const PACKET = 2;
const SIMPLE_PACKET = 3;
const ENHANCED_PACKET = 6;

const BYTE_ORDER_MAGIC = 0x1a2b3c4d;
const OPTION_END = 0;
const OPTION_TSRESOL = 9;
const OPTION_TSOFFSET = 14;

/** Block names for messages (pcapng draft §10.1). */
const BLOCK_NAMES: ReadonlyMap<number, string> = new Map([
  [PCAPNG_SECTION_HEADER, 'Section Header Block'],
  [INTERFACE_DESCRIPTION, 'Interface Description Block'],
  [PACKET, 'Packet Block'],
  [SIMPLE_PACKET, 'Simple Packet Block'],
  [4, 'Name Resolution Block'],
  [5, 'Interface Statistics Block'],
  [ENHANCED_PACKET, 'Enhanced Packet Block'],
  [10, 'Decryption Secrets Block'],
]);

/** Smallest total length of each block type: header, fixed fields, trailer. */
const MINIMUM_LENGTHS: ReadonlyMap<number, number> = new Map([
  [PCAPNG_SECTION_HEADER, 28],
  [INTERFACE_DESCRIPTION, 20],
  [PACKET, 32],
  [SIMPLE_PACKET, 16],
  [ENHANCED_PACKET, 32],
]);
const MINIMUM_BLOCK_LENGTH = 12;
/** Room allowed for a block's options on top of the largest packet. */
const OPTIONS_ALLOWANCE = 65536;

function blockName(type: number): string {
  return BLOCK_NAMES.get(type) ?? `block of type 0x${type.toString(16).padStart(8, '0')}`;
}

interface Interface {
  readonly id: number;
  readonly linkType: number;
  readonly snapLength: number;
  readonly resolution: TimeResolution;
  /** if_tsoffset: seconds added to every timestamp. */
  readonly offsetSeconds: number;
}

/** Reads one block per unit. */
export class PcapngReader implements UnitReader {
  readonly headerLength: number = MINIMUM_BLOCK_LENGTH;
  private littleEndian = true;
  private interfaces: Interface[] = [];
  private sectionNumber = 0;
  private readonly maxBlockLength: number;

  constructor(private readonly maxRecordLength: number) {
    this.maxBlockLength = maxRecordLength + OPTIONS_ALLOWANCE;
  }

  measure(view: DataView, pos: number, offset: number): number | CaptureError {
    const type = view.getUint32(pos, this.littleEndian);
    if (type === PCAPNG_SECTION_HEADER) {
      // The section's byte order is known only from its magic, which comes after the length.
      const magic = view.getUint32(pos + 8, true);
      if (magic !== BYTE_ORDER_MAGIC && magic !== 0x4d3c2b1a) {
        const bytes = new Uint8Array(view.buffer, view.byteOffset + pos + 8, 4);
        return captureError(
          'bad-magic',
          offset,
          `Section Header Block at offset ${offset} has the byte-order magic ${hexBytes(bytes)}, not 1a 2b 3c 4d in either byte order`,
        );
      }
      this.littleEndian = magic === BYTE_ORDER_MAGIC;
    }
    const length = view.getUint32(pos + 4, this.littleEndian);
    const minimum = MINIMUM_LENGTHS.get(type) ?? MINIMUM_BLOCK_LENGTH;
    let problem: string | undefined;
    if (length < minimum) problem = length === 0 ? '' : `, less than the minimum of ${minimum}`;
    else if (length % 4 !== 0) problem = ', not a multiple of 4';
    else if (length > this.maxBlockLength) problem = `, more than the limit of ${this.maxBlockLength}`;
    if (problem === undefined) return length;
    return captureError(
      'bad-block-length',
      offset,
      `${blockName(type)} at offset ${offset} has a total length of ${length} bytes${problem}`,
    );
  }

  decode(
    bytes: Uint8Array,
    view: DataView,
    pos: number,
    length: number,
    offset: number,
    index: number,
  ): CapturePacket | CaptureError | undefined {
    const le = this.littleEndian;
    const type = view.getUint32(pos, le);
    const trailer = view.getUint32(pos + length - 4, le);
    if (trailer !== length) {
      return captureError(
        'bad-block-length',
        offset,
        `${blockName(type)} at offset ${offset} has a total length of ${length} bytes in its header but ${trailer} in its trailer`,
      );
    }
    switch (type) {
      case ENHANCED_PACKET:
        return this.packet(bytes, view, pos, length, offset, index, view.getUint32(pos + 8, le), type);
      case SIMPLE_PACKET:
        return this.simplePacket(bytes, view, pos, length, offset, index);
      case PACKET:
        return this.packet(bytes, view, pos, length, offset, index, view.getUint16(pos + 8, le), type);
      case INTERFACE_DESCRIPTION:
        return this.interfaceDescription(view, pos, length, offset);
      case PCAPNG_SECTION_HEADER: {
        const major = view.getUint16(pos + 12, le);
        if (major !== 1) {
          return captureError(
            'unsupported',
            offset,
            `Section Header Block at offset ${offset}: pcapng version ${major}.${view.getUint16(pos + 14, le)} is not supported (only 1.x)`,
          );
        }
        this.interfaces = [];
        this.sectionNumber++;
        return undefined;
      }
      default:
        return undefined;
    }
  }

  describe(view: DataView, pos: number, available: number): string {
    return available < 4 ? 'block' : blockName(view.getUint32(pos, this.littleEndian));
  }

  /** Enhanced Packet Block and obsolete Packet Block: the same fields from byte 12 on. */
  private packet(
    bytes: Uint8Array,
    view: DataView,
    pos: number,
    length: number,
    offset: number,
    index: number,
    interfaceIndex: number,
    type: number,
  ): CapturePacket | CaptureError {
    const le = this.littleEndian;
    const iface = this.interfaces[interfaceIndex];
    if (iface === undefined) {
      return captureError(
        'bad-block',
        offset,
        `${blockName(type)} at offset ${offset} refers to interface ` +
          `${interfaceIndex}, but its section describes ${this.interfaces.length}`,
      );
    }
    const capturedLength = view.getUint32(pos + 20, le);
    const problem = checkCapturedLength(capturedLength, iface.snapLength, this.maxRecordLength, offset, blockName(type));
    if (problem !== undefined) return problem;
    if (28 + capturedLength + 4 > length) return this.overrun(type, offset, capturedLength, length);
    const split = splitTicks(view.getUint32(pos + 12, le), view.getUint32(pos + 16, le), iface.resolution);
    if (split === undefined) {
      return captureError('unsupported', offset, `${blockName(type)} at offset ${offset} has a timestamp beyond 2^53 seconds`);
    }
    const timestamp = { seconds: split[0] + iface.offsetSeconds, ticks: split[1], resolution: iface.resolution };
    return makePacket(
      index,
      offset,
      iface.linkType,
      timestamp,
      bytes.subarray(pos + 28, pos + 28 + capturedLength),
      view.getUint32(pos + 24, le),
      iface.id,
      this.sectionNumber,
    );
  }

  private simplePacket(
    bytes: Uint8Array,
    view: DataView,
    pos: number,
    length: number,
    offset: number,
    index: number,
  ): CapturePacket | CaptureError {
    const iface = this.interfaces[0];
    if (iface === undefined) {
      return captureError(
        'bad-block',
        offset,
        `Simple Packet Block at offset ${offset} comes before any Interface Description Block in its section`,
      );
    }
    const originalLength = view.getUint32(pos + 8, this.littleEndian);
    const capturedLength = iface.snapLength !== 0 ? Math.min(originalLength, iface.snapLength) : originalLength;
    if (capturedLength > this.maxRecordLength) {
      return checkCapturedLength(capturedLength, 0, this.maxRecordLength, offset, 'Simple Packet Block')!;
    }
    if (12 + capturedLength + 4 > length) return this.overrun(SIMPLE_PACKET, offset, capturedLength, length);
    return makePacket(
      index,
      offset,
      iface.linkType,
      null,
      bytes.subarray(pos + 12, pos + 12 + capturedLength),
      originalLength,
      iface.id,
      this.sectionNumber,
    );
  }

  private overrun(type: number, offset: number, capturedLength: number, length: number): CaptureError {
    return captureError(
      'bad-captured-length',
      offset,
      `${blockName(type)} at offset ${offset} has a captured ` +
        `length of ${capturedLength} bytes, which does not fit in its total length of ${length}`,
    );
  }

  private interfaceDescription(view: DataView, pos: number, length: number, offset: number): CaptureError | undefined {
    const le = this.littleEndian;
    let resolution = MICROSECONDS;
    let offsetSeconds = 0;
    const end = pos + length - 4;
    for (let p = pos + 16; p + 4 <= end;) {
      const code = view.getUint16(p, le);
      const valueLength = view.getUint16(p + 2, le);
      if (code === OPTION_END) break;
      if (p + 4 + valueLength > end) {
        return captureError(
          'bad-block',
          offset,
          `Interface Description Block at offset ${offset}: option ${code} ` +
            `at offset ${offset + p - pos} runs ${p + 4 + valueLength - end} bytes past the block`,
        );
      }
      if (code === OPTION_TSRESOL && valueLength >= 1) {
        const value = view.getUint8(p + 4);
        const found = value & 0x80 ? timeResolution(2, value & 0x7f) : timeResolution(10, value);
        if (found === undefined) {
          const text = value & 0x80 ? `2^-${value & 0x7f}` : `10^-${value}`;
          return captureError(
            'unsupported',
            offset,
            `Interface Description Block at offset ${offset} has a ` +
              `timestamp resolution of ${text} s, finer than this reader supports (2^-53 s)`,
          );
        }
        resolution = found;
      } else if (code === OPTION_TSOFFSET && valueLength === 8) {
        offsetSeconds = Number(view.getBigInt64(p + 4, le));
      }
      p += 4 + ((valueLength + 3) & ~3);
    }
    this.interfaces.push({
      id: this.interfaces.length,
      linkType: view.getUint16(pos + 8, le),
      snapLength: view.getUint32(pos + 12, le),
      resolution,
      offsetSeconds,
    });
    return undefined;
  }
}
