/**
 * One query's lifetime (`Scope`) and why it stopped (`StopReason`): its deadline, the
 * caller's AbortSignal, the client's close, or its own end — and that reason as the
 * {@link QueryError} of one server (`stopError`).
 */
import type { BuiltInProtocol as Protocol } from '../protocols/index.ts';
import { AbortedError, QueryError } from './errors.ts';

/** Why a query stopped: a QueryError, or what an AbortSignal carried. */
export type StopReason = QueryError | { readonly signal: unknown } | typeof FINISHED;

/** The query returned: whatever it left running (an `o` it stopped waiting for) stops too. */
export const FINISHED = Symbol('finished');

/** The reason as a QueryError of this server. */
export function stopError(r: StopReason, server: string, protocol: Protocol): QueryError {
  if (r instanceof QueryError) return r;
  const carried = r === FINISHED ? 'the query has finished' : r.signal;
  if (carried instanceof QueryError) {
    // A QueryError given to an AbortSignal (a run-wide deadline, say): the same, for this server.
    const Kind = carried.constructor as new (message: string, info: QueryError['info']) => QueryError;
    return new Kind(carried.message, { ...carried.info, server, protocol });
  }
  const why = carried instanceof Error ? carried.message : String(carried);
  return new AbortedError(`query of ${server} aborted: ${why}`, { code: 'aborted', server, protocol });
}

/**
 * One query's lifetime: stopped by its deadline, the caller's AbortSignal, the client's
 * close, or its own end. (An EventTarget per query and per request costs more than the
 * queries themselves at 10 000 servers.)
 */
export class Scope {
  reason: StopReason | undefined;
  readonly #listeners = new Set<(r: StopReason) => void>();

  stop(reason: StopReason): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    for (const l of this.#listeners) l(reason);
    this.#listeners.clear();
  }

  /** Calls `l` once when stopped; returns the unsubscription. */
  on(l: (r: StopReason) => void): () => void {
    this.#listeners.add(l);
    return () => this.#listeners.delete(l);
  }

  /** Rejects when stopped, with the reason as an error. */
  until(error: (r: StopReason) => QueryError): Promise<never> {
    return new Promise<never>((_, reject) => {
      if (this.reason !== undefined) reject(error(this.reason));
      else this.on((r) => reject(error(r)));
    });
  }
}
