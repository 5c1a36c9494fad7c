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
  CodecError, malformedNode, messages, protocolNames, recognize, signatureOf,
  type Annotation, type Charset, type CodecOptions, type Direction, type FieldNode, type Layout, type PacketHint, type Protocol, type Recognized,
} from '@gamequery/codec';
import { QueryPairer, pairingPart, type DecodedDatagram, type Datagram, type PacketDecoder, type PairingEvent } from '@gamequery/codec/rx';
import { readCapture } from './capture/reader.ts';
import type { CaptureError, CaptureReaderOptions } from './capture/types.ts';
import { formatTimestamp, timestampDifference, type Timestamp } from './capture/timestamp.ts';
import { UdpDecoder } from './net/decoder.ts';
import type { FrameInput, UdpDatagram } from './net/types.ts';
import type { PacketRecord } from './record.ts';

export interface DissectOptions {
  readonly charset?: Charset;
  /** Decode UDP to or from these ports as this protocol ("Decode As"), whatever the content says. */
  readonly decodeAs?: { readonly protocol: Protocol; readonly ports: readonly number[] };
  /** How long a request waits for its reply, in capture time. Default 5000 ms. */
  readonly timeoutMs?: number;
  /** Records held back for pairing at most; beyond it the oldest is released unlinked. Default 100 000. */
  readonly maxQueue?: number;
  readonly capture?: CaptureReaderOptions;
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

/**
 * What the pairer carries along with a datagram. It keeps it for its duplicate window
 * (seconds of capture), so only the frame's identity stays: the datagram's slot, with
 * the bytes and the tree, is let go once the record is built.
 */
interface Meta {
  readonly frame: number;
  readonly timestamp: Timestamp | null;
  /** The capture cut the datagram short (snapshot length). */
  readonly truncated: boolean;
  /** Until the record is built. */
  slot: Slot | undefined;
  /** What the pairer's decode made: the tree as JSON text (the fast path), or the annotation of a cut datagram. */
  tree?: {
    readonly layout: Layout<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    readonly value: Record<string, unknown>;
    readonly json?: string;
    readonly annotation?: Annotation<Record<string, unknown>>;
  };
}

interface Slot {
  readonly meta: Meta;
  readonly udp: UdpDatagram;
  readonly frameBytes: Uint8Array | undefined;
  /** undefined until settled; null for a datagram that is no query traffic. */
  record?: PacketRecord | null;
}

const NS = 1_000_000_000n;
const NO_WARNINGS: PacketRecord['warnings'] = Object.freeze([]);

/** What a record says of its datagram, beyond where it was. */
interface Decoding extends Pick<PacketRecord, 'protocol' | 'direction' | 'message' | 'layout' | 'summary' | 'malformed' | 'fieldsJson'> {
  /** Builds the tree (on first use when `fieldsJson` is there). */
  readonly tree: () => FieldNode[];
  readonly warnings?: PacketRecord['warnings'];
}

function nanos(t: Timestamp | null, last: bigint): bigint {
  if (!t) return last;
  return BigInt(t.seconds) * NS + (BigInt(t.ticks) * NS) / BigInt(t.resolution.ticksPerSecond);
}

/**
 * The pairer's decode, which reads each datagram once for both: a message that decodes
 * cleanly leaves its tree as JSON text on the datagram, for the record. A reply the
 * capture cut short (snapshot length) still pairs, as in Wireshark, with the fields
 * before the cut; anything else malformed takes the plain decode's typed error.
 */
const decodeAndKeepTree: PacketDecoder<Meta> = (d, layout, codec) => {
  const meta = d.meta!;
  const fast = layout.annotateJson(d.bytes, codec);
  if (fast) {
    meta.tree = { layout, json: fast.json, value: fast.value };
    return { value: pairingPart(fast.value), bytesRead: d.bytes.length, warnings: NO_WARNINGS };
  }
  if (!meta.truncated) return layout.decode(d.bytes, codec);
  const annotation = layout.annotate(d.bytes, codec);
  meta.tree = { layout, annotation, value: annotation.partial };
  return { value: pairingPart(annotation.partial), bytesRead: annotation.bytesRead, warnings: annotation.warnings };
};

/** Incremental dissector: push frames, collect records in frame order. */
export class Dissector {
  readonly stats: DissectStats = { frames: 0, udp: 0, game: 0, nonGame: 0, skipped: {}, exchanges: 0, unanswered: 0, unmatched: 0, duplicates: 0 };
  readonly #options: DissectOptions;
  readonly #codec: CodecOptions;
  readonly #udp = new UdpDecoder();
  readonly #pairer: QueryPairer<Meta>;
  /** Slots in frame order; those before #head are out (and cleared, so their records can go). */
  #queue: (Slot | undefined)[] = [];
  #head = 0;
  #lastTime = 0n;

  constructor(options: DissectOptions = {}) {
    this.#options = options;
    this.#codec = options.charset ? { charset: options.charset } : {};
    this.#pairer = new QueryPairer<Meta>({ timeoutMs: options.timeoutMs ?? 5000, decode: decodeAndKeepTree, ...(options.charset ? { charset: options.charset } : {}) });
  }

  /** Takes one captured frame; returns the records now complete, in frame order. */
  pushFrame(frame: FrameInput): PacketRecord[] {
    this.stats.frames++;
    const decoded = this.#udp.decode(frame);
    if (decoded.kind === 'skipped') {
      this.stats.skipped[decoded.reason] = (this.stats.skipped[decoded.reason] ?? 0) + 1;
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
    this.stats.udp++;
    const time = (this.#lastTime = nanos(timestamp, this.#lastTime));
    const meta: Meta = { frame, timestamp, truncated: udp.truncated, slot: undefined, tree: undefined };
    const slot: Slot = { meta, udp, frameBytes, record: undefined };
    meta.slot = slot;
    this.#queue.push(slot);
    const datagram: Datagram<Meta> = {
      bytes: udp.payload, time, meta,
      from: { address: udp.src.ip, port: udp.src.port }, to: { address: udp.dst.ip, port: udp.dst.port },
    };
    this.#apply(this.#pairer.receive(datagram));
    return this.#drain();
  }

  #apply(events: PairingEvent<Meta>[]): void {
    for (const e of events) {
      switch (e.kind) {
        case 'exchange': {
          this.stats.exchanges++;
          const req = this.#settle(e.request);
          e.responses.forEach((r, i) => {
            const rec = this.#settle(r);
            if (rec && req) {
              rec.requestIn = req.frame;
              const t = timeBetween(r.datagram.meta!, e.request.datagram.meta!);
              if (t !== undefined) rec.responseTime = t;
            }
            if (i === 0 && req && rec) req.responseIn = rec.frame;
          });
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
          // A Minecraft reply carries no magic: without the request that asked for it, only
          // Decode As makes it one (else any UDP starting 00 or 09 could pass for a reply).
          if (e.decoded && e.decoded.protocol !== 'mcquery') this.#settle(e.decoded);
          else this.#settleRaw(e.datagram.meta!.slot);
          break;
        }
        case 'undecodable':
          this.#settleRaw(e.datagram.meta!.slot);
          break;
      }
    }
  }

  /** Builds the record of a datagram the pairer decoded. */
  #settle(d: DecodedDatagram<Meta>): PacketRecord | undefined {
    const slot = d.datagram.meta!.slot;
    if (!slot) return undefined;
    const hinted = this.#decodeAsHint(slot.udp);
    const layout = hinted ? safeRecognize(slot.udp.payload, hinted, this.#codec)?.layout ?? d.packet.layout : d.packet.layout;
    return this.#record(slot, layout.protocol, d.direction, layout);
  }

  /** A datagram the pairer could not use: a query message cut short, or no query at all. */
  #settleRaw(slot: Slot | undefined): void {
    if (!slot) return;
    const hint = this.#decodeAsHint(slot.udp) ?? {};
    // Without a hint, only bytes with a signature can be recognised: the rest is other traffic, no need to try.
    if (!hint.protocol && !signatureOf(slot.udp.payload)) {
      this.#release(slot, null);
      return;
    }
    const r = recognizeOrError(slot.udp.payload, hint, this.#codec);
    if (!(r instanceof CodecError)) {
      this.#record(slot, r.protocol, r.direction, r.layout);
      return;
    }
    const protocol = hint.protocol ?? claimedBy(slot.udp.payload);
    if (protocol) this.#unknown(slot, protocol, r);
    else this.#release(slot, null);
  }

  /** Settles a slot; its meta, which the pairer keeps for a while, lets go of it. */
  #release(slot: Slot, record: PacketRecord | null): void {
    slot.record = record;
    slot.meta.slot = undefined;
    slot.meta.tree = undefined;
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

  #record(slot: Slot, protocol: Protocol, direction: Direction | 'either', layout: Layout<any>): PacketRecord { // eslint-disable-line @typescript-eslint/no-explicit-any
    const { udp, meta } = slot;
    const tree = meta.tree?.layout === layout ? meta.tree : undefined;
    const codec = this.#codec;
    const message = { protocol, direction, message: layout.message, layout: layout.id };
    if (tree?.json !== undefined) {
      // Decoded cleanly on the fast path: the tree is built only if a renderer asks for it.
      return this.#complete(slot, {
        ...message, summary: layout.describe(tree.value), tree: () => layout.annotate(udp.payload, codec).fields, fieldsJson: tree.json,
      });
    }
    const ann = tree?.annotation ?? layout.annotate(udp.payload, codec);
    const e = ann.error;
    return this.#complete(slot, {
      ...message, summary: e ? `${ann.info} [Malformed Packet]` : ann.info, tree: () => ann.fields, warnings: ann.warnings,
      ...(e ? { malformed: { type: e.name, field: e.info.field, offset: e.info.offset, message: e.message } } : {}),
    });
  }

  /**
   * A datagram that carries a protocol's magic but is no message of it (an unknown opcode):
   * that protocol's malformed packet, as the Wireshark plugin shows it, rather than other
   * traffic.
   */
  #unknown(slot: Slot, protocol: Protocol, e: CodecError): PacketRecord {
    const fields = [...this.#headerBefore(protocol, slot.udp.payload, e.info.offset), malformedNode(protocol, slot.udp.payload, e)];
    return this.#complete(slot, {
      protocol, direction: 'either', message: 'unknown', layout: `${protocol}.unknown`, summary: `${protocolNames[protocol]}: ${e.message}`,
      tree: () => fields, malformed: { type: e.name, field: e.info.field, offset: e.info.offset, message: e.message },
    });
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

  /** The record of a settled slot: where the datagram was, and what it is. */
  #complete(slot: Slot, what: Decoding): PacketRecord {
    const record = new Packet(slot, what);
    this.#release(slot, record);
    return record;
  }

  /** Releases settled records from the head of the queue (all of them at the end). */
  #drain(all = false): PacketRecord[] {
    const out: PacketRecord[] = [];
    const max = this.#options.maxQueue ?? 100_000;
    while (this.#head < this.#queue.length) {
      const slot = this.#queue[this.#head]!;
      if (slot.record === undefined) {
        if (!all && this.#queue.length - this.#head <= max) break;
        // Held too long (maxQueue): out it goes, without its links.
        this.#settleRaw(slot);
      }
      this.#queue[this.#head++] = undefined;
      if (slot.record) {
        this.stats.game++;
        out.push(slot.record);
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

function timeBetween(later: Meta, earlier: Meta): string | undefined {
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

/**
 * A record as the dissector makes it: every property set in one order (one shape for all),
 * the tree built on first use when the fast path wrote its JSON.
 */
class Packet implements PacketRecord {
  readonly frame: number;
  readonly captureTime: string | null;
  readonly src: UdpDatagram['src'];
  readonly dst: UdpDatagram['dst'];
  readonly protocol: Protocol;
  readonly direction: Direction | 'either';
  readonly message: string;
  readonly layout: string;
  readonly summary: string;
  readonly payloadOffset: number;
  readonly payloadLength: number;
  readonly fragments: readonly number[] | undefined;
  readonly malformed: PacketRecord['malformed'];
  readonly warnings: PacketRecord['warnings'];
  readonly fieldsJson: string | undefined;
  readonly payload: Uint8Array;
  readonly frameBytes: Uint8Array | undefined;
  responseIn: number | undefined = undefined;
  requestIn: number | undefined = undefined;
  responseTime: string | undefined = undefined;
  unanswered: string | undefined = undefined;
  duplicateOf: number | undefined = undefined;
  readonly #tree: () => FieldNode[];
  #fields: FieldNode[] | undefined;

  constructor({ udp, meta, frameBytes }: Slot, what: Decoding) {
    this.frame = meta.frame;
    this.captureTime = meta.timestamp ? formatTimestamp(meta.timestamp) : null;
    this.src = udp.src;
    this.dst = udp.dst;
    this.protocol = what.protocol;
    this.direction = what.direction;
    this.message = what.message;
    this.layout = what.layout;
    this.summary = what.summary;
    this.payloadOffset = udp.payloadOffset;
    this.payloadLength = udp.payload.length;
    this.fragments = udp.fragments;
    this.malformed = what.malformed;
    this.warnings = what.warnings ?? NO_WARNINGS;
    this.fieldsJson = what.fieldsJson;
    this.payload = udp.payload;
    this.frameBytes = frameBytes;
    this.#tree = what.tree;
  }

  get fields(): FieldNode[] {
    return (this.#fields ??= this.#tree());
  }
}

export type DissectItem = { readonly kind: 'packet'; readonly packet: PacketRecord } | CaptureError;

/**
 * Dissects a pcap or pcapng capture, streamed: yields packets in frame order and, if the
 * file is damaged, every intact packet followed by one capture error.
 */
export async function* dissectCapture(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions = {},
  dissector: Dissector = new Dissector(options),
): AsyncGenerator<DissectItem> {
  for await (const item of readCapture(source, options.capture)) {
    if (item.kind === 'error') {
      for (const packet of dissector.finish()) yield { kind: 'packet', packet };
      yield item;
      return;
    }
    for (const packet of dissector.pushFrame(item)) yield { kind: 'packet', packet };
  }
  for (const packet of dissector.finish()) yield { kind: 'packet', packet };
}
