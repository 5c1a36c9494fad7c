/**
 * The requests waiting for a reply (`Pending`): filed under their exact and loose keys, in
 * the order they came (the oldest goes first when `maxPending` is reached), and by deadline
 * (a request's timeout, an RCON command's quiet period). With the small tests the pairer
 * makes of requests, and `ByKey`, the map from a rule's hash to what is filed under it,
 * which the memory of finished exchanges and tokens (memory.ts) files with too.
 */
import { sameEndpoint, type Filed, type Keys } from './rules.ts';
import type { Datagram } from './types.ts';

export type Side = 'exact' | 'loose';

/** Where the keys of one side start and end: the exact half of a request's keys, then the loose half. */
export const sideStart = (keys: Keys, side: Side): number => (side === 'exact' ? 0 : keys.length >> 1);
export const sideEnd = (keys: Keys, side: Side): number => (side === 'exact' ? keys.length >> 1 : keys.length);

/** Whether a filed request is the one a reply answers: a rule's identity (rules.ts). */
export type Match = (request: Filed, reply: Datagram) => boolean;

const NONE: readonly never[] = Object.freeze([]);

/**
 * Items under numeric keys, oldest first within a key. The keys are the rules' hashes: a
 * hash says where to look, the rule's test (a {@link Match}) what matches.
 */
export class ByKey<T> {
  readonly #lists = new Map<number, T[]>();

  /** Files `item` under `key` once (two of an item's keys may be the same hash). */
  add(key: number, item: T): void {
    const list = this.#lists.get(key);
    if (!list) this.#lists.set(key, [item]);
    else if (list[list.length - 1] !== item) list.push(item);
  }

  delete(key: number, item: T): void {
    const list = this.#lists.get(key);
    const i = list ? list.indexOf(item) : -1;
    if (i < 0) return;
    if (list!.length === 1) this.#lists.delete(key);
    else list!.splice(i, 1);
  }

  /** What is filed under `key`, oldest first (the list itself: not to be changed while read). */
  under(key: number): readonly T[] {
    return this.#lists.get(key) ?? NONE;
  }

  clear(): void {
    this.#lists.clear();
  }
}

/** Items under each of their keys: the exact half of them, then the loose half (rules.ts), each side a {@link ByKey}. */
export class BySide<T extends { readonly keys: Keys }> {
  readonly #exact = new ByKey<T>();
  readonly #loose = new ByKey<T>();

  add(item: T): void {
    const keys = item.keys;
    for (let i = 0; i < keys.length; i++) (i < keys.length >> 1 ? this.#exact : this.#loose).add(keys[i]!, item);
  }

  delete(item: T): void {
    const keys = item.keys;
    for (let i = 0; i < keys.length; i++) (i < keys.length >> 1 ? this.#exact : this.#loose).delete(keys[i]!, item);
  }

  /** What is filed under `key` of one side, oldest first (see {@link ByKey.under}). */
  under(key: number, side: Side): readonly T[] {
    return (side === 'exact' ? this.#exact : this.#loose).under(key);
  }

  clear(): void {
    this.#exact.clear();
    this.#loose.clear();
  }
}

/** What {@link Pending} needs of a request besides what the rules read: its keys, and its places in the order and the deadlines. */
export interface PendingRequest<T> extends Filed {
  readonly keys: Keys;
  /** When it stops waiting. Set a new one with {@link Pending.schedule}. */
  deadline: bigint;
  /** Its deadline in the heap (the set's business). */
  timer: Deadline<T> | undefined;
  /** Its neighbours in the order requests came (the set's business). */
  older: T | undefined;
  newer: T | undefined;
}

/**
 * A deadline scheduled: when, in what order (equal deadlines come out first in, first out),
 * and for what; the request is let go of when it leaves or moves to a newer deadline.
 */
export interface Deadline<T> {
  readonly at: bigint;
  readonly seq: number;
  item: T | undefined;
}

const before = <T>(a: Deadline<T>, b: Deadline<T>): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/**
 * The pending requests. Deadlines sit in a binary heap, earliest first; one whose request
 * has left or has a newer deadline lets go of it at once, and is dropped when it comes to
 * the top.
 */
export class Pending<T extends PendingRequest<T>> {
  readonly #filed = new BySide<T>();
  #oldest: T | undefined;
  #newest: T | undefined;
  #size = 0;
  #heap: Deadline<T>[] = [];
  #seq = 0;

  get size(): number {
    return this.#size;
  }

  /** The request that has waited longest. */
  get oldest(): T | undefined {
    return this.#oldest;
  }

  /** Files a new request, with its deadline. */
  add(p: T): void {
    this.#filed.add(p);
    p.older = this.#newest;
    p.newer = undefined;
    if (this.#newest) this.#newest.newer = p;
    else this.#oldest = p;
    this.#newest = p;
    this.#size++;
    this.schedule(p);
  }

  /** The request has left: it is found no more, and its deadline no longer counts. */
  remove(p: T): void {
    if (p.timer) p.timer.item = undefined;
    p.timer = undefined;
    this.#filed.delete(p);
    if (p.older) p.older.newer = p.newer;
    else this.#oldest = p.newer;
    if (p.newer) p.newer.older = p.older;
    else this.#newest = p.older;
    p.older = p.newer = undefined;
    this.#size--;
  }

  /** The pending requests, oldest first (a copy: the caller may remove them as it goes). */
  all(): T[] {
    const out: T[] = [];
    for (let p = this.#oldest; p; p = p.newer) out.push(p);
    return out;
  }

  /** Requests filed under `key` of one side, oldest first (see {@link ByKey.under}). */
  under(key: number, side: Side): readonly T[] {
    return this.#filed.under(key, side);
  }

  /** The oldest request filed under one of `keys` (of `side`) that `match` accepts for the reply `d`. */
  first(keys: Keys, side: Side, match: Match, d: Datagram): T | undefined {
    for (let i = sideStart(keys, side); i < sideEnd(keys, side); i++) {
      for (const p of this.under(keys[i]!, side)) if (match(p, d)) return p;
    }
    return undefined;
  }

  /** Schedules `p` at its deadline; whatever deadline it had before no longer counts. */
  schedule(p: T): void {
    const heap = this.#heap;
    if (p.timer) p.timer.item = undefined;
    p.timer = { at: p.deadline, seq: this.#seq++, item: p };
    heap.push(p.timer);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      const swap = heap[parent]!;
      heap[parent] = heap[i]!;
      heap[i] = swap;
      i = parent;
    }
  }

  /** The earliest deadline of a pending request. */
  nextDeadline(): bigint | undefined {
    return this.#top()?.at;
  }

  /** The request whose deadline comes first, taken off the heap, if that deadline is before `now` (at or before, unless `strictly`). */
  due(now: bigint, strictly: boolean): T | undefined {
    const top = this.#top();
    if (!top || top.at > now || (strictly && top.at === now)) return undefined;
    this.#pop();
    const p = top.item!;
    p.timer = undefined;
    return p;
  }

  clear(): void {
    this.#filed.clear();
    this.#oldest = this.#newest = undefined;
    this.#size = 0;
    this.#heap = [];
  }

  /** The earliest deadline still counting, the stale ones above it dropped. */
  #top(): Deadline<T> | undefined {
    for (let top = this.#heap[0]; top; top = this.#heap[0]) {
      if (top.item) return top;
      this.#pop();
    }
    return undefined;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      let min = i;
      if (l < heap.length && before(heap[l]!, heap[min]!)) min = l;
      if (l + 1 < heap.length && before(heap[l + 1]!, heap[min]!)) min = l + 1;
      if (min === i) break;
      const swap = heap[min]!;
      heap[min] = heap[i]!;
      heap[i] = swap;
      i = min;
    }
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** A request byte for byte the same as `d`, from the same client to the same server. */
export const identical = (r: Filed, d: Datagram): boolean =>
  sameEndpoint(r.datagram.from, d.from) && sameEndpoint(r.datagram.to, d.to) && sameBytes(r.datagram.bytes, d.bytes);

/** An RCON command seen as the reply its predecessor's lines would be: the same conversation, turned round. */
export const turnedRound = <M>(d: Datagram<M>): Datagram<M> => ({ bytes: d.bytes, from: d.to, to: d.from, time: d.time });
