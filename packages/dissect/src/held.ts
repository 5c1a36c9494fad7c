/**
 * Frames held by a one-pass dissection (dissect.ts) until their facts are final: their
 * bytes copied into blocks of a mebibyte, their numbers (frame, link type, time) in typed
 * arrays, in frame order. Any of them can leave, found by its frame number (a binary
 * search: they are in order); a block is let go once every frame in it has left, and the
 * arrays drop what lies before the oldest frame still held. No object per frame held.
 *
 * {@link HeldFrames.bytes} is what they take, not only their bytes: every block still
 * holding a frame, whole (one request waiting keeps its block), and the arrays' slots,
 * {@link SLOT_BYTES} each. The dissector's `maxHeldBytes` bounds that: the two million
 * requests of a query flood waiting for their timeout take more than twice their bytes.
 */
import type { TimeResolution, Timestamp } from './capture/timestamp.ts';
import type { FrameInput } from './net/types.ts';

const BLOCK = 1 << 20;
/** The link type of a bare payload (no pcap link type is 65535). */
const PAYLOAD = 0xffff;
/** A resolution number: no time was given (a previous time only); the frame had none. */
const NOT_GIVEN = 0;
const NO_TIME = 1;

/** Bytes of the arrays per slot (a frame held, or one left behind an older frame still held). */
export const SLOT_BYTES = 4 + 4 + 4 + 4 + 2 + 4 + 8 + 1 + 8 + 8 + 1;

/**
 * A held frame as it leaves: a captured frame (its bytes copied out), or a bare payload; with
 * the time of the capture's frame before it where it was given one (settled order hands frames
 * on out of capture order).
 */
export type HeldFrame = FrameInput & { readonly payload: boolean; readonly previousTimestamp?: Timestamp | null };

export class HeldFrames {
  /** Slots from `#first` to `#next` - 1 (positions in the arrays, which move down as the front goes). */
  #first = 0;
  #next = 0;
  #frame = new Uint32Array(1024);
  /** The bytes' block, offset and length; length -1 once the frame has left. */
  #block = new Int32Array(1024);
  #at = new Int32Array(1024);
  #length = new Int32Array(1024);
  /** The link type, or {@link PAYLOAD} for a bare payload. */
  #linkType = new Uint16Array(1024);
  /** Length on the wire (the capture's, else the bytes'). */
  #original = new Uint32Array(1024);
  /** The time of the frame before it in the capture, when given (settled order hands frames on out of order). */
  /**
   * As ticks before its own time, where both are of one resolution and the difference is
   * exact in a double; else NaN, and the time is in {@link #previousTimes} (a pcapng file of
   * interfaces at different resolutions).
   */
  #previousDelta = new Float64Array(1024);
  readonly #previousTimes = new Map<number, Timestamp>();
  /** The resolution of the time before it, by number in {@link #resolutions}: {@link NOT_GIVEN}, {@link NO_TIME} or a resolution. */
  #previousResolution = new Uint8Array(1024);
  #seconds = new Float64Array(1024);
  #ticks = new Float64Array(1024);
  /** The resolution of its time, as {@link #previousResolution} ({@link NO_TIME}: it has none). */
  #resolution = new Uint8Array(1024);
  /** The resolutions of the times held, numbered from 2 as met (a capture has one, a pcapng file one an interface). */
  readonly #resolutions: TimeResolution[] = [];
  /** Blocks by number from `#firstBlock`, and how many frames each still holds. */
  #blocks: (Uint8Array | undefined)[] = [];
  #live: number[] = [];
  #firstBlock = 0;
  #fill = BLOCK;
  /** The blocks' sizes, all of them. */
  #blockBytes = 0;
  #count = 0;

  /** Frames held. */
  get size(): number {
    return this.#count;
  }

  /** Bytes the frames held take: their blocks, whole, and the arrays (see the module comment). */
  get bytes(): number {
    return this.#blockBytes + this.#frame.length * SLOT_BYTES;
  }

  /** The oldest frame held (held is not empty). */
  get oldest(): number {
    return this.#frame[this.#first]!;
  }

  put(frame: FrameInput | { readonly index: number; readonly payload: Uint8Array }, previous?: Timestamp | null): void {
    const data = 'payload' in frame ? frame.payload : frame.data;
    if (this.#next === this.#frame.length) this.#grow();
    const s = this.#next++;
    const n = data.length;
    // A frame larger than a block gets one of its own.
    if (this.#fill + n > BLOCK || this.#blocks.length === 0) {
      const size = Math.max(BLOCK, n);
      this.#blocks.push(new Uint8Array(size));
      this.#blockBytes += size;
      this.#live.push(0);
      this.#fill = 0;
    }
    const b = this.#blocks.length - 1;
    this.#blocks[b]!.set(data, this.#fill);
    this.#live[b]!++;
    this.#frame[s] = frame.index;
    this.#block[s] = this.#firstBlock + b;
    this.#at[s] = this.#fill;
    this.#length[s] = n;
    this.#fill += n;
    this.#count++;
    const ts = 'payload' in frame ? null : frame.timestamp;
    this.#linkType[s] = 'payload' in frame ? PAYLOAD : frame.linkType;
    this.#original[s] = ('originalLength' in frame ? frame.originalLength : undefined) ?? n;
    // undefined: none given; null: the frame before had no time.
    this.#previousResolution[s] = previous === undefined ? NOT_GIVEN : previous === null ? NO_TIME : this.#numberOf(previous.resolution);
    if (previous) {
      const delta =
        ts && ts.resolution === previous.resolution
          ? (ts.seconds - previous.seconds) * ts.resolution.ticksPerSecond + (ts.ticks - previous.ticks)
          : NaN;
      if (Number.isSafeInteger(delta)) this.#previousDelta[s] = delta;
      else {
        this.#previousDelta[s] = NaN;
        this.#previousTimes.set(frame.index, previous);
      }
    }
    this.#resolution[s] = ts ? this.#numberOf(ts.resolution) : NO_TIME;
    if (ts) {
      this.#seconds[s] = ts.seconds;
      this.#ticks[s] = ts.ticks;
    }
  }

  /** Whether frame `frame` is held. */
  has(frame: number): boolean {
    return this.#find(frame) >= 0;
  }

  /** Frame `frame`, which leaves (its bytes copied out); undefined if it is not held. */
  take(frame: number): HeldFrame | undefined {
    const s = this.#find(frame);
    return s < 0 ? undefined : this.#take(s);
  }

  /** The oldest frame, which leaves. */
  shift(): HeldFrame {
    return this.#take(this.#first);
  }

  #take(s: number): HeldFrame {
    const b = this.#block[s]! - this.#firstBlock;
    const length = this.#length[s]!;
    const at = this.#at[s]!;
    const data = this.#blocks[b]!.slice(at, at + length);
    const resolution = this.#resolution[s]!;
    const frame = {
      index: this.#frame[s]!,
      linkType: this.#linkType[s]!,
      originalLength: this.#original[s]!,
      ...this.#previousOf(s),
      data,
      payload: this.#linkType[s] === PAYLOAD,
      timestamp:
        resolution === NO_TIME
          ? null
          : { seconds: this.#seconds[s]!, ticks: this.#ticks[s]!, resolution: this.#resolutions[resolution - 2]! },
    };
    this.#length[s] = -1;
    this.#count--;
    // A block goes once its frames have (the newest, being filled, stays); the front's slots once they have.
    if (--this.#live[b]! === 0 && b < this.#blocks.length - 1) {
      this.#blockBytes -= this.#blocks[b]!.length;
      this.#blocks[b] = undefined;
    }
    while (this.#blocks.length > 1 && this.#blocks[0] === undefined) {
      this.#blocks.shift();
      this.#live.shift();
      this.#firstBlock++;
    }
    while (this.#first < this.#next && this.#length[this.#first] === -1) this.#first++;
    if (this.#first === this.#next) {
      this.#first = this.#next = 0;
      // Empty after a burst: the arrays go back to their first size.
      if (this.#frame.length > 1 << 14) this.#grow();
    }
    return frame;
  }

  /** The number a resolution is held by (2 up). */
  #numberOf(resolution: TimeResolution): number {
    // Resolutions are shared objects, at most 70 (10^0..10^15 and 2^0..2^53: capture/timestamp.ts): a byte numbers them all.
    const i = this.#resolutions.indexOf(resolution);
    return i >= 0 ? i + 2 : this.#resolutions.push(resolution) + 1;
  }

  /** Slot `s`'s `previousTimestamp`, where one was given. */
  #previousOf(s: number): { readonly previousTimestamp?: Timestamp | null } {
    const r = this.#previousResolution[s]!;
    if (r === NOT_GIVEN) return {};
    if (r === NO_TIME) return { previousTimestamp: null };
    const delta = this.#previousDelta[s]!;
    if (Number.isNaN(delta)) {
      const frame = this.#frame[s]!;
      const time = this.#previousTimes.get(frame)!;
      this.#previousTimes.delete(frame);
      return { previousTimestamp: time };
    }
    // Its own time less the ticks between: whole seconds and ticks apart, each exact.
    const resolution = this.#resolutions[r - 2]!;
    const perSecond = resolution.ticksPerSecond;
    let seconds = Math.floor(delta / perSecond);
    let ticks = delta - seconds * perSecond;
    if (ticks < 0) {
      seconds--;
      ticks += perSecond;
    } else if (ticks >= perSecond) {
      seconds++;
      ticks -= perSecond;
    }
    let before = this.#ticks[s]! - ticks;
    seconds = this.#seconds[s]! - seconds;
    if (before < 0) {
      before += perSecond;
      seconds--;
    }
    return { previousTimestamp: { seconds, ticks: before, resolution } };
  }

  /** The slot of frame `frame` (held frames are in order: a binary search), or -1. */
  #find(frame: number): number {
    let lo = this.#first;
    let hi = this.#next - 1;
    while (lo <= hi) {
      const mid = lo + ((hi - lo) >> 1);
      const f = this.#frame[mid]!;
      if (f < frame) lo = mid + 1;
      else if (f > frame) hi = mid - 1;
      else return this.#length[mid] === -1 ? -1 : mid;
    }
    return -1;
  }

  /**
   * Room for more: the slots still in use moved to the front, in arrays half as long again
   * as they need (a burst past, they shrink back).
   */
  #grow(): void {
    const used = this.#next - this.#first;
    const size = Math.max(1024, Math.ceil(used * 1.5));
    const move = <A extends Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array>(a: A, make: (n: number) => A): A => {
      const b = make(size);
      b.set(a.subarray(this.#first, this.#next));
      return b;
    };
    this.#frame = move(this.#frame, (n) => new Uint32Array(n));
    this.#block = move(this.#block, (n) => new Int32Array(n));
    this.#at = move(this.#at, (n) => new Int32Array(n));
    this.#length = move(this.#length, (n) => new Int32Array(n));
    this.#linkType = move(this.#linkType, (n) => new Uint16Array(n));
    this.#original = move(this.#original, (n) => new Uint32Array(n));
    this.#previousDelta = move(this.#previousDelta, (n) => new Float64Array(n));
    this.#previousResolution = move(this.#previousResolution, (n) => new Uint8Array(n));
    this.#seconds = move(this.#seconds, (n) => new Float64Array(n));
    this.#ticks = move(this.#ticks, (n) => new Float64Array(n));
    this.#resolution = move(this.#resolution, (n) => new Uint8Array(n));
    this.#first = 0;
    this.#next = used;
  }
}
