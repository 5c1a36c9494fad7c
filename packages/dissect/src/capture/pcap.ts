/**
 * Classic libpcap files (draft-ietf-opsawg-pcap), microsecond and nanosecond, either byte order.
 *
 * ```
 * file header   | magic (4) | version major (2) | minor (2) | thiszone (4) | sigfigs (4) | snaplen (4) | linktype (4) |
 * each record   | seconds (4) | µs or ns (4) | captured length (4) | original length (4) | data (captured length) |
 * ```
 * @module
 */
import { type TimeResolution } from './timestamp.ts';
import type { CaptureError, CapturePacket } from './types.ts';
import { captureError, checkCapturedLength, makePacket, type UnitReader } from './unit.ts';

/** The magic as the big-endian u32 of the first four bytes, for each variant. */
export const PCAP_MAGIC = {
  microsecondsBigEndian: 0xa1b2c3d4,
  microsecondsLittleEndian: 0xd4c3b2a1,
  nanosecondsBigEndian: 0xa1b23c4d,
  nanosecondsLittleEndian: 0x4d3cb2a1,
} as const;

const FILE_HEADER_LENGTH = 24;
const RECORD_HEADER_LENGTH = 16;

/** Reads the file header, then one record per unit. */
export class PcapReader implements UnitReader {
  /** The file header's length is fixed: the magic already read is enough to know it. */
  headerLength: number = 4;
  private fileHeaderRead = false;
  private linkType = 0;
  private snapLength = 0;

  constructor(
    private readonly littleEndian: boolean,
    private readonly resolution: TimeResolution,
    private readonly maxRecordLength: number,
  ) {}

  measure(view: DataView, pos: number, offset: number): number | CaptureError {
    if (!this.fileHeaderRead) return FILE_HEADER_LENGTH;
    const capturedLength = view.getUint32(pos + 8, this.littleEndian);
    return (
      checkCapturedLength(capturedLength, this.snapLength, this.maxRecordLength, offset, 'packet record') ??
      RECORD_HEADER_LENGTH + capturedLength
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
    if (!this.fileHeaderRead) {
      const major = view.getUint16(pos + 4, le);
      if (major !== 2) {
        return captureError('unsupported', offset, `pcap version ${major}.${view.getUint16(pos + 6, le)} is not supported (only 2.x)`);
      }
      this.snapLength = view.getUint32(pos + 16, le);
      // The upper bits of the link type field hold FCS information, not the type.
      this.linkType = view.getUint32(pos + 20, le) & 0xffff;
      this.fileHeaderRead = true;
      this.headerLength = RECORD_HEADER_LENGTH;
      return undefined;
    }
    let seconds = view.getUint32(pos, le);
    let ticks = view.getUint32(pos + 4, le);
    const ticksPerSecond = this.resolution.ticksPerSecond;
    if (ticks >= ticksPerSecond) {
      // Out-of-range fraction written by some tools: carry it into the seconds (exact below 2^53).
      seconds += Math.floor(ticks / ticksPerSecond);
      ticks %= ticksPerSecond;
    }
    return makePacket(
      index,
      offset,
      this.linkType,
      { seconds, ticks, resolution: this.resolution },
      bytes.subarray(pos + RECORD_HEADER_LENGTH, pos + length),
      view.getUint32(pos + 12, le),
      0,
      1,
    );
  }

  describe(): string {
    return this.fileHeaderRead ? 'packet record' : 'pcap file header';
  }
}
