/**
 * Tokens handed out by Minecraft handshakes, remembered for their lifetime as small facts in
 * typed arrays (ring.ts): a stat request quoting one is linked to its handshake, whose
 * exchange event is rebuilt from them. Lets go strictly from the oldest, like the exchange
 * memory (memory.ts). Moved out of memory.ts unchanged.
 */
import { sameEndpoint } from './rules.ts';
import {
  ByteRing,
  EntryRing,
  Interned,
  KeyTable,
  Metas,
  Registry,
  bigint64s as bigint64,
  float64s as float64,
  int32s as int32,
  uint16s as uint16,
  uint8s as uint8,
} from './ring.ts';
import type { Datagram, Endpoint } from './types.ts';
import type { QueryLayout } from '../grammar/layout.ts';

/** A handshake's exchange, as the pairer hands it over with the token it issued. */
export interface TokenFacts<M> {
  readonly key: number;
  readonly token: number;
  readonly layouts: readonly [QueryLayout, QueryLayout];
  readonly request: Datagram<M>;
  readonly reply: Datagram<M>;
}

/**
 * Tokens handed out by handshakes, for their lifetime: a stat request quoting one is
 * linked to the handshake (its session id is one the reply may carry).
 */
export class TokenMemory<M> {
  readonly #ring = new EntryRing(1024, (from, to) => this.#grow(from, to));
  readonly #bytes = new ByteRing();
  readonly #newest = new KeyTable();
  #keys = int32(1024);
  #chain = int32(1024);
  #token = float64(1024);
  /** 0 once replaced by a newer handshake from the same socket. */
  #live = uint8(1024);
  #deadline = bigint64(1024);
  #at = float64(1024);
  #length = int32(1024);
  #replyAt = float64(1024);
  #replyLength = int32(1024);
  #time = bigint64(1024);
  #replyTime = bigint64(1024);
  /** The handshake's request and reply layouts, and its endpoints, by number. */
  #requestLayout = uint16(1024);
  #replyLayout = uint16(1024);
  #from = int32(1024);
  #to = int32(1024);
  readonly #meta = new Metas<M>(1024);
  readonly #replyMeta = new Metas<M>(1024);
  readonly #layoutIds = new Registry<QueryLayout>();
  readonly #endpoints = new Interned<Endpoint>();

  get size(): number {
    return this.#ring.size;
  }

  keep(t: TokenFacts<M>, deadline: bigint): void {
    const n = this.#ring.add();
    const s = this.#ring.slot(n);
    this.#keys[s] = t.key;
    this.#chain[s] = this.#newest.get(t.key);
    this.#newest.set(t.key, n);
    this.#token[s] = t.token;
    this.#live[s] = 1;
    this.#deadline[s] = deadline;
    this.#at[s] = this.#bytes.put(t.request.bytes);
    this.#length[s] = t.request.bytes.length;
    this.#replyAt[s] = this.#bytes.put(t.reply.bytes);
    this.#replyLength[s] = t.reply.bytes.length;
    this.#time[s] = t.request.time;
    this.#replyTime[s] = t.reply.time;
    this.#requestLayout[s] = this.#layoutIds.id(t.layouts[0]);
    this.#replyLayout[s] = this.#layoutIds.id(t.layouts[1]);
    this.#from[s] = this.#endpoints.hold(t.request.from);
    this.#to[s] = this.#endpoints.hold(t.request.to);
    this.#meta.set(s, t.request.meta);
    this.#replyMeta.set(s, t.reply.meta);
  }

  /** The live token `token` under `key` issued in the conversation of `request`, or -1. */
  find(key: number, token: number, request: Datagram): number {
    const ring = this.#ring;
    for (let n = this.#newest.get(key); n >= ring.first;) {
      const s = ring.slot(n);
      if (
        this.#live[s] &&
        this.#token[s] === token &&
        sameEndpoint(this.#endpoints.value(this.#from[s]!), request.from) &&
        sameEndpoint(this.#endpoints.value(this.#to[s]!), request.to)
      )
        return n;
      n = this.#chain[s]!;
    }
    return -1;
  }

  /** Whether token entry `n` is still remembered (forgotten ones are never numbered again). */
  holds(n: number): boolean {
    return this.#ring.holds(n);
  }

  /** The handshake request that issued token `n`, its bytes copied by `copy`: what a stat request quoting it is filed with. */
  issuer(n: number, copy: (bytes: Uint8Array) => Uint8Array): Datagram {
    const s = this.#ring.slot(n);
    return {
      bytes: copy(this.#bytes.view(this.#at[s]!, this.#length[s]!)),
      from: this.#endpoints.value(this.#from[s]!),
      to: this.#endpoints.value(this.#to[s]!),
      time: this.#time[s]!,
    };
  }

  /** A newer handshake replaced token `n`. */
  drop(n: number): void {
    this.#live[this.#ring.slot(n)] = 0;
  }

  forget(now: bigint, strictly: boolean): void {
    this.#ring.forgetDue(this.#deadline, now, strictly, this.#forgetOldest);
  }

  readonly #forgetOldest = (): void => this.forgetOldest();

  forgetOldest(): void {
    const ring = this.#ring;
    const n = ring.first;
    const s = ring.slot(n);
    if (this.#newest.get(this.#keys[s]!) === n) this.#newest.delete(this.#keys[s]!);
    this.#endpoints.release(this.#from[s]!);
    this.#endpoints.release(this.#to[s]!);
    this.#meta.clear(s);
    this.#replyMeta.clear(s);
    ring.first++;
    this.#bytes.release(ring.size ? this.#at[ring.slot(ring.first)]! : this.#bytes.end);
  }

  get nextDeadline(): bigint | undefined {
    return this.#ring.nextDue(this.#deadline);
  }

  clear(): void {
    while (this.#ring.size) this.forgetOldest();
    this.#ring.clear();
    this.#bytes.clear();
  }

  /** The handshake's layouts (request, reply). */
  layouts(n: number): readonly [QueryLayout, QueryLayout] {
    const s = this.#ring.slot(n);
    return [this.#layoutIds.value(this.#requestLayout[s]!), this.#layoutIds.value(this.#replyLayout[s]!)];
  }

  /** The handshake request and its reply, as datagrams of their own (bytes copied). */
  exchange(n: number): readonly [Datagram<M>, Datagram<M>] {
    const s = this.#ring.slot(n);
    const from = this.#endpoints.value(this.#from[s]!);
    const to = this.#endpoints.value(this.#to[s]!);
    const request = { bytes: this.#bytes.view(this.#at[s]!, this.#length[s]!).slice(), from, to, time: this.#time[s]! };
    const reply = {
      bytes: this.#bytes.view(this.#replyAt[s]!, this.#replyLength[s]!).slice(),
      from: to,
      to: from,
      time: this.#replyTime[s]!,
    };
    const meta = this.#meta.get(s);
    const replyMeta = this.#replyMeta.get(s);
    return [meta === undefined ? request : { ...request, meta }, replyMeta === undefined ? reply : { ...reply, meta: replyMeta }];
  }

  #grow(from: number, to: number): void {
    const ring = this.#ring;
    this.#keys = ring.regrow(this.#keys, from, to, int32);
    this.#chain = ring.regrow(this.#chain, from, to, int32);
    this.#token = ring.regrow(this.#token, from, to, float64);
    this.#live = ring.regrow(this.#live, from, to, uint8);
    this.#deadline = ring.regrow(this.#deadline, from, to, bigint64);
    this.#at = ring.regrow(this.#at, from, to, float64);
    this.#length = ring.regrow(this.#length, from, to, int32);
    this.#replyAt = ring.regrow(this.#replyAt, from, to, float64);
    this.#replyLength = ring.regrow(this.#replyLength, from, to, int32);
    this.#time = ring.regrow(this.#time, from, to, bigint64);
    this.#replyTime = ring.regrow(this.#replyTime, from, to, bigint64);
    this.#requestLayout = ring.regrow(this.#requestLayout, from, to, uint16);
    this.#replyLayout = ring.regrow(this.#replyLayout, from, to, uint16);
    this.#from = ring.regrow(this.#from, from, to, int32);
    this.#to = ring.regrow(this.#to, from, to, int32);
    this.#meta.regrow(ring, from, to);
    this.#replyMeta.regrow(ring, from, to);
  }
}
