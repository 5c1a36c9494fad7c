/**
 * Rows of numbers in pages of typed arrays: the storage of the capture pairer's tables
 * (table.ts), its frame facts (facts.ts) and its queues (queue.ts).
 *
 * A row is `stride` 32-bit words side by side (a double takes two, at an even word), so
 * the fields of one entry share a cache line: a table of a million entries is read at
 * random, and one miss an entry instead of one a field was most of what pairing a reply
 * cost. Pages, not one array that doubles: a table of two million entries grows by a page
 * at a time, where a doubling array holds its old and new copies at once (half as much
 * again, at the worst moment). A page is 4096 rows.
 *
 * Rows are numbered from 0 up for a table that reuses its entries' numbers (`reserve`
 * makes room); or from any first row up, for what is kept by frame number or in arrival
 * order, its oldest pages let go as the first row passes them (`release`). Row numbers
 * stay below 2^32.
 */

export const PAGE_BITS = 12;
export const PAGE = 1 << PAGE_BITS;
export const PAGE_MASK = PAGE - 1;

/**
 * An empty list whose elements are objects from the start (V8's kind of array for them). A
 * list made `[]` holds small integers until its first object comes in, and is another kind of
 * array after: optimized code that had met lists of one kind gave way (V8's "wrong map") when
 * it met the other, as at a new table's or ring's first page, four times in a run of `stats`,
 * each time in the hot function it was inlined in.
 */
export function objectList<T>(): T[] {
  const list: (T | null)[] = [null];
  list.pop();
  return list as T[];
}

export class Rows {
  /** 32-bit words per row (even where a row holds doubles). */
  readonly stride: number;
  #words = objectList<Uint32Array>();
  #doubles = objectList<Float64Array>();
  /** The page number of the first page held. */
  #base = 0;
  #spare: ArrayBuffer | undefined;

  /** `doubles`: a row holds doubles, so its words start at an even word (`words` rounds up to even). */
  constructor(words: number, doubles = true) {
    this.stride = doubles ? words + (words & 1) : words;
  }

  /** Makes room for row `i` (at or above every row asked for before, in ring use). */
  reserve(i: number): void {
    const p = i >>> PAGE_BITS;
    if (this.#words.length === 0) this.#base = p;
    while (this.#base + this.#words.length <= p) {
      const buffer = this.#spare ?? new ArrayBuffer(PAGE * this.stride * 4);
      this.#spare = undefined;
      this.#words.push(new Uint32Array(buffer));
      this.#doubles.push(new Float64Array(buffer));
    }
  }

  /** Ring use: lets go of the pages wholly below row `first` (one kept for reuse). */
  release(first: number): void {
    const p = first >>> PAGE_BITS;
    while (this.#words.length && this.#base < p) {
      this.#spare = this.#words.shift()!.buffer as ArrayBuffer;
      this.#doubles.shift();
      this.#base++;
    }
  }

  /** Ring use: row numbers from now on are `pages` pages lower (the owner moves its positions down by as much). */
  rebase(pages: number): void {
    this.#base -= pages;
  }

  /** Word `k` of row `i`. */
  u(i: number, k: number): number {
    return this.#words[(i >>> PAGE_BITS) - this.#base]![(i & PAGE_MASK) * this.stride + k]!;
  }

  setU(i: number, k: number, v: number): void {
    this.#words[(i >>> PAGE_BITS) - this.#base]![(i & PAGE_MASK) * this.stride + k] = v;
  }

  /** The double at words `k`, `k` + 1 of row `i` (`k` even). */
  f(i: number, k: number): number {
    return this.#doubles[(i >>> PAGE_BITS) - this.#base]![((i & PAGE_MASK) * this.stride + k) >>> 1]!;
  }

  setF(i: number, k: number, v: number): void {
    this.#doubles[(i >>> PAGE_BITS) - this.#base]![((i & PAGE_MASK) * this.stride + k) >>> 1] = v;
  }

  /** Bytes held. */
  get bytes(): number {
    return (this.#words.length + (this.#spare ? 1 : 0)) * PAGE * this.stride * 4;
  }

  clear(): void {
    this.#words = objectList();
    this.#doubles = objectList();
    this.#base = 0;
  }
}
