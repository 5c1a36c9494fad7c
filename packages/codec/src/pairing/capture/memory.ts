/**
 * What the capture pairer remembers once an exchange has ended, for the duplicate window:
 * under its key, the request's frame and layout, how it ended, a time, and the hashes and
 * frames of its replies (so that a copy is told from another reply). Kept in finish order
 * and let go in that order, which is deadline order: the deadline is a fixed time after the
 * finish (after the request's timeout, for one unanswered). A key may be remembered more
 * than once (a client port reused): `newest` gives the latest, `older` the one before.
 *
 * And a handshake's token, for its lifetime: the session id it was issued to, under the
 * conversation and the token.
 */
import { FIELDS, KeyTable } from './table.ts';
import { Fifo } from './queue.ts';

export const ANSWERED = 1;
export const UNANSWERED = 2;

/** An exchange's row: request frame, info (layout, outcome << 8, collects << 10), replies (first, count), time. */
const REQUEST = FIELDS;
const INFO = FIELDS + 1;
const FIRST_REPLY = FIELDS + 2;
const REPLIES = FIELDS + 3;
const TIME = FIELDS + 5 + ((FIELDS + 5) & 1);

/** A remembered reply's row: its hash's halves and its frame. */
const REPLY_LO = 0;
const REPLY_HI = 1;
const REPLY_FRAME = 2;

export class ExchangeMemory {
  readonly #table = new KeyTable(TIME - FIELDS + 2);
  /** Entries in finish order. */
  readonly #queue = new Fifo(1);
  readonly #replies = new Fifo(3);
  /** How many replies were ever queued, and how many let go (the number of the front one). */
  #repliesAt = 0;
  #repliesFirst = 0;
  /** When the front entry is to be let go (Infinity: none). */
  #next = Infinity;

  constructor(
    private readonly timeout: number,
    private readonly window: number,
    /** Called for each entry let go, with its request's frame, if it collected lines. */
    private readonly forget: ((frame: number) => void) | undefined,
  ) {}

  get size(): number {
    return this.#table.size;
  }

  get bytes(): number {
    return this.#table.bytes + this.#queue.bytes + this.#replies.bytes;
  }

  /** The time before which nothing is let go. */
  get next(): number {
    return this.#next;
  }

  /**
   * Remembers request `frame` (layout number `layout`) under the key, ended `outcome` at
   * `time` (unanswered: the request's own time), with its replies as (hash lo, hash hi,
   * frame) triples in `replies` from `from`, `count` of them.
   */
  remember(
    lo: number,
    hi: number,
    frame: number,
    layout: number,
    outcome: number,
    collects: boolean,
    time: number,
    replies: readonly number[] | undefined,
    count: number,
  ): void {
    const table = this.#table;
    const e = table.add(lo, hi);
    const rows = table.rows;
    rows.setU(e, REQUEST, frame);
    rows.setU(e, INFO, layout | (outcome << 8) | ((collects ? 1 : 0) << 10));
    rows.setF(e, TIME, time);
    rows.setU(e, FIRST_REPLY, this.#repliesAt);
    rows.setU(e, REPLIES, count);
    for (let i = 0; i < count * 3; i += 3) {
      const at = this.#replies.push();
      const r = this.#replies.rows;
      r.setU(at, REPLY_LO, replies![i]!);
      r.setU(at, REPLY_HI, replies![i + 1]!);
      r.setU(at, REPLY_FRAME, replies![i + 2]!);
      this.#repliesAt = (this.#repliesAt + 1) >>> 0;
    }
    this.#queue.rows.setU(this.#queue.push(), 0, e);
    if (this.#queue.size === 1) this.#next = this.#until(e);
  }

  /** The newest entry under the key, or -1; `older` the one remembered before `e` under it. */
  newest(lo: number, hi: number): number {
    return this.#table.find(lo, hi);
  }

  older(e: number): number {
    return this.#table.older(e);
  }

  request(e: number): number {
    return this.#table.rows.u(e, REQUEST);
  }

  layout(e: number): number {
    return this.#table.rows.u(e, INFO) & 0xff;
  }

  outcome(e: number): number {
    return (this.#table.rows.u(e, INFO) >>> 8) & 3;
  }

  collects(e: number): boolean {
    return ((this.#table.rows.u(e, INFO) >>> 10) & 1) === 1;
  }

  /** Unanswered: the request's time; answered: when it ended. */
  time(e: number): number {
    return this.#table.rows.f(e, TIME);
  }

  /** The frame of entry `e`'s reply whose bytes hashed to (lo, hi), or 0. */
  copyOf(e: number, lo: number, hi: number): number {
    const rows = this.#table.rows;
    const first = rows.u(e, FIRST_REPLY);
    const count = rows.u(e, REPLIES);
    const r = this.#replies.rows;
    for (let i = 0; i < count; i++) {
      const at = this.#replies.first + ((first + i - this.#repliesFirst) >>> 0);
      if (r.u(at, REPLY_LO) === lo && r.u(at, REPLY_HI) === hi) return r.u(at, REPLY_FRAME);
    }
    return 0;
  }

  #until(e: number): number {
    const time = this.time(e);
    return this.outcome(e) === UNANSWERED ? time + this.timeout + this.window : time + this.window;
  }

  /** Lets go of the entries whose deadline is before `now` (at or before, unless `strictly`). */
  expire(now: number, strictly: boolean): void {
    const q = this.#queue;
    const table = this.#table;
    while (q.size) {
      const e = q.rows.u(q.first, 0);
      const until = this.#until(e);
      if (strictly ? until >= now : until > now) {
        this.#next = until;
        return;
      }
      q.shift();
      const end = (table.rows.u(e, FIRST_REPLY) + table.rows.u(e, REPLIES)) >>> 0;
      while (this.#repliesFirst !== end) {
        this.#replies.shift();
        this.#repliesFirst = (this.#repliesFirst + 1) >>> 0;
      }
      if (this.collects(e)) this.forget?.(this.request(e));
      table.remove(e);
    }
    this.#next = Infinity;
  }

  clear(): void {
    if (this.forget) this.expire(Infinity, false);
    this.#table.clear();
    this.#queue.clear();
    this.#replies.clear();
    this.#repliesAt = this.#repliesFirst = 0;
    this.#next = Infinity;
  }
}

/** A token's row: the session id it was issued to, and until when it is kept. */
const SESSION = FIELDS;
const UNTIL = FIELDS + 1 + ((FIELDS + 1) & 1);

export class TokenMemory {
  readonly #table = new KeyTable(UNTIL - FIELDS + 2);
  readonly #queue = new Fifo(1);
  #next = Infinity;

  get size(): number {
    return this.#table.size;
  }

  get bytes(): number {
    return this.#table.bytes + this.#queue.bytes;
  }

  get next(): number {
    return this.#next;
  }

  /** Keeps a token (its key) issued to `session`, until `until`. */
  keep(lo: number, hi: number, session: number, until: number): void {
    const e = this.#table.add(lo, hi);
    this.#table.rows.setU(e, SESSION, session);
    this.#table.rows.setF(e, UNTIL, until);
    this.#queue.rows.setU(this.#queue.push(), 0, e);
    if (this.#queue.size === 1) this.#next = until;
  }

  /** The session id the newest token under the key was issued to, or -1. */
  session(lo: number, hi: number): number {
    const e = this.#table.find(lo, hi);
    return e < 0 ? -1 : this.#table.rows.u(e, SESSION);
  }

  expire(now: number, strictly: boolean): void {
    const q = this.#queue;
    while (q.size) {
      const e = q.rows.u(q.first, 0);
      const until = this.#table.rows.f(e, UNTIL);
      if (strictly ? until >= now : until > now) {
        this.#next = until;
        return;
      }
      q.shift();
      this.#table.remove(e);
    }
    this.#next = Infinity;
  }

  clear(): void {
    this.#table.clear();
    this.#queue.clear();
    this.#next = Infinity;
  }
}
