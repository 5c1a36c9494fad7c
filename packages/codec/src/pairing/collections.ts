/**
 * The two structures the pairing core needs to stay O(log n) per datagram under a flood:
 * FIFO buckets by key, and a queue of deadlines. Both delete lazily: an item leaves by
 * setting `done`, and is skipped (then dropped) when it reaches the front.
 */
import { KeyTable } from './ring.ts';

export interface Retirable {
  done: boolean;
}

/** Several items under one key; most keys only ever hold one, stored bare. */
class Bucket<T> {
  head = 0;
  /** Items held past which the finished ones are dropped wherever they are (not only at the front). */
  limit = 64;
  constructor(public items: T[]) {}
}

/** Which items under a hash are the ones asked for (hashes collide; the item tells), given what is looked up. */
export type Match<T, A> = (item: T, arg: A) => boolean;

const any = (): boolean => true;

/**
 * Items filed under numeric keys (hashes of what identifies them), oldest first within a
 * key. A hash says where to look, not what matches: lookups take the predicate that tells
 * an item's real identity, so two identities sharing a hash never answer for each other.
 * Numbers rather than strings, because building a key string per datagram (endpoints,
 * hex of echoed bytes) cost more than the rest of the pairing.
 */
export class FifoIndex<T extends Retirable> {
  readonly #buckets = new Slots<T | Bucket<T>>();

  add(key: number, item: T): void {
    const held = this.#buckets.get(key);
    if (held === undefined) this.#buckets.set(key, item);
    else if (held instanceof Bucket) {
      held.items.push(item);
      if (held.items.length - held.head > held.limit) {
        // A live item at the front (a request waiting out its timeout) keeps the finished
        // ones behind it: past the limit they go, and the limit follows what is live.
        held.items = held.items.slice(held.head).filter((x) => !x.done);
        held.head = 0;
        held.limit = Math.max(64, 2 * held.items.length);
      }
    } else this.#buckets.set(key, new Bucket([held, item]));
  }

  /** The oldest live item under `key` that `match` accepts with `arg` (a static function and its argument: no closure per lookup). */
  first<A>(key: number, match: Match<T, A> = any, arg?: A): T | undefined {
    const held = this.#settle(key);
    if (!(held instanceof Bucket)) return held !== undefined && match(held, arg!) ? held : undefined;
    for (let i = held.head; i < held.items.length; i++) {
      const item = held.items[i]!;
      if (!item.done && match(item, arg!)) return item;
    }
    return undefined;
  }

  /** The newest live item under `key` that `match` accepts with `arg` (no generator, for the hot path). */
  newest<A>(key: number, match: Match<T, A> = any, arg?: A): T | undefined {
    const held = this.#settle(key);
    if (!(held instanceof Bucket)) return held !== undefined && match(held, arg!) ? held : undefined;
    for (let i = held.items.length - 1; i >= held.head; i--) {
      const item = held.items[i]!;
      if (!item.done && match(item, arg!)) return item;
    }
    return undefined;
  }

  /** Live items under `key` that `match` accepts with `arg`, newest first. */
  *newestFirst<A>(key: number, match: Match<T, A> = any, arg?: A): Generator<T, void> {
    const held = this.#settle(key);
    if (!(held instanceof Bucket)) {
      if (held !== undefined && match(held, arg!)) yield held;
      return;
    }
    for (let i = held.items.length - 1; i >= held.head; i--) {
      const item = held.items[i]!;
      if (!item.done && match(item, arg!)) yield item;
    }
  }

  /** Call after marking an item done, for each key it was filed under. */
  release(key: number): void {
    this.#settle(key);
  }

  get size(): number {
    return this.#buckets.size;
  }

  clear(): void {
    this.#buckets.clear();
  }

  /** Drops finished items from the front of a bucket, and the key once nothing live is left. */
  #settle(key: number): T | Bucket<T> | undefined {
    const held = this.#buckets.get(key);
    if (held === undefined) return undefined;
    if (!(held instanceof Bucket)) {
      if (!held.done) return held;
      this.#buckets.delete(key);
      return undefined;
    }
    while (held.head < held.items.length && held.items[held.head]!.done) held.items[held.head++] = undefined!;
    if (held.head === held.items.length) {
      this.#buckets.delete(key);
      return undefined;
    }
    if (held.head > 32 && held.head * 2 > held.items.length) {
      held.items = held.items.slice(held.head);
      held.head = 0;
    }
    return held;
  }
}

/**
 * Values by key (30-bit hashes): a {@link KeyTable} to a slot in an array, slots reused.
 * A `Map` of the pending requests' keys grew and shrank its tables as requests came and
 * went, thousands of times a second, and the tables were most of what the collector
 * moved into the old generation.
 */
class Slots<V> {
  readonly #table = new KeyTable();
  #values: (V | undefined)[] = [];
  #free: number[] = [];

  get size(): number {
    return this.#table.size;
  }

  get(key: number): V | undefined {
    const slot = this.#table.get(key);
    return slot < 0 ? undefined : this.#values[slot];
  }

  set(key: number, value: V): void {
    const slot = this.#table.get(key);
    if (slot >= 0) {
      this.#values[slot] = value;
      return;
    }
    const free = this.#free.pop();
    if (free === undefined) {
      this.#table.set(key, this.#values.length);
      this.#values.push(value);
    } else {
      this.#table.set(key, free);
      this.#values[free] = value;
    }
  }

  delete(key: number): void {
    const slot = this.#table.get(key);
    if (slot < 0) return;
    this.#table.delete(key);
    this.#values[slot] = undefined;
    this.#free.push(slot);
  }

  clear(): void {
    this.#table.clear();
    this.#values = [];
    this.#free = [];
  }
}

export interface Timed extends Retirable {
  deadline: bigint;
  /**
   * The filing number of the item's current deadline in the queue (the queue's business):
   * an entry whose number is not this one is stale, whatever its time.
   */
  timer?: number;
  /**
   * Where that deadline sits (the queue's business): a lane's number and the entry's
   * position in it, so that a deadline cancelled or moved lets go of its item at once
   * instead of holding it until the old time comes up; -1 in the heap.
   */
  timerLane?: number;
  timerAt?: number;
}

/** An entry of the heap (deadlines out of order: rare); lanes keep the same three parts in parallel arrays. */
interface Entry<T> {
  readonly at: bigint;
  /** Filing order: equal deadlines come out first in, first out. */
  readonly seq: number;
  readonly item: T;
}

/**
 * A run of deadlines in order, taken from the front: items, times and filing numbers in
 * three parallel arrays (no entry object per deadline: two per exchange were a good
 * part of what the pairer allocated).
 */
class Lane<T> {
  items: (T | undefined)[] = [];
  ats: bigint[] = [];
  seqs: number[] = [];
  head = 0;
  /** The position of `items[0]` since the lane began: positions stay valid as the front is cut. */
  base = 0;

  get empty(): boolean {
    return this.head === this.items.length;
  }

  /** Takes the deadline if it keeps the lane in order; returns its position, or -1. */
  accepts(item: T, at: bigint, seq: number): number {
    const n = this.items.length;
    if (this.head < n && this.ats[n - 1]! > at) return -1;
    this.items.push(item);
    this.ats.push(at);
    this.seqs.push(seq);
    return this.base + n;
  }

  /** Entries let go of before their time, still taking room. */
  dropped = 0;

  /**
   * Lets go of the item at `position` if it is still there. Once most of the lane is
   * such holes (answered requests behind one still waiting out its timeout: seconds of
   * capture), the lane is rebuilt without them, telling each item where it moved.
   */
  drop(item: T, position: number): void {
    const i = position - this.base;
    if (i < this.head || i >= this.items.length || this.items[i] !== item) return;
    this.items[i] = undefined;
    if (++this.dropped > 1024 && this.dropped * 2 > this.items.length - this.head) this.#compact();
  }

  #compact(): void {
    const items: (T | undefined)[] = [];
    const ats: bigint[] = [];
    const seqs: number[] = [];
    this.base += this.items.length; // new positions: no old one can be mistaken for them
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i];
      if (item === undefined) continue;
      (item as unknown as Timed).timerAt = this.base + items.length;
      items.push(item);
      ats.push(this.ats[i]!);
      seqs.push(this.seqs[i]!);
    }
    this.items = items;
    this.ats = ats;
    this.seqs = seqs;
    this.head = 0;
    this.dropped = 0;
  }

  shift(): void {
    if (this.items[this.head] === undefined) this.dropped--;
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.base += this.items.length;
      this.items = [];
      this.ats = [];
      this.seqs = [];
      this.head = 0;
      this.dropped = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.base += this.head;
      this.items = this.items.slice(this.head);
      this.ats = this.ats.slice(this.head);
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
  }
}

/** Lanes before the heap: one per kind of deadline (timeout, duplicate window, token life, RCON quiet). */
const LANES = 4;

/** Whether the deadline filed as `seq` for `item` no longer counts: the item finished, or has a newer deadline. */
const stale = <T extends Timed>(item: T | undefined, seq: number): boolean => item === undefined || item.done || item.timer !== seq;

/**
 * Deadlines, earliest first. Most arrive in order within their kind (a fixed duration
 * added to a clock that does not go back), so they queue in plain FIFO lanes, one per
 * duration in practice; one that fits no lane goes to a min-heap, and the earliest of
 * the fronts comes out. A deadline whose item finished or moved on is stale and skipped.
 */
export class DeadlineQueue<T extends Timed> {
  readonly #heap: Entry<T>[] = [];
  readonly #lanes: Lane<T>[] = Array.from({ length: LANES }, () => new Lane<T>());
  #seq = 0;
  /** The lane {@link #front} found the earliest deadline in (undefined: the heap), and that deadline. */
  #frontLane: Lane<T> | undefined;
  #frontAt = 0n;
  #frontItem: T | undefined;

  /** Files `item` at its current deadline; call again after moving the deadline (the old one goes stale). */
  push(item: T): void {
    this.cancel(item);
    const seq = this.#seq++;
    const at = item.deadline;
    item.timer = seq;
    for (let k = 0; k < LANES; k++) {
      const position = this.#lanes[k]!.accepts(item, at, seq);
      if (position >= 0) {
        item.timerLane = k;
        item.timerAt = position;
        return;
      }
    }
    item.timerLane = -1;
    const heap = this.#heap;
    heap.push({ at, seq, item });
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!.at, heap[i]!.seq, heap[parent]!.at, heap[parent]!.seq)) break;
      const swap = heap[parent]!;
      heap[parent] = heap[i]!;
      heap[i] = swap;
      i = parent;
    }
  }

  /** The earliest live deadline. */
  peek(): bigint | undefined {
    return this.#front() ? this.#frontAt : undefined;
  }

  /** Removes and returns the earliest live item if its deadline is at or before `now` (before it, if `strictly`). */
  popDue(now: bigint, strictly = false): T | undefined {
    if (!this.#front()) return undefined;
    const at = this.#frontAt;
    if (at > now || (strictly && at === now)) return undefined;
    const item = this.#frontItem!;
    if (this.#frontLane) this.#frontLane.shift();
    else this.#removeTop();
    item.timer = undefined;
    return item;
  }

  /**
   * Forgets an item's deadline at once (it finished early). A lane lets go of the item
   * now (held until its old deadline, every answered request stayed alive for the whole
   * timeout); the heap, which holds only the few deadlines out of order, when it comes up.
   */
  cancel(item: T): void {
    if (item.timer === undefined) return;
    item.timer = undefined;
    const lane = item.timerLane ?? -1;
    if (lane >= 0) this.#lanes[lane]!.drop(item, item.timerAt!);
  }

  clear(): void {
    this.#heap.length = 0;
    for (const lane of this.#lanes) {
      lane.items = [];
      lane.ats = [];
      lane.seqs = [];
      lane.head = 0;
      lane.base = 0;
      lane.dropped = 0;
    }
  }

  /** Finds the earliest live deadline of all fronts (into #frontLane, #frontAt, #frontItem), dropping stale ones on the way. */
  #front(): boolean {
    const heap = this.#heap;
    for (let top = heap[0]; top && stale(top.item, top.seq); top = heap[0]) this.#removeTop();
    let found = heap.length > 0;
    let at = found ? heap[0]!.at : 0n;
    let seq = found ? heap[0]!.seq : 0;
    let item = found ? heap[0]!.item : undefined;
    let from: Lane<T> | undefined;
    for (const lane of this.#lanes) {
      while (!lane.empty && stale(lane.items[lane.head], lane.seqs[lane.head]!)) lane.shift();
      if (lane.empty) continue;
      const h = lane.head;
      if (!found || before(lane.ats[h]!, lane.seqs[h]!, at, seq)) {
        found = true;
        at = lane.ats[h]!;
        seq = lane.seqs[h]!;
        item = lane.items[h];
        from = lane;
      }
    }
    this.#frontLane = from;
    this.#frontAt = at;
    this.#frontItem = item;
    return found;
  }

  #removeTop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < heap.length && before(heap[l]!.at, heap[l]!.seq, heap[min]!.at, heap[min]!.seq)) min = l;
      if (r < heap.length && before(heap[r]!.at, heap[r]!.seq, heap[min]!.at, heap[min]!.seq)) min = r;
      if (min === i) break;
      const swap = heap[min]!;
      heap[min] = heap[i]!;
      heap[i] = swap;
      i = min;
    }
  }
}

const before = (at: bigint, seq: number, bAt: bigint, bSeq: number): boolean => at < bAt || (at === bAt && seq < bSeq);

/** An item of a {@link Chain}: its neighbours, the chain's business. */
export interface Linked<T> {
  prev: T | undefined;
  next: T | undefined;
}

/**
 * Items in the order they came, each linked to its neighbours: added, removed from
 * anywhere and the oldest found in constant time, with no allocation (a Set grew and
 * shrank its table as requests came and went, thousands of times a second).
 */
export class Chain<T extends Linked<T>> {
  #head: T | undefined = undefined;
  #tail: T | undefined = undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The oldest item. */
  get oldest(): T | undefined {
    return this.#head;
  }

  add(item: T): void {
    item.prev = this.#tail;
    item.next = undefined;
    if (this.#tail) this.#tail.next = item;
    else this.#head = item;
    this.#tail = item;
    this.#size++;
  }

  /** Removes an item that is in the chain. */
  remove(item: T): void {
    if (item.prev) item.prev.next = item.next;
    else this.#head = item.next;
    if (item.next) item.next.prev = item.prev;
    else this.#tail = item.prev;
    item.prev = item.next = undefined;
    this.#size--;
  }

  /** The items, oldest first (a copy: the caller may remove them as it goes). */
  all(): T[] {
    const out: T[] = [];
    for (let item = this.#head; item; item = item.next) out.push(item);
    return out;
  }

  clear(): void {
    this.#head = this.#tail = undefined;
    this.#size = 0;
  }
}
