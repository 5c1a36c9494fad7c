/**
 * What the capture pairer remembers once an exchange has ended, for the duplicate window:
 * under its key, the request's frame and layout, how it ended and when, and the hashes and
 * frames of its replies (so that a copy is told from another reply). Kept in finish order
 * and let go in that order, which is deadline order: a window after each ended. A key may be remembered more
 * than once (a client port reused): `newest` gives the latest, `older` the one before; the
 * key is filed once, naming its newest exchange, each exchange the one before it.
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
import { Rows } from './columns.ts';
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

/** An exchange's row: request frame, info (layout, outcome << 8, collects << 10), replies (first, count), when it ended. */
const REQUEST = 0;
const INFO = 1;
const FIRST_REPLY = 2;
const REPLIES = 3;
/** The exchange remembered before it under the same key (its row and that row's use then), its own use, its key. */
const OLDER = 4;
const OLDER_USE = 5;
const USE = 6;
const KEY = 7;
const TIME = 8;

/** A remembered reply's row: its hash's halves and its frame. */
const REPLY_LO = 0;
const REPLY_HI = 1;
const REPLY_FRAME = 2;

export class ExchangeMemory {
  /** The pairer's keys (see the module comment). */
  readonly #keys: KeyTable;
  /** Exchanges' rows, reused (a free list); a row's `use` counts its fillings, so a stale `older` is told. */
  readonly #rows = new Rows(10);
  #free = NONE;
  #top = 0;
  #uses = 0;
  #size = 0;
  /** Entries in finish order. */
  readonly #queue = new Fifo(1, false);
  readonly #replies = new Fifo(3, false);
  /** How many replies were ever queued, and how many let go (the number of the front one). */
  #repliesAt = 0;
  #repliesFirst = 0;
  /** When the front entry is to be let go (Infinity: none). */
  #next = Infinity;

  constructor(
    private readonly window: number,
    /** Called for each entry let go, with its request's frame, if it collected lines. */
    private readonly forget: ((frame: number) => void) | undefined,
    /** The pairer's keys, two words a row from FIELDS: {@link HEAD}, {@link NEWEST}. */
    keys: KeyTable,
  ) {
    this.#keys = keys;
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes held (the keys are the pairer's). */
  get bytes(): number {
    return this.#rows.bytes + this.#queue.bytes + this.#replies.bytes;
  }

  /** The time before which nothing is let go. */
  get next(): number {
    return this.#next;
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
    const rows = this.#rows;
    let e = this.#free;
    if (e !== NONE) this.#free = rows.u(e, OLDER);
    else rows.reserve((e = this.#top++));
    const older = this.#keys.rows.u(k, NEWEST);
    this.#keys.rows.setU(k, NEWEST, e);
    this.#size++;
    // Never 0, which a row let go holds.
    this.#uses = (this.#uses + 1) >>> 0 || 1;
    rows.setU(e, REQUEST, frame);
    rows.setU(e, INFO, layout | (outcome << 8) | ((collects ? 1 : 0) << 10));
    rows.setF(e, TIME, time);
    rows.setU(e, FIRST_REPLY, this.#repliesAt);
    rows.setU(e, REPLIES, count);
    rows.setU(e, OLDER, older);
    rows.setU(e, OLDER_USE, older === NONE ? 0 : rows.u(older, USE));
    rows.setU(e, USE, this.#uses);
    rows.setU(e, KEY, k);
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

  /** The newest entry under key row `k` (-1: no row), or -1; `older` the one remembered before `e` under it, if it is still remembered. */
  newest(k: number): number {
    if (k < 0) return -1;
    const e = this.#keys.rows.u(k, NEWEST);
    return e === NONE ? -1 : e;
  }

  older(e: number): number {
    const rows = this.#rows;
    const o = rows.u(e, OLDER);
    return o !== NONE && rows.u(o, USE) === rows.u(e, OLDER_USE) ? o : -1;
  }

  request(e: number): number {
    return this.#rows.u(e, REQUEST);
  }

  layout(e: number): number {
    return this.#rows.u(e, INFO) & 0xff;
  }

  outcome(e: number): number {
    return (this.#rows.u(e, INFO) >>> 8) & 3;
  }

  collects(e: number): boolean {
    return ((this.#rows.u(e, INFO) >>> 10) & 1) === 1;
  }

  /** When it ended (an unanswered one that timed out: a timeout after its request). */
  time(e: number): number {
    return this.#rows.f(e, TIME);
  }

  /** The frame of entry `e`'s reply whose bytes hashed to (lo, hi), or 0. */
  copyOf(e: number, lo: number, hi: number): number {
    const rows = this.#rows;
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
    return this.time(e) + this.window;
  }

  /** Lets go of the entries whose deadline is before `now` (at or before, unless `strictly`). */
  expire(now: number, strictly: boolean): void {
    const q = this.#queue;
    const rows = this.#rows;
    while (q.size) {
      const e = q.rows.u(q.first, 0);
      const until = this.#until(e);
      if (strictly ? until >= now : until > now) {
        this.#next = until;
        return;
      }
      q.shift();
      const end = (rows.u(e, FIRST_REPLY) + rows.u(e, REPLIES)) >>> 0;
      while (this.#repliesFirst !== end) {
        this.#replies.shift();
        this.#repliesFirst = (this.#repliesFirst + 1) >>> 0;
      }
      if (this.collects(e)) this.forget?.(this.request(e));
      // The key goes with its newest exchange, unless a request waits under it; an older one is let go by itself (its row reused).
      const k = rows.u(e, KEY);
      const keys = this.#keys.rows;
      if (keys.u(k, NEWEST) === e) {
        if (keys.u(k, HEAD) === NONE) this.#keys.remove(k);
        else keys.setU(k, NEWEST, NONE);
      }
      rows.setU(e, USE, 0);
      rows.setU(e, OLDER, this.#free);
      this.#free = e;
      this.#size--;
    }
    this.#next = Infinity;
  }

  clear(): void {
    if (this.forget) {
      const q = this.#queue;
      for (let i = 0; i < q.size; i++) {
        const e = q.rows.u(q.first + i, 0);
        if (this.collects(e)) this.forget(this.request(e));
      }
    }
    this.#rows.clear();
    this.#free = NONE;
    this.#top = this.#size = 0;
    this.#queue.clear();
    this.#replies.clear();
    this.#repliesAt = this.#repliesFirst = 0;
    this.#next = Infinity;
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
