/**
 * What the capture pairer remembers once an exchange has ended, for the duplicate window:
 * under its key, the request's frame and layout, how it ended and when, and the hashes and
 * frames of its replies (so that a copy is told from another reply). Kept in finish order
 * and let go in that order, which is deadline order: a window after each ended. One row an
 * exchange in a queue, written once (rows from a free list, a queue of them and a queue of
 * replies cost twice as many words written, and 2 % of `gamequery stats` on 1 M frames of
 * the mix). A key may be remembered more than once (a client port reused): `newest` gives
 * the latest, `older` the one before; the key is filed once, naming its newest exchange,
 * each exchange the one before it.
 *
 * The keys are the pairer's own table (pairer.ts), shared by the requests waiting and the
 * exchanges remembered: a key's row names the oldest request waiting under it ({@link HEAD})
 * and the newest exchange remembered ({@link NEWEST}), {@link NONE} for none, and goes when it
 * has neither. So a reply's key is looked up once, and its exchange remembered in the row its request
 * waited in: a table of the memory's own cost a lookup and a row made for each exchange, and
 * a row taken out when a request's last reply came (its keys were a tenth of `gamequery stats`
 * on 1 M frames of the mix; one table took 4 % off).
 *
 * And a handshake's token, for its lifetime: the session id it was issued to, under the
 * conversation and the token.
 */
import { FIELDS, KeyTable } from './table.ts';
import { Fifo } from './queue.ts';

export const ANSWERED = 1;
export const UNANSWERED = 2;

/** A key's row in the shared table: the oldest request waiting under it, the newest exchange remembered under it. */
export const HEAD = FIELDS;
export const NEWEST = FIELDS + 1;
/** Neither (no frame number: frames stop at 2^32 - 2 here). */
export const NONE = 0xffffffff;

/** The shared table's row for a key, made (with neither) if it has none. */
export function rowOf(keys: KeyTable, lo: number, hi: number): number {
  const k = keys.find(lo, hi);
  return k >= 0 ? k : newRow(keys, lo, hi);
}

/** A row for a key that has none, with neither. */
export function newRow(keys: KeyTable, lo: number, hi: number): number {
  const k = keys.add(lo, hi);
  keys.rows.setU(k, HEAD, NONE);
  keys.rows.setU(k, NEWEST, NONE);
  return k;
}

/**
 * An exchange's row: request frame, info (layout, outcome << 8, collects << 10), the
 * exchange remembered before it under the same key, its key's row, how many replies, the
 * one reply's hash halves and frame (of several, an RCON request's lines: where they start
 * in the lines' queue), and when it ended.
 */
const REQUEST = 0;
const INFO = 1;
const OLDER = 2;
const KEY = 3;
const REPLIES = 4;
const REPLY_LO = 5;
const REPLY_HI = 6;
const REPLY_FRAME = 7;
const FIRST_LINE = REPLY_LO;
const TIME = 8;

/** Exchanges are numbered in finish order modulo this (so that no number is {@link NONE}). */
const NUMBERS = 0xffffffff;

export class ExchangeMemory {
  /** The pairer's keys (see the module comment). */
  readonly #keys: KeyTable;
  /**
   * Exchanges in finish order, one row each, written once and let go from the front: a
   * million exchanges remembered are a million rows written and read in sequence, with no
   * free list. An exchange is known by its number (its key's row and a newer exchange's
   * link hold it), given in finish order, so one let go is told by its number alone: it is
   * below the oldest's. Numbers wrap (modulo {@link NUMBERS}) and are read as distances from
   * the oldest's; a stale link is at most a window old, far less than the numbers' range.
   */
  readonly #rows = new Fifo(9);
  /** The number of the oldest exchange remembered. */
  #first = 0;
  /** The lines of exchanges with more than one reply (RCON), in the same order: hash halves and frame. */
  readonly #lines = new Fifo(3, false);
  /** How many lines were ever queued, and how many let go (the number of the front one). */
  #linesAt = 0;
  #linesFirst = 0;
  /** When the front entry is to be let go (Infinity: none). */
  #nextTime = Infinity;

  constructor(
    private readonly window: number,
    /** Called for each entry let go, with its request's frame, if it collected lines. */
    private readonly forget: ((frame: number) => void) | undefined,
    /** The pairer's keys, two words a row from FIELDS: {@link HEAD}, {@link NEWEST}. */
    keys: KeyTable,
    /** Exchanges are numbered modulo this ({@link NUMBERS}; a test's own, smaller). */
    private readonly numbers = NUMBERS,
  ) {
    this.#keys = keys;
  }

  get size(): number {
    return this.#rows.size;
  }

  /** Bytes held (the keys are the pairer's). */
  get bytes(): number {
    return this.#rows.bytes + this.#lines.bytes;
  }

  /** The time before which nothing is let go. */
  get next(): number {
    return this.#nextTime;
  }

  /** Exchange `e`'s position in `#rows` (it is remembered). */
  #at(e: number): number {
    const d = e - this.#first;
    return this.#rows.first + (d < 0 ? d + this.numbers : d);
  }

  /**
   * Remembers request `frame` (layout number `layout`) under key row `k`, ended `outcome` at
   * `time`, with its replies as (hash lo, hash hi, frame) triples in `replies`, `count` of them.
   */
  remember(
    k: number,
    frame: number,
    layout: number,
    outcome: number,
    collects: boolean,
    time: number,
    replies: readonly number[] | undefined,
    count: number,
  ): void {
    const q = this.#rows;
    const first = q.size === 0;
    const e = (this.#first + q.size) % this.numbers;
    const at = q.push();
    const rows = q.rows;
    const keys = this.#keys.rows;
    rows.setU(at, OLDER, keys.u(k, NEWEST));
    keys.setU(k, NEWEST, e);
    rows.setU(at, REQUEST, frame);
    rows.setU(at, INFO, layout | (outcome << 8) | ((collects ? 1 : 0) << 10));
    rows.setF(at, TIME, time);
    rows.setU(at, KEY, k);
    rows.setU(at, REPLIES, count);
    if (count === 1) {
      rows.setU(at, REPLY_LO, replies![0]!);
      rows.setU(at, REPLY_HI, replies![1]!);
      rows.setU(at, REPLY_FRAME, replies![2]!);
    } else if (count > 1) {
      rows.setU(at, FIRST_LINE, this.#linesAt);
      const lines = this.#lines;
      for (let i = 0; i < count * 3; i += 3) {
        const l = lines.push();
        lines.rows.setU(l, 0, replies![i]!);
        lines.rows.setU(l, 1, replies![i + 1]!);
        lines.rows.setU(l, 2, replies![i + 2]!);
      }
      this.#linesAt = (this.#linesAt + count) >>> 0;
    }
    if (first) this.#nextTime = time + this.window;
  }

  /** The newest entry under key row `k` (-1: no row), or -1; `older` the one remembered before `e` under it, if it is still remembered. */
  newest(k: number): number {
    if (k < 0) return -1;
    const e = this.#keys.rows.u(k, NEWEST);
    return e === NONE ? -1 : e;
  }

  older(e: number): number {
    const o = this.#rows.rows.u(this.#at(e), OLDER);
    if (o === NONE) return -1;
    // Still remembered: no further from the oldest than the newest is (one let go is a wrap away).
    const d = o - this.#first;
    return (d < 0 ? d + this.numbers : d) < this.#rows.size ? o : -1;
  }

  request(e: number): number {
    return this.#rows.rows.u(this.#at(e), REQUEST);
  }

  layout(e: number): number {
    return this.#rows.rows.u(this.#at(e), INFO) & 0xff;
  }

  outcome(e: number): number {
    return (this.#rows.rows.u(this.#at(e), INFO) >>> 8) & 3;
  }

  collects(e: number): boolean {
    return ((this.#rows.rows.u(this.#at(e), INFO) >>> 10) & 1) === 1;
  }

  /** When it ended (an unanswered one that timed out: a timeout after its request). */
  time(e: number): number {
    return this.#rows.rows.f(this.#at(e), TIME);
  }

  /** The frame of entry `e`'s reply whose bytes hashed to (lo, hi), or 0. */
  copyOf(e: number, lo: number, hi: number): number {
    const rows = this.#rows.rows;
    const at = this.#at(e);
    const count = rows.u(at, REPLIES);
    if (count === 1) return rows.u(at, REPLY_LO) === lo && rows.u(at, REPLY_HI) === hi ? rows.u(at, REPLY_FRAME) : 0;
    const first = rows.u(at, FIRST_LINE);
    const lines = this.#lines;
    for (let i = 0; i < count; i++) {
      const l = lines.first + ((first + i - this.#linesFirst) >>> 0);
      if (lines.rows.u(l, 0) === lo && lines.rows.u(l, 1) === hi) return lines.rows.u(l, 2);
    }
    return 0;
  }

  /** Lets go of the entries whose deadline is before `now` (at or before, unless `strictly`). */
  expire(now: number, strictly: boolean): void {
    const q = this.#rows;
    const rows = q.rows;
    const keys = this.#keys.rows;
    while (q.size) {
      const at = q.first;
      const until = rows.f(at, TIME) + this.window;
      if (strictly ? until >= now : until > now) {
        this.#nextTime = until;
        return;
      }
      const count = rows.u(at, REPLIES);
      if (count > 1) {
        for (let i = 0; i < count; i++) this.#lines.shift();
        this.#linesFirst = (this.#linesFirst + count) >>> 0;
      }
      if (this.forget && (rows.u(at, INFO) >>> 10) & 1) this.forget(rows.u(at, REQUEST));
      // The key goes with its newest exchange, unless a request waits under it; an older one just goes.
      const k = rows.u(at, KEY);
      if (keys.u(k, NEWEST) === this.#first) {
        if (keys.u(k, HEAD) === NONE) this.#keys.remove(k);
        else keys.setU(k, NEWEST, NONE);
      }
      q.shift();
      this.#first = this.#first === this.numbers - 1 ? 0 : this.#first + 1;
    }
    this.#nextTime = Infinity;
  }

  clear(): void {
    if (this.forget) {
      const q = this.#rows;
      for (let i = 0; i < q.size; i++) if ((q.rows.u(q.first + i, INFO) >>> 10) & 1) this.forget(q.rows.u(q.first + i, REQUEST));
    }
    this.#rows.clear();
    this.#first = 0;
    this.#lines.clear();
    this.#linesAt = this.#linesFirst = 0;
    this.#nextTime = Infinity;
  }
}

/** A token's row: the session id it was issued to, until when it is kept, and how many times the row was filled. */
const SESSION = FIELDS;
const GENERATION = FIELDS + 1;
const UNTIL = FIELDS + 2 + ((FIELDS + 2) & 1);

export class TokenMemory {
  /** One entry per key (a handshake asked again gets the same token: the entry is filled again). */
  readonly #table = new KeyTable(UNTIL - FIELDS + 2, true);
  /** Entries and the generation each was queued with, in keeping order. */
  readonly #queue = new Fifo(2, false);
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
    const table = this.#table;
    let e = table.find(lo, hi);
    // A row's generation only grows, whatever key fills it: an item queued for an earlier filling never matches.
    if (e < 0) e = table.add(lo, hi);
    const generation = (table.rows.u(e, GENERATION) + 1) >>> 0;
    table.rows.setU(e, GENERATION, generation);
    table.rows.setU(e, SESSION, session);
    table.rows.setF(e, UNTIL, until);
    const at = this.#queue.push();
    this.#queue.rows.setU(at, 0, e);
    this.#queue.rows.setU(at, 1, generation);
    if (this.#queue.size === 1) this.#next = until;
  }

  /** The session id the token under the key was issued to, or -1. */
  session(lo: number, hi: number): number {
    const e = this.#table.find(lo, hi);
    return e < 0 ? -1 : this.#table.rows.u(e, SESSION);
  }

  expire(now: number, strictly: boolean): void {
    const q = this.#queue;
    const rows = this.#table.rows;
    while (q.size) {
      const e = q.rows.u(q.first, 0);
      // Kept again since (a later item stands for it), or let go: stale.
      if (rows.u(e, GENERATION) !== q.rows.u(q.first, 1)) {
        q.shift();
        continue;
      }
      const until = rows.f(e, UNTIL);
      if (strictly ? until >= now : until > now) {
        this.#next = until;
        return;
      }
      q.shift();
      rows.setU(e, GENERATION, (rows.u(e, GENERATION) + 1) >>> 0);
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
