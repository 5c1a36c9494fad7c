/**
 * Storage for what the pairer remembers, first in, first out, in typed arrays: bytes in
 * one growing buffer, and a ring of numbered entries whose fields live in parallel arrays.
 *
 * A capture of 90 000 packets a second has some 200 000 exchanges inside a 5-second
 * duplicate window. Kept as objects (request, replies, their datagrams, a key array, a
 * list of replies) that was most of the heap and most of the garbage collector's work,
 * and it grew with the capture's rate; kept here it is a few dozen bytes an exchange in
 * arrays the collector never walks.
 */

/**
 * Copies of byte strings, kept in order and let go from the oldest. A string is never
 * split across the buffer's end (it starts at the next round instead), so it reads back
 * as one view. Positions are absolute (they only grow), so a holder keeps a number.
 */
export class ByteRing {
  #buf: Uint8Array;
  /** Where the next string goes, and where the oldest kept one starts. */
  #head = 0;
  #tail = 0;

  constructor(capacity = 1 << 16) {
    this.#buf = new Uint8Array(capacity);
  }

  /** Keeps a copy of `bytes`; returns its position. */
  put(bytes: Uint8Array): number {
    const n = bytes.length;
    let at: number;
    for (;;) {
      const cap = this.#buf.length;
      at = this.#head;
      const inRound = at % cap;
      if (inRound + n > cap) at += cap - inRound;
      if (at + n - this.#tail <= cap) break;
      this.#grow(Math.max(cap * 2, n * 2));
    }
    const start = at % this.#buf.length;
    this.#buf.set(bytes, start);
    this.#head = at + n;
    return at;
  }

  /** The `length` bytes kept at `at` (a view: valid until they are let go). */
  view(at: number, length: number): Uint8Array {
    const start = at % this.#buf.length;
    return this.#buf.subarray(start, start + length);
  }

  /** Lets go of everything before `at` (a position {@link put} returned, or {@link end}). */
  release(at: number): void {
    this.#tail = Math.min(at, this.#head);
  }

  /** The position after the last string kept. */
  get end(): number {
    return this.#head;
  }

  clear(): void {
    this.#head = this.#tail = 0;
  }

  get bytes(): number {
    return this.#buf.length;
  }

  #grow(capacity: number): void {
    const old = this.#buf;
    const cap = old.length;
    const next = new Uint8Array(capacity);
    // Copied round by round of the old size: a kept string lies within one old round,
    // and so within one new round too (a new round is a whole number of old ones).
    for (let s = this.#tail; s < this.#head;) {
      const e = Math.min(this.#head, (Math.floor(s / cap) + 1) * cap);
      next.set(old.subarray(s % cap, (s % cap) + (e - s)), s % capacity);
      s = e;
    }
    this.#buf = next;
  }
}

/** Makers of a field's array, for {@link EntryRing.regrow}. */
export const float64s = (n: number): Float64Array => new Float64Array(n);
/** Makes an Int32Array of `n` entries, for {@link EntryRing.regrow}. */
export const int32s = (n: number): Int32Array => new Int32Array(n);
/** Makes a Uint16Array of `n` entries, for {@link EntryRing.regrow}. */
export const uint16s = (n: number): Uint16Array => new Uint16Array(n);
/** Makes a Uint32Array of `n` entries, for {@link EntryRing.regrow}. */
export const uint32s = (n: number): Uint32Array => new Uint32Array(n);
/** Makes a Uint8Array of `n` entries, for {@link EntryRing.regrow}. */
export const uint8s = (n: number): Uint8Array => new Uint8Array(n);
/** Makes a BigInt64Array of `n` entries, for {@link EntryRing.regrow}. */
export const bigint64s = (n: number): BigInt64Array => new BigInt64Array(n);
/**
 * An array of `n` empty references, in fast elements: `new Array(n)` past some tens of
 * thousands is a dictionary, where every store is a hash table insert.
 */
export const refs = <T>(n: number): (T | undefined)[] => {
  const a: (T | undefined)[] = [];
  for (let i = 0; i < n; i++) a.push(undefined);
  return a;
};

/**
 * Small numbers for the few values that recur in every entry (layouts, time resolutions):
 * an entry keeps a number in a typed array, not a reference in an array the collector
 * walks on every major collection. Values are never let go: for sets the program bounds
 * (its layouts), not the input.
 */
export class Registry<T> {
  readonly #ids = new Map<T, number>();
  readonly #values: T[] = [];

  /** The number of `value`, given on first sight. */
  id(value: T): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#values.length;
      this.#values.push(value);
      this.#ids.set(value, id);
    }
    return id;
  }

  value(id: number): T {
    return this.#values[id]!;
  }
}

/**
 * Numbers for values held by entries (endpoints), counted: a value is let go when the last
 * entry that holds it is. An entry keeps the number in a typed array; the table holds one
 * reference per distinct value, however many entries name it.
 */
export class Interned<T> {
  readonly #ids = new Map<T, number>();
  #values: (T | undefined)[] = [];
  #counts = new Int32Array(64);
  readonly #free: number[] = [];

  /** The number of `value`, held once more. */
  hold(value: T): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#free.pop() ?? this.#values.length;
      if (id === this.#values.length) this.#values.push(value);
      else this.#values[id] = value;
      if (id >= this.#counts.length) {
        const counts = new Int32Array(this.#counts.length * 2);
        counts.set(this.#counts);
        this.#counts = counts;
      }
      this.#ids.set(value, id);
    }
    this.#counts[id]!++;
    return id;
  }

  value(id: number): T {
    return this.#values[id]!;
  }

  /** One holder of number `id` let go of it. */
  release(id: number): void {
    if (--this.#counts[id]! > 0) return;
    this.#ids.delete(this.#values[id]!);
    this.#values[id] = undefined;
    this.#free.push(id);
  }

  /** Distinct values held. */
  get size(): number {
    return this.#ids.size;
  }
}

/**
 * The meta of each entry (what a caller attached to a datagram: the dissector's frame
 * number). Numbers are kept in a typed array; a column holds references only once some
 * meta is not a number.
 */
export class Metas<M> {
  /** 0 none, 1 a number, 2 a reference. */
  #tag: Uint8Array;
  #numbers: Float64Array;
  #refs: (M | undefined)[] | undefined;

  constructor(capacity: number) {
    this.#tag = new Uint8Array(capacity);
    this.#numbers = new Float64Array(capacity);
  }

  set(slot: number, meta: M | undefined): void {
    if (typeof meta === 'number') {
      this.#tag[slot] = 1;
      this.#numbers[slot] = meta;
    } else if (meta === undefined) {
      this.#tag[slot] = 0;
    } else {
      this.#tag[slot] = 2;
      (this.#refs ??= refs<M>(this.#tag.length))[slot] = meta;
    }
  }

  get(slot: number): M | undefined {
    const tag = this.#tag[slot];
    return tag === 1 ? (this.#numbers[slot] as M) : tag === 2 ? this.#refs![slot] : undefined;
  }

  /** Lets go of the meta in `slot`. */
  clear(slot: number): void {
    if (this.#tag[slot] === 2) this.#refs![slot] = undefined;
    this.#tag[slot] = 0;
  }

  /** The column at the ring's new capacity (from its onGrow). */
  regrow(ring: EntryRing, from: number, to: number): void {
    this.#tag = ring.regrow(this.#tag, from, to, uint8s);
    this.#numbers = ring.regrow(this.#numbers, from, to, float64s);
    if (this.#refs) this.#refs = ring.regrow(this.#refs, from, to, refs<M>);
  }
}

/**
 * Numbered entries kept in order: the oldest is let go first. The owner keeps each field
 * in its own array, sized by {@link capacity} and indexed by {@link slot}; when the ring
 * must grow it calls `onGrow` with the old and new capacity, and the owner copies its
 * arrays with {@link regrow}.
 */
export class EntryRing {
  /** The number of the oldest entry kept, and of the next one. */
  first = 0;
  next = 0;
  #capacity: number;

  constructor(
    capacity: number,
    private readonly onGrow: (from: number, to: number) => void,
  ) {
    this.#capacity = capacity;
  }

  get capacity(): number {
    return this.#capacity;
  }

  get size(): number {
    return this.next - this.first;
  }

  /** Whether entry `n` is still kept. */
  holds(n: number): boolean {
    return n >= this.first && n < this.next;
  }

  /** Where entry `n`'s fields are in the owner's arrays. */
  slot(n: number): number {
    return n & (this.#capacity - 1);
  }

  /** Numbers a new entry, growing the arrays first if they are full. */
  add(): number {
    if (this.next - this.first === this.#capacity) {
      const from = this.#capacity;
      this.#capacity *= 2;
      this.onGrow(from, this.#capacity);
    }
    return this.next++;
  }

  clear(): void {
    this.first = this.next = 0;
  }

  /** The oldest entry's deadline (in `deadlines`, by slot), if any. */
  nextDue(deadlines: BigInt64Array): bigint | undefined {
    return this.size ? deadlines[this.slot(this.first)] : undefined;
  }

  /**
   * Lets go of the oldest entries while their deadline (in `deadlines`, by slot) is before
   * `now` (at or before, unless `strictly`), each through `forgetOldest`.
   */
  forgetDue(deadlines: BigInt64Array, now: bigint, strictly: boolean, forgetOldest: () => void): void {
    while (this.size) {
      const at = deadlines[this.slot(this.first)]!;
      if (at > now || (strictly && at === now)) break;
      forgetOldest();
    }
  }

  /**
   * A field's array at the new capacity, its kept entries moved to their new slots.
   * `make` builds an empty array of a length. Typed arrays are copied in runs (at most
   * three), other arrays entry by entry.
   */
  regrow<A extends ArrayLike<unknown>>(old: A, from: number, to: number, make: (length: number) => A, width = 1): A {
    const next = make(to * width);
    for (let n = this.first; n < this.next;) {
      const a = n & (from - 1);
      const b = n & (to - 1);
      const run = Math.min(this.next - n, from - a, to - b);
      copyRun(old, a * width, next, b * width, run * width);
      n += run;
    }
    return next;
  }
}

function copyRun<A extends ArrayLike<unknown>>(from: A, at: number, to: A, into: number, length: number): void {
  if (ArrayBuffer.isView(from)) {
    const source = from as unknown as Uint8Array;
    (to as unknown as Uint8Array).set(source.subarray(at, at + length), into);
    return;
  }
  const target = to as unknown as unknown[];
  for (let i = 0; i < length; i++) target[into + i] = from[at + i];
}

export { KeyTable, hashA, hashB } from './keys.ts';
