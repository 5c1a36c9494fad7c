/**
 * Streaming reader for pcap and pcapng captures.
 *
 * Written by hand because no maintained npm package covers this: pcap-parser reads microsecond pcap only,
 * has no pcapng and silently drops a truncated last record; pcap-ng-parser crashes on editcap's output.
 *
 * One core ({@link CaptureParser}) takes chunks of any size and cuts them into units (file header, record,
 * block). A unit lying inside one chunk is decoded in place and its packet data is a view into the chunk;
 * only a unit that straddles a chunk boundary is copied, into a buffer of exactly its own size. So memory
 * stays at one chunk plus one record, whatever the file size. {@link readCapture} (async, for streams) and
 * {@link readCaptureSync} (a whole file in memory) both drive that one core.
 *
 * Damage never throws: every intact packet before it is yielded, then one {@link CaptureError} item naming
 * the byte offset and the reason, and nothing after it.
 * @module
 */
import { MICROSECONDS, NANOSECONDS } from './timestamp.ts';
import { PCAP_MAGIC, PcapReader } from './pcap.ts';
import { PCAPNG_SECTION_HEADER, PcapngReader } from './pcapng.ts';
import type { CaptureError, CaptureFormat, CaptureItem, CaptureReaderOptions } from './types.ts';
import { captureError, hexBytes, type UnitReader } from './unit.ts';

/** Default {@link CaptureReaderOptions.maxRecordLength}: 256 KiB, libpcap's largest snapshot length. */
export const DEFAULT_MAX_RECORD_LENGTH = 262144;

const MAGIC_LENGTH = 4;
const STAGING_LENGTH = 16; // the longest unit header: a pcap record's

/**
 * The push-style core: feed it chunks with {@link push}, then call {@link finish}. Both return generators of
 * the items that became complete. After an error item the parser ignores further input.
 */
export class CaptureParser {
  private readonly maxRecordLength: number;
  private reader: UnitReader | undefined;
  /** File offset of the first byte not yet consumed: the start of the unit being read. */
  private offset = 0;
  private nextIndex = 1;
  private stopped = false;
  /** Start of a unit whose length is not known yet. */
  private readonly head = new Uint8Array(STAGING_LENGTH);
  private readonly headView = new DataView(this.head.buffer);
  private headFill = 0;
  /** A unit of known length that spans chunks, and how much of it has arrived. */
  private unit: Uint8Array | undefined;
  private unitFill = 0;

  constructor(options: CaptureReaderOptions = {}) {
    this.maxRecordLength = options.maxRecordLength ?? DEFAULT_MAX_RECORD_LENGTH;
  }

  /** The detected format, once the first four bytes have been seen. */
  get format(): CaptureFormat | undefined {
    return this.reader === undefined ? undefined : this.reader instanceof PcapReader ? 'pcap' : 'pcapng';
  }

  /** True after an error item or {@link finish}: further input is ignored. */
  get done(): boolean {
    return this.stopped;
  }

  /** Consumes one chunk and yields the packets (and possibly the final error) it completes. */
  *push(chunk: Uint8Array): Generator<CaptureItem, void, undefined> {
    if (this.stopped) return;
    let pos = 0;

    // First complete a unit begun in earlier chunks.
    if (this.headFill > 0 || this.unit !== undefined) {
      while (this.unit === undefined) {
        const headerLength = this.headerLength();
        const take = Math.min(headerLength - this.headFill, chunk.length - pos);
        this.head.set(chunk.subarray(pos, pos + take), this.headFill);
        this.headFill += take;
        pos += take;
        if (this.headFill < headerLength) return;
        const length = this.measure(this.head, this.headView, 0);
        if (typeof length !== 'number') return yield this.stop(length);
        if (length > 0) {
          this.unit = new Uint8Array(length);
          this.unit.set(this.head.subarray(0, this.headFill));
          this.unitFill = this.headFill;
        }
        // length 0: the format was just detected, and its header length applies from now on.
      }
      const unit = this.unit;
      const take = Math.min(unit.length - this.unitFill, chunk.length - pos);
      unit.set(chunk.subarray(pos, pos + take), this.unitFill);
      this.unitFill += take;
      pos += take;
      if (this.unitFill < unit.length) return;
      this.unit = undefined;
      this.headFill = 0;
      const item = this.decode(unit, new DataView(unit.buffer), 0, unit.length);
      if (item !== undefined) {
        yield item;
        if (item.kind === 'error') return;
      }
    }

    // Then every unit lying wholly inside the chunk, in place.
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let length = 0;
    for (;;) {
      const available = chunk.length - pos;
      if (available < this.headerLength()) {
        length = 0;
        break;
      }
      const measured = this.measure(chunk, view, pos);
      if (typeof measured !== 'number') return yield this.stop(measured);
      length = measured;
      if (length === 0) continue;
      if (available < length) break;
      const item = this.decode(chunk, view, pos, length);
      pos += length;
      if (item !== undefined) {
        yield item;
        if (item.kind === 'error') return;
      }
    }

    // Keep the incomplete tail: in `head` while its length is unknown, else in a buffer of its full size.
    const rest = chunk.subarray(pos);
    if (rest.length === 0) return;
    if (length === 0) {
      this.head.set(rest);
      this.headFill = rest.length;
    } else {
      this.unit = new Uint8Array(length);
      this.unit.set(rest);
      this.unitFill = rest.length;
    }
  }

  /** Ends the input: yields the error for a file cut inside a unit (or too short to be a capture). */
  *finish(): Generator<CaptureItem, void, undefined> {
    if (this.stopped) return;
    this.stopped = true;
    const offset = this.offset;
    if (this.reader === undefined) {
      yield captureError(
        'truncated',
        0,
        this.headFill === 0
          ? 'empty input: not a pcap or pcapng file'
          : `input ends after ${this.headFill} bytes: too short for a pcap or pcapng file`,
      );
    } else if (this.unit !== undefined) {
      const name = this.reader.describe(new DataView(this.unit.buffer), 0, this.unitFill);
      yield captureError(
        'truncated',
        offset,
        `file ends ${this.unitFill} bytes into a ${this.unit.length}-byte ${name} at offset ${offset}`,
      );
    } else if (this.headFill > 0) {
      const name = this.reader.describe(this.headView, 0, this.headFill);
      yield captureError(
        'truncated',
        offset,
        `file ends ${this.headFill} bytes into the ${this.reader.headerLength}-byte header of a ${name} at offset ${offset}`,
      );
    }
  }

  private headerLength(): number {
    return this.reader === undefined ? MAGIC_LENGTH : this.reader.headerLength;
  }

  /** The unit's length, 0 after detecting the format, or the error that stops reading. */
  private measure(bytes: Uint8Array, view: DataView, pos: number): number | CaptureError {
    if (this.reader !== undefined) return this.reader.measure(view, pos, this.offset);
    const detected = this.detect(bytes, view, pos);
    if ('kind' in detected) return detected;
    this.reader = detected;
    return 0;
  }

  private decode(bytes: Uint8Array, view: DataView, pos: number, length: number): CaptureItem | undefined {
    const item = this.reader!.decode(bytes, view, pos, length, this.offset, this.nextIndex);
    this.offset += length;
    if (item === undefined) return undefined;
    if (item.kind === 'packet') this.nextIndex++;
    else this.stopped = true;
    return item;
  }

  private stop(error: CaptureError): CaptureError {
    this.stopped = true;
    return error;
  }

  /** Chooses the format from the first four bytes. */
  private detect(bytes: Uint8Array, view: DataView, pos: number): UnitReader | CaptureError {
    const magic = view.getUint32(pos, false);
    switch (magic) {
      case PCAP_MAGIC.microsecondsBigEndian:
      case PCAP_MAGIC.microsecondsLittleEndian:
        return new PcapReader(magic !== PCAP_MAGIC.microsecondsBigEndian, MICROSECONDS, this.maxRecordLength);
      case PCAP_MAGIC.nanosecondsBigEndian:
      case PCAP_MAGIC.nanosecondsLittleEndian:
        return new PcapReader(magic !== PCAP_MAGIC.nanosecondsBigEndian, NANOSECONDS, this.maxRecordLength);
      case PCAPNG_SECTION_HEADER:
        return new PcapngReader(this.maxRecordLength);
      case 0xa1b2cd34:
      case 0x34cdb2a1:
        return captureError('unsupported', 0, 'modified (Kuznetsov) pcap with magic a1 b2 cd 34 is not supported');
      default:
        return captureError('bad-magic', 0, `not a pcap or pcapng file (starts ${hexBytes(bytes.subarray(pos, pos + MAGIC_LENGTH))})`);
    }
  }
}

/**
 * Reads a capture from a stream of chunks of any size (a Node `fs.createReadStream`, a web stream's
 * reader, an array of buffers). Yields every packet in file order; on damage, a final {@link CaptureError}.
 * Errors of the source itself (an unreadable file) are thrown as the source throws them.
 */
export async function* readCapture(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options?: CaptureReaderOptions,
): AsyncGenerator<CaptureItem, void, undefined> {
  const parser = new CaptureParser(options);
  for await (const chunk of source) {
    yield* parser.push(chunk);
    if (parser.done) return;
  }
  yield* parser.finish();
}

/** Reads a capture held whole in memory; the same parser as {@link readCapture}, for small inputs. */
export function* readCaptureSync(bytes: Uint8Array, options?: CaptureReaderOptions): Generator<CaptureItem, void, undefined> {
  const parser = new CaptureParser(options);
  yield* parser.push(bytes);
  yield* parser.finish();
}
