/**
 * The pairing core's queue of deadlines (timeouts, quiet periods, duplicate windows, token
 * lives), earliest first, deleting lazily: an item leaves by setting `done` or taking a
 * newer deadline, and is skipped (then dropped) when it reaches the front. Moved out of
 * collections.ts unchanged.
 */
import type { Retirable } from './collections.ts';

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
