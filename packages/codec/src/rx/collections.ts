/**
 * The two structures the pairing core needs to stay O(log n) per datagram under a flood:
 * FIFO buckets by key, and a queue of deadlines. Both delete lazily: an item leaves by
 * setting `done`, and is skipped (then dropped) when it reaches the front.
 */

export interface Retirable {
  done: boolean;
}

interface Bucket<T> {
  items: T[];
  head: number;
}

/** Items filed under string keys, oldest first within a key. */
export class FifoIndex<T extends Retirable> {
  readonly #buckets = new Map<string, Bucket<T>>();

  add(key: string, item: T): void {
    const bucket = this.#buckets.get(key);
    if (bucket) bucket.items.push(item);
    else this.#buckets.set(key, { items: [item], head: 0 });
  }

  /** The oldest live item under `key`. */
  first(key: string): T | undefined {
    const bucket = this.#settle(key);
    return bucket?.items[bucket.head];
  }

  /** Live items under `key`, newest first. */
  *newestFirst(key: string): Generator<T, void> {
    const bucket = this.#settle(key);
    if (!bucket) return;
    for (let i = bucket.items.length - 1; i >= bucket.head; i--) if (!bucket.items[i]!.done) yield bucket.items[i]!;
  }

  /** Call after marking an item done, for each key it was filed under. */
  release(key: string): void {
    this.#settle(key);
  }

  get size(): number {
    return this.#buckets.size;
  }

  clear(): void {
    this.#buckets.clear();
  }

  /** Drops finished items from the front of a bucket, and the bucket once it is empty. */
  #settle(key: string): Bucket<T> | undefined {
    const bucket = this.#buckets.get(key);
    if (!bucket) return undefined;
    while (bucket.head < bucket.items.length && bucket.items[bucket.head]!.done) bucket.head++;
    if (bucket.head === bucket.items.length) {
      this.#buckets.delete(key);
      return undefined;
    }
    if (bucket.head > 32 && bucket.head * 2 > bucket.items.length) {
      bucket.items = bucket.items.slice(bucket.head);
      bucket.head = 0;
    }
    return bucket;
  }
}

export interface Timed extends Retirable {
  deadline: bigint;
}

interface Entry<T> {
  readonly at: bigint;
  /** Filing order: equal deadlines come out first in, first out. */
  readonly seq: number;
  readonly item: T;
}

const before = <T>(a: Entry<T>, b: Entry<T>): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** A min-heap of deadlines. An entry whose item finished or moved its deadline is stale. */
export class DeadlineQueue<T extends Timed> {
  readonly #heap: Entry<T>[] = [];
  #seq = 0;

  /** Files `item` at its current deadline; call again after moving the deadline. */
  push(item: T): void {
    const heap = this.#heap;
    heap.push({ at: item.deadline, seq: this.#seq++, item });
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  /** The earliest live deadline. */
  peek(): bigint | undefined {
    this.#dropStale();
    return this.#heap[0]?.at;
  }

  /** Removes and returns the earliest live item if its deadline is at or before `now`. */
  popDue(now: bigint): T | undefined {
    this.#dropStale();
    const top = this.#heap[0];
    if (!top || top.at > now) return undefined;
    this.#removeTop();
    return top.item;
  }

  clear(): void {
    this.#heap.length = 0;
  }

  #dropStale(): void {
    for (let top = this.#heap[0]; top && (top.item.done || top.item.deadline !== top.at); top = this.#heap[0]) this.#removeTop();
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
      [heap[min], heap[i]] = [heap[i]!, heap[min]!];
      i = min;
    }
  }
}
