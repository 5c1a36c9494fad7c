/**
 * The dissector: frames (from a capture) or payloads (from a hex dump) in, annotated
 * packet records out, in frame order, with request/response links and response times
 * taken from the capture's timestamps.
 *
 * Recognition is by content on any port (the codec's signatures) plus conversation
 * for Minecraft replies, which carry no magic; the pairing is the codec's
 * `QueryPairer` — the same state machine a live query client uses — driven by capture
 * time. A request's record waits (with the records behind it, to keep frame order)
 * until its exchange is settled: a reply, or the timeout in capture time. So links
 * appear on both request and response in one pass, with memory bounded by what
 * arrives within one timeout (and by `maxQueue`).
 */
import {
  ByteSink, CodecError, asciiBytes, malformedNode, messages, protocolNames, recognize, signatureOf,
  type Annotation, type Charset, type CodecOptions, type Direction, type FieldNode, type Layout, type PacketHint, type Protocol, type Recognized,
} from '@gamequery/codec';
import { QueryPairer, pairingPart, shardOf, type DecodedDatagram, type Datagram, type Endpoint, type PacketDecoder, type PairingEvent } from '@gamequery/codec/rx';
import { CaptureParser } from './capture/reader.ts';
import type { CaptureError, CaptureItem, CaptureReaderOptions } from './capture/types.ts';
import { timestampDifference, type Timestamp } from './capture/timestamp.ts';
import { UdpDecoder } from './net/decoder.ts';
import type { FrameInput, UdpDatagram } from './net/types.ts';
import { Packet, recordKind, type PacketRecord } from './record.ts';

export interface DissectOptions {
  readonly charset?: Charset;
  /** Decode UDP to or from these ports as this protocol ("Decode As"), whatever the content says. */
  readonly decodeAs?: { readonly protocol: Protocol; readonly ports: readonly number[] };
  /** How long a request waits for its reply, in capture time. Default 5000 ms. */
  readonly timeoutMs?: number;
  /**
   * How long a finished exchange is remembered, in capture time, so that a byte-identical
   * reply is marked `duplicateOf` and a late or extra one is told from a stray. Default
   * 5000 ms; 0 remembers nothing past the exchange. What is remembered is kept in memory
   * for that long, and it is most of what the garbage collector has to move: on a dense
   * capture, 0 dissects about 1.25× as fast (see the README's performance notes).
   */
  readonly duplicateWindowMs?: number;
  /** Records held back for pairing at most; beyond it the oldest is released unlinked. Default 100 000. */
  readonly maxQueue?: number;
  readonly capture?: CaptureReaderOptions;
  /**
   * Dissect only the conversations of shard `index` of `count` (see the codec's
   * `shardOf`: by client endpoint, so pairing needs nothing from other shards). Every
   * frame is still read, for its time; the stats count this shard's part (frames and
   * skipped frames in shard 0), so the shards' stats add up to the whole. Records come
   * out in frame order within the shard: merging the shards by frame number gives the
   * records of one dissector, as `dissectCaptureParallel` does.
   */
  readonly shard?: { readonly index: number; readonly count: number };
}

export interface DissectStats {
  frames: number;
  udp: number;
  /** Query packets dissected. */
  game: number;
  /** UDP datagrams that are no query traffic. */
  nonGame: number;
  /** Frames without a UDP datagram, by reason (not-udp, not-ip, fragment, …). */
  skipped: Record<string, number>;
  exchanges: number;
  unanswered: number;
  unmatched: number;
  duplicates: number;
}

/** An endpoint as the pairer sees it, with its JSON (`{"ip":…,"port":…}`) written once for every line that names it. */
interface KnownEndpoint extends Endpoint {
  readonly json: Uint8Array;
}

/** What a datagram's record is built from: let go as soon as the record is made. */
class Work {
  /** What the pairer's decode made: the layout and value, and the tree as JSON bytes (the fast path) or the annotation of a cut datagram. */
  layout: Layout<any> | undefined = undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  value: Record<string, unknown> | undefined = undefined;
  json: Uint8Array | undefined = undefined;
  jsonStart = 0;
  jsonEnd = 0;
  annotation: Annotation<Record<string, unknown>> | undefined = undefined;

  constructor(
    readonly timestamp: Timestamp | null,
    readonly udp: UdpDatagram,
    readonly frameBytes: Uint8Array | undefined,
  ) {}
}

/**
 * A datagram on its way through: the pairer's datagram (its own `meta`), and until it is
 * settled the {@link Work} its record is built from. The pairer keeps the datagram for
 * its duplicate window (seconds of capture, thousands of datagrams), so what it keeps is
 * only what it reads: the work goes when the record is made. (In one object, the
 * work's fields made every datagram kept twice the size: 19 fields against 7.)
 */
class Slot implements Datagram<Slot> {
  /** Null once settled. */
  work: Work | null;
  /** Once settled: the record (until it is out), or null for a datagram that is no query traffic. */
  record: PacketRecord | null = null;

  constructor(
    readonly frame: number,
    readonly bytes: Uint8Array,
    readonly from: KnownEndpoint,
    readonly to: KnownEndpoint,
    readonly time: bigint,
    work: Work,
  ) {
    this.work = work;
  }

  get meta(): Slot {
    return this;
  }

  get settled(): boolean {
    return this.work === null;
  }

  /** Settles it, letting go of the work. */
  release(record: PacketRecord | null): void {
    this.work = null;
    this.record = record;
  }
}

const NS = 1_000_000_000n;
const NO_WARNINGS: PacketRecord['warnings'] = Object.freeze([]);
/** Tree JSON is written into buffers of this size, shared by the records made from them. */
const ARENA_BYTES = 1 << 20;

/** Incremental dissector: push frames, collect records in frame order. */
export class Dissector {
  readonly stats: DissectStats = { frames: 0, udp: 0, game: 0, nonGame: 0, skipped: {}, exchanges: 0, unanswered: 0, unmatched: 0, duplicates: 0 };
  readonly #options: DissectOptions;
  readonly #codec: CodecOptions;
  readonly #udp = new UdpDecoder();
  readonly #pairer: QueryPairer<Slot>;
  /** Slots in frame order; those before #head are out (and cleared, so their records can go). */
  #queue: (Slot | undefined)[] = [];
  #head = 0;
  #lastTime = 0n;
  /** The last whole second seen, and it in nanoseconds (most datagrams share their second with the one before). */
  #second = Number.NaN;
  #secondNs = 0n;
  /** Endpoints by address and port: one object each, shared by every datagram that names it. */
  #endpoints = new Map<string, { readonly prefix: Uint8Array; readonly ports: Map<number, KnownEndpoint> }>();
  /** A sharded dissector's earliest pairing deadline: time passing by other shards' datagrams matters only once it passes this. */
  #due: bigint | undefined = undefined;
  readonly #probe = { bytes: new Uint8Array(0) as Uint8Array, from: { address: '', port: 0 }, to: { address: '', port: 0 } };
  /** Where the fast path writes tree JSON; records keep ranges of its buffer. */
  #arena = new ByteSink(ARENA_BYTES);

  constructor(options: DissectOptions = {}) {
    this.#options = options;
    this.#codec = options.charset ? { charset: options.charset } : {};
    this.#pairer = new QueryPairer<Slot>({
      timeoutMs: options.timeoutMs ?? 5000, decode: this.#decode,
      ...(options.duplicateWindowMs !== undefined ? { duplicateWindowMs: options.duplicateWindowMs } : {}),
      ...(options.charset ? { charset: options.charset } : {}),
    });
  }

  /**
   * The frame of the oldest record not out yet (waiting for its exchange to settle), or
   * undefined if none is: what a merge of shards may not pass.
   */
  get heldFrom(): number | undefined {
    return this.#queue[this.#head]?.frame;
  }

  /** Takes one captured frame; returns the records now complete, in frame order. */
  pushFrame(frame: FrameInput): PacketRecord[] {
    const counts = !this.#options.shard || this.#options.shard.index === 0;
    if (counts) this.stats.frames++;
    const decoded = this.#udp.decode(frame);
    if (decoded.kind === 'skipped') {
      if (counts) this.stats.skipped[decoded.reason] = (this.stats.skipped[decoded.reason] ?? 0) + 1;
      return this.#drain();
    }
    return this.#pushUdp(frame.index, frame.timestamp, decoded, decoded.fragments ? undefined : frame.data);
  }

  /** Takes a bare UDP payload (a hex dump of a payload): endpoints unknown. */
  pushPayload(index: number, payload: Uint8Array): PacketRecord[] {
    this.stats.frames++;
    const unknown = { ip: '0.0.0.0', port: 0 };
    return this.#pushUdp(index, null, { kind: 'udp', ipVersion: 4, src: unknown, dst: unknown, payload, payloadOffset: 0, udpLength: payload.length + 8, truncated: false }, undefined);
  }

  /** Ends the input: pending requests are settled as unanswered; returns the remaining records. */
  finish(): PacketRecord[] {
    this.#udp.finish();
    this.#apply(this.#pairer.flush());
    return this.#drain(true);
  }

  #pushUdp(frame: number, timestamp: Timestamp | null, udp: UdpDatagram, frameBytes: Uint8Array | undefined): PacketRecord[] {
    const time = (this.#lastTime = this.#nanos(timestamp));
    const shard = this.#options.shard;
    if (shard && this.#shardOf(udp, shard.count) !== shard.index) {
      // Another shard's conversation: only its time counts here, and only once it passes a deadline.
      if (this.#due === undefined || time <= this.#due) return [];
      this.#apply(this.#pairer.tick(time));
      this.#due = this.#pairer.nextDeadline();
      return this.#drain();
    }
    this.stats.udp++;
    const slot = new Slot(frame, udp.payload, this.#endpoint(udp.src.ip, udp.src.port), this.#endpoint(udp.dst.ip, udp.dst.port), time, new Work(timestamp, udp, frameBytes));
    this.#queue.push(slot);
    this.#apply(this.#pairer.receive(slot));
    if (shard) this.#due = this.#pairer.nextDeadline();
    return this.#drain();
  }

  /**
   * The shard of a datagram, asked through one reused probe: every shard asks it of every
   * datagram of the capture, and most are another shard's (nothing made, nothing looked up).
   */
  #shardOf(udp: UdpDatagram, count: number): number {
    const p = this.#probe;
    p.bytes = udp.payload;
    p.from.address = udp.src.ip;
    p.from.port = udp.src.port;
    p.to.address = udp.dst.ip;
    p.to.port = udp.dst.port;
    return shardOf(p, count);
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

  #endpoint(address: string, port: number): KnownEndpoint {
    let byAddress = this.#endpoints.get(address);
    if (!byAddress) {
      // A cache, not a record of every address: a scan of a million servers starts it afresh now and then.
      if (this.#endpoints.size >= 65536) this.#endpoints = new Map();
      this.#endpoints.set(address, (byAddress = { prefix: asciiBytes(`{"ip":${JSON.stringify(address)},"port":`), ports: new Map() }));
    }
    let e = byAddress.ports.get(port);
    if (!e) byAddress.ports.set(port, (e = { address, port, json: endpointJson(byAddress.prefix, port) }));
    return e;
  }

  /**
   * The pairer's decode, which reads each datagram once for both: a message that decodes
   * cleanly leaves its tree as JSON bytes on the slot, for the record. A reply the capture
   * cut short (snapshot length) still pairs, as in Wireshark, with the fields before the
   * cut; anything else malformed takes the plain decode's typed error.
   */
  readonly #decode: PacketDecoder<Slot> = (d, layout, codec) => {
    const work = d.meta!.work!;
    if (this.#arena.at > ARENA_BYTES - 65536) this.#arena = new ByteSink(ARENA_BYTES);
    const arena = this.#arena;
    const start = arena.at;
    const value = layout.emitJson(d.bytes, arena, codec);
    if (value) {
      work.layout = layout;
      work.value = value;
      work.json = arena.buf;
      work.jsonStart = start;
      work.jsonEnd = arena.at;
      work.annotation = undefined;
      return { value: pairingPart(value), bytesRead: d.bytes.length, warnings: NO_WARNINGS };
    }
    if (!work.udp.truncated) return layout.decode(d.bytes, codec);
    const annotation = layout.annotate(d.bytes, codec);
    work.layout = layout;
    work.value = annotation.partial;
    work.json = undefined;
    work.annotation = annotation;
    return { value: pairingPart(annotation.partial), bytesRead: annotation.bytesRead, warnings: annotation.warnings };
  };

  #apply(events: PairingEvent<Slot>[]): void {
    for (const e of events) {
      switch (e.kind) {
        case 'exchange': {
          this.stats.exchanges++;
          const req = this.#settle(e.request);
          for (let i = 0; i < e.responses.length; i++) {
            const rec = this.#settle(e.responses[i]!);
            if (rec && req) {
              rec.requestIn = req.frame;
              const t = timeBetween(rec, req);
              if (t !== undefined) rec.responseTime = t;
              if (i === 0) req.responseIn = rec.frame;
            }
          }
          break;
        }
        case 'unanswered': {
          this.stats.unanswered++;
          const rec = this.#settle(e.request);
          if (rec) rec.unanswered = e.reason;
          break;
        }
        case 'overflow': {
          const rec = this.#settle(e.request);
          if (rec) rec.unanswered = e.reason;
          for (const r of e.responses) this.#settle(r);
          break;
        }
        case 'duplicate': {
          this.stats.duplicates++;
          const rec = this.#settle(e.response);
          if (rec) {
            rec.duplicateOf = e.original.datagram.meta!.frame;
            rec.requestIn = e.of.datagram.meta!.frame;
          }
          break;
        }
        case 'unmatched': {
          this.stats.unmatched++;
          // A Minecraft reply carries no magic: without a request in its conversation that it
          // answers (late, or once more), only Decode As makes it one (else any UDP starting
          // 00 or 09 could pass for a reply).
          if (e.decoded && (e.decoded.protocol !== 'mcquery' || e.request)) {
            const rec = this.#settle(e.decoded);
            if (rec) {
              rec.unmatched = e.reason;
              if (e.request) rec.requestIn = e.request.datagram.meta!.frame;
            }
          } else {
            this.#settleRaw(e.datagram.meta!);
          }
          break;
        }
        case 'undecodable':
          this.#settleRaw(e.datagram.meta!);
          break;
      }
    }
  }

  /** Builds the record of a datagram the pairer decoded. */
  #settle(d: DecodedDatagram<Slot>): Packet | undefined {
    const slot = d.datagram.meta!;
    if (!slot.work) return undefined;
    const udp = slot.work.udp;
    const hinted = this.#decodeAsHint(udp);
    const layout = hinted ? safeRecognize(udp.payload, hinted, this.#codec)?.layout ?? d.packet.layout : d.packet.layout;
    return this.#record(slot, layout.protocol, d.direction, layout);
  }

  /** A datagram the pairer could not use: a query message cut short, or no query at all. */
  #settleRaw(slot: Slot): void {
    if (!slot.work) return;
    const payload = slot.bytes;
    const hint = this.#decodeAsHint(slot.work.udp) ?? {};
    // Without a hint, only bytes with a signature can be recognised: the rest is other traffic, no need to try.
    if (!hint.protocol && !signatureOf(payload)) {
      slot.release(null);
      return;
    }
    const r = recognizeOrError(payload, hint, this.#codec);
    if (!(r instanceof CodecError)) {
      this.#record(slot, r.protocol, r.direction, r.layout);
      return;
    }
    const protocol = hint.protocol ?? claimedBy(payload);
    if (protocol) this.#unknown(slot, protocol, r);
    else slot.release(null);
  }

  #decodeAsHint(udp: UdpDatagram): PacketHint | undefined {
    const d = this.#options.decodeAs;
    if (!d) return undefined;
    const toServer = d.ports.includes(udp.dst.port);
    const fromServer = d.ports.includes(udp.src.port);
    if (!toServer && !fromServer) return undefined;
    const direction: Direction | undefined = toServer && !fromServer ? 'request' : fromServer && !toServer ? 'response' : undefined;
    return { protocol: d.protocol, ...(direction ? { direction } : {}) };
  }

  #record(slot: Slot, protocol: Protocol, direction: Direction | 'either', layout: Layout<any>): Packet { // eslint-disable-line @typescript-eslint/no-explicit-any
    const kind = recordKind(protocol, direction, layout.message, layout.id);
    const codec = this.#codec;
    const w = slot.work!;
    const mine = w.layout === layout;
    if (mine && w.json) {
      // Decoded cleanly on the fast path: the tree is built only if a renderer asks for it.
      return this.#complete(slot, new Packet(
        slot.frame, w.timestamp, w.udp, slot.from.json, slot.to.json, w.frameBytes, kind, layout.describe(w.value!), { layout, codec },
        w.json, w.jsonStart, w.jsonEnd, undefined, NO_WARNINGS,
      ));
    }
    const ann = (mine ? w.annotation : undefined) ?? layout.annotate(slot.bytes, codec);
    const e = ann.error;
    return this.#complete(slot, new Packet(
      slot.frame, w.timestamp, w.udp, slot.from.json, slot.to.json, w.frameBytes, kind, e ? `${ann.info} [Malformed Packet]` : ann.info, ann.fields,
      undefined, 0, 0, e ? { type: e.name, field: e.info.field, offset: e.info.offset, message: e.message } : undefined, ann.warnings,
    ));
  }

  /**
   * A datagram that carries a protocol's magic but is no message of it (an unknown opcode):
   * that protocol's malformed packet, as the Wireshark plugin shows it, rather than other
   * traffic.
   */
  #unknown(slot: Slot, protocol: Protocol, e: CodecError): Packet {
    const w = slot.work!;
    const payload = slot.bytes;
    const fields = [...this.#headerBefore(protocol, payload, e.info.offset), malformedNode(protocol, payload, e)];
    const kind = recordKind(protocol, 'either', 'unknown', `${protocol}.unknown`);
    return this.#complete(slot, new Packet(
      slot.frame, w.timestamp, w.udp, slot.from.json, slot.to.json, w.frameBytes, kind, `${protocolNames[protocol]}: ${e.message}`, fields,
      undefined, 0, 0, { type: e.name, field: e.info.field, offset: e.info.offset, message: e.message }, NO_WARNINGS,
    ));
  }

  /** The fields every message of the protocol starts with (magic, server address), as far as they lie before `end`. */
  #headerBefore(protocol: Protocol, bytes: Uint8Array, end: number): FieldNode[] {
    const [first] = Object.values(messages[protocol]);
    let best: FieldNode[] = [];
    for (const layout of [first!.request, first!.response]) {
      const nodes = layout.annotate(bytes, this.#codec).fields.filter((n) => !n.generated && n.offset + n.length <= end);
      if (nodes.length > best.length) best = nodes;
    }
    return best;
  }

  #complete(slot: Slot, record: Packet): Packet {
    slot.release(record);
    return record;
  }

  /** Releases settled records from the head of the queue (all of them at the end). */
  #drain(all = false): PacketRecord[] {
    const out: PacketRecord[] = [];
    const max = this.#options.maxQueue ?? 100_000;
    while (this.#head < this.#queue.length) {
      const slot = this.#queue[this.#head]!;
      if (!slot.settled) {
        if (!all && this.#queue.length - this.#head <= max) break;
        // Held too long (maxQueue): out it goes, without its links.
        this.#settleRaw(slot);
      }
      this.#queue[this.#head++] = undefined;
      if (slot.record) {
        this.stats.game++;
        out.push(slot.record);
        slot.record = null;
      } else {
        this.stats.nonGame++;
      }
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 4096 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    return out;
  }
}

/** Where an endpoint's JSON is written before it is copied out. */
const endpointSink = new ByteSink(64);

/**
 * `{"ip":…,"port":N}` from the address's part, made once, and the port: a scan meets a new
 * endpoint at nearly every datagram, and a text encoder per endpoint cost more than its lookups.
 */
function endpointJson(prefix: Uint8Array, port: number): Uint8Array {
  endpointSink.at = 0;
  endpointSink.bytes(prefix);
  endpointSink.number(port);
  endpointSink.ascii('}');
  return endpointSink.copy();
}

function timeBetween(later: Packet, earlier: Packet): string | undefined {
  return later.timestamp && earlier.timestamp ? timestampDifference(later.timestamp, earlier.timestamp) : undefined;
}

/**
 * The protocol a datagram that is no message of it still belongs to: a four-byte magic
 * (SAMP, VCMP, MP04) and room for the opcode. Minecraft's two bytes fe fd are too weak a
 * signature to claim a datagram with an unknown type (the Wireshark plugin's heuristic agrees).
 */
function claimedBy(bytes: Uint8Array): Protocol | undefined {
  const protocol = signatureOf(bytes);
  return protocol !== 'mcquery' && bytes.length >= 11 ? protocol : undefined;
}

function recognizeOrError(bytes: Uint8Array, hint: PacketHint, codec: CodecOptions): Recognized | CodecError {
  try {
    return recognize(bytes, hint, codec);
  } catch (e) {
    if (e instanceof CodecError) return e;
    throw e;
  }
}

function safeRecognize(bytes: Uint8Array, hint: PacketHint, codec: CodecOptions): Recognized | undefined {
  const r = recognizeOrError(bytes, hint, codec);
  return r instanceof CodecError ? undefined : r;
}

export type DissectItem = { readonly kind: 'packet'; readonly packet: PacketRecord } | CaptureError;

/** What a chunk of capture completed: packets in frame order, then the error if the file is damaged there. */
export interface DissectBatch {
  readonly packets: PacketRecord[];
  readonly error?: CaptureError;
}

/**
 * Dissects a pcap or pcapng capture, streamed, a chunk at a time: yields the packets
 * each chunk of input completed (one await per chunk, not per packet: what
 * `gamequery dissect` reads) and, if the file is damaged, every intact packet followed
 * by one capture error.
 */
export async function* dissectCaptureBatches(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions = {},
  dissector: Dissector = new Dissector(options),
): AsyncGenerator<DissectBatch> {
  const parser = new CaptureParser(options.capture);
  const take = (items: Iterable<CaptureItem>): DissectBatch => {
    const packets: PacketRecord[] = [];
    for (const item of items) {
      if (item.kind === 'error') {
        for (const p of dissector.finish()) packets.push(p);
        return { packets, error: item };
      }
      for (const p of dissector.pushFrame(item)) packets.push(p);
    }
    return { packets };
  };
  for await (const chunk of source) {
    const batch = take(parser.push(chunk));
    if (batch.packets.length || batch.error) yield batch;
    if (batch.error) return;
  }
  const last = take(parser.finish());
  yield last.error ? last : { packets: dissector.finish() };
}

/**
 * Dissects a pcap or pcapng capture, streamed: yields packets in frame order and, if the
 * file is damaged, every intact packet followed by one capture error.
 */
export async function* dissectCapture(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions = {},
  dissector: Dissector = new Dissector(options),
): AsyncGenerator<DissectItem> {
  for await (const batch of dissectCaptureBatches(source, options, dissector)) {
    for (const packet of batch.packets) yield { kind: 'packet', packet };
    if (batch.error) yield batch.error;
  }
}
