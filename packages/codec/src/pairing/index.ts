/**
 * @gamequery/codec/pairing — the pairing core without RxJS: the state machine that pairs
 * requests with replies (`QueryPairer`) and its rules, and the numeric pairer of captures
 * (`CapturePairer`). What a dissector or any synchronous consumer imports;
 * `@gamequery/codec/rx` adds the RxJS operator on top (and loading RxJS costs a
 * command-line run some 80 ms).
 */
export { QueryPairer, pairingPart, type PacketDecoder, type QueryPairerOptions } from './pairer.ts';
export { clientOf, shardOf } from './rules.ts';
export { unmatchedExperts } from './expert.ts';
export type {
  Endpoint,
  Datagram,
  DecodedDatagram,
  PairingEvent,
  PairerOptions,
  CodecErrorJson,
  ExchangeEvent,
  UnansweredEvent,
  UnmatchedEvent,
  UnmatchedCause,
  DuplicateEvent,
  UndecodableEvent,
  OverflowEvent,
} from './types.ts';
export { CapturePairer, type CapturePairerOptions, type PairingCounts } from './capture/pairer.ts';
/** `hashBytes(b)` leaves a 64-bit hash of `b` in `hashed.lo` and `hashed.hi`: what copies of a datagram are told by. */
export { Endpoints, hashBytes, key as hashed } from './capture/keys.ts';
export {
  FrameFacts,
  Why,
  DECODED,
  RAW,
  NONE,
  RESPONSE,
  FINAL,
  AMBIGUOUS,
  HAS_TIME,
  TIMED,
  kindOf,
  layoutOf,
  whyOf,
  namedOf,
  type WhyCode,
} from './capture/facts.ts';
export { layoutAt, layoutNumber } from './capture/layouts.ts';
export { keyedReader, numberReader } from './capture/token.ts';
export {
  isUnmatched,
  unansweredReason,
  unmatchedCause,
  unmatchedReason,
  type UnmatchedReply,
  type VerdictOptions,
} from './capture/verdicts.ts';
