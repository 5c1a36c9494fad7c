/**
 * The two structures the pairing core needs to stay O(log n) per datagram under a flood:
 * FIFO buckets by key, and a queue of deadlines. Both delete lazily: an item leaves by
 * setting `done`, and is skipped (then dropped) when it reaches the front.
 */

export interface Retirable {
  done: boolean;
}

/** Several items under one key; most keys only ever hold one, stored bare. */
class Bucket<T> {
  head = 0;
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
  readonly #buckets = new Map<number, T | Bucket<T>>();

  add(key: number, item: T): void {
    const held = this.#buckets.get(key);
    if (held === undefined) this.#buckets.set(key, item);
    else if (held instanceof Bucket) held.items.push(item);
    else this.#buckets.set(key, new Bucket([held, item]));
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
 * Items in the order they came, the oldest live one first; an item leaves by being
 * marked done (then {@link retire}d), and is dropped when it reaches the front. Cheaper
 * than an insertion-ordered Set (no hashing) for what the pairer needs: the count, the
 * oldest, and all of them at the end.
 */
export class LiveList<T extends Retirable> {
  #items: (T | undefined)[] = [];
  #head = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(item: T): void {
    this.#items.push(item);
    this.#size++;
  }

  /** Call once for an item just marked done. */
  retire(): void {
    this.#size--;
    if (this.#size === 0) this.clear();
    else this.#trim();
  }

  /** The oldest live item. */
  oldest(): T | undefined {
    this.#trim();
    return this.#items[this.#head];
  }

  /** The live items, oldest first (a copy: the caller may retire them as it goes). */
  live(): T[] {
    const out: T[] = [];
    for (let i = this.#head; i < this.#items.length; i++) {
      const item = this.#items[i];
      if (item && !item.done) out.push(item);
    }
    return out;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
    this.#size = 0;
  }

  /** Lets go of the finished items at the front, so that they are not kept alive here. */
  #trim(): void {
    const items = this.#items;
    let head = this.#head;
    while (head < items.length && items[head]!.done) items[head++] = undefined;
    this.#head = head;
    if (head > 1024 && head * 2 > items.length) {
      this.#items = items.slice(head);
      this.#head = 0;
    }
  }
}

export interface Timed extends Retirable {
  deadline: bigint;
  /** The queue's entry for the current deadline (the queue's business). */
  timer?: object;
}

interface Entry<T> {
  readonly at: bigint;
  /** Filing order: equal deadlines come out first in, first out. */
  readonly seq: number;
  /** Let go of by {@link DeadlineQueue.cancel}: a finished item need not wait in memory for its old deadline. */
  item: T | undefined;
}

const before = <T>(a: Entry<T>, b: Entry<T>): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** A run of entries in deadline order, taken from the front. */
class Lane<T> {
  entries: Entry<T>[] = [];
  head = 0;

  get first(): Entry<T> | undefined {
    return this.entries[this.head];
  }

  /** Takes the entry if it keeps the lane in order. */
  accepts(e: Entry<T>): boolean {
    if (this.head < this.entries.length && this.entries[this.entries.length - 1]!.at > e.at) return false;
    this.entries.push(e);
    return true;
  }

  shift(): void {
    this.entries[this.head++] = undefined!;
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

/** Lanes before the heap: one per kind of deadline (timeout, duplicate window, token life, RCON quiet). */
const LANES = 4;

/**
 * Deadlines, earliest first. Most arrive in order within their kind (a fixed duration
 * added to a clock that does not go back), so they queue in plain FIFO lanes, one per
 * duration in practice; one that fits no lane goes to a min-heap, and the earliest of
 * the fronts comes out. An entry whose item finished or moved its deadline is stale and
 * skipped.
 */
export class DeadlineQueue<T extends Timed> {
  readonly #heap: Entry<T>[] = [];
  readonly #lanes: Lane<T>[] = Array.from({ length: LANES }, () => new Lane<T>());
  #seq = 0;
  /** The lane {@link #front} found the earliest entry in (undefined: the heap). */
  #frontLane: Lane<T> | undefined;

  /** Files `item` at its current deadline; call again after moving the deadline. */
  push(item: T): void {
    const entry: Entry<T> = { at: item.deadline, seq: this.#seq++, item };
    item.timer = entry;
    for (const lane of this.#lanes) if (lane.accepts(entry)) return;
    const heap = this.#heap;
    heap.push(entry);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      const swap = heap[parent]!;
      heap[parent] = heap[i]!;
      heap[i] = swap;
      i = parent;
    }
  }

  /** The earliest live deadline. */
  peek(): bigint | undefined {
    return this.#front()?.at;
  }

  /** Removes and returns the earliest live item if its deadline is at or before `now` (before it, if `strictly`). */
  popDue(now: bigint, strictly = false): T | undefined {
    const front = this.#front();
    if (!front || front.at > now || (strictly && front.at === now)) return undefined;
    if (this.#frontLane) this.#frontLane.shift();
    else this.#removeTop();
    return front.item!;
  }

  /** Forgets an item's deadline at once (it finished early). */
  cancel(item: T): void {
    const entry = item.timer as Entry<T> | undefined;
    if (entry?.item === item) entry.item = undefined;
    item.timer = undefined;
  }

  clear(): void {
    this.#heap.length = 0;
    for (const lane of this.#lanes) {
      lane.entries = [];
      lane.head = 0;
    }
  }

  /** The earliest live entry of all fronts (its lane in #frontLane); stale ones dropped on the way. */
  #front(): Entry<T> | undefined {
    const heap = this.#heap;
    for (let top = heap[0]; top && stale(top); top = heap[0]) this.#removeTop();
    let best: Entry<T> | undefined = heap[0];
    let from: Lane<T> | undefined;
    for (const lane of this.#lanes) {
      for (let e = lane.first; e && stale(e); e = lane.first) lane.shift();
      const e = lane.first;
      if (e && (!best || before(e, best))) {
        best = e;
        from = lane;
      }
    }
    this.#frontLane = from;
    return best;
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
      if (l < heap.length && before(heap[l]!, heap[min]!)) min = l;
      if (r < heap.length && before(heap[r]!, heap[min]!)) min = r;
      if (min === i) break;
      const swap = heap[min]!;
      heap[min] = heap[i]!;
      heap[i] = swap;
      i = min;
    }
  }
}

const stale = <T extends Timed>(e: Entry<T>): boolean => e.item === undefined || e.item.done || e.item.deadline !== e.at;
