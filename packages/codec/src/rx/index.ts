/**
 * @gamequery/codec/rx — request/response pairing for the query protocols, as an RxJS
 * operator over datagrams from a live socket or a capture file. Browser-safe.
 */
export { pairQueries, type PairingOptions } from './operator.ts';
export { QueryPairer, pairingPart, type PacketDecoder, type QueryPairerOptions } from './pairer.ts';
export { clientOf, shardOf } from './rules.ts';
export { ByteRing, EntryRing } from './ring.ts';
export type {
  Endpoint, Datagram, DecodedDatagram, PairingEvent, PairerOptions, CodecErrorJson,
  ExchangeEvent, UnansweredEvent, UnmatchedEvent, DuplicateEvent, UndecodableEvent, OverflowEvent,
} from './types.ts';
