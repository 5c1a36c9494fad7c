/**
 * What the first pass learns of each frame, for the pass that renders it: how to read it
 * and its links. Kept per frame, in typed arrays, only between the two passes' positions
 * (about one request timeout of capture): 35 bytes a frame, no reference for the collector
 * to walk (a layout and a time resolution are kept as small numbers).
 */
import type { Direction, QueryLayout } from '@gamequery/codec';
import type { UnmatchedCause } from '@gamequery/codec/pairing';
import { EntryRing, Registry, float64s as float64, uint16s as uint16, uint32s as uint32, uint8s as uint8 } from '@gamequery/codec/pairing';
import type { TimeResolution, Timestamp } from '../capture/timestamp.ts';

/** How a frame is read: not (yet) known, as a query message of a known layout, or by recognition alone. */
export const NONE = 0;
export const DECODED = 1;
export const RAW = 2;

/** A frame's facts, read back for rendering (one object, reused). */
export interface FrameFacts {
  kind: number;
  layout: QueryLayout | undefined;
  direction: Direction;
  /** 0: none. */
  requestIn: number;
  responseIn: number;
  duplicateOf: number;
  /** The request's capture time, for a reply's response time. */
  requestTime: Timestamp | null;
  unanswered: string | undefined;
  unmatched: string | undefined;
  /** The pairer's code for why (`unmatched` is its words). */
  unmatchedCause: UnmatchedCause | undefined;
  /** An identical request from the same client to the same server was pending with this exchange's. */
  ambiguous: boolean;
  /**
   * For an RCON reply (or a request whose command holds its own password): the exchange's
   * secrets (the request's password, a password its command sets) that its text may echo.
   */
  secrets: readonly string[] | undefined;
}

/**
 * Facts by frame number, for frames `first` up to `next` - 1 (numbers in a row, as a
 * capture gives them). A frame is final once nothing later can change its facts: at
 * once for most, when its exchange ends for a request.
 */
export class FactRing {
  readonly #ring = new EntryRing(1024, (from, to) => this.#grow(from, to));
  #final = uint8(1024);
  #kind = uint8(1024);
  #response = uint8(1024);
  /** 1 when the time below is the request's (a linked reply); else it is the frame's own. */
  #timed = uint8(1024);
  /** 1 for a frame of an exchange whose request had an identical twin pending. */
  #ambiguous = uint8(1024);
  /** Frame numbers, 0 for none (32 bits, as tshark's). */
  #requestIn = uint32(1024);
  #responseIn = uint32(1024);
  #duplicateOf = uint32(1024);
  #seconds = float64(1024);
  #ticks = float64(1024);
  /** The time's resolution, 1 + its number in {@link #resolutions}; 0 for no time. */
  #resolution = uint16(1024);
  /** The layout's number in {@link #layouts}. */
  #layout = uint16(1024);
  readonly #resolutions = new Registry<TimeResolution>();
  readonly #layouts = new Registry<QueryLayout>();
  /** Reasons, for the few frames that have one. */
  readonly #unanswered = new Map<number, string>();
  readonly #unmatched = new Map<number, { readonly reason: string; readonly cause: UnmatchedCause }>();
  readonly #out: FrameFacts = {
    kind: NONE,
    layout: undefined,
    direction: 'request',
    requestIn: 0,
    responseIn: 0,
    duplicateOf: 0,
    requestTime: null,
    unanswered: undefined,
    unmatched: undefined,
    unmatchedCause: undefined,
    ambiguous: false,
    secrets: undefined,
  };
  /** Secrets by frame, for the few RCON frames that echo one (one array per exchange, shared by its frames). */
  readonly #secrets = new Map<number, readonly string[]>();

  /** The oldest frame kept, and the one after the newest. */
  get first(): number {
    return this.#ring.first;
  }

  get next(): number {
    return this.#ring.next;
  }

  get size(): number {
    return this.#ring.size;
  }

  /** Starts frame `frame` (the next in a row) seen at `time`: final unless `pending`, no facts yet. */
  open(frame: number, pending: boolean, time: Timestamp | null = null): void {
    const ring = this.#ring;
    if (ring.size === 0) ring.first = ring.next = frame;
    else if (frame !== ring.next) throw new RangeError(`frames out of order: ${frame} after ${ring.next - 1}`);
    if (frame > 0xffffffff) throw new RangeError(`frame ${frame}: frame numbers past 2^32 - 1 are not kept (tshark's limit too)`);
    const s = ring.slot(ring.add());
    this.#final[s] = pending ? 0 : 1;
    this.#kind[s] = NONE;
    this.#response[s] = 0;
    this.#requestIn[s] = this.#responseIn[s] = this.#duplicateOf[s] = 0;
    this.#timed[s] = 0;
    this.#ambiguous[s] = 0;
    if (time) {
      this.#seconds[s] = time.seconds;
      this.#ticks[s] = time.ticks;
      this.#resolution[s] = 1 + this.#resolutions.id(time.resolution);
    } else {
      this.#resolution[s] = 0;
    }
  }

  holds(frame: number): boolean {
    return this.#ring.holds(frame);
  }

  isFinal(frame: number): boolean {
    return this.#final[this.#ring.slot(frame)] === 1;
  }

  /** Frame `frame` reads as `layout` in `direction`; its facts are final. */
  decoded(frame: number, layout: QueryLayout, direction: Direction): void {
    if (!this.#ring.holds(frame)) return;
    const s = this.#ring.slot(frame);
    this.#kind[s] = DECODED;
    this.#layout[s] = this.#layouts.id(layout);
    this.#response[s] = direction === 'response' ? 1 : 0;
    this.#final[s] = 1;
  }

  /** Frame `frame` is read by recognition alone (no query message, or one cut short); final. */
  raw(frame: number): void {
    if (!this.#ring.holds(frame)) return;
    const s = this.#ring.slot(frame);
    this.#kind[s] = RAW;
    this.#final[s] = 1;
  }

  /**
   * Reply `reply` answers `request` (its first reply if `first`): the reply takes the
   * request's capture time for its response time (the request, not final until now, is
   * still here; the reply's own time is not needed again).
   */
  link(request: number, reply: number, first: boolean): void {
    const ring = this.#ring;
    const q = ring.holds(request) ? ring.slot(request) : -1;
    if (first && q >= 0) this.#responseIn[q] = reply;
    if (!ring.holds(reply)) return;
    const s = ring.slot(reply);
    this.#requestIn[s] = request;
    if (q >= 0 && this.#resolution[q] !== 0) {
      this.#seconds[s] = this.#seconds[q]!;
      this.#ticks[s] = this.#ticks[q]!;
      this.#resolution[s] = this.#resolution[q]!;
      this.#timed[s] = 1;
    }
  }

  /** Frame `frame` belongs to an exchange whose request had an identical twin pending. */
  ambiguous(frame: number): void {
    if (this.#ring.holds(frame)) this.#ambiguous[this.#ring.slot(frame)] = 1;
  }

  requestIn(frame: number, request: number): void {
    if (this.#ring.holds(frame)) this.#requestIn[this.#ring.slot(frame)] = request;
  }

  duplicateOf(frame: number, original: number): void {
    if (this.#ring.holds(frame)) this.#duplicateOf[this.#ring.slot(frame)] = original;
  }

  unanswered(frame: number, reason: string): void {
    if (this.#ring.holds(frame)) this.#unanswered.set(frame, reason);
  }

  unmatched(frame: number, reason: string, cause: UnmatchedCause): void {
    if (!this.#ring.holds(frame)) return;
    this.#unmatched.set(frame, { reason, cause });
  }

  secrets(frame: number, secrets: readonly string[]): void {
    if (this.#ring.holds(frame)) this.#secrets.set(frame, secrets);
  }

  /** The facts of the oldest frame, which leaves (valid until the next call). */
  shift(): FrameFacts {
    const ring = this.#ring;
    const frame = ring.first;
    const s = ring.slot(frame);
    const o = this.#out;
    o.kind = this.#kind[s]!;
    o.layout = o.kind === DECODED ? this.#layouts.value(this.#layout[s]!) : undefined;
    o.direction = this.#response[s] ? 'response' : 'request';
    o.requestIn = this.#requestIn[s]!;
    o.responseIn = this.#responseIn[s]!;
    o.duplicateOf = this.#duplicateOf[s]!;
    o.ambiguous = this.#ambiguous[s] === 1;
    const resolution = this.#timed[s] ? this.#resolution[s]! : 0;
    o.requestTime =
      resolution !== 0 ? { seconds: this.#seconds[s]!, ticks: this.#ticks[s]!, resolution: this.#resolutions.value(resolution - 1) } : null;
    o.unanswered = this.#unanswered.size ? take(this.#unanswered, frame) : undefined;
    const unmatched = this.#unmatched.size ? take(this.#unmatched, frame) : undefined;
    o.unmatched = unmatched?.reason;
    o.unmatchedCause = unmatched?.cause;
    o.secrets = this.#secrets.size ? take(this.#secrets, frame) : undefined;
    ring.first++;
    return o;
  }

  #grow(from: number, to: number): void {
    const ring = this.#ring;
    this.#final = ring.regrow(this.#final, from, to, uint8);
    this.#kind = ring.regrow(this.#kind, from, to, uint8);
    this.#response = ring.regrow(this.#response, from, to, uint8);
    this.#timed = ring.regrow(this.#timed, from, to, uint8);
    this.#ambiguous = ring.regrow(this.#ambiguous, from, to, uint8);
    this.#requestIn = ring.regrow(this.#requestIn, from, to, uint32);
    this.#responseIn = ring.regrow(this.#responseIn, from, to, uint32);
    this.#duplicateOf = ring.regrow(this.#duplicateOf, from, to, uint32);
    this.#seconds = ring.regrow(this.#seconds, from, to, float64);
    this.#ticks = ring.regrow(this.#ticks, from, to, float64);
    this.#resolution = ring.regrow(this.#resolution, from, to, uint16);
    this.#layout = ring.regrow(this.#layout, from, to, uint16);
  }
}

function take<T>(map: Map<number, T>, key: number): T | undefined {
  const v = map.get(key);
  if (v !== undefined) map.delete(key);
  return v;
}
