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
 * entries it held at once, plus 4 to 16 bytes an entry of buckets.
 *
 * Beside each bucket's newest entry, sixteen 2-bit counts of the entries filed there by four
 * bits of their high half: a key whose count is 0 is not there, known without reading a row.
 * A query flood's requests are nearly all new keys, each looked for in a table of millions
 * (every row read a cache miss): 14 % of `gamequery stats --by source -z io,stat,1` on the
 * flood went on reading rows of buckets that did not hold the key. A count that reached 3
 * stays there until the buckets grow (no entry is missed; a few more rows are read).
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
  /** Per bucket, two words: its newest entry, and its counts ({@link tagOf}). */
  #heads = emptyHeads(1024);
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
    const b = (lo & this.#mask) << 1;
    if ((this.#heads[b + 1]! & tagOf(hi)) === 0) return -1;
    for (let e = this.#heads[b]!; e !== NONE; e = rows.u(e, NEXT)) {
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
    const heads = this.#heads;
    const b = (lo & this.#mask) << 1;
    rows.setU(e, LO, lo);
    rows.setU(e, HI, hi);
    rows.setU(e, NEXT, heads[b]!);
    heads[b] = e;
    heads[b + 1] = counted(heads[b + 1]!, hi);
    if (++this.#size > (LOAD * heads.length) / 2) this.#grow();
    return e;
  }

  /** Takes entry `e` out; its number is reused. */
  remove(e: number): void {
    const rows = this.rows;
    const heads = this.#heads;
    const b = (rows.u(e, LO) & this.#mask) << 1;
    let at = heads[b]!;
    if (at === e) {
      heads[b] = rows.u(e, NEXT);
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
    // Its count down by one, unless it reached 3 (then how many are there is not known).
    const shift = (rows.u(e, HI) & 15) << 1;
    const count = (heads[b + 1]! >>> shift) & 3;
    if (count < 3) heads[b + 1] = (heads[b + 1]! - (1 << shift)) >>> 0;
    rows.setU(e, NEXT, this.#free);
    this.#free = e;
    this.#size--;
  }

  clear(): void {
    this.#heads = emptyHeads(1024);
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
    const n = old.length >>> 1;
    const heads = emptyHeads(n * GROWTH);
    const shift = 31 - Math.clz32(n);
    const tails = this.#tails;
    for (let b = 0; b < n; b++) {
      tails.fill(NONE);
      for (let e = old[b << 1]!; e !== NONE;) {
        const next = rows.u(e, NEXT);
        const j = (rows.u(e, LO) >>> shift) & (GROWTH - 1);
        const to = (b + j * n) << 1;
        rows.setU(e, NEXT, NONE);
        const t = tails[j]!;
        if (t === NONE) heads[to] = e;
        else rows.setU(t, NEXT, e);
        tails[j] = e;
        // Counted afresh: a count stuck at 3 comes back to what it is.
        heads[to + 1] = counted(heads[to + 1]!, rows.u(e, HI));
        e = next;
      }
    }
    this.#heads = heads;
    this.#mask = n * GROWTH - 1;
  }
}

/** `buckets` buckets with no entry and every count 0. */
function emptyHeads(buckets: number): Uint32Array {
  const heads = new Uint32Array(buckets * 2);
  for (let i = 0; i < heads.length; i += 2) heads[i] = NONE;
  return heads;
}

/** The bits of a bucket's counts that are set if a key with high half `hi` may be there: its count's. */
const tagOf = (hi: number): number => 3 << ((hi & 15) << 1);

/** A bucket's counts with one more key of high half `hi`: its count up by one, up to 3. */
function counted(counts: number, hi: number): number {
  const shift = (hi & 15) << 1;
  return ((counts >>> shift) & 3) === 3 ? counts : (counts + (1 << shift)) >>> 0;
}
