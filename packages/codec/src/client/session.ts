/**
 * What a query (queries.ts) sees of the client (client.ts): its options, the resolved
 * target, one request's outcome and the session that sends. Types only; both files import
 * them from here, so neither imports the other's types in a circle.
 */
import type { Charset } from '../grammar/charset.ts';
import type { BuiltInProtocol as Protocol } from '../protocols/index.ts';
import type { DecodeWarning } from '../grammar/expert.ts';
import type { DecodedDatagram, ExchangeEvent } from '../pairing/types.ts';
import type { QueryError } from './errors.ts';

/** Options of one query. */
export interface CallOptions {
  /** Overrides the client's `retries` for this query's requests. */
  readonly retries?: number;
  /** Overall deadline of this query, in ms from the call. */
  readonly deadlineMs?: number;
  readonly signal?: AbortSignal;
  /**
   * Charset of the strings. Default `auto` for the queries (each string UTF-8, windows-1251 or
   * windows-1252, reported in the result's `charsets`); RCON keeps the protocol's (windows-1252).
   */
  readonly charset?: Charset;
}

/** A target with its address resolved. */
export interface QueryTarget {
  /** As given: `host:port`. */
  readonly label: string;
  readonly host: string;
  readonly address: string;
  readonly port: number;
  readonly family: 4 | 6;
}

/** What became of one request (after its retries). Never a rejection. */
export type Outcome =
  | { readonly kind: 'reply'; readonly exchange: ExchangeEvent<unknown>; readonly attempts: number; readonly rttMs: number }
  | {
      readonly kind: 'unanswered';
      readonly reason: string;
      readonly attempts: number;
      /** The reply was there but cut short: the warning (code `short-list`, or the request's `cut`) that made it unusable. */
      readonly cut?: DecodeWarning | undefined;
    }
  | { readonly kind: 'error'; readonly error: QueryError };

export interface RequestOptions {
  /** Requests with the same key (per server) cannot be told apart by their replies: one at a time. */
  readonly lockKey?: string;
  readonly retries?: number;
  /**
   * Tells a reply cut short that still decodes cleanly, by what the query knows and the bytes do
   * not (open.mp's `o`: samp/omp.ts `ompLogoCut`): the warning for one, undefined for a good one.
   * Such a reply counts as cut, like one with a short list: resent, and said so if every one is.
   */
  readonly cut?: (reply: DecodedDatagram<unknown>) => DecodeWarning | undefined;
}

/** One query's view of the client: its server, its settings, and a way to send. */
export interface Session {
  readonly server: QueryTarget;
  readonly protocol: Protocol;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly rconQuietMs: number;
  /** `build(n)` makes the bytes of attempt n (0-based), so that a nonce can be fresh each time. */
  request(build: (attempt: number) => Uint8Array, options?: RequestOptions): Promise<Outcome>;
  /** Runs `fn` while no other `exclusive` call with this key (for this server) runs. */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
}
