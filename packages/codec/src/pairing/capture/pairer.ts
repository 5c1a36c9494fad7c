/**
 * The capture pairer: the pairing rules the live pairer follows (pairer.ts), executed on
 * numbers, for captures of millions of datagrams. No object, string or BigInt per
 * datagram: endpoints come as numbers (keys.ts), a datagram is recognised and measured
 * (not decoded), and what is learnt goes into the frame facts (facts.ts).
 *
 *   request  filed under its key in `#keys`: a key's entry names the oldest and newest
 *            frame waiting under it (the frames between, when there are, chained in a map);
 *            a waiting frame's facts link to its key's entry, and its timeout is found by
 *            walking the frames in arrival order. An RCON command (a message the
 *            protocol collects) first closes the commands of its conversation: the lines
 *            that follow are the newest command's.
 *   reply    the oldest request waiting under its key takes it (first in, first out: two
 *            identical requests cannot be told apart), even where the reply does not read to
 *            its end (a server's malformed reply is its request's answer all the same: its
 *            key, in the header, names it); a collecting request keeps taking
 *            lines until its quiet period passes. Else the exchanges remembered under the
 *            key (memory.ts) say what it is: a copy of one of their replies, or late, extra,
 *            after an RCON exchange closed. Else a request near it (the key its echo names,
 *            or another type's) makes it a near miss; else it answers nothing.
 *   either   (a ping: its reply is its bytes) a reply if a request it answers is known.
 *
 * A handshake's token is kept for `tokenLifetimeMs`, so that a stat request quoting it is
 * also filed under the handshake's session id (vanilla replies carry that one). Memory: 20
 * bytes and a share of a bucket (4 to 16) per key with requests waiting or exchanges remembered,
 * 16 a frame of facts, 40 an exchange remembered (an RCON exchange: 12 more a line), 24 and
 * a share of a bucket (2 to 8) a token. Times are
 * nanoseconds since any origin, in doubles (exact to 104 days).
 */
import type { Charset } from '../../grammar/charset.ts';
import type { CodecOptions, Direction } from '../../grammar/layout.ts';
import type { BuiltInProtocol as Protocol, InternalQueryLayout as QueryLayout } from '../../protocols/index.ts';
import type { PacketHint, ProtocolDeclaration } from '../../grammar/protocol.ts';
import { protocolSet, type ProtocolSet } from '../../grammar/protocol-set.ts';
import { builtInSet } from '../../packet.ts';
import { builtInProtocols } from '../../protocols/index.ts';
import { AMBIGUOUS, DECODED, FINAL, FrameFacts, HAS_TIME, LINES, TIMED, WAITING, Why, kindOf, layoutOf, type WhyCode } from './facts.ts';
import { Endpoints, Side, hashBytes, key, keyRule, tokenKey, type KeyRule } from './keys.ts';
import { layoutAt, layoutNumber } from './layouts.ts';
import { ANSWERED, ExchangeMemory, HEAD, NONE, TokenMemory, UNANSWERED, newRow, rowOf } from './memory.ts';
import { Fifo } from './queue.ts';
import { FIELDS, KeyTable } from './table.ts';
import { tokenReader } from './token.ts';

/** What the capture pairer waits for and remembers, in capture time. */
export interface CapturePairerOptions {
  /** How long a request waits for its first reply. */
  readonly timeoutMs: number;
  /** RCON: the exchange closes after this much silence following the last line. Default 500. */
  readonly rconQuietMs?: number;
  /** How long a finished exchange is remembered (copies, late replies). Default 5000. */
  readonly duplicateWindowMs?: number;
  /** How long a handshake's token is kept. Default 30 000. */
  readonly tokenLifetimeMs?: number;
  readonly charset?: Charset;
  /** Called when an RCON request (a collecting one) can no longer be named by a reply: its secrets may go. */
  readonly forget?: (frame: number) => void;
}

/** Counts of the pairer's verdicts (the dissector's stats): exchanges, requests unanswered, replies unmatched and copies. */
export interface PairingCounts {
  exchanges: number;
  unanswered: number;
  unmatched: number;
  duplicates: number;
}

const MS = 1e6;

/** What a protocol's messages do in pairing. */
interface Plan {
  readonly protocol: ProtocolDeclaration;
  readonly rule: KeyRule;
  /** The hints a reply without magic is read by: as a reply to each message, and by its shape. */
  readonly replyAs: ReadonlyMap<string, PacketHint<Protocol>>;
  readonly reply: PacketHint<Protocol>;
}

/** By layout number: a request collected until a quiet period (RCON). */
const COLLECTS = 1;
/** By layout number: a request that quotes a token, or a reply that issues one. */
const TOKEN = 2;

/** An alias's row: the frame, and the waiting entry it is filed under by its own key. */
const FRAME = FIELDS;
const ENTRY = FIELDS + 1;

/** Pairs a capture's datagrams, frame by frame, into the frame facts (see the module comment). */
export class CapturePairer {
  readonly facts = new FrameFacts();
  readonly counts: PairingCounts;
  /**
   * Requests that finished (answered, unanswered) since the caller last emptied this list:
   * a one-pass reader writes them as they settle.
   */
  readonly settled: number[] = [];
  /** Whether {@link settled} is kept (a one-pass reader that writes records as they settle). */
  tracksSettled = false;
  readonly #codec: CodecOptions;
  /** Recognition over the protocols paired. */
  readonly #protocols: ProtocolSet;
  readonly #timeout: number;
  readonly #quiet: number;
  readonly #tokenLife: number;
  readonly #plans = new Map<string, Plan>();
  /** What each layout does in pairing (COLLECTS, TOKEN), by its number. */
  readonly #does = new Uint8Array(256);
  /** How each layout's token is read, by its number. */
  readonly #tokenOf: ((bytes: Uint8Array) => number | undefined)[] = [];
  /** Protocols whose replies carry no magic (read within their conversation). */
  readonly #magicless: ProtocolDeclaration[];

  /**
   * Requests waiting and exchanges remembered, by key (memory.ts): a key's row names its oldest
   * request waiting (HEAD; the newest is the same, or in `#tails`) and its newest exchange
   * remembered. A waiting frame's facts link to its key's row.
   */
  readonly #keys = new KeyTable(2);
  /** The newest frame waiting under a key where several do (else it is the oldest, HEAD), by entry. */
  readonly #tails = new Map<number, number>();
  /** How many requests wait. */
  #count = 0;
  /**
   * The oldest frame that may still wait: timeouts end in arrival order (a fixed time after
   * it), so they are found by walking the frames from here, no queue kept.
   */
  #cursor = 0;
  /** Where several requests wait under one key: each one's next, by frame (the first is the key's HEAD). */
  readonly #next = new Map<number, number>();
  /** RCON requests with lines: the entry they wait under, their last line's time and their lines (hashes and frames). */
  readonly #collecting = new Map<number, { entry: number; last: number; lines: number[] }>();
  /** Their quiet periods, in order: the frame and the time of the line that began it. */
  readonly #quiets = new Fifo(4);
  /** A stat request also filed under its token's handshake session id: that key, and the key of each by frame. */
  readonly #aliases = new KeyTable(2);
  readonly #aliasOf = new Map<number, number>();
  readonly #memory: ExchangeMemory;
  /** The input is ending: what finishes now is not remembered (all memory goes right after). */
  #ending = false;
  readonly #tokens = new TokenMemory();

  constructor(
    options: CapturePairerOptions,
    counts: PairingCounts = { exchanges: 0, unanswered: 0, unmatched: 0, duplicates: 0 },
    protocols: readonly ProtocolDeclaration[] = builtInProtocols,
  ) {
    this.counts = counts;
    const check = (name: string, ms: number): number => {
      if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`${name} must be a finite number ≥ 0, got ${ms}`);
      return ms * MS;
    };
    this.#timeout = check('timeoutMs', options.timeoutMs);
    this.#quiet = check('rconQuietMs', options.rconQuietMs ?? 500);
    this.#tokenLife = check('tokenLifetimeMs', options.tokenLifetimeMs ?? 30_000);
    const window = check('duplicateWindowMs', options.duplicateWindowMs ?? 5000);
    this.#memory = new ExchangeMemory(window, options.forget, this.#keys);
    this.#codec = options.charset ? { charset: options.charset } : {};
    this.#protocols = protocols === builtInProtocols ? builtInSet : protocolSet(protocols);
    protocols.forEach((p, i) => {
      const rule = keyRule(p, i + 1);
      if (!rule) return;
      const protocol = p.name as Protocol;
      const replyAs = new Map(Object.keys(p.messages).map((message) => [message, { protocol, direction: 'response' as const, message }]));
      this.#plans.set(p.name, { protocol: p, rule, replyAs, reply: { protocol, direction: 'response', message: undefined } });
      for (const m of p.answeredInLines ?? []) this.#does[layoutNumber(p.messages[m]!.request as QueryLayout)]! |= COLLECTS;
      if (rule.kind !== 'session') return;
      for (const layout of p.layouts as QueryLayout[]) {
        const read = tokenReader(layout, this.#codec);
        if (!read) continue;
        const n = layoutNumber(layout);
        this.#does[n]! |= TOKEN;
        this.#tokenOf[n] = read;
      }
    });
    this.#magicless = protocols.filter((p) => p.magicless && this.#plans.has(p.name));
  }

  /** Requests waiting for a reply, exchanges remembered and tokens kept. */
  get held(): { readonly waiting: number; readonly remembered: number; readonly tokens: number } {
    return { waiting: this.#count, remembered: this.#memory.size, tokens: this.#tokens.size };
  }

  /** Bytes of the typed arrays held (facts, tables, queues). */
  get bytes(): number {
    return this.facts.bytes + this.#keys.bytes + this.#quiets.bytes + this.#aliases.bytes + this.#memory.bytes + this.#tokens.bytes;
  }

  /** A frame that carries no datagram the pairer reads: final at once. */
  other(frame: number, time: number, timed: boolean): void {
    this.facts.open(frame, time, timed, true);
  }

  /**
   * Takes the UDP payload `bytes` of frame `frame`, seen at `time` (ns), between
   * endpoints `e`; `truncated`: the capture cut it short (it pairs with what it has).
   * First ends what `time` has passed (a reply exactly at its request's deadline counts).
   */
  datagram(frame: number, time: number, timed: boolean, bytes: Uint8Array, truncated: boolean, e: Endpoints): void {
    this.expire(time, true);
    const facts = this.facts;
    facts.open(frame, time, timed, false);
    this.#malformed = false;
    const protocols = this.#protocols;
    let r = protocols.identify(bytes, NO_HINT, this.#codec);
    if (!r) {
      const p = this.#magiclessOf(bytes);
      if (p) this.#reply(frame, time, bytes, truncated, e, this.#plans.get(p.name)!, undefined, true);
      else facts.raw(frame);
      return;
    }
    const plan = this.#plans.get(r.protocol);
    if (!plan) {
      facts.raw(frame);
      return;
    }
    if (r.direction === 'either') {
      // A ping reply is its request, byte for byte: a reply if a request it answers is known.
      const direction: Direction = this.#knownReply(bytes, e, plan) ? 'response' : 'request';
      r = protocols.identify(bytes, { protocol: r.protocol, direction, message: r.message }, this.#codec)!;
    }
    const layout = r.layout as QueryLayout;
    const whole = truncated || layout.measure(bytes, this.#codec) >= 0;
    if (r.direction === 'response') {
      this.#reply(frame, time, bytes, truncated, e, plan, layout, whole);
    } else if (whole) {
      this.#request(frame, time, bytes, truncated, e, plan, layout);
    } else {
      facts.raw(frame);
    }
  }

  /**
   * Whether the last datagram {@link datagram} took was paired as a reply that does not read
   * to its end although the capture has all of it (a server's malformed reply): its request
   * waited under its key, which the reply's header names whole.
   */
  get malformed(): boolean {
    return this.#malformed;
  }

  #malformed = false;

  /**
   * Ends every timeout, quiet period and memory whose deadline is before `now` (at or
   * before, unless `strictly`): a live input's clock, when no datagram has come for a while.
   */
  expire(now: number, strictly = false): void {
    const quiets = this.#quiets;
    const facts = this.facts;
    for (;;) {
      // Timeouts and quiet periods in deadline order, as they end; a request with lines waits for its quiet period instead.
      const f = this.#oldestWaiting();
      const t = f >= 0 ? facts.time(f) + this.#timeout : Infinity;
      const q = quiets.size ? quiets.rows.f(quiets.first, 2) + this.#quiet : Infinity;
      if (!(strictly ? Math.min(t, q) < now : Math.min(t, q) <= now)) break;
      if (t <= q) {
        this.#finish(f, facts.link(f), UNANSWERED, t, Why.timeout);
      } else {
        const r = quiets.rows.u(quiets.first, 0);
        const last = quiets.rows.f(quiets.first, 2);
        quiets.shift();
        // A later line moved its quiet period on (queued again), or it has left.
        const c = facts.holds(r) && facts.info(r) & LINES ? this.#collecting.get(r) : undefined;
        if (c && c.last === last) this.#finish(r, c.entry, ANSWERED, q, Why.none);
      }
    }
    if (this.#memory.next < now || (!strictly && this.#memory.next === now)) this.#memory.expire(now, strictly);
    if (this.#tokens.next < now || (!strictly && this.#tokens.next === now)) this.#tokens.expire(now, strictly);
  }

  /** The newest frame waiting under entry `e`. */
  #tail(e: number): number {
    return this.#tails.size ? (this.#tails.get(e) ?? this.#keys.rows.u(e, HEAD)) : this.#keys.rows.u(e, HEAD);
  }

  /** The oldest frame waiting for its timeout (not one with lines, which waits for its quiet period), or -1. */
  #oldestWaiting(): number {
    const facts = this.facts;
    if (this.#count === 0) return -1;
    let f = Math.max(this.#cursor, facts.first);
    while (f < facts.next && (facts.info(f) & (WAITING | LINES)) !== WAITING) f++;
    this.#cursor = f;
    return f < facts.next ? f : -1;
  }

  /** The input ended: every waiting request leaves (unanswered, or with its lines), all memory is let go. */
  flush(): void {
    const facts = this.facts;
    this.#ending = true;
    // The cursor passes requests that have lines (they wait for their quiet period, not their timeout): with any, from the oldest frame.
    const from = this.#collecting.size ? facts.first : Math.max(this.#cursor, facts.first);
    for (let f = from; this.#count > 0 && f < facts.next; f++) {
      const info = facts.info(f);
      if (!(info & WAITING)) continue;
      const c = info & LINES ? this.#collecting.get(f) : undefined;
      if (c) this.#finish(f, c.entry, ANSWERED, c.last + this.#quiet, Why.none);
      else this.#finish(f, facts.link(f), UNANSWERED, facts.time(f) + this.#timeout, Why.ended);
    }
    this.#cursor = facts.next;
    this.#next.clear();
    this.#tails.clear();
    this.#aliases.clear();
    this.#aliasOf.clear();
    this.#collecting.clear();
    this.#quiets.clear();
    this.#memory.clear();
    this.#keys.clear();
    this.#tokens.clear();
    this.#ending = false;
  }

  #magiclessOf(bytes: Uint8Array): ProtocolDeclaration | undefined {
    for (const p of this.#magicless) if (p.magicless!.mayBe(bytes)) return p;
    return undefined;
  }

  #knownReply(bytes: Uint8Array, e: Endpoints, plan: Plan): boolean {
    plan.rule.key(bytes, e, Side.Reply);
    if (this.#waitingUnder(key.lo, key.hi) >= 0 || this.#memory.newest(this.#keys.find(key.lo, key.hi)) >= 0) return true;
    for (let i = 0; plan.rule.near(bytes, e, i); i++) if (this.#waitingUnder(key.lo, key.hi) >= 0) return true;
    return false;
  }

  /** The oldest request waiting under the key (or, failing that, filed there as a token's alias), or -1. */
  #waitingUnder(lo: number, hi: number): number {
    const entry = this.#waitingAt(lo, hi);
    if (entry >= 0) return this.#keys.rows.u(entry, HEAD);
    if (this.#aliases.size) {
      const a = this.#aliases.find(lo, hi);
      if (a >= 0) return this.#aliases.rows.u(a, FRAME);
    }
    return -1;
  }

  /** The row of the key if requests wait under it, or -1. */
  #waitingAt(lo: number, hi: number): number {
    const k = this.#keys.find(lo, hi);
    return k >= 0 && this.#keys.rows.u(k, HEAD) !== NONE ? k : -1;
  }

  #request(frame: number, time: number, bytes: Uint8Array, truncated: boolean, e: Endpoints, plan: Plan, layout: QueryLayout): void {
    void truncated;
    const facts = this.facts;
    const rows = this.#keys.rows;
    const n = layoutNumber(layout);
    facts.decoded(frame, n, false);
    facts.mark(frame, WAITING);
    const rule = plan.rule;
    // The session id of the handshake that issued the token this request quotes, if it differs from its own.
    let issuer = -1;
    if (this.#does[n]! & TOKEN && this.#tokens.size) {
      const token = this.#tokenOf[n]!(bytes);
      if (token !== undefined) {
        tokenKey(e, Side.Request, token);
        const session = this.#tokens.session(key.lo, key.hi);
        if (session >= 0 && session !== rule.session(bytes, Side.Request)) issuer = session;
      }
    }
    rule.key(bytes, e, Side.Request);
    const lo = key.lo,
      hi = key.hi;
    // The key's row, if requests wait under it or an exchange under it is remembered (a client port used again).
    const row = this.#keys.find(lo, hi);
    let entry = row >= 0 && rows.u(row, HEAD) !== NONE ? row : -1;
    const collects = (this.#does[n]! & COLLECTS) !== 0;
    if (collects && entry >= 0) {
      // The commands before it in its conversation are done: the lines that follow are this one's.
      for (let f = rows.u(entry, HEAD), more = true; more;) {
        more = f !== this.#tail(entry);
        const next = more ? this.#next.get(f)! : -1;
        if (facts.info(f) & LINES) this.#finish(f, entry, ANSWERED, time, Why.none);
        else this.#finish(f, entry, UNANSWERED, time, Why.superseded);
        f = next;
      }
      // None waits now; the row stays, the commands remembered in it.
      entry = -1;
    }
    if (!collects) {
      hashBytes(bytes);
      const h = key.lo ^ key.hi;
      // The one case no rule settles: the same request twice from one socket, both waiting.
      if (entry >= 0) {
        const twin = this.#tail(entry);
        if (facts.hash16(twin) === (h & 0x7fff)) {
          facts.mark(twin, AMBIGUOUS);
          facts.mark(frame, AMBIGUOUS);
        }
      }
      facts.setHash16(frame, h);
    }
    if (entry < 0) {
      entry = row >= 0 ? row : newRow(this.#keys, lo, hi);
      rows.setU(entry, HEAD, frame);
    } else {
      this.#next.set(this.#tail(entry), frame);
      this.#tails.set(entry, frame);
    }
    facts.setLink(frame, entry);
    this.#count++;
    if (issuer >= 0) {
      rule.withSession(bytes, e, issuer);
      let a = this.#aliases.find(key.lo, key.hi);
      if (a < 0) a = this.#aliases.add(key.lo, key.hi);
      else this.#aliasOf.delete(this.#aliases.rows.u(a, FRAME));
      this.#aliases.rows.setU(a, FRAME, frame);
      this.#aliases.rows.setU(a, ENTRY, entry);
      this.#aliasOf.set(frame, a);
    }
  }

  #reply(
    frame: number,
    time: number,
    bytes: Uint8Array,
    truncated: boolean,
    e: Endpoints,
    plan: Plan,
    layout: QueryLayout | undefined,
    /** It reads to its end, or the capture cut it (else only a request waiting under its key takes it). */
    whole: boolean,
  ): void {
    const facts = this.facts;
    const rule = plan.rule;
    rule.key(bytes, e, Side.Reply);
    const lo = key.lo,
      hi = key.hi;
    const k = this.#keys.find(lo, hi);
    let entry = k;
    let request = -1;
    if (k >= 0) {
      const head = this.#keys.rows.u(k, HEAD);
      if (head !== NONE) request = head;
    }
    if (request < 0 && this.#aliases.size) {
      const a = this.#aliases.find(lo, hi);
      if (a >= 0) {
        request = this.#aliases.rows.u(a, FRAME);
        entry = this.#aliases.rows.u(a, ENTRY);
      }
    }
    if (request >= 0) {
      // A reply its request's key names is that request's, read to its end or not (a server's malformed reply is still its answer).
      const read = layout ?? this.#readReply(plan, bytes, truncated, layoutAt(layoutOf(facts.info(request))).message, true);
      if (!read) {
        facts.raw(frame);
        return;
      }
      if (!whole) this.#malformed = true;
      this.#answer(request, entry, frame, time, bytes, read, e, plan);
      return;
    }
    if (!whole) {
      facts.raw(frame);
      return;
    }
    const memory = this.#memory;
    const newest = memory.newest(k);
    if (newest >= 0) {
      const read = layout ?? this.#readReply(plan, bytes, truncated, layoutAt(memory.layout(newest)).message);
      if (!read) {
        facts.raw(frame);
        return;
      }
      facts.decoded(frame, layoutNumber(read), true);
      facts.mark(frame, FINAL);
      // A copy of a reply of any exchange remembered under the key, the newest first.
      hashBytes(bytes);
      for (let m = newest; m >= 0; m = memory.older(m)) {
        const original = memory.copyOf(m, key.lo, key.hi);
        if (original > 0) {
          this.counts.duplicates++;
          facts.setLink(frame, memory.request(m));
          facts.why(frame, Why.duplicate);
          facts.setTime(frame, original);
          return;
        }
      }
      this.counts.unmatched++;
      facts.setLink(frame, memory.request(newest));
      if (memory.outcome(newest) === UNANSWERED) {
        // It timed out: its request came a timeout before that (one superseded by a newer command is never the newest here).
        facts.why(frame, Why.late);
        facts.setTime(frame, memory.time(newest) - this.#timeout);
      } else {
        facts.why(frame, memory.collects(newest) ? Why.rconClosed : Why.extra);
      }
      return;
    }
    // A near miss: a request this reply is near (its echo names it, or it is of another type).
    for (let i = 0; rule.near(bytes, e, i); i++) {
      let named = this.#waitingUnder(key.lo, key.hi);
      let answered = false;
      let requestLayout = named >= 0 ? layoutOf(facts.info(named)) : 0;
      if (named < 0) {
        const m = memory.newest(this.#keys.find(key.lo, key.hi));
        if (m < 0) continue;
        named = memory.request(m);
        answered = memory.outcome(m) === ANSWERED;
        requestLayout = memory.layout(m);
      }
      const read = layout ?? this.#readReply(plan, bytes, truncated, undefined);
      if (!read) {
        facts.raw(frame);
        return;
      }
      facts.decoded(frame, layoutNumber(read), true);
      facts.mark(frame, FINAL);
      facts.setLink(frame, named);
      this.counts.unmatched++;
      const why: WhyCode = rule.kind === 'echo' ? Why.nearMissServer : answered ? Why.nearMissTypeAnswered : Why.nearMissType;
      facts.why(frame, why, requestLayout);
      return;
    }
    if (layout) {
      this.counts.unmatched++;
      facts.decoded(frame, layoutNumber(layout), true);
      facts.mark(frame, FINAL);
      facts.why(frame, Why.noRequest);
      return;
    }
    // A reply without magic and with no request in its conversation: only a hint makes it one.
    // One that reads cleanly by its shape counts as an unmatched reply all the same.
    facts.raw(frame);
    if (this.#clean(plan, bytes, truncated)) {
      this.counts.unmatched++;
      facts.why(frame, Why.noRequest);
    }
  }

  #answer(
    request: number,
    entry: number,
    frame: number,
    time: number,
    bytes: Uint8Array,
    layout: QueryLayout,
    e: Endpoints,
    plan: Plan,
  ): void {
    const facts = this.facts;
    facts.decoded(frame, layoutNumber(layout), true);
    facts.mark(frame, FINAL);
    facts.setLink(frame, request);
    const info = facts.info(request);
    if (info & HAS_TIME) {
      facts.setTime(frame, facts.time(request));
      facts.mark(frame, TIMED);
    }
    if (info & AMBIGUOUS) facts.mark(frame, AMBIGUOUS);
    hashBytes(bytes);
    if (info & LINES) {
      const c = this.#collecting.get(request)!;
      c.last = time;
      c.lines.push(key.lo, key.hi, frame);
      this.#queueQuiet(request, time);
      return;
    }
    if (this.#does[layoutOf(info)]! & COLLECTS) {
      facts.setLink(request, frame);
      facts.mark(request, LINES);
      this.#collecting.set(request, { entry, last: time, lines: [key.lo, key.hi, frame] });
      this.#queueQuiet(request, time);
      return;
    }
    this.#reply1[0] = key.lo;
    this.#reply1[1] = key.hi;
    this.#reply1[2] = frame;
    this.#finish(request, entry, ANSWERED, time, Why.none, this.#reply1);
    const n = layoutNumber(layout);
    if (this.#does[n]! & TOKEN) this.#keep(plan, bytes, n, e, time);
  }

  /** The one reply of an exchange, as `#finish` takes replies: hash halves and frame. */
  readonly #reply1 = [0, 0, 0];

  /** Queues the quiet period a line at `time` begins. */
  #queueQuiet(request: number, time: number): void {
    const at = this.#quiets.push();
    this.#quiets.rows.setU(at, 0, request);
    this.#quiets.rows.setF(at, 2, time);
  }

  /**
   * Request `f` leaves the waiting table (answered, or not), filed under `entry`, at
   * `when`, and is remembered for the duplicate window with its replies (an RCON
   * request's lines are in `#collecting`; another's one reply is passed).
   */
  #finish(f: number, entry: number, outcome: number, when: number, why: WhyCode, reply?: readonly number[]): void {
    const facts = this.facts;
    const rows = this.#keys.rows;
    const info = facts.info(f);
    // Out of its key's chain: the oldest, almost always (at the end of the input, the table goes whole).
    const head = this.#ending ? f : rows.u(entry, HEAD);
    const chain = this.#next;
    if (this.#ending) {
      if (chain.size) chain.delete(f);
    } else if (head === f) {
      const tail = this.#tail(entry);
      if (tail === f) {
        // Its row stays: the exchange is remembered in it.
        rows.setU(entry, HEAD, NONE);
      } else {
        const next = chain.get(f)!;
        rows.setU(entry, HEAD, next);
        chain.delete(f);
        if (next === tail) this.#tails.delete(entry);
      }
    } else {
      let at = head;
      while (chain.get(at) !== f) at = chain.get(at)!;
      if (this.#tail(entry) === f) {
        chain.delete(at);
        if (at === head) this.#tails.delete(entry);
        else this.#tails.set(entry, at);
      } else {
        chain.set(at, chain.get(f)!);
        chain.delete(f);
      }
    }
    this.#count--;
    const alias = this.#aliasOf.size ? this.#aliasOf.get(f) : undefined;
    let aliasLo = 0,
      aliasHi = 0;
    if (alias !== undefined) {
      aliasLo = this.#aliases.lo(alias);
      aliasHi = this.#aliases.hi(alias);
      this.#aliases.remove(alias);
      this.#aliasOf.delete(f);
    }
    const c = info & LINES ? this.#collecting.get(f) : undefined;
    if (c) this.#collecting.delete(f);
    facts.setInfo(f, (info & ~(WAITING | LINES)) | FINAL);
    facts.why(f, why);
    if (this.tracksSettled) this.settled.push(f);
    if (outcome === ANSWERED) {
      this.counts.exchanges++;
      if (!c) facts.setLink(f, reply ? reply[2]! : 0);
    } else {
      this.counts.unanswered++;
      facts.setLink(f, 0);
    }
    // Remembered for the duplicate window, under its key (and its alias).
    const n = layoutOf(info);
    if (this.#ending) return;
    const collects = (this.#does[n]! & COLLECTS) !== 0;
    const lines = c ? c.lines : reply;
    const count = lines ? lines.length / 3 : 0;
    this.#memory.remember(entry, f, n, outcome, collects, when, lines, count);
    if (alias !== undefined) this.#memory.remember(rowOf(this.#keys, aliasLo, aliasHi), f, n, outcome, collects, when, lines, count);
  }

  /**
   * Whether a reply without magic reads by its shape to its end (and, where pairing reads a
   * value of it, a token, without a warning).
   */
  #clean(plan: Plan, bytes: Uint8Array, truncated: boolean): boolean {
    const layout = this.#readReply(plan, bytes, truncated, undefined);
    if (!layout || layout.measure(bytes, this.#codec) !== bytes.length) return false;
    if (!(this.#does[layoutNumber(layout)]! & TOKEN)) return true;
    try {
      return layout.decode(bytes, this.#codec).warnings.length === 0;
    } catch {
      return false;
    }
  }

  /**
   * Keeps the token a handshake's reply issued, for stat requests that quote it, with the
   * session id it was issued to (the reply's: it matched its request's key, which holds it).
   */
  #keep(plan: Plan, bytes: Uint8Array, n: number, e: Endpoints, when: number): void {
    const token = this.#tokenOf[n]!(bytes);
    if (token === undefined) return;
    const session = plan.rule.session(bytes, Side.Reply);
    tokenKey(e, Side.Reply, token);
    this.#tokens.keep(key.lo, key.hi, session, when + this.#tokenLife);
  }

  /**
   * A reply without magic, read as a reply to `message` (the request's), or by its shape
   * where it does not fit that (a server may answer one message with another's reply); a reply
   * to the message whose reply issues a token is read as nothing else. Undefined where it
   * does not decode; where it `answers` a request waiting under its key, as a reply to
   * `message` all the same (malformed) if it is recognised as one but reads as no reply whole.
   */
  #readReply(plan: Plan, bytes: Uint8Array, truncated: boolean, message: string | undefined, answers = false): QueryLayout | undefined {
    if (message !== undefined) {
      const as = this.#protocols.identify(
        bytes,
        plan.replyAs.get(message) ?? { protocol: plan.protocol.name as Protocol, direction: 'response', message },
        this.#codec,
      )?.layout as QueryLayout | undefined;
      if (as && (truncated || as.measure(bytes, this.#codec) >= 0)) return as;
      if (as && this.#does[layoutNumber(as)]! & TOKEN) return undefined;
      const shaped = this.#shaped(plan, bytes, truncated);
      if (shaped || !answers || !as) return shaped;
      // Answering a request waiting under its key: read as its reply, malformed, where it reads as no reply whole.
      this.#malformed = true;
      return as;
    }
    return this.#shaped(plan, bytes, truncated);
  }

  /** A reply without magic read by its shape alone, where it reads to its end (or the capture cut it). */
  #shaped(plan: Plan, bytes: Uint8Array, truncated: boolean): QueryLayout | undefined {
    const shaped = this.#protocols.identify(bytes, plan.reply, this.#codec)?.layout as QueryLayout | undefined;
    return shaped && (truncated || shaped.measure(bytes, this.#codec) >= 0) ? shaped : undefined;
  }
}

/**
 * No hint, in the shape of every hint the pairer gives (protocol, direction, message, in that
 * order): recognition reads each datagram's hint, and a hint of another shape made the
 * optimized code give way (V8's "wrong map") at the first ping or magic-less reply.
 */
const NO_HINT: PacketHint<Protocol> = { protocol: undefined, direction: undefined, message: undefined };

/** What the facts' kind bits say, for readers. */
export { DECODED, kindOf };
