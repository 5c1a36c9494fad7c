/**
 * The first pass: what pairing needs of each frame, and nothing more. A frame is taken
 * apart down to its UDP payload, the payload is recognised and checked (does it decode?)
 * without building its tree, and the codec's `QueryPairer` — the same rules a live query
 * client follows — pairs it in capture time. What the pairer says goes into a
 * {@link FactRing} by frame number: the layout to read a frame as, its links, its reasons.
 *
 * The renderer (records.ts) reads each frame again once its facts are final, so no
 * packet waits here as an object: what is held between the passes is a few dozen bytes
 * a frame for one request timeout of capture, and what the pairer remembers (compact too).
 */
import { rconRequest, rconSecrets, textCodec, type Charset, type CodecOptions, type Decoded } from '@gamequery/codec';
import {
  KeyTable,
  QueryPairer,
  pairingPart,
  type Datagram,
  type Endpoint,
  type PacketDecoder,
  type PairingEvent,
} from '@gamequery/codec/pairing';
import type { Timestamp } from '../capture/timestamp.ts';
import { UdpDecoder } from '../net/decoder.ts';
import type { FrameInput, UdpDatagram } from '../net/types.ts';
import { FactRing } from './facts.ts';

export interface LinkOptions {
  readonly charset?: Charset;
  readonly timeoutMs: number;
  readonly duplicateWindowMs?: number;
  readonly tokenLifetimeMs?: number;
}

/** Counts of what the pairer said. */
export interface LinkStats {
  exchanges: number;
  unanswered: number;
  unmatched: number;
  duplicates: number;
}

const NS = 1_000_000_000n;
/** Endpoints known at most before the table starts afresh. */
const MAX_ENDPOINTS = 1 << 18;
/** Bytes of the buffers datagrams the pairer keeps are copied into. */
const SLAB = 1 << 16;
const NO_WARNINGS: Decoded<unknown>['warnings'] = Object.freeze([]);

export class LinkPass {
  readonly facts = new FactRing();
  readonly stats: LinkStats;
  readonly #udp = new UdpDecoder();
  readonly #pairer: QueryPairer<number>;
  readonly #codec: CodecOptions;
  /** Endpoints, one object each, shared by every datagram that names it; found by a hash of address and port. */
  #endpoints: Endpoint[] = [];
  readonly #known = new KeyTable();
  #lastTime = 0n;
  #second = Number.NaN;
  #secondNs = 0n;
  /** The datagram being taken was cut short by the capture (snapshot length): it pairs with what it has. */
  #truncated = false;

  /** `stats`: where the pairer's outcomes are counted (the dissector's stats). */
  constructor(options: LinkOptions, stats: LinkStats = { exchanges: 0, unanswered: 0, unmatched: 0, duplicates: 0 }) {
    this.stats = stats;
    this.#codec = options.charset ? { charset: options.charset } : {};
    this.#pairer = new QueryPairer<number>({
      timeoutMs: options.timeoutMs,
      decode: this.#decode,
      retain: this.#retain,
      ...(options.duplicateWindowMs !== undefined ? { duplicateWindowMs: options.duplicateWindowMs } : {}),
      ...(options.tokenLifetimeMs !== undefined ? { tokenLifetimeMs: options.tokenLifetimeMs } : {}),
      ...(options.charset ? { charset: options.charset } : {}),
      // The pairer holds what it must as compact facts: no limit that drops requests is needed.
      maxPending: Number.MAX_SAFE_INTEGER,
    });
  }

  /** Requests waiting for their reply, and exchanges remembered for the duplicate window. */
  get held(): { readonly pending: number; readonly exchanges: number; readonly tokens: number } {
    return { pending: this.#pairer.pending, ...this.#pairer.remembered };
  }

  /** Takes one captured frame. */
  push(frame: FrameInput): void {
    const decoded = this.#udp.decode(frame);
    if (decoded.kind === 'skipped') {
      this.facts.open(frame.index, false);
      return;
    }
    this.#take(frame.index, frame.timestamp, decoded);
  }

  /** Takes a bare UDP payload (a hex dump of a payload): endpoints unknown. */
  pushPayload(index: number, payload: Uint8Array): void {
    const unknown = { ip: '0.0.0.0', port: 0 };
    this.#take(index, null, {
      kind: 'udp',
      ipVersion: 4,
      src: unknown,
      dst: unknown,
      payload,
      payloadOffset: 0,
      udpLength: payload.length + 8,
      truncated: false,
    });
  }

  /** The input ended: pending requests are unanswered, every frame is final. */
  finish(): void {
    this.#udp.finish();
    this.#apply(this.#pairer.flush());
  }

  #take(frame: number, timestamp: Timestamp | null, udp: UdpDatagram): void {
    const time = (this.#lastTime = this.#nanos(timestamp));
    this.facts.open(frame, true, timestamp);
    const d: Datagram<number> = {
      bytes: udp.payload,
      from: this.#endpoint(udp.src.ip, udp.src.port),
      to: this.#endpoint(udp.dst.ip, udp.dst.port),
      time,
      meta: frame,
    };
    this.#truncated = udp.truncated;
    this.#apply(this.#pairer.receive(d));
  }

  /** Capture time in nanoseconds (exact); a datagram without a time (a hex dump) takes the last one. */
  #nanos(t: Timestamp | null): bigint {
    if (!t) return this.#lastTime;
    if (t.seconds !== this.#second) {
      this.#second = t.seconds;
      this.#secondNs = BigInt(t.seconds) * NS;
    }
    const tps = t.resolution.ticksPerSecond;
    // Decimal resolutions up to nanoseconds scale by an integer factor, exactly, in a double.
    return tps <= 1e9 && 1e9 % tps === 0
      ? this.#secondNs + BigInt(t.ticks * (1e9 / tps))
      : this.#secondNs + (BigInt(t.ticks) * NS) / BigInt(tps);
  }

  /**
   * The one object for an address and port: hashed into an open-addressing table of
   * typed arrays (a Map by address, then one by port, was a twentieth of this pass: the
   * address is a new string each datagram, hashed again by each Map).
   */
  #endpoint(address: string, port: number): Endpoint {
    let h = 0x811c9dc5 ^ port;
    for (let i = 0; i < address.length; i++) h = Math.imul(h ^ address.charCodeAt(i), 16777619);
    h = (h >>> 2) & 0x3fffffff;
    for (let slot = this.#known.get(h); slot >= 0; slot = this.#known.get(h)) {
      const e = this.#endpoints[slot]!;
      if (e.port === port && e.address === address) return e;
      h = (h + 1) & 0x3fffffff; // another endpoint with this hash: the next one along
    }
    if (this.#endpoints.length >= MAX_ENDPOINTS) {
      // A cache, not a record of every endpoint: a scan of a million servers starts it afresh now and then.
      this.#known.clear();
      this.#endpoints = [];
    }
    const e = { address, port };
    this.#known.set(h, this.#endpoints.length);
    this.#endpoints.push(e);
    return e;
  }

  /** Where datagrams the pairer keeps are copied: one buffer for many (an ArrayBuffer each was most of the garbage collector's work). */
  #slab = new Uint8Array(SLAB);
  #slabAt = 0;

  /**
   * What the pairer keeps of a datagram: its bytes copied out of the read chunk, so that a
   * request waiting seconds for its reply does not hold the chunk (a megabyte).
   */
  readonly #retain = (d: Datagram<number>): Datagram<number> => {
    const n = d.bytes.length;
    if (n > SLAB >> 4) return { ...d, bytes: d.bytes.slice() };
    if (this.#slabAt + n > SLAB) {
      this.#slab = new Uint8Array(SLAB);
      this.#slabAt = 0;
    }
    const bytes = this.#slab.subarray(this.#slabAt, this.#slabAt + n);
    bytes.set(d.bytes);
    this.#slabAt += n;
    return { bytes, from: d.from, to: d.to, time: d.time, meta: d.meta! };
  };

  /**
   * How the pairer reads a datagram here: whether it decodes, and the part of its value
   * pairing reads (a Minecraft token); the warnings only where it reads the value (the
   * second pass finds them again). A reply the capture cut short (snapshot length)
   * still pairs, as in Wireshark, with the fields before the cut.
   */
  readonly #decode: PacketDecoder<number> = (d, layout, codec) => {
    if (this.#truncated) {
      let decoded: Decoded<Record<string, unknown>> | undefined;
      try {
        decoded = layout.decode(d.bytes, codec);
      } catch {
        /* cut short: what was read pairs */
      }
      if (decoded) return { value: pairingPart(decoded.value), bytesRead: decoded.bytesRead, warnings: decoded.warnings };
      const a = layout.annotate(d.bytes, codec);
      return { value: pairingPart(a.partial as Record<string, unknown>), bytesRead: a.bytesRead, warnings: a.warnings };
    }
    return checked(d.bytes, layout, codec);
  };

  /**
   * An RCON request's secrets (its password, one its command sets) for its replies, which
   * may echo them (`varlist`, `rcon_password NEW`), and for the request itself when its
   * command holds its own password: decoded again here, once per RCON exchange.
   */
  #secrets(request: Datagram<number>, replies: readonly { readonly datagram: Datagram<number> }[], own = true): void {
    let value: { password?: string; command?: string };
    try {
      value = rconRequest.decode(request.bytes, this.#codec).value;
    } catch {
      return; // cut short: its replies pair with what it has, and the password node masks what there is
    }
    const secrets = rconSecrets(value);
    if (!secrets.length) return;
    // Only a reply whose bytes hold a secret leaves the fast path (a secret the charset cannot write: every reply).
    const text = textCodec(this.#codec.charset ?? 'windows-1252');
    const needles = secrets.map((x) => text.encode(x));
    for (const r of replies) {
      if (needles.some((n) => !n || holds(r.datagram.bytes, n))) this.facts.secrets(r.datagram.meta!, secrets);
    }
    if (own && value.password && value.command?.includes(value.password)) this.facts.secrets(request.meta!, secrets);
  }

  #apply(events: PairingEvent<number>[]): void {
    const facts = this.facts;
    for (const e of events) {
      switch (e.kind) {
        case 'exchange': {
          this.stats.exchanges++;
          const request = e.request.datagram.meta!;
          facts.decoded(request, e.request.packet.layout, e.request.direction);
          for (let i = 0; i < e.responses.length; i++) {
            const r = e.responses[i]!;
            const frame = r.datagram.meta!;
            facts.decoded(frame, r.packet.layout, r.direction);
            facts.link(request, frame, i === 0);
            if (e.ambiguous) facts.ambiguous(frame);
          }
          if (e.ambiguous) facts.ambiguous(request);
          if (e.request.packet.layout === rconRequest) this.#secrets(e.request.datagram, e.responses);
          break;
        }
        case 'unanswered':
        case 'overflow': {
          if (e.kind === 'unanswered') this.stats.unanswered++;
          const request = e.request.datagram.meta!;
          facts.decoded(request, e.request.packet.layout, e.request.direction);
          facts.unanswered(request, e.reason);
          if (e.kind === 'unanswered' && e.ambiguous) facts.ambiguous(request);
          if (e.request.packet.layout === rconRequest) this.#secrets(e.request.datagram, e.kind === 'overflow' ? e.responses : []);
          if (e.kind === 'overflow') for (const r of e.responses) facts.decoded(r.datagram.meta!, r.packet.layout, r.direction);
          break;
        }
        case 'duplicate': {
          this.stats.duplicates++;
          const frame = e.response.datagram.meta!;
          facts.decoded(frame, e.response.packet.layout, e.response.direction);
          facts.duplicateOf(frame, e.original.datagram.meta!);
          facts.requestIn(frame, e.of.datagram.meta!);
          if (e.of.packet.layout === rconRequest) this.#secrets(e.of.datagram, [e.response], false);
          break;
        }
        case 'unmatched': {
          this.stats.unmatched++;
          const frame = e.datagram.meta!;
          // A Minecraft reply carries no magic: without a request in its conversation that it
          // answers (late, or once more), only Decode As makes it one (else any UDP starting
          // 00 or 09 could pass for a reply).
          if (e.decoded && (e.decoded.protocol !== 'mcquery' || e.request)) {
            facts.decoded(frame, e.decoded.packet.layout, e.decoded.direction);
            facts.unmatched(frame, e.reason, e.cause);
            if (e.request) facts.requestIn(frame, e.request.datagram.meta!);
            if (e.request?.packet.layout === rconRequest) this.#secrets(e.request.datagram, [e.decoded], false);
          } else {
            facts.raw(frame);
          }
          break;
        }
        case 'undecodable':
          facts.raw(e.datagram.meta!);
          break;
      }
    }
  }
}

/**
 * Whether a message decodes, without its tree: measured (no text decoded, no value built)
 * except where pairing reads a value (a Minecraft token), and decoded where it does not
 * decode, for the typed error the pairer reports.
 */
function checked(
  bytes: Uint8Array,
  layout: Parameters<PacketDecoder<number>>[1],
  codec: CodecOptions | undefined,
): Decoded<Record<string, unknown>> {
  if (!readsValue(layout)) {
    const n = layout.measure(bytes, codec);
    if (n >= 0) return { value: NO_VALUE, bytesRead: n, warnings: NO_WARNINGS };
  }
  const d = layout.decode(bytes, codec) as Decoded<Record<string, unknown>>;
  return { value: pairingPart(d.value), bytesRead: d.bytesRead, warnings: d.warnings.length ? d.warnings : NO_WARNINGS };
}

const NO_VALUE: Record<string, unknown> = Object.freeze({});

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

/** Whether pairing reads a value of the layout's: the one it reads is a token (`pairingPart`). Answered once per layout. */
const valued = new Map<Parameters<PacketDecoder<number>>[1], boolean>();
function readsValue(layout: Parameters<PacketDecoder<number>>[1]): boolean {
  let yes = valued.get(layout);
  if (yes === undefined) valued.set(layout, (yes = layout.fields.some((f) => 'name' in f && f.name === 'token')));
  return yes;
}
