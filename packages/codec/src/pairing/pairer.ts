/**
 * The pairing core: one state machine, driven by either clock (see rx.ts). It reads
 * no clock itself; every call says what time it is, in nanoseconds.
 *
 * A datagram is decoded, then:
 *   request   → filed under its keys (rules.ts) with a deadline of now + timeout; an RCON
 *               command closes the earlier commands of its conversation (an admin tool
 *               sends `players`, reads it, sends `kick 3`: the lines after the new command
 *               are the new command's; one still without a line leaves unanswered)
 *   reply     → the oldest pending request under its key takes it (FIFO: two identical
 *               SA:MP requests to one server cannot be told apart); an RCON request keeps
 *               collecting lines until `rconQuietMs` of silence
 *   neither   → `undecodable`
 * A request leaves as `exchange`, `unanswered` or `overflow`, and is remembered for
 * `duplicateWindowMs` as small facts (memory.ts), so that a repeated reply reads as
 * `duplicate` and a late or misdirected one as `unmatched` naming its request; the
 * events of those name requests and replies rebuilt from the facts. Every datagram taken
 * ends up in exactly one event.
 *
 * Why this file is over 400 lines: `QueryPairer` is one class on the per-packet path. Its
 * pending requests, their index, the memory of finished ones, the token book and the timers
 * are private fields that every datagram reads and writes; cutting the class in two would
 * put a call through a second object on that path. What runs the same from any module has
 * its own file: the decoded records and decoders (decoded.ts), filing and finding requests
 * (filing.ts), the options (settings.ts), each protocol's keys (rules.ts).
 */
import type { Protocol } from '../grammar/layout.ts';
import { identify, recognize, type PacketHint } from '../packet.ts';
import { Chain, type Linked } from './collections.ts';
import { DeadlineQueue, type Timed } from './deadlines.ts';
import { Unrecognized, decodeByLayout, decodedAgain, decorate, redecorate, replyHint, undecodable, type PacketDecoder } from './decoded.ts';
import {
  Filed,
  collects,
  firstUnder,
  identical,
  matchers,
  newestRemembered,
  rememberedUnder,
  sideEnd,
  sideStart,
  turnedRound,
} from './filing.ts';
import { ExchangeMemory, type Outcome } from './memory.ts';
import { keyRules, mayBeMinecraftReply, tokenKey, type Filed as FiledRequest, type Keys } from './rules.ts';
import { DROPPED, ENDED, EXTRA, NO_MINECRAFT_REQUEST, NO_REQUEST, SUPERSEDED, late, rconClosed, timedOut } from './reasons.ts';
import { settingsOf, type QueryPairerOptions, type Settings } from './settings.ts';
import { TokenMemory } from './tokens.ts';
import type { Datagram, DecodedDatagram, ExchangeEvent, PairingEvent, UnmatchedCause } from './types.ts';

export { pairingPart, type PacketDecoder } from './decoded.ts';
export { settingsOf, type QueryPairerOptions } from './settings.ts';

const nanos = (ms: number): bigint => BigInt(Math.round(ms * 1e6));

const NO_RESPONSES: readonly never[] = Object.freeze([]);

/**
 * A pending request: `outcome` is set as it leaves, and then what the duplicate window
 * needs of it goes to the pairer's memory (memory.ts) and the object is let go.
 */
interface Filing<M> extends Timed, FiledRequest, Linked<Filing<M>> {
  readonly kind: 'request';
  outcome: Outcome | undefined;
  readonly request: DecodedDatagram<M>;
  readonly keys: Keys;
  /** None (a shared empty list) until the first reply, then a list made for it. */
  responses: readonly DecodedDatagram<M>[];
  /** Several replies, no end marker (RCON). */
  readonly collects: boolean;
  /** The remembered token (TokenMemory's entry) of the handshake a stat request quotes, or -1. */
  readonly token: number;
  /** Another request, byte for byte the same, from the same client to the same server, was pending with it. */
  ambiguous: boolean;
}

/**
 * The clock-agnostic pairing state machine behind `pairQueries`. Usable on its own
 * for synchronous processing: call `receive` per datagram (datagram clock by default),
 * `expire` when a timer fires, and `flush` at the end of the input.
 */
export class QueryPairer<M = unknown> {
  readonly #o: Settings;
  readonly #decode: PacketDecoder<M>;
  readonly #retain: ((datagram: Datagram<M>) => Datagram<M>) | undefined;
  /** The durations of the settings, in nanoseconds. */
  readonly #ns: { readonly timeout: bigint; readonly quiet: bigint; readonly window: bigint; readonly tokenLife: bigint };
  /** Pending requests under their keys. */
  readonly #filed = new Filed<Filing<M>>();
  /** Pending requests in filing order: the first is the oldest (overflow evicts it); each leaves the moment it is done. */
  readonly #live = new Chain<Filing<M>>();
  /** Where the bytes of a handshake a pending stat request quotes are copied (one buffer for many). */
  #slab = new Uint8Array(4096);
  #slabAt = 0;
  /** Finished requests for the duplicate window, as facts. */
  readonly #memory = new ExchangeMemory<M>();
  /** Handshakes' tokens for their lifetime, as facts. */
  readonly #tokens = new TokenMemory<M>();
  /** Pending requests' timeouts and quiet periods. */
  readonly #timers = new DeadlineQueue<Filing<M>>();

  constructor(options: QueryPairerOptions<M> = {}) {
    const o = (this.#o = settingsOf(options));
    this.#decode = options.decode ?? decodeByLayout;
    this.#retain = options.retain;
    this.#ns = {
      timeout: nanos(o.timeoutMs),
      quiet: nanos(o.rconQuietMs),
      window: nanos(o.duplicateWindowMs),
      tokenLife: nanos(o.tokenLifetimeMs),
    };
  }

  /** Requests waiting for a reply (RCON requests still collecting included). */
  get pending(): number {
    return this.#live.size;
  }

  /** Finished requests remembered for the duplicate window, and tokens kept (what the pairer holds besides the pending). */
  get remembered(): { readonly exchanges: number; readonly tokens: number } {
    return { exchanges: this.#memory.size, tokens: this.#tokens.size };
  }

  /**
   * Takes one datagram at time `now` (default: its own time, the datagram clock). First
   * ends whatever `now` has passed (deadline < now), so a reply exactly at its deadline
   * still counts.
   */
  receive(datagram: Datagram<M>, now: bigint = datagram.time): PairingEvent<M>[] {
    const out: PairingEvent<M>[] = [];
    this.#expire(now, true, out);
    this.#take(datagram, now, out);
    return out;
  }

  /**
   * Time has reached `now` by a datagram this pairer does not take (one of another
   * shard, see `shardOf`): ends what `now` has passed, exactly as {@link receive} would
   * before taking a datagram at `now` (a reply at its request's deadline still counts).
   */
  tick(now: bigint): PairingEvent<M>[] {
    const out: PairingEvent<M>[] = [];
    this.#expire(now, true, out);
    return out;
  }

  /** Ends every timeout, quiet period and memory whose deadline is at or before `now`. */
  expire(now: bigint): PairingEvent<M>[] {
    const out: PairingEvent<M>[] = [];
    this.#expire(now, false, out);
    return out;
  }

  #expire(now: bigint, strictly: boolean, out: PairingEvent<M>[]): void {
    for (let item = this.#timers.popDue(now, strictly); item; item = this.#timers.popDue(now, strictly)) {
      this.#close(item, item.deadline, 'timeout', out);
    }
    this.#memory.forget(now, strictly);
    this.#tokens.forget(now, strictly);
  }

  /**
   * The input ended: every pending request leaves as `unanswered` (an RCON request with
   * lines as its `exchange`), and all memory is cleared.
   */
  flush(): PairingEvent<M>[] {
    const out: PairingEvent<M>[] = [];
    for (const p of this.#live.all()) this.#close(p, p.deadline, 'end', out);
    this.#live.clear();
    this.#filed.clear();
    this.#memory.clear();
    this.#tokens.clear();
    this.#timers.clear();
    return out;
  }

  /** The earliest deadline still to come, if any (for a scheduler to wake at). */
  nextDeadline(): bigint | undefined {
    let at = this.#timers.peek();
    for (const next of [this.#memory.nextDeadline, this.#tokens.nextDeadline]) {
      if (next !== undefined && (at === undefined || next < at)) at = next;
    }
    return at;
  }

  #take(d: Datagram<M>, now: bigint, out: PairingEvent<M>[]): void {
    const codec = this.#o.codec;
    let r = identify(d.bytes, {}, codec);
    if (!r) {
      if (!mayBeMinecraftReply(d.bytes)) {
        out.push(new Unrecognized(d, codec));
        return;
      }
      // No magic: a Minecraft reply only within its conversation.
      this.#reply(d, 'mcquery', now, out, undefined);
      return;
    }
    if (r.direction === 'either') {
      // A SA:MP ping reply is its request, byte for byte: it is a reply if a request it answers is known.
      const direction = this.#isKnownReply(d, r.protocol) ? 'response' : 'request';
      r = identify(d.bytes, { protocol: r.protocol, direction, message: r.message }, codec)!;
    }
    let decoded: DecodedDatagram<M>;
    try {
      decoded = decorate(d, r, this.#decode(d, r.layout, codec));
    } catch (error) {
      out.push(undecodable(d, error));
      return;
    }
    if (decoded.direction === 'request') this.#request(decoded, now, out);
    else this.#reply(d, decoded.protocol, now, out, decoded);
  }

  /**
   * The reply read as the request's `message` would have it: `decoded` if the bytes told
   * already, else (a Minecraft reply, which has no magic) read now. Undefined, with the
   * `undecodable` event out, if it does not decode.
   */
  #read(d: Datagram<M>, decoded: DecodedDatagram<M> | undefined, out: PairingEvent<M>[], message?: string): DecodedDatagram<M> | undefined {
    if (decoded) return decoded;
    try {
      return this.#readMinecraftReply(d, message);
    } catch (error) {
      out.push(undecodable(d, error));
      return undefined;
    }
  }

  /** The event for a reply with no request anywhere near. */
  #orphan(d: Datagram<M>, decoded: DecodedDatagram<M> | undefined): PairingEvent<M> {
    if (decoded) return { kind: 'unmatched', datagram: d, decoded, reason: NO_REQUEST, cause: 'no-request' };
    try {
      const reply = this.#readMinecraftReply(d);
      if (reply.packet.bytesRead === d.bytes.length && reply.packet.warnings.length === 0) {
        return {
          kind: 'unmatched',
          datagram: d,
          decoded: reply,
          reason: NO_MINECRAFT_REQUEST,
          cause: 'no-request',
        };
      }
    } catch {
      /* not a reply either: report the error of the plain decode */
    }
    return new Unrecognized(d, this.#o.codec);
  }

  #isKnownReply(d: Datagram<M>, protocol: Protocol): boolean {
    const keys = keyRules[protocol].response(d);
    const m = matchers[protocol];
    const { exact, loose } = this.#filed;
    return (
      firstUnder(exact, keys, 'exact', m.exact, d) !== undefined ||
      newestRemembered(this.#memory, protocol, keys, 'exact', d) >= 0 ||
      firstUnder(loose, keys, 'loose', m.loose, d) !== undefined
    );
  }

  #request(decoded: DecodedDatagram<M>, now: bigint, out: PairingEvent<M>[]): void {
    const request = this.#kept(decoded);
    const token = request.value['token'];
    const issued = request.protocol === 'mcquery' && typeof token === 'number' ? this.#tokenFor(request.datagram, token) : -1;
    const collecting = collects(request.packet.layout);
    if (collecting) this.#closeEarlier(request, now, out);
    if (this.#live.size >= this.#o.maxPending) {
      const oldest = this.#live.oldest!;
      this.#finish(oldest, 'overflow', now, `more than ${this.#o.maxPending} requests pending: stopped waiting for the oldest`, out);
    }
    const issuer = issued >= 0 ? this.#tokens.issuer(issued, this.#copy) : undefined;
    const keys = keyRules[request.protocol].request(request.datagram, issuer);
    const p: Filing<M> = {
      kind: 'request',
      outcome: undefined,
      request,
      protocol: request.protocol,
      datagram: request.datagram,
      issuer,
      token: issued,
      responses: NO_RESPONSES,
      prev: undefined,
      next: undefined,
      deadline: now + this.#ns.timeout,
      timer: undefined,
      done: false,
      keys,
      collects: collecting,
      ambiguous: false,
    };
    if (!collecting) {
      // The one case no rule can settle: the same request twice from one socket, both waiting.
      // The newest twin is enough: any older one was marked with it when it came.
      for (let i = sideStart(keys, 'exact'); i < sideEnd(keys, 'exact') && !p.ambiguous; i++) {
        const twin = this.#filed.exact.newest(keys[i]!, identical, request.datagram);
        if (twin) twin.ambiguous = p.ambiguous = true;
      }
    }
    this.#filed.add(p);
    this.#live.add(p);
    this.#timers.push(p);
  }

  /**
   * A new command (RCON: lines without an end marker) closes the commands of its
   * conversation: the lines that follow are the new command's (the newest first). One with
   * lines leaves answered, one without them unanswered.
   */
  #closeEarlier(request: DecodedDatagram<M>, now: bigint, out: PairingEvent<M>[]): void {
    const d = request.datagram;
    const seen = turnedRound(d);
    const keys = keyRules[request.protocol].response(seen);
    const match = matchers[request.protocol].exact;
    let earlier: Filing<M>[] | undefined;
    for (let i = sideStart(keys, 'exact'); i < sideEnd(keys, 'exact'); i++) {
      for (const p of this.#filed.exact.newestFirst(keys[i]!, match, seen)) if (p.collects) (earlier ??= []).push(p);
    }
    if (!earlier) return;
    for (const p of earlier.reverse()) {
      if (p.responses.length > 0) this.#finish(p, 'answered', now, '', out);
      else this.#finish(p, 'unanswered', now, SUPERSEDED, out);
    }
  }

  #reply(d: Datagram<M>, protocol: Protocol, now: bigint, out: PairingEvent<M>[], decoded: DecodedDatagram<M> | undefined): void {
    const rule = keyRules[protocol];
    const keys = rule.response(d);
    const m = matchers[protocol];
    const { exact, loose } = this.#filed;

    const pending = firstUnder(exact, keys, 'exact', m.exact, d);
    if (pending) {
      const r = this.#read(d, decoded, out, pending.request.message);
      if (r) this.#answer(pending, r, now, out);
      return;
    }

    // Answered or timed out already: a copy of a reply it had, or a late or extra one.
    const memory = this.#memory;
    let newest = -1;
    let copy = -1;
    let original = -1;
    for (const n of rememberedUnder(memory, protocol, keys, 'exact', d)) {
      if (newest < 0) newest = n;
      const i = memory.copyOf(n, d.bytes);
      if (i >= 0) {
        copy = n;
        original = i;
        break;
      }
    }
    if (newest >= 0) {
      const r = this.#read(d, decoded, out, memory.layout(newest).message);
      if (r) {
        out.push(
          copy >= 0
            ? {
                kind: 'duplicate',
                response: r,
                of: this.#recall(copy),
                original: redecorate(memory.reply(copy, original, d.bytes, d.from, d.to), r),
              }
            : {
                kind: 'unmatched',
                datagram: d,
                decoded: r,
                reason: this.#afterwards(newest, d),
                cause: this.#causeAfterwards(newest),
                request: this.#recall(newest),
              },
        );
      }
      return;
    }

    const near = firstUnder(loose, keys, 'loose', m.loose, d);
    const nearby = near ? -1 : newestRemembered(memory, protocol, keys, 'loose', d);
    if (near || nearby >= 0) {
      const r = this.#read(d, decoded, out);
      const request = near ? near.request : this.#recall(nearby);
      const reason = rule.nearMiss(d, request, near ? false : memory.outcome(nearby) === 'answered');
      if (r) out.push({ kind: 'unmatched', datagram: d, decoded: r, reason, cause: 'near-miss', request });
      return;
    }
    out.push(this.#orphan(d, decoded));
  }

  /** A remembered request, read again from its bytes for an event that names it. */
  #recall(n: number): DecodedDatagram<M> {
    const layout = this.#memory.layout(n);
    return decodedAgain(this.#memory.request(n), layout, this.#o.codec);
  }

  /** The code of {@link #afterwards}. */
  #causeAfterwards(n: number): UnmatchedCause {
    const memory = this.#memory;
    switch (memory.outcome(n)) {
      case 'answered':
        return memory.collects(n) ? 'rcon-closed' : 'extra';
      case 'unanswered':
        return 'late';
      case 'overflow':
        return 'dropped';
    }
  }

  /** Why a reply to a request that has already left is unmatched. */
  #afterwards(n: number, reply: Datagram<M>): string {
    const memory = this.#memory;
    switch (memory.outcome(n)) {
      case 'answered':
        return memory.collects(n) ? rconClosed(this.#o.rconQuietMs) : EXTRA;
      case 'unanswered':
        return late(Number(reply.time - memory.request(n).time), this.#o.timeoutMs);
      case 'overflow':
        return DROPPED;
    }
  }

  /** A decoded datagram as the pairer keeps it past this call (see `retain`). */
  #kept(d: DecodedDatagram<M>): DecodedDatagram<M> {
    const retain = this.#retain;
    if (!retain) return d;
    const datagram = retain(d.datagram);
    return datagram === d.datagram ? d : redecorate(datagram, d);
  }

  #answer(p: Filing<M>, reply: DecodedDatagram<M>, now: bigint, out: PairingEvent<M>[]): void {
    const response = p.collects ? this.#kept(reply) : reply;
    if (p.responses.length === 0) p.responses = [response];
    else (p.responses as DecodedDatagram<M>[]).push(response); // not the shared empty list: one made above
    if (p.collects) {
      p.deadline = now + this.#ns.quiet;
      this.#timers.push(p);
    } else {
      this.#finish(p, 'answered', now, '', out);
    }
  }

  /** A deadline passed or the input ended: the request leaves with whatever it has. */
  #close(p: Filing<M>, when: bigint, cause: 'timeout' | 'end', out: PairingEvent<M>[]): void {
    if (p.responses.length > 0) {
      this.#finish(p, 'answered', when, '', out);
      return;
    }
    const { protocol, message } = p.request;
    // A hint explains a timeout; an input that simply ended says so.
    const reason = cause === 'timeout' ? timedOut(protocol, message, this.#o.timeoutMs) : ENDED;
    this.#finish(p, 'unanswered', when, reason, out);
  }

  /** The request leaves pending: what the duplicate window needs of it is remembered, and the object let go. */
  #finish(p: Filing<M>, outcome: Outcome, when: bigint, reason: string, out: PairingEvent<M>[]): void {
    p.outcome = outcome;
    p.done = true;
    this.#live.remove(p);
    this.#filed.release(p);
    this.#timers.cancel(p);
    const { request, responses } = p;
    switch (outcome) {
      case 'answered': {
        const rtt = responses[0]!.datagram.time - request.datagram.time;
        const handshake = p.token >= 0 ? this.#handshake(p.token) : undefined;
        const exchange: ExchangeEvent<M> = handshake
          ? { kind: 'exchange', request, responses, rtt, handshake }
          : { kind: 'exchange', request, responses, rtt };
        if (p.ambiguous) (exchange as { ambiguous?: true }).ambiguous = true;
        out.push(exchange);
        if (request.protocol === 'mcquery' && request.message === 'handshake') this.#keepToken(exchange, when);
        break;
      }
      case 'unanswered':
        out.push(p.ambiguous ? { kind: 'unanswered', request, reason, ambiguous: true } : { kind: 'unanswered', request, reason });
        break;
      case 'overflow':
        out.push({ kind: 'overflow', request, responses, reason });
        break;
    }
    const memory = this.#memory;
    memory.remember(
      {
        layout: request.packet.layout,
        request: request.datagram,
        issuer: p.issuer,
        keys: p.keys,
        outcome,
        collects: p.collects,
        replies: responses.map((r) => r.datagram),
      },
      when + this.#ns.window,
    );
    if (memory.size > this.#o.maxPending) memory.forgetOldest();
  }

  /** Links later stat requests carrying this handshake's token to it. */
  #keepToken(exchange: ExchangeEvent<M>, when: bigint): void {
    const reply = exchange.responses[0]!;
    const token = reply.value['token'];
    if (typeof token !== 'number') return;
    const request = exchange.request;
    const key = tokenKey(request.datagram, token);
    const tokens = this.#tokens;
    const previous = tokens.find(key, token, request.datagram);
    if (previous >= 0) tokens.drop(previous);
    tokens.keep(
      { key, token, layouts: [request.packet.layout, reply.packet.layout], request: request.datagram, reply: reply.datagram },
      when + this.#ns.tokenLife,
    );
    if (tokens.size > this.#o.maxPending) tokens.forgetOldest();
  }

  /** The remembered token with this value that a handshake from this client to this server was given, or -1. */
  #tokenFor(datagram: Datagram<M>, token: number): number {
    return this.#tokens.find(tokenKey(datagram, token), token, datagram);
  }

  /**
   * The exchange of the handshake that issued remembered token `n`, rebuilt, if the token
   * is still remembered (made when the stat exchange it belongs to ends, not when its
   * request came: most stat requests wait no longer than a round trip, and the rebuilt
   * exchange was most of what such a request held).
   */
  #handshake(n: number): ExchangeEvent<M> | undefined {
    const tokens = this.#tokens;
    if (!tokens.holds(n)) return undefined;
    const [requestLayout, replyLayout] = tokens.layouts(n);
    const [request, reply] = tokens.exchange(n);
    const codec = this.#o.codec;
    return {
      kind: 'exchange',
      request: decodedAgain(request, requestLayout, codec),
      responses: [decodedAgain(reply, replyLayout, codec)],
      rtt: reply.time - request.time,
    };
  }

  /** A copy of a few bytes the pairer keeps while a request is pending, in a buffer shared by many. */
  readonly #copy = (bytes: Uint8Array): Uint8Array => {
    const n = bytes.length;
    if (n > 256) return bytes.slice();
    if (this.#slabAt + n > this.#slab.length) {
      this.#slab = new Uint8Array(4096);
      this.#slabAt = 0;
    }
    const copy = this.#slab.subarray(this.#slabAt, this.#slabAt + n);
    copy.set(bytes);
    this.#slabAt += n;
    return copy;
  };

  /** A Minecraft reply, read as the pending request's message (Geyser answers basic with full: then by shape). */
  #readMinecraftReply(d: Datagram<M>, message?: string): DecodedDatagram<M> {
    if (message === undefined) return this.#decodeAs(d, replyHint(undefined));
    try {
      return this.#decodeAs(d, replyHint(message));
    } catch (error) {
      if (message === 'handshake') throw error;
      try {
        return this.#decodeAs(d, replyHint(undefined));
      } catch {
        throw error;
      }
    }
  }

  /** Decodes with a hint; throws the CodecError. */
  #decodeAs(d: Datagram<M>, hint: PacketHint): DecodedDatagram<M> {
    const codec = this.#o.codec;
    const r = identify(d.bytes, hint, codec) ?? recognize(d.bytes, hint, codec);
    return decorate(d, r, this.#decode(d, r.layout, codec));
  }
}
