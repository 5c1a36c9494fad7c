import type { CaptureError, CaptureErrorCode, CapturePacket } from './types.ts';
import type { Timestamp } from './timestamp.ts';

/**
 * What the chunking core needs from a file format: the input is a sequence of units (a file header, a
 * record, a block) whose total length can be read from a fixed-size prefix.
 */
export interface UnitReader {
  /** Bytes of a unit needed before {@link measure} can tell its length (never more than 16). */
  readonly headerLength: number;
  /** The total length (≥ headerLength) of the unit starting at `pos`, or the error that stops reading. */
  measure(view: DataView, pos: number, offset: number): number | CaptureError;
  /**
   * Decodes a complete unit of `length` bytes at `pos`. `offset` is its position in the file, `index` the
   * frame number the next packet gets. Returns a packet, an error that stops reading, or undefined for a
   * unit that carries no packet.
   */
  decode(
    bytes: Uint8Array,
    view: DataView,
    pos: number,
    length: number,
    offset: number,
    index: number,
  ): CapturePacket | CaptureError | undefined;
  /** Names the unit whose first `available` bytes are at `pos`, for truncation messages. */
  describe(view: DataView, pos: number, available: number): string;
}

/** Builds the error item that ends a capture. */
export function captureError(code: CaptureErrorCode, offset: number, message: string): CaptureError {
  return { kind: 'error', code, offset, message };
}

/** "7b 22 70 61": bytes as space-separated hex, for messages. */
export function hexBytes(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/**
 * The captured-length checks pcap records and pcapng packet blocks share: not above the reader's limit, and
 * not above the snapshot length (0 = none). Returns the error, or undefined when the length is acceptable.
 */
export function checkCapturedLength(
  capturedLength: number,
  snapLength: number,
  limit: number,
  offset: number,
  unitName: string,
): CaptureError | undefined {
  if (capturedLength > limit) {
    return captureError(
      'bad-captured-length',
      offset,
      `${unitName} at offset ${offset} has a captured length of ${capturedLength} bytes, more than the limit of ${limit}`,
    );
  }
  if (snapLength !== 0 && capturedLength > snapLength) {
    return captureError(
      'bad-captured-length',
      offset,
      `${unitName} at offset ${offset} has a captured length of ${capturedLength} bytes, more than the snapshot length of ${snapLength}`,
    );
  }
  return undefined;
}

/** The one place packets are built, so that every reader yields objects of the same shape. */
export function makePacket(
  index: number,
  offset: number,
  linkType: number,
  timestamp: Timestamp | null,
  data: Uint8Array,
  originalLength: number,
  interfaceId: number,
  sectionNumber: number,
): CapturePacket {
  return {
    kind: 'packet',
    index,
    offset,
    linkType,
    timestamp,
    capturedLength: data.length,
    originalLength,
    data,
    interfaceId,
    sectionNumber,
  };
}
