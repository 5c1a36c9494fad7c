/**
 * @gamequery/codec/rx — request/response pairing for the query protocols, as an RxJS
 * operator over datagrams from a live socket or a capture file. Browser-safe. The core
 * alone, without RxJS, is `@gamequery/codec/pairing`.
 */
export { pairQueries, type PairingOptions } from './operator.ts';
export * from './core.ts';
