/**
 * A hash table of 64-bit keys, each naming an entry: a row (columns.ts) whose first three
 * words are the key's halves and the next entry in its bucket, the rest the owner's
 * fields (pairer.ts reads and writes them by word).
 *
 * A key is two 32-bit halves of independent hashes (keys.ts): two entries whose halves
 * both agree are taken for the same key, a chance of one in 2^64 per pair, far below that
 * of a capture holding the same bytes by accident. Chained: `#heads` holds, per bucket,
 * the newest entry filed there, each entry the next one down; a bucket is chosen by the
 * low half. A key may be filed more than once: `find` gives the newest, `older` the one
 * before it. Entry numbers are reused (a free list), so the table is as large as the most
 * entries it held at once, plus 2 to 8 bytes an entry of buckets.
 *
 * The buckets grow fourfold when entries pass two a bucket: a query flood's two million
 * waiting requests are moved about 2.7 million times in all, not 4 million, and each bucket's
 * chain is split in order (no list of it reversed), 8 % of `gamequery stats` on the flood
 * before, when they doubled.
 */
import { Rows } from './columns.ts';

const NONE = 0xffffffff;
const LO = 0;
const HI = 1;
const NEXT = 2;

/** The buckets grow this many times over at once, when the entries pass `LOAD` a bucket. */
const GROWTH = 4;
const LOAD = 2;

/** The first word of a row that is the owner's. */
export const FIELDS = 3;

export class KeyTable {
  /** The rows: the key's halves and the bucket's next entry, then the owner's `fields` words. */
  readonly rows: Rows;
  #heads = new Uint32Array(1024).fill(NONE);
  #mask = 1023;
  #free = NONE;
  /** Entry numbers used so far (the highest + 1). */
  #top = 0;
  #size = 0;
  readonly #tails = new Uint32Array(GROWTH);

  /** `fields`: the owner's words per entry; `doubles`: whether any two of them hold a double. */
  constructor(fields: number, doubles = false) {
    this.rows = new Rows(FIELDS + fields, doubles);
  }

  /** Entries filed. */
  get size(): number {
    return this.#size;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#heads.byteLength + this.rows.bytes;
  }

  /** The newest entry filed under the key, or -1. */
  find(lo: number, hi: number): number {
    const rows = this.rows;
    for (let e = this.#heads[lo & this.#mask]!; e !== NONE; e = rows.u(e, NEXT)) {
      if (rows.u(e, LO) === lo && rows.u(e, HI) === hi) return e;
    }
    return -1;
  }

  /** The entry filed under the same key before entry `e`, or -1. */
  older(e: number): number {
    const rows = this.rows;
    const lo = rows.u(e, LO),
      hi = rows.u(e, HI);
    for (let o = rows.u(e, NEXT); o !== NONE; o = rows.u(o, NEXT)) {
      if (rows.u(o, LO) === lo && rows.u(o, HI) === hi) return o;
    }
    return -1;
  }

  /** The halves of the key entry `e` is filed under. */
  lo(e: number): number {
    return this.rows.u(e, LO);
  }

  hi(e: number): number {
    return this.rows.u(e, HI);
  }

  /** Files a new entry under the key (the newest under it); returns its number. */
  add(lo: number, hi: number): number {
    const rows = this.rows;
    let e = this.#free;
    if (e !== NONE) {
      this.#free = rows.u(e, NEXT);
    } else {
      e = this.#top++;
      rows.reserve(e);
    }
    const b = lo & this.#mask;
    rows.setU(e, LO, lo);
    rows.setU(e, HI, hi);
    rows.setU(e, NEXT, this.#heads[b]!);
    this.#heads[b] = e;
    if (++this.#size > LOAD * this.#heads.length) this.#grow();
    return e;
  }

  /** Takes entry `e` out; its number is reused. */
  remove(e: number): void {
    const rows = this.rows;
    const b = rows.u(e, LO) & this.#mask;
    let at = this.#heads[b]!;
    if (at === e) {
      this.#heads[b] = rows.u(e, NEXT);
    } else {
      while (at !== NONE) {
        const next = rows.u(at, NEXT);
        if (next === e) {
          rows.setU(at, NEXT, rows.u(e, NEXT));
          break;
        }
        at = next;
      }
      if (at === NONE) throw new Error(`KeyTable: entry ${e} is not filed`);
    }
    rows.setU(e, NEXT, this.#free);
    this.#free = e;
    this.#size--;
  }

  clear(): void {
    this.#heads = new Uint32Array(1024).fill(NONE);
    this.#mask = 1023;
    this.#free = NONE;
    this.#top = 0;
    this.#size = 0;
    this.rows.clear();
  }

  /**
   * Four times the buckets, every entry moved to its bucket of the new size, newest still first
   * under a key: a bucket's chain splits into four, each kept in its order (appended at its tail).
   */
  #grow(): void {
    const rows = this.rows;
    const old = this.#heads;
    const n = old.length;
    const heads = new Uint32Array(n * GROWTH).fill(NONE);
    const shift = 31 - Math.clz32(n);
    const tails = this.#tails;
    for (let b = 0; b < n; b++) {
      tails.fill(NONE);
      for (let e = old[b]!; e !== NONE;) {
        const next = rows.u(e, NEXT);
        const j = (rows.u(e, LO) >>> shift) & (GROWTH - 1);
        rows.setU(e, NEXT, NONE);
        const t = tails[j]!;
        if (t === NONE) heads[b + j * n] = e;
        else rows.setU(t, NEXT, e);
        tails[j] = e;
        e = next;
      }
    }
    this.#heads = heads;
    this.#mask = heads.length - 1;
  }
}
