/**
 * Types of the request/response pairing layer: datagrams in, pairing events out.
 * Shared by the live-socket and the capture-file paths; nothing here depends on Node.
 */
import type { Charset } from '../grammar/charset.ts';
import type { Direction } from '../grammar/layout.ts';
import type { BuiltInProtocol as Protocol } from '../protocols/index.ts';
import type { ErrorInfo } from '../errors.ts';
import type { PacketOfProtocol } from '../packet.ts';

/** One side of a UDP conversation. IPv6 addresses are written without brackets. */
export interface Endpoint {
  readonly address: string;
  readonly port: number;
}

/**
 * One UDP payload with its addresses and the time it was sent or seen.
 * `M` is whatever the source wants carried along (a capture's frame number, say).
 */
export interface Datagram<M = unknown> {
  readonly bytes: Uint8Array;
  readonly from: Endpoint;
  readonly to: Endpoint;
  /** Nanoseconds since the epoch or since the start of a capture; exact, never rounded. */
  readonly time: bigint;
  readonly meta?: M;
}

/**
 * A datagram read as a query message, with its direction settled. `P` names the protocols the
 * pairer knows: the built-in ones by default, those of its `protocols` option when given (a
 * protocol of your own among them), as `QueryPairer` infers it from that option.
 */
export interface DecodedDatagram<M = unknown, P extends string = Protocol> {
  readonly datagram: Datagram<M>;
  readonly protocol: P;
  readonly direction: Direction;
  /** Message name, e.g. `info`, `rcon`, `handshake`. */
  readonly message: string;
  readonly value: Record<string, unknown>;
  /**
   * What the codec returned (layout, bytesRead, warnings): for a built-in protocol a
   * `DecodedPacket`, which narrows on protocol, message and direction; for another, its value untyped.
   */
  readonly packet: PacketOfProtocol<P>;
}

/** A request and its reply (or, for RCON, every output line up to the quiet period). */
export interface ExchangeEvent<M = unknown, P extends string = Protocol> {
  readonly kind: 'exchange';
  readonly request: DecodedDatagram<M, P>;
  /** In arrival order; never empty. */
  readonly responses: readonly DecodedDatagram<M, P>[];
  /** First response time − request time, in nanoseconds (negative if the capture's clock stepped back). */
  readonly rtt: bigint;
  /** A request quoting a token (a session key's, see rules.ts): the exchange whose reply issued it. */
  readonly handshake?: ExchangeEvent<M, P>;
  /**
   * Present when another request, byte for byte the same, from the same client to the
   * same server, was pending at the same time: identical replies cannot say which is
   * whose, so they were paired first come, first served.
   */
  readonly ambiguous?: true;
}

/** A request that got no reply within the timeout, or before the input ended. */
export interface UnansweredEvent<M = unknown, P extends string = Protocol> {
  readonly kind: 'unanswered';
  readonly request: DecodedDatagram<M, P>;
  readonly reason: string;
  /** As an exchange's: an identical request was pending at the same time (perhaps this one's reply went to it). */
  readonly ambiguous?: true;
}

/** A reply that belongs to no pending request. */
export interface UnmatchedEvent<M = unknown, P extends string = Protocol> {
  readonly kind: 'unmatched';
  readonly datagram: Datagram<M>;
  /** Absent only when the bytes are a reply solely by context that is missing here. */
  readonly decoded?: DecodedDatagram<M, P>;
  /** Why, for people: the words may change. */
  readonly reason: string;
  /** Why, for programs: stable codes (see {@link UnmatchedCause}). */
  readonly cause: UnmatchedCause;
  /** The request it most likely belongs to: timed out, answered already, or sent elsewhere. */
  readonly request?: DecodedDatagram<M, P>;
}

/**
 * Why a reply is unmatched, as a code to decide on (the event's `reason` is its words):
 * - `no-request`: no request it could answer was seen (nor remembered)
 * - `late`: its request timed out before it came
 * - `extra`: its request was answered already, by a different reply
 * - `rcon-closed`: an RCON line after its exchange closed (silence, or a newer command)
 * - `dropped`: its request was dropped by the maxPending limit
 * - `near-miss`: a request is near (same conversation) but does not match it exactly
 */
export type UnmatchedCause = 'no-request' | 'late' | 'extra' | 'rcon-closed' | 'dropped' | 'near-miss';

/** A reply byte-identical to one already paired, seen within the duplicate window. */
export interface DuplicateEvent<M = unknown, P extends string = Protocol> {
  readonly kind: 'duplicate';
  readonly response: DecodedDatagram<M, P>;
  /** The request of the exchange the first copy belongs to. */
  readonly of: DecodedDatagram<M, P>;
  /** The first copy. */
  readonly original: DecodedDatagram<M, P>;
}

/** `CodecError#toJSON()`: the error's type, message and structured info. */
export type CodecErrorJson = { readonly type: string; readonly message: string } & ErrorInfo;

/** A datagram that is not a query message, or a query message that does not decode. */
export interface UndecodableEvent<M = unknown> {
  readonly kind: 'undecodable';
  readonly datagram: Datagram<M>;
  readonly error: CodecErrorJson;
}

/** A pending request dropped from tracking because `maxPending` requests were waiting. */
export interface OverflowEvent<M = unknown, P extends string = Protocol> {
  readonly kind: 'overflow';
  readonly request: DecodedDatagram<M, P>;
  /** RCON lines collected before the request was dropped. */
  readonly responses: readonly DecodedDatagram<M, P>[];
  readonly reason: string;
}

/** Everything the pairing layer says; every input datagram appears in exactly one event. */
export type PairingEvent<M = unknown, P extends string = Protocol> =
  ExchangeEvent<M, P> | UnansweredEvent<M, P> | UnmatchedEvent<M, P> | DuplicateEvent<M, P> | UndecodableEvent<M> | OverflowEvent<M, P>;

/** Options of the pairing core (both clocks). */
export interface PairerOptions {
  /** How long a request waits for its first reply. Default 1000. */
  readonly timeoutMs?: number;
  /** RCON: the exchange closes after this much silence following the last line. Default 500. */
  readonly rconQuietMs?: number;
  /**
   * How long a finished request is remembered, so that a byte-identical reply reads as
   * `duplicate` and a late one as `unmatched` with its request. Default 5000.
   */
  readonly duplicateWindowMs?: number;
  /** How long a handshake's token is kept for linking stat requests to it. Default 30 000. */
  readonly tokenLifetimeMs?: number;
  /** Charset for decoded strings; defaults to each protocol's. */
  readonly charset?: Charset;
  /** Most requests waiting at once; beyond it the oldest is dropped with an `overflow` event. Default 100 000. */
  readonly maxPending?: number;
}
