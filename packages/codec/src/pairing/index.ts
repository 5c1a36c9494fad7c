/**
 * @gamequery/codec/pairing — the pairing core without RxJS: the state machine that pairs
 * requests with replies (`QueryPairer`) and its rules. What any synchronous consumer
 * imports; `@gamequery/codec/rx` adds the RxJS operator on top (and loading RxJS costs a
 * command-line run some 80 ms). The pairer of captures (capture/) is the dissector's, through
 * `@gamequery/codec/internal`.
 */
export { QueryPairer, pairingPart, type PacketDecoder, type QueryPairerOptions } from './pairer.ts';
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
