/**
 * The structures the pairing core needs to stay O(log n) per datagram under a flood:
 * FIFO buckets by key (here), a queue of deadlines (deadlines.ts), and a chain in arrival
 * order (here). The first two delete lazily: an item leaves by setting `done`, and is
 * skipped (then dropped) when it reaches the front.
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
