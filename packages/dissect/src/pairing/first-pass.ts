/**
 * The first pass: what pairing needs of each frame, and nothing more. A frame is taken
 * apart down to its UDP payload as numbers (net/decoder.ts `locate`: offsets, addresses
 * as words, no string), and the codec's capture pairer (`CapturePairer`: the declared
 * pairing rules, executed on numbers) reads it in capture time, leaving its facts — how to
 * read it, its links, why it is unanswered or unmatched — in typed arrays by frame number.
 *
 * The renderer (record-maker.ts) reads each frame again once its facts are final, through
 * {@link FirstPass.read}: what is held between the passes is 16 bytes a frame for about
 * one request timeout of capture, and the pairer's tables (a few dozen bytes a request
 * waiting, or an exchange remembered). Beside them, for the few frames that need more: an
 * RCON request's secrets (its replies may echo them), and exact times of frames whose
 * resolution is not the capture's first one, or that lie more than 104 days from the first frame (past
 * 2^53 nanoseconds, which a double no longer holds exactly).
 */
import type { Charset, CodecOptions, Direction, ProtocolDeclaration } from '@gamequery/codec';
import {
  rconRequest,
  rconResponse,
  rconSecrets,
  textCodec,
  AMBIGUOUS,
  CapturePairer,
  DECODED,
  Endpoints,
  FINAL,
  NONE,
  RESPONSE,
  TIMED,
  Why,
  kindOf,
  layoutAt,
  layoutNumber,
  layoutOf,
  namedOf,
  whyOf,
  type InternalQueryLayout as QueryLayout,
  type PairingCounts,
  type WhyCode,
} from '@gamequery/codec/internal';
import type { Timestamp, TimeResolution } from '../capture/timestamp.ts';
import { UdpDecoder, type Located } from '../net/decoder.ts';
import type { FrameInput } from '../net/types.ts';

export interface LinkOptions {
  readonly charset?: Charset;
  readonly timeoutMs: number;
  readonly duplicateWindowMs?: number;
  readonly tokenLifetimeMs?: number;
  /** The protocols paired (default: the built-in ones). */
  readonly protocols?: readonly ProtocolDeclaration[];
  /**
   * Keep RCON exchanges' secrets for the frames that may echo them (default true). A pass
   * whose frames are never rendered (`stats`) leaves them: each would be a request decoded.
   */
  readonly secrets?: boolean;
}

/** Counts of what the pairer said. */
export type LinkStats = PairingCounts;

/** A frame's facts, read for rendering (one object, reused). */
export interface FrameFacts {
  /** NONE (not settled: let out early), DECODED (read as `layout`) or RAW (by recognition alone). */
  kind: number;
  layout: QueryLayout | undefined;
  direction: Direction;
  /** Frame numbers; 0: none. */
  requestIn: number;
  responseIn: number;
  duplicateOf: number;
  /** A linked reply's request's capture time (its response time is the difference). */
  requestTime: Timestamp | null;
  /** Why it is unanswered (a request) or unmatched (a reply); `Why.none` else. */
  why: WhyCode;
  /** A near miss: the layout of the request it names. */
  named: QueryLayout | undefined;
  /** A late reply: how long after its request, in nanoseconds. */
  lateNs: number;
  /** An identical request from the same client to the same server was waiting with this exchange's. */
  ambiguous: boolean;
  /** An RCON frame's exchange secrets (the request's password, one its command sets) that its text may echo. */
  secrets: readonly string[] | undefined;
  /** The frame completed a datagram reassembled from fragments. */
  reassembled: boolean;
}

/** Facts of `kind` with nothing learnt: no layout, link, time, verdict or secret. */
export const noFacts = (kind: number): FrameFacts => ({
  kind,
  layout: undefined,
  direction: 'request',
  requestIn: 0,
  responseIn: 0,
  duplicateOf: 0,
  requestTime: null,
  why: Why.none,
  named: undefined,
  lateNs: 0,
  ambiguous: false,
  secrets: undefined,
  reassembled: false,
});

const NS = 1e9;
const RCON_REQUEST = layoutNumber(rconRequest);
const RCON_RESPONSE = layoutNumber(rconResponse);
const EMPTY = new Uint8Array(0);

export class FirstPass {
  readonly pairer: CapturePairer;
  readonly stats: LinkStats;
  /** Reassembled datagrams are read here and in the statistics taken in this pass, and none is kept: one buffer serves them all. */
  readonly #udp = new UdpDecoder({ reuse: true });
  readonly #ends = new Endpoints();
  /** The last frame's UDP datagram as numbers, its payload and time (for statistics taken in this pass). */
  located: Located | undefined;
  payload: Uint8Array = EMPTY;
  time = 0;
  readonly #codec: CodecOptions;
  /**
   * The first timestamped frame's time: times are nanoseconds after it. Held as a double from
   * the start (NaN until the first frame): its first frames' times, a few seconds of
   * nanoseconds, fit in a small integer, and the optimized code that had only seen those gave
   * way when the times passed 2^31 (V8's "overflow"), in the hottest function of the pass.
   */
  #originSeconds = Number.NaN;
  #originResolution: TimeResolution | undefined;
  /** Nanoseconds per tick of the origin's resolution (NaN where not a whole number). */
  #factor = Number.NaN;
  #last = 0;
  /** Exact times of frames whose resolution is not the origin's or that lie past 2^53 ns from it, and of linked replies' requests that have one. */
  readonly #odd = new Map<number, Timestamp>();
  readonly #oddRequest = new Map<number, Timestamp>();
  /** RCON requests' secrets, while a reply may still name them (what they look like in the charset: #needles). */
  readonly #rcon = new Map<number, readonly string[]>();
  /** The request whose secrets were last looked for, and their bytes in the charset (its lines come together). */
  #needlesOf = -1;
  #needles: readonly (Uint8Array | undefined)[] = [];
  readonly #keepsSecrets: boolean;
  /** Frames whose text may echo their exchange's secrets. */
  readonly #secrets = new Map<number, readonly string[]>();
  readonly #out: FrameFacts = noFacts(NONE);
  /**
   * Frames that completed a reassembled datagram, while their facts are held, in order from
   * `#reassembledAt` (frames come and leave in order: a queue, looked at only when its oldest
   * leaves). A Set whose oldest was deleted and the next read with `values().next()` cost a
   * walk over every entry deleted before it, until the Set was rebuilt: 8 % of `gamequery
   * stats` on 5 M frames of the mix.
   */
  readonly #reassembled: number[] = [];
  #reassembledAt = 0;

  /** `stats`: where the pairer's verdicts are counted (the dissector's stats). */
  constructor(options: LinkOptions, stats?: LinkStats) {
    this.#codec = options.charset ? { charset: options.charset } : {};
    this.#keepsSecrets = options.secrets !== false;
    this.pairer = new CapturePairer(
      {
        timeoutMs: options.timeoutMs,
        ...(options.duplicateWindowMs !== undefined ? { duplicateWindowMs: options.duplicateWindowMs } : {}),
        ...(options.tokenLifetimeMs !== undefined ? { tokenLifetimeMs: options.tokenLifetimeMs } : {}),
        ...(options.charset ? { charset: options.charset } : {}),
        forget: (frame) => this.#rcon.delete(frame),
      },
      stats,
      options.protocols,
    );
    this.stats = this.pairer.counts;
  }

  /** The oldest frame whose facts are kept, the one after the newest, and how many. */
  get first(): number {
    return this.pairer.facts.first;
  }

  get next(): number {
    return this.pairer.facts.next;
  }

  get size(): number {
    return this.pairer.facts.size;
  }

  isFinal(frame: number): boolean {
    return this.pairer.facts.isFinal(frame);
  }

  /** The last frame's endpoints, as numbers. */
  get endpoints(): Endpoints {
    return this.#ends;
  }

  /** Takes one captured frame. */
  push(frame: FrameInput): void {
    const at = (this.located = this.#udp.locate(frame));
    const timed = frame.timestamp !== null;
    const time = (this.time = this.#time(frame.index, frame.timestamp));
    if (this.pairer.settled.length) this.pairer.settled.length = 0;
    if (!at.found) {
      this.pairer.other(frame.index, time, timed);
      return;
    }
    if (at.fragments) this.#reassembled.push(frame.index);
    this.#ends.read(at.addresses, at.ipVersion === 6, at.srcAt, at.dstAt, at.srcPort, at.dstPort);
    this.#take(frame.index, time, timed, (this.payload = at.data.subarray(at.start, at.end)), at.truncated);
  }

  /** Takes a bare UDP payload (a hex dump of a payload): endpoints unknown. */
  pushPayload(index: number, payload: Uint8Array): void {
    if (this.pairer.settled.length) this.pairer.settled.length = 0;
    this.#ends.none();
    this.#take(index, this.#last, false, payload, false);
  }

  /** Ends the time of a live input that went quiet: what `now` (ns since the first frame) has passed is settled. */
  tick(now: number): void {
    if (this.pairer.settled.length) this.pairer.settled.length = 0;
    this.pairer.expire(now, true);
  }

  /** Nanoseconds since the first frame of the live input's clock, `ms` of wall time after its last frame. */
  after(ms: number): number {
    return this.#last + ms * 1e6;
  }

  /** The input ended: pending requests are unanswered, every frame is final. */
  finish(): void {
    this.#udp.finish();
    if (this.pairer.settled.length) this.pairer.settled.length = 0;
    this.pairer.flush();
    // Every reply has been read: no more secrets to look for.
    this.#rcon.clear();
  }

  #take(frame: number, time: number, timed: boolean, payload: Uint8Array, truncated: boolean): void {
    const pairer = this.pairer;
    const facts = pairer.facts;
    pairer.datagram(frame, time, timed, payload, truncated, this.#ends);
    const info = facts.info(frame);
    if (kindOf(info) !== DECODED) return;
    if (info & RESPONSE) {
      const why = whyOf(info);
      // A late reply keeps how late it was (the pairer left its request's time).
      if (why === Why.late) facts.setTime(frame, time - facts.time(frame));
      const request = facts.link(frame);
      if (info & TIMED && this.#odd.size) {
        const t = this.#odd.get(request);
        if (t) this.#oddRequest.set(frame, t);
      }
      if (request && this.#rcon.size && layoutOf(info) === RCON_RESPONSE) this.#echoes(frame, request, payload);
    } else if (layoutOf(info) === RCON_REQUEST && this.#keepsSecrets) {
      this.#rconRequest(frame, payload);
    }
  }

  /** An RCON request: its secrets, for its replies; and its own frame's, if its command holds its password. */
  #rconRequest(frame: number, payload: Uint8Array): void {
    let value: { password?: string; command?: string };
    try {
      value = rconRequest.decode(payload, this.#codec).value;
    } catch {
      return; // cut short: its replies pair with what it has, and the password node masks what there is
    }
    const secrets = rconSecrets(value);
    if (!secrets.length) return;
    this.#rcon.set(frame, secrets);
    if (value.password && value.command?.includes(value.password)) this.#secrets.set(frame, secrets);
  }

  /** A reply naming an RCON request: its secrets go with it where its bytes may hold one (a secret the charset cannot write: always). */
  #echoes(frame: number, request: number, payload: Uint8Array): void {
    const secrets = this.#rcon.get(request);
    if (!secrets) return;
    if (this.#needlesOf !== request) {
      const text = textCodec(this.#codec.charset ?? 'windows-1252');
      this.#needles = secrets.map((x) => text.encode(x));
      this.#needlesOf = request;
    }
    for (const n of this.#needles) {
      if (!n || holds(payload, n)) {
        this.#secrets.set(frame, secrets);
        return;
      }
    }
  }

  /** Capture time in nanoseconds after the first frame; a frame without one (a hex dump) takes the last. */
  #time(index: number, t: Timestamp | null): number {
    if (!t) return this.#last;
    if (this.#originResolution === undefined) {
      this.#originSeconds = t.seconds;
      this.#originResolution = t.resolution;
      const tps = t.resolution.ticksPerSecond;
      this.#factor = tps <= NS && NS % tps === 0 ? NS / tps : Number.NaN;
    }
    const seconds = (t.seconds - this.#originSeconds) * NS;
    if (t.resolution === this.#originResolution && this.#factor === this.#factor) {
      const ns = seconds + t.ticks * this.#factor;
      // Exact (an integer below 2^53: within 104 days of the first frame) is given back exactly by #requestTime;
      // past that its ticks would come back with a fraction, so the time is kept as it was read.
      if (ns <= Number.MAX_SAFE_INTEGER && ns >= -Number.MAX_SAFE_INTEGER) return (this.#last = ns);
    }
    this.#odd.set(index, t);
    return (this.#last = seconds + (t.ticks * NS) / t.resolution.ticksPerSecond);
  }

  /** The facts of frame `frame` (held: between `first` and `next`), valid until the next call. */
  read(frame: number): FrameFacts {
    const facts = this.pairer.facts;
    const info = facts.info(frame);
    const o = this.#out;
    const final = (info & FINAL) !== 0;
    o.kind = final ? kindOf(info) : NONE;
    o.layout = o.kind === DECODED ? layoutAt(layoutOf(info)) : undefined;
    const response = (info & RESPONSE) !== 0;
    o.direction = response ? 'response' : 'request';
    const link = o.kind === DECODED ? facts.link(frame) : 0;
    const why = o.kind === DECODED ? whyOf(info) : Why.none;
    o.requestIn = response ? link : 0;
    o.responseIn = response ? 0 : link;
    o.duplicateOf = why === Why.duplicate ? facts.time(frame) : 0;
    o.why = why === Why.duplicate ? Why.none : why;
    o.requestTime = final && info & TIMED ? this.#requestTime(frame, facts.time(frame)) : null;
    const named = namedOf(info);
    o.named = why >= Why.noRequest && named ? layoutAt(named) : undefined;
    o.lateNs = why === Why.late ? facts.time(frame) : 0;
    o.ambiguous = (info & AMBIGUOUS) !== 0;
    o.secrets = this.#secrets.size ? this.#secrets.get(frame) : undefined;
    o.reassembled = this.#reassembledAt < this.#reassembled.length && this.#isReassembled(frame);
    return o;
  }

  /** The oldest frame's facts, which leave (valid until the next call). */
  shift(): FrameFacts {
    const facts = this.pairer.facts;
    const frame = facts.first;
    const o = this.read(frame);
    this.release(frame);
    facts.shift();
    return o;
  }

  /** The oldest frame's facts leave unread (statistics taken in this pass need nothing more of it). */
  drop(): void {
    const facts = this.pairer.facts;
    this.release(facts.first);
    facts.shift();
  }

  /** What is kept beside the facts of frame `frame`, which has been rendered. */
  release(frame: number): void {
    if (this.#secrets.size) this.#secrets.delete(frame);
    const q = this.#reassembled;
    if (this.#reassembledAt < q.length && q[this.#reassembledAt]! <= frame) {
      while (this.#reassembledAt < q.length && q[this.#reassembledAt]! <= frame) this.#reassembledAt++;
      if (this.#reassembledAt === q.length) q.length = this.#reassembledAt = 0;
      else if (this.#reassembledAt >= 1024 && 2 * this.#reassembledAt >= q.length) {
        // Frames let go are dropped now and then, so the queue holds about what is held.
        q.splice(0, this.#reassembledAt);
        this.#reassembledAt = 0;
      }
    }
    if (this.#odd.size) this.#odd.delete(frame);
    if (this.#oddRequest.size) this.#oddRequest.delete(frame);
  }

  /** Whether frame `frame` completed a reassembled datagram (a binary search of the queue). */
  #isReassembled(frame: number): boolean {
    const q = this.#reassembled;
    let lo = this.#reassembledAt,
      hi = q.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (q[mid]! < frame) lo = mid + 1;
      else hi = mid;
    }
    return lo < q.length && q[lo] === frame;
  }

  /** A request's time, from its nanoseconds after the origin (exact at the origin's resolution), or as kept. */
  #requestTime(frame: number, ns: number): Timestamp {
    const odd = this.#oddRequest.get(frame);
    if (odd) return odd;
    const whole = Math.floor(ns / NS);
    return { seconds: this.#originSeconds + whole, ticks: (ns - whole * NS) / this.#factor, resolution: this.#originResolution! };
  }
}

/** Whether `bytes` holds `needle` (a few dozen bytes in a datagram: a plain scan). */
function holds(bytes: Uint8Array, needle: Uint8Array): boolean {
  const n = needle.length;
  if (n === 0) return false;
  outer: for (let i = 0, last = bytes.length - n; i <= last; i++) {
    for (let k = 0; k < n; k++) if (bytes[i + k] !== needle[k]) continue outer;
    return true;
  }
  return false;
}
