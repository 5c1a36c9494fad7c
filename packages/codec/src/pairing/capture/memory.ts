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

/**
 * A token's row, in keeping order: its key's halves, the next row filed in its bucket (newer
 * rows first), the session id it was issued to, and until when it is kept (a double).
 */
const T_LO = 0;
const T_HI = 1;
const T_NEXT = 2;
const T_SESSION = 3;
const T_UNTIL = 4;
/** A row's `T_NEXT` once a newer row took its key: it waits in the queue, filed nowhere. */
const DEAD = 0xfffffffe;
/** The buckets grow fourfold when the tokens pass two a bucket. */
const TOKEN_LOAD = 2;

/**
 * Tokens under their keys, each until its time. The rows are one queue in keeping order,
 * which is their order of expiry (a fixed lifetime after a clock that only grows), chained
 * into buckets by row position: 24 bytes a token and 2 to 8 of buckets, where a key table's
 * entry and a queue item naming it took 44 (a Minecraft handshake flood keeps every token
 * for its 30 s: 15 million at 500 000 handshakes a second). A key kept again takes a new
 * row; the old one leaves its bucket at once and its queue place when its time comes.
 */
export class TokenMemory {
  readonly #rows: Fifo;
  #heads = new Uint32Array(1024).fill(NONE);
  #mask = 1023;
  /** Tokens filed (rows in a bucket). */
  #size = 0;
  #next = Infinity;

  /** `rebaseAt`: where the queue's positions move down (a test's own, smaller; see queue.ts). */
  constructor(rebaseAt?: number) {
    this.#rows = new Fifo(T_UNTIL + 2, true, rebaseAt);
  }

  get size(): number {
    return this.#size;
  }

  get bytes(): number {
    return this.#heads.byteLength + this.#rows.bytes;
  }

  /** No token is due before this time (Infinity: none is kept). */
  get next(): number {
    return this.#next;
  }

  /** Keeps a token (its key) issued to `session`, until `until`: the key's token before it, if any, is replaced. */
  keep(lo: number, hi: number, session: number, until: number): void {
    const q = this.#rows;
    const rows = q.rows;
    const b = lo & this.#mask;
    for (let r = this.#heads[b]!, before = NONE; r !== NONE; before = r, r = rows.u(r, T_NEXT)) {
      if (rows.u(r, T_LO) !== lo || rows.u(r, T_HI) !== hi) continue;
      this.#unlink(b, before, r);
      rows.setU(r, T_NEXT, DEAD);
      this.#size--;
      break;
    }
    const r = q.push();
    rows.setU(r, T_LO, lo);
    rows.setU(r, T_HI, hi);
    rows.setU(r, T_NEXT, this.#heads[b]!);
    rows.setU(r, T_SESSION, session);
    rows.setF(r, T_UNTIL, until);
    this.#heads[b] = r;
    if (q.size === 1) this.#next = until;
    if (++this.#size > TOKEN_LOAD * this.#heads.length) this.#refile(this.#heads.length * 4);
  }

  /** The session id the token under the key was issued to, or -1. */
  session(lo: number, hi: number): number {
    const rows = this.#rows.rows;
    for (let r = this.#heads[lo & this.#mask]!; r !== NONE; r = rows.u(r, T_NEXT)) {
      if (rows.u(r, T_LO) === lo && rows.u(r, T_HI) === hi) return rows.u(r, T_SESSION);
    }
    return -1;
  }

  expire(now: number, strictly: boolean): void {
    const q = this.#rows;
    const rows = q.rows;
    while (q.size) {
      const r = q.first;
      const until = rows.f(r, T_UNTIL);
      if (strictly ? until >= now : until > now) {
        this.#next = until;
        return;
      }
      if (rows.u(r, T_NEXT) !== DEAD) {
        // The oldest row filed: last in its bucket, newer rows before it.
        const b = rows.u(r, T_LO) & this.#mask;
        let before = NONE;
        for (let at = this.#heads[b]!; at !== r; at = rows.u(at, T_NEXT)) before = at;
        this.#unlink(b, before, r);
        this.#size--;
      }
      q.shift();
      // The queue moved its positions down: the buckets' links move with them.
      if (q.first < r) this.#refile(this.#heads.length);
    }
    this.#next = Infinity;
  }

  clear(): void {
    this.#rows.clear();
    this.#heads = new Uint32Array(1024).fill(NONE);
    this.#mask = 1023;
    this.#size = 0;
    this.#next = Infinity;
  }

  #unlink(b: number, before: number, r: number): void {
    const rows = this.#rows.rows;
    if (before === NONE) this.#heads[b] = rows.u(r, T_NEXT);
    else rows.setU(before, T_NEXT, rows.u(r, T_NEXT));
  }

  /** Every filed row into `buckets` buckets, by queue position as it stands, oldest first (so newest first in a bucket). */
  #refile(buckets: number): void {
    const q = this.#rows;
    const rows = q.rows;
    const heads = new Uint32Array(buckets).fill(NONE);
    const mask = buckets - 1;
    for (let r = q.first, end = q.first + q.size; r < end; r++) {
      if (rows.u(r, T_NEXT) === DEAD) continue;
      const b = rows.u(r, T_LO) & mask;
      rows.setU(r, T_NEXT, heads[b]!);
      heads[b] = r;
    }
    this.#heads = heads;
    this.#mask = mask;
  }
}
