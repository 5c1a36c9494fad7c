export { CaptureParser, DEFAULT_MAX_RECORD_LENGTH, readCapture, readCaptureSync } from './reader.ts';
export type { CaptureError, CaptureErrorCode, CaptureFormat, CaptureItem, CapturePacket, CaptureReaderOptions } from './types.ts';
export {
  clockTime,
  compareTimestamps,
  formatTimestamp,
  MAX_TICKS_PER_SECOND,
  MICROSECONDS,
  NANOSECONDS,
  splitTicks,
  timeResolution,
  timestampDifference,
  timestampToNumber,
  TIME_FORMATS,
} from './timestamp.ts';
export type { TimeFormat, TimeResolution, Timestamp } from './timestamp.ts';
export { looksLikeText, sniffInput, type Sniffed, type SniffedFormat } from './sniff.ts';
export { PcapngWriter, type WrittenFrame } from './writer.ts';
