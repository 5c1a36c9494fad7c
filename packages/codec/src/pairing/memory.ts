/**
 * What the pairer remembers once an exchange has left, one small object each:
 *
 *   ExchangeMemory   a finished request for the duplicate window: its keys, its request and
 *                    the request whose reply issued its token (what the rules read), its
 *                    outcome, and per reply the length, two hashes, time and meta: enough to
 *                    tell a copy from another reply without keeping its bytes. A repeated
 *                    reply reads as `duplicate`, a late or misdirected one names its request
 *   TokenMemory      a token a reply issued, for its lifetime, with its exchange: a request
 *                    quoting the token is linked to that exchange
 *
 * A request is held as the pairer kept it (see `retain`); a reply's bytes, which the pairer
 * does not keep, are copied where they are read again (a handshake's). What goes out in an
 * event is a copy. Both let go strictly from the oldest: entries leave in the order they
 * came, as every deadline here is a fixed duration after a time that does not go back.
 */
import type { QueryLayout } from '../protocols/index.ts';
import { ByKey, BySide, sideEnd, sideStart, type Side } from './filing.ts';
import { keyRules, sameEndpoint, type Filed, type KeyRule, type Keys } from './rules.ts';
import type { Datagram, Endpoint } from './types.ts';

/** How a finished request left: answered, unanswered, or dropped by the maxPending limit. */
export type Outcome = 'answered' | 'unanswered' | 'overflow';

/** `d` with other bytes (by default a copy of its own) and endpoints, and its meta if it has one. */
const copy = <M>(
  d: { readonly time: bigint; readonly meta?: M | undefined },
  bytes: Uint8Array,
  from: Endpoint,
  to: Endpoint,
): Datagram<M> => (d.meta === undefined ? { bytes, from, to, time: d.time } : { bytes, from, to, time: d.time, meta: d.meta });

/**
 * Two independent 32-bit hashes of a byte string, in one read: with the length, what tells
 * a byte-identical reply from another. The second is in {@link second} after the call.
 */
function hash(b: Uint8Array): number {
  let h = 0x811c9dc5 ^ b.length;
  let g = 0x2545f491;
  const n = b.length;
  const whole = n & ~3;
  let i = 0;
  for (; i < whole; i += 4) {
    const w = b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
    h = Math.imul(h ^ w, 0x01000193);
    h ^= h >>> 15;
    g = Math.imul(g + w, 0x5bd1e995);
    g ^= g >>> 13;
  }
  for (; i < n; i++) {
    h = Math.imul(h ^ b[i]!, 0x01000193);
    g = Math.imul(g + b[i]! + 1, 0x5bd1e995);
  }
  second = (g ^ (g >>> 16)) | 0;
  return (h ^ (h >>> 16)) | 0;
}

let second = 0;

interface Entry<E> {
  readonly deadline: bigint;
  /** The entry kept next after this one (the memory's business). */
  newer: E | undefined;
}

/** Entries in the order they came, let go from the oldest when their deadline passes or there are too many. */
abstract class Memory<E extends Entry<E>> {
  #oldest: E | undefined;
  #newest: E | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The time the oldest entry is to be let go, if any. */
  get nextDeadline(): bigint | undefined {
    return this.#oldest?.deadline;
  }

  /** Lets go of the entries whose deadline is before `now` (at or before, unless `strictly`). */
  forget(now: bigint, strictly: boolean): void {
    for (let e = this.#oldest; e && (e.deadline < now || (e.deadline === now && !strictly)); e = this.#oldest) this.forgetOldest();
  }

  forgetOldest(): void {
    const e = this.#oldest;
    if (!e) return;
    this.#oldest = e.newer;
    if (!e.newer) this.#newest = undefined;
    e.newer = undefined;
    this.#size--;
    this.letGo(e);
  }

  clear(): void {
    while (this.#oldest) this.forgetOldest();
  }

  protected add(e: E): void {
    if (this.#newest) this.#newest.newer = e;
    else this.#oldest = e;
    this.#newest = e;
    this.#size++;
  }

  /** Unfiles an entry being let go. */
  protected abstract letGo(e: E): void;
}

/** A reply of a remembered exchange: what tells a copy of it, and what its copy's event says of it. */
interface Reply<M> {
  readonly length: number;
  readonly a: number;
  readonly b: number;
  readonly time: bigint;
  readonly meta?: M | undefined;
}

/** A finished request, as the pairer hands it over. */
export interface Finished<M> {
  readonly layout: QueryLayout;
  /** The request, as the pairer kept it: held, not copied. */
  readonly datagram: Datagram<M>;
  readonly issuer: Datagram | undefined;
  readonly keys: Keys;
  readonly outcome: Outcome;
  readonly collects: boolean;
}

/** A finished request as remembered: also what the rules read. */
export interface Remembered<M> extends Finished<M>, Filed, Entry<Remembered<M>> {
  readonly datagram: Datagram<M>;
  readonly replies: readonly Reply<M>[];
}

export class ExchangeMemory<M> extends Memory<Remembered<M>> {
  readonly #filed = new BySide<Remembered<M>>();
  readonly #rules: Readonly<Record<string, KeyRule>>;

  /** `rules`: the key rules of the protocols remembered, by name (default: the built-in protocols'). */
  constructor(rules: Readonly<Record<string, KeyRule>> = keyRules) {
    super();
    this.#rules = rules;
  }

  /** Keeps a finished request and its replies until `deadline`. */
  remember(f: Finished<M>, replies: readonly { readonly datagram: Datagram<M> }[], deadline: bigint): void {
    const e: Remembered<M> = {
      layout: f.layout,
      protocol: f.layout.protocol,
      datagram: f.datagram,
      issuer: f.issuer,
      keys: f.keys,
      outcome: f.outcome,
      collects: f.collects,
      replies: replies.map(({ datagram: d }) => {
        const a = hash(d.bytes);
        return { length: d.bytes.length, a, b: second, time: d.time, meta: d.meta };
      }),
      deadline,
      newer: undefined,
    };
    this.#filed.add(e);
    this.add(e);
  }

  protected letGo(e: Remembered<M>): void {
    this.#filed.delete(e);
  }

  /** Entries under one of the keys of one side, newest first key by key, whose request `reply` answers. */
  *under(protocol: string, keys: Keys, side: Side, reply: Datagram): Generator<Remembered<M>, void> {
    const rule = this.#rules[protocol]!;
    const test = side === 'exact' ? rule.exact : rule.loose;
    for (let i = sideStart(keys, side); i < sideEnd(keys, side); i++) {
      const list = this.#filed.under(keys[i]!, side);
      for (let j = list.length - 1; j >= 0; j--) if (test(list[j]!, reply)) yield list[j]!;
    }
  }

  /** The newest of {@link under}. */
  newest(protocol: string, keys: Keys, side: Side, reply: Datagram): Remembered<M> | undefined {
    for (const e of this.under(protocol, keys, side, reply)) return e;
    return undefined;
  }
}

/** An entry's request as a datagram of its own, for an event that names it. */
export const requestOf = <M>({ datagram: d }: Remembered<M>): Datagram<M> => copy(d, d.bytes.slice(), d.from, d.to);

/** Which of an entry's replies `bytes` repeats byte for byte, or -1. */
export function copyOf<M>(e: Remembered<M>, bytes: Uint8Array): number {
  let a: number | undefined;
  for (let i = 0; i < e.replies.length; i++) {
    const r = e.replies[i]!;
    if (r.length !== bytes.length) continue;
    a ??= hash(bytes);
    if (a === r.a && second === r.b) return i;
  }
  return -1;
}

/** Reply `i` of an entry, with the bytes and endpoints of the datagram that repeats it. */
export const replyOf = <M>(e: Remembered<M>, i: number, bytes: Uint8Array, from: Endpoint, to: Endpoint): Datagram<M> =>
  copy(e.replies[i]!, bytes, from, to);

/** A handshake's token, as remembered with its exchange (the reply's bytes copied). */
export interface Token<M> extends Entry<Token<M>> {
  readonly key: number;
  readonly token: number;
  readonly layouts: readonly [QueryLayout, QueryLayout];
  readonly request: Datagram<M>;
  readonly reply: Datagram<M>;
  /** False once a newer handshake from the same socket replaced it. */
  live: boolean;
  /** False once let go. */
  kept: boolean;
}

/**
 * Tokens handed out by handshakes, for their lifetime: a stat request quoting one is
 * linked to the handshake (its session id is one the reply may carry).
 */
export class TokenMemory<M> extends Memory<Token<M>> {
  readonly #byKey = new ByKey<Token<M>>();

  keep(t: Pick<Token<M>, 'key' | 'token' | 'layouts' | 'request' | 'reply'>, deadline: bigint): void {
    const reply = copy(t.reply, t.reply.bytes.slice(), t.reply.from, t.reply.to);
    const e: Token<M> = { ...t, reply, deadline, newer: undefined, live: true, kept: true };
    this.#byKey.add(e.key, e);
    this.add(e);
  }

  protected letGo(e: Token<M>): void {
    e.kept = false;
    this.#byKey.delete(e.key, e);
  }

  /** The live token `token` under `key` issued in the conversation of `request`. */
  find(key: number, token: number, request: Datagram): Token<M> | undefined {
    const list = this.#byKey.under(key);
    for (let i = list.length - 1; i >= 0; i--) {
      const t = list[i]!;
      if (t.live && t.token === token && sameEndpoint(t.request.from, request.from) && sameEndpoint(t.request.to, request.to)) return t;
    }
    return undefined;
  }

  /** The handshake request and its reply, as datagrams of their own (the reply between the request's endpoints, turned round). */
  exchange(t: Token<M>): readonly [Datagram<M>, Datagram<M>] {
    const { request, reply } = t;
    return [copy(request, request.bytes.slice(), request.from, request.to), copy(reply, reply.bytes.slice(), request.to, request.from)];
  }
}
