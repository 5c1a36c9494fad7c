/**
 * Why a query failed. Every failure of the query client is a {@link QueryError} with a
 * stable `name`, a structured `info` and a message that says what to check. Messages and
 * `info` never carry an RCON password.
 */
import type { BuiltInProtocol as Protocol } from '../protocols/index.ts';

/** The `code` of a {@link QueryError}: which way the query failed, one for each error class. */
export type QueryFailure =
  'no-reply' | 'rcon-silent' | 'wrong-password' | 'deadline' | 'aborted' | 'closed' | 'resolve' | 'send' | 'bad-reply' | 'unreachable';

/** The structured part of a {@link QueryError}: its code, the server, and what was asked and how often. */
export interface QueryErrorInfo {
  readonly code: QueryFailure;
  /** The server as given, `host:port` (`[v6]:port`). */
  readonly server: string;
  readonly protocol?: Protocol;
  /** What went unanswered: an opcode (`i`, `d`, `x`…) or a Minecraft message (`handshake`, `full`, `basic`). */
  readonly request?: string;
  /** Datagrams sent for it. */
  readonly attempts?: number;
  /** The pairing layer's reason, e.g. `no reply within 1000 ms`. */
  readonly reason?: string;
}

/** How an attempt's `reason` starts when its reply was cut short (fewer list entries than declared). */
export const TRUNCATED_REPLY = 'truncated reply';

/** The base class of every query failure; `info` says which server and request, `name` which failure. */
export class QueryError extends Error {
  override readonly name: string = 'QueryError';
  constructor(
    message: string,
    readonly info: QueryErrorInfo,
  ) {
    super(message);
  }

  /** `{ type, message, ...info }` for JSON output. */
  toJSON(): { type: string; message: string } & QueryErrorInfo {
    return { type: this.name, message: this.message, ...this.info };
  }
}

/** Every attempt went unanswered. */
export class NoReplyError extends QueryError {
  override readonly name: string = 'NoReplyError';
}

/** An RCON command got no output at all. */
export class RconSilenceError extends NoReplyError {
  override readonly name: string = 'RconSilenceError';
}

/** The server answered "Invalid RCON password.". */
export class WrongPasswordError extends QueryError {
  override readonly name: string = 'WrongPasswordError';
}

/** The query's overall deadline passed. */
export class DeadlineError extends QueryError {
  override readonly name: string = 'DeadlineError';
}

/** The caller's AbortSignal fired. */
export class AbortedError extends QueryError {
  override readonly name: string = 'AbortedError';
}

/** The client was closed while the query ran. */
export class ClientClosedError extends QueryError {
  override readonly name: string = 'ClientClosedError';
}

/** The host name did not resolve. */
export class ResolveError extends QueryError {
  override readonly name: string = 'ResolveError';
}

/** The socket refused to send (no route, no permission…). */
export class SendError extends QueryError {
  override readonly name: string = 'SendError';
}

/**
 * The server's host answered with ICMP port unreachable: nothing listens on that UDP port.
 * Heard only on a connected socket (the client's `connect` option), at once, not after a timeout.
 */
export class UnreachableError extends QueryError {
  override readonly name: string = 'UnreachableError';
}

/** A reply paired with the request but is not the message asked for. */
export class BadReplyError extends QueryError {
  override readonly name: string = 'BadReplyError';
}
