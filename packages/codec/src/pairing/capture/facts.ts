/**
 * What the capture pairer learns of each frame, by frame number, for the pass that renders
 * it: 16 bytes a frame, kept only between the frame's arrival and its rendering (about one
 * request timeout of capture), in pages of typed arrays (columns.ts).
 *
 *   time  f64   a request: its own capture time; a linked or late reply: its request's;
 *               a duplicate: the frame it repeats. Nanoseconds since the first frame.
 *   link  u32   a request: its first reply (while it waits, the entry of the key it waits
 *               under); a reply: its request. 0: none.
 *   info  u32   bits 0–1 kind, 2 response, 3 final, 4 ambiguous, 5 has time, 6 waiting,
 *               7 timed by its request, 8–15 layout, 16–23 why (unanswered or unmatched),
 *               24–31 the layout of the request a near miss names. While a request waits,
 *               16–30 hold a hash of its bytes (twins are told by it), 31 that it has lines.
 */
import { PAGE_MASK, Rows } from './columns.ts';

/** A frame's row: its time (a double, words 0–1), link and info. */
const TIME = 0;
const LINK = 2;
const INFO = 3;

/** How a frame is read: not (yet) known. */
export const NONE = 0;
/** As a query message of a known layout. */
export const DECODED = 1;
/** By recognition alone (no query message the pairer could use). */
export const RAW = 2;

const KIND = 0x3;
/** A reply (else a request). */
export const RESPONSE = 1 << 2;
/** Nothing later changes the frame's facts. */
export const FINAL = 1 << 3;
/** An identical request from the same client to the same server was waiting with its exchange's. */
export const AMBIGUOUS = 1 << 4;
/** The frame has a capture time (a pcapng simple packet block, a hex dump: none). */
export const HAS_TIME = 1 << 5;
/** A request waiting for its reply (filed under its key; `link` chains the ones under the same key). */
export const WAITING = 1 << 6;
/** A reply whose `time` is its request's (for its response time). */
export const TIMED = 1 << 7;
/** A waiting request that has had lines (RCON): it waits for its quiet period, `link` is its first line. */
export const LINES = 1 << 31;
const LAYOUT_SHIFT = 8;
const WHY_SHIFT = 16;
const NAMED_SHIFT = 24;

/**
 * Why a request went unanswered or a reply unmatched, as a code (reasons.ts writes the
 * words). Unanswered: 1–3; a duplicate: 7; unmatched: 8–15.
 */
export const Why = {
  none: 0,
  timeout: 1,
  ended: 2,
  superseded: 3,
  /** Not unmatched: a copy of a reply already paired (`time` holds the frame of the first). */
  duplicate: 7,
  noRequest: 8,
  late: 9,
  extra: 10,
  rconClosed: 11,
  dropped: 12,
  nearMissServer: 13,
  nearMissType: 14,
  nearMissTypeAnswered: 15,
} as const;
/** One of {@link Why}. */
export type WhyCode = (typeof Why)[keyof typeof Why];

/** Each frame's facts, by frame number, for frames `first` up to `next` - 1 (see the module comment). */
export class FrameFacts {
  readonly #rows = new Rows(4);
  #first = 0;
  #next = 0;

  /** The oldest frame kept, and the one after the newest. */
  get first(): number {
    return this.#first;
  }

  get next(): number {
    return this.#next;
  }

  get size(): number {
    return this.#next - this.#first;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#rows.bytes;
  }

  /** Starts frame `frame` (the next in a row) at `time`: final unless a datagram the pairer reads. */
  open(frame: number, time: number, timed: boolean, final: boolean): void {
    if (this.#next === this.#first) this.#first = this.#next = frame;
    else if (frame !== this.#next) throw new RangeError(`frames out of order: ${frame} after ${this.#next - 1}`);
    if (frame > 0xffffffff) throw new RangeError(`frame ${frame}: frame numbers past 2^32 - 1 are not kept (tshark's limit too)`);
    const rows = this.#rows;
    rows.reserve(frame);
    rows.setF(frame, TIME, time);
    rows.setU(frame, LINK, 0);
    rows.setU(frame, INFO, (final ? FINAL : 0) | (timed ? HAS_TIME : 0));
    this.#next = frame + 1;
  }

  holds(frame: number): boolean {
    return frame >= this.#first && frame < this.#next;
  }

  info(frame: number): number {
    return this.#rows.u(frame, INFO);
  }

  setInfo(frame: number, info: number): void {
    this.#rows.setU(frame, INFO, info >>> 0);
  }

  /** Sets bits of `frame`'s info. */
  mark(frame: number, bits: number): void {
    this.#rows.setU(frame, INFO, (this.#rows.u(frame, INFO) | bits) >>> 0);
  }

  /** Clears bits of `frame`'s info. */
  unmark(frame: number, bits: number): void {
    this.#rows.setU(frame, INFO, (this.#rows.u(frame, INFO) & ~bits) >>> 0);
  }

  time(frame: number): number {
    return this.#rows.f(frame, TIME);
  }

  setTime(frame: number, time: number): void {
    this.#rows.setF(frame, TIME, time);
  }

  link(frame: number): number {
    return this.#rows.u(frame, LINK);
  }

  setLink(frame: number, link: number): void {
    this.#rows.setU(frame, LINK, link);
  }

  isFinal(frame: number): boolean {
    return (this.#rows.u(frame, INFO) & FINAL) !== 0;
  }

  /** The frame is read as `layout` (its number) in the given direction. */
  decoded(frame: number, layout: number, response: boolean): void {
    const info = this.#rows.u(frame, INFO) & ~(KIND | RESPONSE | (0xff << LAYOUT_SHIFT));
    this.#rows.setU(frame, INFO, (info | DECODED | (response ? RESPONSE : 0) | (layout << LAYOUT_SHIFT)) >>> 0);
  }

  /** The frame is read by recognition alone (no query message, or one the pairer could not use); final. */
  raw(frame: number): void {
    this.#rows.setU(frame, INFO, ((this.#rows.u(frame, INFO) & ~KIND) | RAW | FINAL) >>> 0);
  }

  /** Why the frame went unanswered or unmatched, and the request a near miss names (its layout). */
  why(frame: number, why: WhyCode, named = 0): void {
    const info = this.#rows.u(frame, INFO) & 0xffff;
    this.#rows.setU(frame, INFO, (info | (why << WHY_SHIFT) | (named << NAMED_SHIFT)) >>> 0);
  }

  /** The hash a waiting request is known by among its twins (15 bits, where `why` goes later). */
  setHash16(frame: number, hash: number): void {
    this.#rows.setU(frame, INFO, ((this.#rows.u(frame, INFO) & 0xffff) | ((hash & 0x7fff) << WHY_SHIFT)) >>> 0);
  }

  hash16(frame: number): number {
    return (this.#rows.u(frame, INFO) >>> WHY_SHIFT) & 0x7fff;
  }

  /** The oldest frame leaves (read its facts first). */
  shift(): void {
    this.#first++;
    if ((this.#first & PAGE_MASK) === 0) this.#rows.release(this.#first);
  }

  clear(): void {
    this.#first = this.#next = 0;
    this.#rows.clear();
  }
}

/** What an info word says: how the frame is read (NONE, DECODED, RAW). */
export const kindOf = (info: number): number => info & KIND;
/** Its layout's number (layouts.ts). */
export const layoutOf = (info: number): number => (info >>> LAYOUT_SHIFT) & 0xff;
/** Why it is unanswered or unmatched (once final). */
export const whyOf = (info: number): WhyCode => ((info >>> WHY_SHIFT) & 0xff) as WhyCode;
/** The layout number of the request a near miss names. */
export const namedOf = (info: number): number => info >>> NAMED_SHIFT;
