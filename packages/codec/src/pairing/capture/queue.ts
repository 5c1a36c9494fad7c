/**
 * A first-in, first-out queue of rows (columns.ts): what each of the capture pairer's
 * deadlines and its remembered replies are kept in. A deadline here is always a fixed time
 * after something that happened in capture order, so a queue is in deadline order.
 *
 * `push` gives the new row's position, `first` the front's; read and write their words
 * through `rows`. Positions are valid until the next `shift` (now and then they move
 * down, so that they stay below 2^32 however long a live capture runs).
 */
import { PAGE_BITS, PAGE_MASK, Rows } from './columns.ts';

const REBASE = 2 ** 30;

export class Fifo {
  readonly rows: Rows;
  #first = 0;
  #next = 0;

  /**
   * `doubles`: whether a row holds doubles (then its words round up to even); `rebaseAt`:
   * the front position past which positions move down (2^30; a test's own, smaller).
   */
  constructor(
    words: number,
    doubles = true,
    private readonly rebaseAt = REBASE,
  ) {
    this.rows = new Rows(words, doubles);
  }

  get size(): number {
    return this.#next - this.#first;
  }

  /** The front row's position (the queue is not empty). */
  get first(): number {
    return this.#first;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.rows.bytes;
  }

  /** A new row at the back; returns its position. */
  push(): number {
    const i = this.#next++;
    this.rows.reserve(i);
    return i;
  }

  shift(): void {
    const first = ++this.#first;
    if ((first & PAGE_MASK) !== 0) return;
    this.rows.release(first);
    if (first >= this.rebaseAt) {
      const pages = first >>> PAGE_BITS;
      this.rows.rebase(pages);
      this.#first -= pages << PAGE_BITS;
      this.#next -= pages << PAGE_BITS;
    }
  }

  clear(): void {
    this.#first = this.#next = 0;
    this.rows.clear();
  }
}
