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
 *               requests to one server cannot be told apart); an RCON request keeps
 *               collecting lines until `rconQuietMs` of silence
 *   neither   → `undecodable`
 * A request leaves as `exchange`, `unanswered` or `overflow`, and is remembered for
 * `duplicateWindowMs` (memory.ts), so that a repeated reply reads as `duplicate` and a
 * late or misdirected one as `unmatched` naming its request, read again from its bytes.
 * Every datagram taken ends up in exactly one event.
 *
 * Why this file is over 400 lines: `QueryPairer` is one class on the per-packet path: the
 * pending requests, the memory of finished ones and the token book are private fields that
 * every datagram reads and writes, and each step of the state machine above is a method.
 * What runs the same from any module has its own file: the decoded records and decoders
 * (decoded.ts), the pending requests (filing.ts), what is remembered (memory.ts), the
 * options (settings.ts), what each protocol's declaration says of pairing (rules.ts).
 *
 * Every protocol is paired as its declaration says (rules.ts `Plan`): its key; the messages
 * it collects; a reply without magic, read within its conversation as a reply to the
 * request pending there; a token its replies issue, kept so that a request quoting it
 * is linked to the exchange that issued it. `protocols` (default: the built-in ones) says
 * which protocols the pairer knows.
 */
import type { PacketHint, ProtocolDeclaration } from '../grammar/protocol.ts';
import { protocolSet, type ProtocolSet } from '../grammar/protocol-set.ts';
import { builtInSet } from '../packet.ts';
import { builtInProtocols, type BuiltInProtocol, type QueryLayout } from '../protocols/index.ts';
import { Unrecognized, decodeByLayout, decodedAgain, decorate, redecorate, undecodable, type PacketDecoder } from './decoded.ts';
import { Pending, identical, sideEnd, sideStart, turnedRound, type PendingRequest } from './filing.ts';
import { ExchangeMemory, TokenMemory, copyOf, replyOf, requestOf, type Outcome, type Remembered, type Token } from './memory.ts';
import { builtInPlans, keyRules, plansOf, tokenKey, type KeyRule, type Plan } from './rules.ts';
import { DROPPED, ENDED, EXTRA, NO_REQUEST, SUPERSEDED, late, rconClosed, timedOut } from './reasons.ts';
import { settingsOf, type QueryPairerOptions, type Settings } from './settings.ts';
import type { Datagram, DecodedDatagram, ExchangeEvent, PairingEvent, UnmatchedCause } from './types.ts';

export { pairingPart, type PacketDecoder } from './decoded.ts';
export { settingsOf, type QueryPairerOptions } from './settings.ts';

const nanos = (ms: number): bigint => BigInt(Math.round(ms * 1e6));

const NO_RESPONSES: readonly never[] = Object.freeze([]);

/** A pending request: once it leaves, what the duplicate window needs of it goes to the pairer's memory (memory.ts). */
interface Filing<M> extends PendingRequest<Filing<M>> {
  readonly request: DecodedDatagram<M>;
  /** None (a shared empty list) until the first reply, then a list made for it. */
  responses: readonly DecodedDatagram<M>[];
  /** Several replies, no end marker (RCON). */
  readonly collects: boolean;
  /** The remembered token this request quotes, with the exchange that issued it. */
  readonly token: Token<M> | undefined;
  /** Its reply issues a token, to be kept for the requests that quote it. */
  readonly issues: boolean;
  /** Another request, byte for byte the same, from the same client to the same server, was pending with it. */
  ambiguous: boolean;
}

/**
 * The events of a pairer as its caller's protocols name them. The state machine itself never
 * reads a protocol's name but to look up its declaration, so it is written for the built-in
 * names; the names its events carry are those of the declarations it was given, which `P` is.
 */
const named = <M, P extends string>(events: PairingEvent<M>[]): PairingEvent<M, P>[] => events as unknown as PairingEvent<M, P>[];

/**
 * The clock-agnostic pairing state machine behind `pairQueries`. Usable on its own
 * for synchronous processing: call `receive` per datagram (datagram clock by default),
 * `expire` when a timer fires, and `flush` at the end of the input. `P`, the protocols'
 * names its events carry, is inferred from the `protocols` option (default: the built-in ones).
 */
export class QueryPairer<M = unknown, P extends string = BuiltInProtocol> {
  readonly #o: Settings;
  readonly #decode: PacketDecoder<M>;
  readonly #retain: ((datagram: Datagram<M>) => Datagram<M>) | undefined;
  /** The protocols known: recognition over them, and what each one's declaration says of pairing, by name. */
  readonly #protocols: ProtocolSet;
  readonly #plans: Readonly<Record<string, Plan>>;
  /** Those whose replies may carry no magic. */
  readonly #magicless: readonly Plan[];
  /** The durations of the settings, in nanoseconds. */
  readonly #ns: { readonly timeout: bigint; readonly quiet: bigint; readonly window: bigint; readonly tokenLife: bigint };
  /** Pending requests: under their keys, in the order they came (overflow evicts the oldest), by deadline. */
  readonly #pending = new Pending<Filing<M>>();
  /** Finished requests for the duplicate window. */
  readonly #memory: ExchangeMemory<M>;
  /** Handshakes' tokens for their lifetime. */
  readonly #tokens = new TokenMemory<M>();

  constructor(options: QueryPairerOptions<M, P> = {}) {
    const o = (this.#o = settingsOf(options));
    this.#decode = options.decode ?? decodeByLayout;
    this.#retain = options.retain;
    const protocols = options.protocols;
    this.#protocols = protocols ? protocolSet(protocols) : builtInSet;
    const plans = (this.#plans = protocols ? plansOf(protocols) : builtInPlans);
    this.#magicless = (protocols ?? builtInProtocols).flatMap((p: ProtocolDeclaration) => {
      const plan = plans[p.name];
      return p.magicless && plan ? [plan] : [];
    });
    this.#memory = new ExchangeMemory<M>(protocols ? Object.fromEntries(Object.entries(plans).map(([n, p]) => [n, p.rule])) : keyRules);
    this.#ns = {
      timeout: nanos(o.timeoutMs),
      quiet: nanos(o.rconQuietMs),
      window: nanos(o.duplicateWindowMs),
      tokenLife: nanos(o.tokenLifetimeMs),
    };
  }

  /** Requests waiting for a reply (RCON requests still collecting included). */
  get pending(): number {
    return this.#pending.size;
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
  receive(datagram: Datagram<M>, now: bigint = datagram.time): PairingEvent<M, P>[] {
    const out: PairingEvent<M>[] = [];
    this.#expire(now, true, out);
    this.#take(datagram, now, out);
    return named(out);
  }

  /**
   * Time has reached `now` by a datagram this pairer does not take: ends what `now` has
   * passed, exactly as {@link receive} would before taking a datagram at `now` (a reply at
   * its request's deadline still counts).
   */
  tick(now: bigint): PairingEvent<M, P>[] {
    const out: PairingEvent<M>[] = [];
    this.#expire(now, true, out);
    return named(out);
  }

  /** Ends every timeout, quiet period and memory whose deadline is at or before `now`. */
  expire(now: bigint): PairingEvent<M, P>[] {
    const out: PairingEvent<M>[] = [];
    this.#expire(now, false, out);
    return named(out);
  }

  #expire(now: bigint, strictly: boolean, out: PairingEvent<M>[]): void {
    for (let p = this.#pending.due(now, strictly); p; p = this.#pending.due(now, strictly)) this.#close(p, p.deadline, 'timeout', out);
    this.#memory.forget(now, strictly);
    this.#tokens.forget(now, strictly);
  }

  /**
   * The input ended: every pending request leaves as `unanswered` (an RCON request with
   * lines as its `exchange`), and all memory is cleared.
   */
  flush(): PairingEvent<M, P>[] {
    const out: PairingEvent<M>[] = [];
    for (const p of this.#pending.all()) this.#close(p, p.deadline, 'end', out);
    this.#pending.clear();
    this.#memory.clear();
    this.#tokens.clear();
    return named(out);
  }

  /** The earliest deadline still to come, if any (for a scheduler to wake at). */
  nextDeadline(): bigint | undefined {
    let at = this.#pending.nextDeadline();
    for (const next of [this.#memory.nextDeadline, this.#tokens.nextDeadline]) {
      if (next !== undefined && (at === undefined || next < at)) at = next;
    }
    return at;
  }

  #take(d: Datagram<M>, now: bigint, out: PairingEvent<M>[]): void {
    const codec = this.#o.codec;
    const protocols = this.#protocols;
    let r = protocols.identify(d.bytes, {}, codec);
    if (!r) {
      const unsigned = this.#magiclessOf(d.bytes);
      if (!unsigned) {
        out.push(new Unrecognized(d, codec, protocols));
        return;
      }
      // No magic: a reply of that protocol only within its conversation.
      this.#reply(d, unsigned, now, out, undefined);
      return;
    }
    const plan = this.#plans[r.protocol];
    if (!plan) {
      out.push(undecodable(d, new Error(`${r.protocol}: no pairing key declared`)));
      return;
    }
    if (r.direction === 'either') {
      // A reply the same bytes as its request (a ping): a reply if a request it answers is known.
      const direction = this.#isKnownReply(d, plan) ? 'response' : 'request';
      r = protocols.identify(d.bytes, { protocol: r.protocol, direction, message: r.message }, codec)!;
    }
    let decoded: DecodedDatagram<M>;
    try {
      decoded = decorate(d, r, this.#decode(d, r.layout as QueryLayout, codec));
    } catch (error) {
      out.push(undecodable(d, error));
      return;
    }
    if (decoded.direction === 'request') this.#request(decoded, plan, now, out);
    else this.#reply(d, plan, now, out, decoded);
  }

  /** The first protocol known whose replies may carry no magic and that `bytes` may be a reply of. */
  #magiclessOf(bytes: Uint8Array): Plan | undefined {
    for (const plan of this.#magicless) if (plan.protocol.magicless!.mayBe(bytes)) return plan;
    return undefined;
  }

  /**
   * The reply read as the request's `message` would have it: `decoded` if the bytes told
   * already, else (a reply without magic) read now. Undefined, with the `undecodable` event
   * out, if it does not decode.
   */
  #read(
    d: Datagram<M>,
    plan: Plan,
    decoded: DecodedDatagram<M> | undefined,
    out: PairingEvent<M>[],
    message?: string,
  ): DecodedDatagram<M> | undefined {
    if (decoded) return decoded;
    try {
      return this.#readUnsigned(d, plan, message);
    } catch (error) {
      out.push(undecodable(d, error));
      return undefined;
    }
  }

  /** The event for a reply with no request anywhere near. */
  #orphan(d: Datagram<M>, plan: Plan, decoded: DecodedDatagram<M> | undefined): PairingEvent<M> {
    if (decoded) return { kind: 'unmatched', datagram: d, decoded, reason: NO_REQUEST, cause: 'no-request' };
    try {
      const reply = this.#readUnsigned(d, plan);
      if (reply.packet.bytesRead === d.bytes.length && reply.packet.warnings.length === 0) {
        return {
          kind: 'unmatched',
          datagram: d,
          decoded: reply,
          reason: plan.noRequest,
          cause: 'no-request',
        };
      }
    } catch {
      /* not a reply either: report the error of the plain decode */
    }
    return new Unrecognized(d, this.#o.codec, this.#protocols);
  }

  #isKnownReply(d: Datagram<M>, plan: Plan): boolean {
    const rule = plan.rule;
    const keys = rule.response(d);
    return (
      this.#pending.first(keys, 'exact', rule.exact, d) !== undefined ||
      this.#memory.newest(plan.protocol.name, keys, 'exact', d) !== undefined ||
      this.#pending.first(keys, 'loose', rule.loose, d) !== undefined
    );
  }

  #request(decoded: DecodedDatagram<M>, plan: Plan, now: bigint, out: PairingEvent<M>[]): void {
    const request = this.#kept(decoded);
    const token = request.value['token'];
    const issued =
      plan.quotes && typeof token === 'number' ? this.#tokens.find(tokenKey(request.datagram, token), token, request.datagram) : undefined;
    const collecting = plan.collects.has(request.packet.layout);
    if (collecting) this.#closeEarlier(request, plan.rule, now, out);
    if (this.#pending.size >= this.#o.maxPending) {
      const oldest = this.#pending.oldest!;
      this.#finish(oldest, 'overflow', now, `more than ${this.#o.maxPending} requests pending: stopped waiting for the oldest`, out);
    }
    const issuer = issued?.request;
    const keys = plan.rule.request(request.datagram, issuer);
    const p: Filing<M> = {
      request,
      protocol: request.protocol,
      datagram: request.datagram,
      issuer,
      token: issued,
      issues: plan.issues.has(request.message),
      responses: NO_RESPONSES,
      older: undefined,
      newer: undefined,
      deadline: now + this.#ns.timeout,
      timer: undefined,
      keys,
      collects: collecting,
      ambiguous: false,
    };
    if (!collecting) {
      // The one case no rule can settle: the same request twice from one socket, both waiting.
      // The newest twin is enough: any older one was marked with it when it came.
      for (let i = sideStart(keys, 'exact'); i < sideEnd(keys, 'exact') && !p.ambiguous; i++) {
        const filed = this.#pending.under(keys[i]!, 'exact');
        const twin = filed.findLast((q) => identical(q, request.datagram));
        if (twin) twin.ambiguous = p.ambiguous = true;
      }
    }
    this.#pending.add(p);
  }

  /**
   * A new command (RCON: lines without an end marker) closes the commands of its
   * conversation: the lines that follow are the new command's (the newest first). One with
   * lines leaves answered, one without them unanswered.
   */
  #closeEarlier(request: DecodedDatagram<M>, rule: KeyRule, now: bigint, out: PairingEvent<M>[]): void {
    const d = request.datagram;
    const seen = turnedRound(d);
    const keys = rule.response(seen);
    const match = rule.exact;
    let earlier: Filing<M>[] | undefined;
    for (let i = sideStart(keys, 'exact'); i < sideEnd(keys, 'exact'); i++) {
      const filed = this.#pending.under(keys[i]!, 'exact');
      for (let j = filed.length - 1; j >= 0; j--) if (filed[j]!.collects && match(filed[j]!, seen)) (earlier ??= []).push(filed[j]!);
    }
    if (!earlier) return;
    for (const p of earlier.reverse()) {
      if (p.responses.length > 0) this.#finish(p, 'answered', now, '', out);
      else this.#finish(p, 'unanswered', now, SUPERSEDED, out);
    }
  }

  #reply(d: Datagram<M>, plan: Plan, now: bigint, out: PairingEvent<M>[], decoded: DecodedDatagram<M> | undefined): void {
    const rule = plan.rule;
    const protocol = plan.protocol.name;
    const keys = rule.response(d);

    const pending = this.#pending.first(keys, 'exact', rule.exact, d);
    if (pending) {
      const r = this.#read(d, plan, decoded, out, pending.request.message);
      if (r) this.#answer(pending, r, now, out);
      return;
    }

    // Answered or timed out already: a copy of a reply it had, or a late or extra one.
    let newest: Remembered<M> | undefined;
    let copy: Remembered<M> | undefined;
    let original = -1;
    for (const e of this.#memory.under(protocol, keys, 'exact', d)) {
      newest ??= e;
      original = copyOf(e, d.bytes);
      if (original >= 0) {
        copy = e;
        break;
      }
    }
    if (newest) {
      const r = this.#read(d, plan, decoded, out, newest.layout.message);
      if (r) {
        out.push(
          copy
            ? {
                kind: 'duplicate',
                response: r,
                of: this.#recall(copy),
                original: redecorate(replyOf(copy, original, d.bytes, d.from, d.to), r),
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

    const near = this.#pending.first(keys, 'loose', rule.loose, d);
    const nearby = near ? undefined : this.#memory.newest(protocol, keys, 'loose', d);
    if (near || nearby) {
      const r = this.#read(d, plan, decoded, out);
      const request = near ? near.request : this.#recall(nearby!);
      const reason = rule.nearMiss(d, request, nearby?.outcome === 'answered');
      if (r) out.push({ kind: 'unmatched', datagram: d, decoded: r, reason, cause: 'near-miss', request });
      return;
    }
    out.push(this.#orphan(d, plan, decoded));
  }

  /** A remembered request, read again from its bytes for an event that names it. */
  #recall(e: Remembered<M>): DecodedDatagram<M> {
    return decodedAgain(requestOf(e), e.layout, this.#o.codec);
  }

  /** The code of {@link #afterwards}. */
  #causeAfterwards(e: Remembered<M>): UnmatchedCause {
    switch (e.outcome) {
      case 'answered':
        return e.collects ? 'rcon-closed' : 'extra';
      case 'unanswered':
        return 'late';
      case 'overflow':
        return 'dropped';
    }
  }

  /** Why a reply to a request that has already left is unmatched. */
  #afterwards(e: Remembered<M>, reply: Datagram<M>): string {
    switch (e.outcome) {
      case 'answered':
        return e.collects ? rconClosed(this.#o.rconQuietMs) : EXTRA;
      case 'unanswered':
        return late(Number(reply.time - e.datagram.time), this.#o.timeoutMs);
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
      this.#pending.schedule(p);
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
    const reason = cause === 'timeout' ? timedOut(this.#plans[protocol]?.protocol.unansweredBecause, message, this.#o.timeoutMs) : ENDED;
    this.#finish(p, 'unanswered', when, reason, out);
  }

  /** The request leaves pending: what the duplicate window needs of it is remembered, and the object let go. */
  #finish(p: Filing<M>, outcome: Outcome, when: bigint, reason: string, out: PairingEvent<M>[]): void {
    this.#pending.remove(p);
    const { request, responses } = p;
    switch (outcome) {
      case 'answered': {
        const rtt = responses[0]!.datagram.time - request.datagram.time;
        const handshake = p.token?.kept ? this.#handshake(p.token) : undefined;
        const exchange: ExchangeEvent<M> = handshake
          ? { kind: 'exchange', request, responses, rtt, handshake }
          : { kind: 'exchange', request, responses, rtt };
        if (p.ambiguous) (exchange as { ambiguous?: true }).ambiguous = true;
        out.push(exchange);
        if (p.issues) this.#keepToken(exchange, when);
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
        datagram: request.datagram,
        issuer: p.issuer,
        keys: p.keys,
        outcome,
        collects: p.collects,
      },
      responses,
      when + this.#ns.window,
    );
    if (memory.size > this.#o.maxPending) memory.forgetOldest();
  }

  /** Links later requests quoting the token this exchange's reply issued to it. */
  #keepToken(exchange: ExchangeEvent<M>, when: bigint): void {
    const reply = exchange.responses[0]!;
    const token = reply.value['token'];
    if (typeof token !== 'number') return;
    const request = exchange.request;
    const key = tokenKey(request.datagram, token);
    const tokens = this.#tokens;
    const previous = tokens.find(key, token, request.datagram);
    if (previous) previous.live = false;
    tokens.keep(
      { key, token, layouts: [request.packet.layout, reply.packet.layout], request: request.datagram, reply: reply.datagram },
      when + this.#ns.tokenLife,
    );
    if (tokens.size > this.#o.maxPending) tokens.forgetOldest();
  }

  /**
   * The exchange that issued a remembered token, rebuilt (when the exchange of the request
   * quoting it ends, not when that request came: most wait no longer than a round trip).
   */
  #handshake(t: Token<M>): ExchangeEvent<M> {
    const [requestLayout, replyLayout] = t.layouts;
    const [request, reply] = this.#tokens.exchange(t);
    const codec = this.#o.codec;
    return {
      kind: 'exchange',
      request: decodedAgain(request, requestLayout, codec),
      responses: [decodedAgain(reply, replyLayout, codec)],
      rtt: reply.time - request.time,
    };
  }

  /**
   * A reply without magic, read as the pending request's message, or by its shape where it
   * does not fit that (a server may answer one message with another's reply); a reply to a
   * message whose reply issues a token is read as nothing else.
   */
  #readUnsigned(d: Datagram<M>, plan: Plan, message?: string): DecodedDatagram<M> {
    if (message === undefined) return this.#decodeAs(d, plan.reply);
    try {
      return this.#decodeAs(d, plan.replyAs.get(message) ?? { ...plan.reply, message });
    } catch (error) {
      if (plan.issues.has(message)) throw error;
      try {
        return this.#decodeAs(d, plan.reply);
      } catch {
        throw error;
      }
    }
  }

  /** Decodes with a hint; throws the CodecError. */
  #decodeAs(d: Datagram<M>, hint: PacketHint): DecodedDatagram<M> {
    const codec = this.#o.codec;
    const protocols = this.#protocols;
    const r = protocols.recognize(d.bytes, hint, codec);
    return decorate(d, r, this.#decode(d, r.layout as QueryLayout, codec));
  }
}
