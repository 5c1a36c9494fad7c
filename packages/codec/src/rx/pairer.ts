/**
 * The pairing core: one state machine, driven by either clock (see operator.ts). It reads
 * no clock itself; every call says what time it is, in nanoseconds.
 *
 * A datagram is decoded, then:
 *   request   → filed under its keys (rules.ts) with a deadline of now + timeout
 *   reply     → the oldest pending request under its key takes it (FIFO: two identical
 *               SA:MP requests to one server cannot be told apart); an RCON request keeps
 *               collecting lines until `rconQuietMs` of silence
 *   neither   → `undecodable`
 * A request leaves as `exchange`, `unanswered` or `overflow`, and is remembered for
 * `duplicateWindowMs`, so that a repeated reply reads as `duplicate` and a late or
 * misdirected one as `unmatched` naming its request. Every datagram taken ends up in
 * exactly one event.
 */
import { CodecError } from '../errors.ts';
import type { CodecOptions, Decoded, Direction, Layout, Protocol } from '../grammar/layout.ts';
import { decodePacket, identify, recognize, type DecodedPacket, type PacketHint, type Recognized } from '../packet.ts';
import { DeadlineQueue, FifoIndex, type Timed } from './collections.ts';
import { collected, conversation, keyRules, mayBeMinecraftReply, silenceReasons, type Keys } from './rules.ts';
import type {
  CodecErrorJson, Datagram, DecodedDatagram, ExchangeEvent, PairerOptions, PairingEvent,
} from './types.ts';

interface Pending<M> extends Timed {
  readonly kind: 'pending';
  readonly request: DecodedDatagram<M>;
  readonly keys: Keys;
  readonly responses: DecodedDatagram<M>[];
  /** Several replies, no end marker (RCON). */
  readonly collects: boolean;
  readonly handshake: ExchangeEvent<M> | undefined;
}

type Outcome = 'answered' | 'unanswered' | 'overflow';

interface Finished<M> extends Timed {
  readonly kind: 'finished';
  readonly outcome: Outcome;
  readonly request: DecodedDatagram<M>;
  readonly responses: readonly DecodedDatagram<M>[];
  readonly keys: Keys;
  readonly collects: boolean;
}

interface Token<M> extends Timed {
  readonly kind: 'token';
  readonly key: string;
  readonly exchange: ExchangeEvent<M>;
}

/** Items filed under their exact and loose keys. */
class Filed<T extends { readonly keys: Keys; done: boolean }> {
  readonly exact = new FifoIndex<T>();
  readonly loose = new FifoIndex<T>();

  add(item: T): void {
    for (const k of item.keys.exact) this.exact.add(k, item);
    for (const k of item.keys.loose) this.loose.add(k, item);
  }

  /** Call once `item.done` is set. */
  release(item: T): void {
    for (const k of item.keys.exact) this.exact.release(k);
    for (const k of item.keys.loose) this.loose.release(k);
  }

  clear(): void {
    this.exact.clear();
    this.loose.clear();
  }
}

/** How a reply is decoded once its context (the request's message name) is known. */
interface ReplyReader<M> {
  read(message?: string): DecodedDatagram<M>;
  /** The event for a reply with no context at all. */
  orphan(): PairingEvent<M>;
}

const nanos = (ms: number): bigint => BigInt(Math.round(ms * 1e6));
const showMs = (ns: bigint): string => `${Number(ns / 1000n) / 1000} ms`;

/**
 * How a recognised datagram is decoded: `layout.decode` unless the pairer's owner wants
 * more from the same read (the dissector keeps the annotated tree). Throws a CodecError.
 * The value it returns is what the events carry; the pairer itself reads only a
 * Minecraft `token` from it.
 */
export type PacketDecoder<M> = (datagram: Datagram<M>, layout: Layout<any>, codec: CodecOptions | undefined) => Decoded<Record<string, unknown>>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface QueryPairerOptions<M> extends PairerOptions {
  readonly decode?: PacketDecoder<M>;
}

const decodeByLayout: PacketDecoder<unknown> = (d, layout, codec) => layout.decode(d.bytes, codec);

const NO_VALUE: Record<string, unknown> = Object.freeze({});

/**
 * The part of a decoded value the pairer reads (a Minecraft token): what a decoder that
 * keeps the whole value elsewhere may hand it, since it holds on to values for its
 * duplicate window.
 */
export const pairingPart = (value: Record<string, unknown>): Record<string, unknown> =>
  value['token'] === undefined ? NO_VALUE : { token: value['token'] };

const decorate = <M>(datagram: Datagram<M>, r: Recognized, d: Decoded<Record<string, unknown>>): DecodedDatagram<M> => {
  const packet: DecodedPacket = {
    protocol: r.protocol, direction: r.direction, message: r.message, layout: r.layout, value: d.value, bytesRead: d.bytesRead, warnings: d.warnings,
  };
  return { datagram, protocol: r.protocol, direction: r.direction as Direction, message: r.message, value: d.value, packet };
};

const errorJson = (e: unknown): CodecErrorJson =>
  e instanceof CodecError
    ? e.toJSON()
    : { type: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e), layout: '', field: '', offset: 0 };

const undecodable = <M>(datagram: Datagram<M>, error: unknown): PairingEvent<M> => ({ kind: 'undecodable', datagram, error: errorJson(error) });

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

const firstUnder = <T extends { done: boolean }>(index: FifoIndex<T>, keys: readonly string[]): T | undefined => {
  for (const k of keys) {
    const hit = index.first(k);
    if (hit) return hit;
  }
  return undefined;
};

function* newestUnder<T extends { done: boolean }>(index: FifoIndex<T>, keys: readonly string[]): Generator<T, void> {
  for (const k of keys) yield* index.newestFirst(k);
}

const newestOf = <T extends { done: boolean }>(index: FifoIndex<T>, keys: readonly string[]): T | undefined => {
  for (const hit of newestUnder(index, keys)) return hit;
  return undefined;
};

const atLeastZero = (name: string, value: number): number => {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`pairQueries: ${name} must be a finite number ≥ 0, got ${value}`);
  return value;
};

interface Settings {
  readonly timeoutMs: number;
  readonly rconQuietMs: number;
  readonly duplicateWindowMs: number;
  readonly tokenLifetimeMs: number;
  readonly maxPending: number;
  readonly codec: CodecOptions | undefined;
}

/** The options with their defaults; throws a RangeError on a negative or non-finite number. */
export const settingsOf = (options: PairerOptions): Settings => ({
  timeoutMs: atLeastZero('timeoutMs', options.timeoutMs ?? 1000),
  rconQuietMs: atLeastZero('rconQuietMs', options.rconQuietMs ?? 500),
  duplicateWindowMs: atLeastZero('duplicateWindowMs', options.duplicateWindowMs ?? 5000),
  tokenLifetimeMs: atLeastZero('tokenLifetimeMs', options.tokenLifetimeMs ?? 30_000),
  maxPending: Math.max(1, Math.floor(atLeastZero('maxPending', options.maxPending ?? 100_000))),
  codec: options.charset ? { charset: options.charset } : undefined,
});

/**
 * The clock-agnostic pairing state machine behind `pairQueries`. Usable on its own
 * for synchronous processing: call `receive` per datagram (datagram clock by default),
 * `expire` when a timer fires, and `flush` at the end of the input.
 */
export class QueryPairer<M = unknown> {
  readonly #o: Settings;
  readonly #decode: PacketDecoder<M>;
  /** The durations of the settings, in nanoseconds. */
  readonly #ns: { readonly timeout: bigint; readonly quiet: bigint; readonly window: bigint; readonly tokenLife: bigint };
  readonly #pending = new Filed<Pending<M>>();
  readonly #finished = new Filed<Finished<M>>();
  /** Insertion order: the first is the oldest (overflow evicts it). */
  readonly #live = new Set<Pending<M>>();
  readonly #remembered = new Set<Finished<M>>();
  readonly #tokens = new Map<string, Token<M>>();
  readonly #timers = new DeadlineQueue<Pending<M> | Finished<M> | Token<M>>();

  constructor(options: QueryPairerOptions<M> = {}) {
    const o = (this.#o = settingsOf(options));
    this.#decode = options.decode ?? decodeByLayout;
    this.#ns = {
      timeout: nanos(o.timeoutMs), quiet: nanos(o.rconQuietMs), window: nanos(o.duplicateWindowMs), tokenLife: nanos(o.tokenLifetimeMs),
    };
  }

  /** Requests waiting for a reply (RCON requests still collecting included). */
  get pending(): number {
    return this.#live.size;
  }

  /**
   * Takes one datagram at time `now` (default: its own time, the datagram clock). First
   * ends whatever `now` has passed (deadline < now), so a reply exactly at its deadline
   * still counts.
   */
  receive(datagram: Datagram<M>, now: bigint = datagram.time): PairingEvent<M>[] {
    const out = this.expire(now - 1n);
    this.#take(datagram, now, out);
    return out;
  }

  /** Ends every timeout, quiet period and memory whose deadline is at or before `now`. */
  expire(now: bigint): PairingEvent<M>[] {
    const out: PairingEvent<M>[] = [];
    for (let item = this.#timers.popDue(now); item; item = this.#timers.popDue(now)) {
      switch (item.kind) {
        case 'pending': this.#close(item, item.deadline, 'timeout', out); break;
        case 'finished': this.#forget(item); break;
        case 'token': this.#dropToken(item); break;
      }
    }
    return out;
  }

  /**
   * The input ended: every pending request leaves as `unanswered` (an RCON request with
   * lines as its `exchange`), and all memory is cleared.
   */
  flush(): PairingEvent<M>[] {
    const out: PairingEvent<M>[] = [];
    for (const p of [...this.#live]) this.#close(p, p.deadline, 'end', out);
    this.#pending.clear();
    this.#finished.clear();
    this.#remembered.clear();
    this.#tokens.clear();
    this.#timers.clear();
    return out;
  }

  /** The earliest deadline still to come, if any (for a scheduler to wake at). */
  nextDeadline(): bigint | undefined {
    return this.#timers.peek();
  }

  #take(d: Datagram<M>, now: bigint, out: PairingEvent<M>[]): void {
    const codec = this.#o.codec;
    let r = identify(d.bytes, {}, codec);
    if (!r) {
      if (!mayBeMinecraftReply(d.bytes)) {
        out.push(undecodable(d, errorOf(d.bytes, codec)));
        return;
      }
      // No magic: a Minecraft reply only within its conversation.
      this.#reply(d, 'mcquery', now, out, {
        read: (message) => this.#readMinecraftReply(d, message),
        orphan: () => {
          try {
            const reply = this.#readMinecraftReply(d);
            if (reply.packet.bytesRead === d.bytes.length && reply.packet.warnings.length === 0) {
              return { kind: 'unmatched', datagram: d, decoded: reply, reason: 'no Minecraft query request pending in this conversation' };
            }
          } catch { /* not a reply either: report the error of the plain decode */ }
          return undecodable(d, errorOf(d.bytes, codec));
        },
      });
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
    if (decoded.direction === 'request') {
      this.#request(decoded, now, out);
      return;
    }
    this.#reply(d, decoded.protocol, now, out, {
      read: () => decoded,
      orphan: () => ({ kind: 'unmatched', datagram: d, decoded, reason: 'no pending request for this reply' }),
    });
  }

  #isKnownReply(d: Datagram<M>, protocol: Protocol): boolean {
    const keys = keyRules[protocol].response(d);
    return firstUnder(this.#pending.exact, keys.exact) !== undefined
      || newestOf(this.#finished.exact, keys.exact) !== undefined
      || firstUnder(this.#pending.loose, keys.loose) !== undefined;
  }

  #request(request: DecodedDatagram<M>, now: bigint, out: PairingEvent<M>[]): void {
    const token = request.value['token'];
    const handshake = request.protocol === 'mcquery' && typeof token === 'number'
      ? this.#tokens.get(tokenKey(request.datagram, token))?.exchange
      : undefined;
    if (this.#live.size >= this.#o.maxPending) {
      const oldest = this.#live.values().next().value!;
      this.#finish(oldest, 'overflow', now, `more than ${this.#o.maxPending} requests pending: stopped waiting for the oldest`, out);
    }
    const p: Pending<M> = {
      kind: 'pending', request, handshake, responses: [], deadline: now + this.#ns.timeout, done: false,
      keys: keyRules[request.protocol].request(request.datagram, handshake?.request.datagram),
      collects: collected.has(`${request.protocol}.${request.message}`),
    };
    this.#pending.add(p);
    this.#live.add(p);
    this.#timers.push(p);
  }

  #reply(d: Datagram<M>, protocol: Protocol, now: bigint, out: PairingEvent<M>[], reader: ReplyReader<M>): void {
    const keys = keyRules[protocol].response(d);
    const read = (message?: string): DecodedDatagram<M> | undefined => {
      try {
        return reader.read(message);
      } catch (error) {
        out.push(undecodable(d, error));
        return undefined;
      }
    };

    const pending = firstUnder(this.#pending.exact, keys.exact);
    if (pending) {
      const r = read(pending.request.message);
      if (r) this.#answer(pending, r, now, out);
      return;
    }

    // Answered or timed out already: a copy of a reply it had, or a late or extra one.
    let newest: Finished<M> | undefined;
    let copy: { of: Finished<M>; original: DecodedDatagram<M> } | undefined;
    for (const f of newestUnder(this.#finished.exact, keys.exact)) {
      newest ??= f;
      const original = f.responses.find((x) => sameBytes(x.datagram.bytes, d.bytes));
      if (original) {
        copy = { of: f, original };
        break;
      }
    }
    if (newest) {
      const r = read(newest.request.message);
      if (r) {
        out.push(copy
          ? { kind: 'duplicate', response: r, of: copy.of.request, original: copy.original }
          : { kind: 'unmatched', datagram: d, decoded: r, reason: this.#afterwards(newest, d), request: newest.request });
      }
      return;
    }

    const near = firstUnder(this.#pending.loose, keys.loose) ?? newestOf(this.#finished.loose, keys.loose);
    if (near) {
      const r = read();
      const reason = keyRules[protocol].nearMiss(d, near.request, near.kind === 'finished' && near.outcome === 'answered');
      if (r) out.push({ kind: 'unmatched', datagram: d, decoded: r, reason, request: near.request });
      return;
    }
    out.push(reader.orphan());
  }

  /** Why a reply to a request that has already left is unmatched. */
  #afterwards(f: Finished<M>, reply: Datagram<M>): string {
    switch (f.outcome) {
      case 'answered':
        return f.collects
          ? `RCON line after the exchange closed (${this.#o.rconQuietMs} ms of silence)`
          : 'another, different reply to a request already answered';
      case 'unanswered':
        return `late reply, ${showMs(reply.time - f.request.datagram.time)} after the request (timeout ${this.#o.timeoutMs} ms)`;
      case 'overflow':
        return 'reply to a request dropped by the maxPending limit';
    }
  }

  #answer(p: Pending<M>, response: DecodedDatagram<M>, now: bigint, out: PairingEvent<M>[]): void {
    p.responses.push(response);
    if (p.collects) {
      p.deadline = now + this.#ns.quiet;
      this.#timers.push(p);
    } else {
      this.#finish(p, 'answered', now, '', out);
    }
  }

  /** A deadline passed or the input ended: the request leaves with whatever it has. */
  #close(p: Pending<M>, when: bigint, cause: 'timeout' | 'end', out: PairingEvent<M>[]): void {
    if (p.responses.length > 0) {
      this.#finish(p, 'answered', when, '', out);
      return;
    }
    const { protocol, message } = p.request;
    // A hint explains a timeout; an input that simply ended says so.
    const hint = cause === 'timeout' ? silenceReasons[`${protocol}.${message}`] : undefined;
    const reason = hint ? `no reply (${hint})` : cause === 'timeout' ? `no reply within ${this.#o.timeoutMs} ms` : 'no reply before the input ended';
    this.#finish(p, 'unanswered', when, reason, out);
  }

  #finish(p: Pending<M>, outcome: Outcome, when: bigint, reason: string, out: PairingEvent<M>[]): void {
    p.done = true;
    this.#timers.cancel(p);
    this.#live.delete(p);
    this.#pending.release(p);
    const { request, responses } = p;
    switch (outcome) {
      case 'answered': {
        const exchange: ExchangeEvent<M> = {
          kind: 'exchange', request, responses, rtt: responses[0]!.datagram.time - request.datagram.time,
          ...(p.handshake ? { handshake: p.handshake } : {}),
        };
        out.push(exchange);
        if (request.protocol === 'mcquery' && request.message === 'handshake') this.#keepToken(exchange, when);
        break;
      }
      case 'unanswered': out.push({ kind: 'unanswered', request, reason }); break;
      case 'overflow': out.push({ kind: 'overflow', request, responses, reason }); break;
    }
    const f: Finished<M> = { kind: 'finished', outcome, request, responses, keys: p.keys, collects: p.collects, deadline: when + this.#ns.window, done: false };
    this.#finished.add(f);
    this.#remembered.add(f);
    this.#timers.push(f);
    if (this.#remembered.size > this.#o.maxPending) this.#forget(this.#remembered.values().next().value!);
  }

  #forget(f: Finished<M>): void {
    f.done = true;
    this.#timers.cancel(f);
    this.#remembered.delete(f);
    this.#finished.release(f);
  }

  /** Links later stat requests carrying this handshake's token to it. */
  #keepToken(exchange: ExchangeEvent<M>, when: bigint): void {
    const token = exchange.responses[0]!.value['token'];
    if (typeof token !== 'number') return;
    const key = tokenKey(exchange.request.datagram, token);
    const previous = this.#tokens.get(key);
    if (previous) this.#dropToken(previous);
    const t: Token<M> = { kind: 'token', key, exchange, deadline: when + this.#ns.tokenLife, done: false };
    this.#tokens.set(key, t);
    this.#timers.push(t);
    if (this.#tokens.size > this.#o.maxPending) this.#dropToken(this.#tokens.values().next().value!);
  }

  #dropToken(t: Token<M>): void {
    t.done = true;
    this.#timers.cancel(t);
    this.#tokens.delete(t.key);
  }

  /** A Minecraft reply, read as the pending request's message (Geyser answers basic with full: then by shape). */
  #readMinecraftReply(d: Datagram<M>, message?: string): DecodedDatagram<M> {
    const hint = { protocol: 'mcquery', direction: 'response' } as const;
    if (message === undefined) return this.#decodeAs(d, hint);
    try {
      return this.#decodeAs(d, { ...hint, message });
    } catch (error) {
      if (message === 'handshake') throw error;
      try {
        return this.#decodeAs(d, hint);
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

/** Why bytes are no query message: the error `decodePacket` throws (built only when needed). */
function errorOf(bytes: Uint8Array, codec: CodecOptions | undefined): unknown {
  try {
    decodePacket(bytes, {}, codec);
  } catch (error) {
    return error;
  }
  return new Error('decodes, yet was not recognised');
}

/** A handshake's token within its conversation: stat requests quote it. */
const tokenKey = (request: Datagram, token: number): string => `${conversation(request, 'request')} ${token}`;
