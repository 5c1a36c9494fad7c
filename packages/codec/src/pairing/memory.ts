/**
 * What the pairer remembers once an exchange has left: small facts in typed arrays
 * (ring.ts), from which a late or repeated reply's event is rebuilt when one comes.
 *
 *   ExchangeMemory   a finished request for the duplicate window: its keys, the bytes of
 *                    the request (what the pairing rules read) and of the handshake that
 *                    issued its token, its outcome, and per reply two hashes, the length,
 *                    time and meta — enough to tell a copy from another reply
 *   TokenMemory      (tokens.ts) a handshake's token for its lifetime, with what the
 *                    handshake's exchange event is rebuilt from
 *
 * Both let go strictly from the oldest: entries leave in the order they came, as every
 * deadline here is a fixed duration after a time that does not go back.
 */
import type { Keys, Filed } from './rules.ts';
import {
  ByteRing,
  EntryRing,
  Interned,
  KeyTable,
  Metas,
  Registry,
  bigint64s as bigint64,
  float64s as float64,
  hashA,
  hashB,
  int32s as int32,
  uint16s as uint16,
  uint8s as uint8,
} from './ring.ts';
import type { Datagram, Endpoint } from './types.ts';
import type { QueryLayout } from '../grammar/layout.ts';

/** How a finished request left: answered, unanswered, or dropped by the maxPending limit. */
export type Outcome = 'answered' | 'unanswered' | 'overflow';
const OUTCOMES: readonly Outcome[] = ['answered', 'answered', 'unanswered', 'overflow'];
const outcomeCode = (o: Outcome): number => (o === 'answered' ? 1 : o === 'unanswered' ? 2 : 3);

/** Most keys a request is filed under (exact and loose, with a token's issuer: 2 + 2). */
const WIDTH = 4;

/** A reply's parts, as the pairer hands them over. */
export interface ReplyFacts<M> {
  readonly bytes: Uint8Array;
  readonly time: bigint;
  readonly meta?: M | undefined;
}

/** A finished request, as the pairer hands it over. */
export interface FinishedFacts<M> {
  readonly layout: QueryLayout;
  readonly request: Datagram<M>;
  readonly issuer: Datagram | undefined;
  readonly keys: Keys;
  readonly outcome: Outcome;
  readonly collects: boolean;
  readonly replies: readonly ReplyFacts<M>[];
}

/** The filed request a rule's identity test reads, filled in from an entry (one object, reused). */
interface Probe {
  protocol: Filed['protocol'];
  datagram: { bytes: Uint8Array<ArrayBufferLike>; from: Endpoint; to: Endpoint; time: bigint };
  issuer: { bytes: Uint8Array<ArrayBufferLike>; from: Endpoint; to: Endpoint; time: bigint } | undefined;
}

const NOWHERE: Endpoint = { address: '', port: 0 };

export class ExchangeMemory<M> {
  readonly #ring = new EntryRing(1024, (from, to) => this.#grow(from, to));
  readonly #replies = new EntryRing(1024, (from, to) => this.#growReplies(from, to));
  readonly #bytes = new ByteRing();
  /** The newest entry under each key, exact and loose; older ones are chained through #chain. */
  readonly #exact = new KeyTable();
  readonly #loose = new KeyTable();

  #keys = int32(1024 * WIDTH);
  /** The next older entry under the same key, or -1 (entries are numbered in a run: an int32 lasts two billion exchanges). */
  #chain = int32(1024 * WIDTH);
  #nkeys = uint8(1024);
  #outcome = uint8(1024);
  #collects = uint8(1024);
  #deadline = bigint64(1024);
  #time = bigint64(1024);
  #at = float64(1024);
  #length = int32(1024);
  #issuerAt = float64(1024);
  #issuerLength = int32(1024);
  #firstReply = float64(1024);
  #replyCount = int32(1024);
  /** Layouts and endpoints by number (no reference per entry for the collector to walk). */
  #layout = uint16(1024);
  #from = int32(1024);
  #to = int32(1024);
  readonly #meta = new Metas<M>(1024);
  readonly #layouts = new Registry<QueryLayout>();
  readonly #endpoints = new Interned<Endpoint>();

  #replyA = int32(1024);
  #replyB = int32(1024);
  #replyLength = int32(1024);
  #replyTime = bigint64(1024);
  readonly #replyMeta = new Metas<M>(1024);

  readonly #probe: Probe = {
    protocol: 'samp',
    datagram: { bytes: new Uint8Array(0), from: NOWHERE, to: NOWHERE, time: 0n },
    issuer: undefined,
  };
  readonly #issuerProbe = { bytes: new Uint8Array(0) as Uint8Array<ArrayBufferLike>, from: NOWHERE, to: NOWHERE, time: 0n };

  get size(): number {
    return this.#ring.size;
  }

  /** Keeps a finished request until `deadline`; returns its number. */
  remember(f: FinishedFacts<M>, deadline: bigint): number {
    const n = this.#ring.add();
    const s = this.#ring.slot(n);
    const keys = f.keys;
    const half = keys.length >> 1;
    this.#nkeys[s] = keys.length;
    for (let j = 0; j < keys.length; j++) {
      const index = j < half ? this.#exact : this.#loose;
      const k = keys[j]!;
      this.#keys[s * WIDTH + j] = k;
      this.#chain[s * WIDTH + j] = index.get(k);
      index.set(k, n);
    }
    this.#outcome[s] = outcomeCode(f.outcome);
    this.#collects[s] = f.collects ? 1 : 0;
    this.#deadline[s] = deadline;
    this.#time[s] = f.request.time;
    this.#at[s] = this.#bytes.put(f.request.bytes);
    this.#length[s] = f.request.bytes.length;
    if (f.issuer) {
      this.#issuerAt[s] = this.#bytes.put(f.issuer.bytes);
      this.#issuerLength[s] = f.issuer.bytes.length;
    } else {
      this.#issuerLength[s] = -1;
    }
    this.#layout[s] = this.#layouts.id(f.layout);
    this.#from[s] = this.#endpoints.hold(f.request.from);
    this.#to[s] = this.#endpoints.hold(f.request.to);
    this.#meta.set(s, f.request.meta);
    this.#firstReply[s] = this.#replies.next;
    this.#replyCount[s] = f.replies.length;
    for (const r of f.replies) {
      const rs = this.#replies.slot(this.#replies.add());
      this.#replyA[rs] = hashA(r.bytes);
      this.#replyB[rs] = hashB();
      this.#replyLength[rs] = r.bytes.length;
      this.#replyTime[rs] = r.time;
      this.#replyMeta.set(rs, r.meta);
    }
    return n;
  }

  /** The time the oldest entry is to be let go, if any. */
  get nextDeadline(): bigint | undefined {
    return this.#ring.nextDue(this.#deadline);
  }

  /** Lets go of the entries whose deadline is before `now` (at or before, unless `strictly`). */
  forget(now: bigint, strictly: boolean): void {
    this.#ring.forgetDue(this.#deadline, now, strictly, this.#forgetOldest);
  }

  readonly #forgetOldest = (): void => this.forgetOldest();

  /** Lets go of the oldest entry. */
  forgetOldest(): void {
    const ring = this.#ring;
    const n = ring.first;
    const s = ring.slot(n);
    const count = this.#nkeys[s]!;
    const half = count >> 1;
    for (let j = 0; j < count; j++) {
      const index = j < half ? this.#exact : this.#loose;
      const k = this.#keys[s * WIDTH + j]!;
      if (index.get(k) === n) index.delete(k);
    }
    this.#endpoints.release(this.#from[s]!);
    this.#endpoints.release(this.#to[s]!);
    this.#meta.clear(s);
    const replies = this.#replies;
    replies.first = this.#firstReply[s]! + this.#replyCount[s]!;
    for (let r = this.#firstReply[s]!; r < replies.first; r++) this.#replyMeta.clear(replies.slot(r));
    ring.first++;
    this.#bytes.release(ring.size ? this.#at[ring.slot(ring.first)]! : this.#bytes.end);
  }

  clear(): void {
    while (this.#ring.size) this.forgetOldest();
    this.#ring.clear();
    this.#replies.clear();
    this.#bytes.clear();
  }

  /**
   * Entries under `key` of one side, newest first, that `test` accepts as the request of
   * `reply` (the rule's identity: a hash says where to look, not what matches).
   */
  *newestUnder(key: number, exact: boolean, reply: Datagram, test: (request: Filed, reply: Datagram) => boolean): Generator<number, void> {
    const ring = this.#ring;
    for (let n = (exact ? this.#exact : this.#loose).get(key); n >= ring.first;) {
      const s = ring.slot(n);
      const count = this.#nkeys[s]!;
      const half = count >> 1;
      let j = exact ? 0 : half;
      const end = exact ? half : count;
      while (j < end && this.#keys[s * WIDTH + j] !== key) j++;
      if (j === end) return; // a chain never passes an entry without its key
      if (test(this.#probeOf(n), reply)) yield n;
      n = this.#chain[s * WIDTH + j]!;
    }
  }

  /** The filed request of entry `n`, as the rules read it (valid until the next call). */
  #probeOf(n: number): Filed {
    const s = this.#ring.slot(n);
    const p = this.#probe;
    p.protocol = this.#layouts.value(this.#layout[s]!).protocol;
    p.datagram.bytes = this.#bytes.view(this.#at[s]!, this.#length[s]!);
    p.datagram.from = this.#endpoints.value(this.#from[s]!);
    p.datagram.to = this.#endpoints.value(this.#to[s]!);
    if (this.#issuerLength[s]! < 0) {
      p.issuer = undefined;
    } else {
      const q = this.#issuerProbe;
      q.bytes = this.#bytes.view(this.#issuerAt[s]!, this.#issuerLength[s]!);
      q.from = p.datagram.from;
      q.to = p.datagram.to;
      p.issuer = q;
    }
    return p as unknown as Filed;
  }

  outcome(n: number): Outcome {
    return OUTCOMES[this.#outcome[this.#ring.slot(n)]!]!;
  }

  collects(n: number): boolean {
    return this.#collects[this.#ring.slot(n)] === 1;
  }

  layout(n: number): QueryLayout {
    return this.#layouts.value(this.#layout[this.#ring.slot(n)]!);
  }

  /** Entry `n`'s request as a datagram of its own (its bytes copied: it outlives the entry). */
  request(n: number): Datagram<M> {
    const s = this.#ring.slot(n);
    const meta = this.#meta.get(s);
    const d = {
      bytes: this.#bytes.view(this.#at[s]!, this.#length[s]!).slice(),
      from: this.#endpoints.value(this.#from[s]!),
      to: this.#endpoints.value(this.#to[s]!),
      time: this.#time[s]!,
    };
    return meta === undefined ? d : { ...d, meta };
  }

  /** Which of entry `n`'s replies `bytes` repeats byte for byte, or -1. */
  copyOf(n: number, bytes: Uint8Array): number {
    const s = this.#ring.slot(n);
    let a: number | undefined;
    let b = 0;
    for (let i = 0; i < this.#replyCount[s]!; i++) {
      const r = this.#replies.slot(this.#firstReply[s]! + i);
      if (this.#replyLength[r] !== bytes.length) continue;
      if (a === undefined) {
        a = hashA(bytes);
        b = hashB();
      }
      if (a === this.#replyA[r] && b === this.#replyB[r]) return i;
    }
    return -1;
  }

  /** Reply `i` of entry `n`, with the bytes it repeats (equal to the ones it was). */
  reply(n: number, i: number, bytes: Uint8Array, from: Endpoint, to: Endpoint): Datagram<M> {
    const r = this.#replies.slot(this.#firstReply[this.#ring.slot(n)]! + i);
    const meta = this.#replyMeta.get(r);
    const d = { bytes, from, to, time: this.#replyTime[r]! };
    return meta === undefined ? d : { ...d, meta };
  }

  #grow(from: number, to: number): void {
    const ring = this.#ring;
    this.#keys = ring.regrow(this.#keys, from, to, int32, WIDTH);
    this.#chain = ring.regrow(this.#chain, from, to, int32, WIDTH);
    this.#nkeys = ring.regrow(this.#nkeys, from, to, uint8);
    this.#outcome = ring.regrow(this.#outcome, from, to, uint8);
    this.#collects = ring.regrow(this.#collects, from, to, uint8);
    this.#deadline = ring.regrow(this.#deadline, from, to, bigint64);
    this.#time = ring.regrow(this.#time, from, to, bigint64);
    this.#at = ring.regrow(this.#at, from, to, float64);
    this.#length = ring.regrow(this.#length, from, to, int32);
    this.#issuerAt = ring.regrow(this.#issuerAt, from, to, float64);
    this.#issuerLength = ring.regrow(this.#issuerLength, from, to, int32);
    this.#firstReply = ring.regrow(this.#firstReply, from, to, float64);
    this.#replyCount = ring.regrow(this.#replyCount, from, to, int32);
    this.#layout = ring.regrow(this.#layout, from, to, uint16);
    this.#from = ring.regrow(this.#from, from, to, int32);
    this.#to = ring.regrow(this.#to, from, to, int32);
    this.#meta.regrow(ring, from, to);
  }

  #growReplies(from: number, to: number): void {
    const ring = this.#replies;
    this.#replyA = ring.regrow(this.#replyA, from, to, int32);
    this.#replyB = ring.regrow(this.#replyB, from, to, int32);
    this.#replyLength = ring.regrow(this.#replyLength, from, to, int32);
    this.#replyTime = ring.regrow(this.#replyTime, from, to, bigint64);
    this.#replyMeta.regrow(ring, from, to);
  }
}
