/**
 * One dissected packet: what the text, JSON and NDJSON outputs are made of.
 * The JSON shape is public API, described by `schema/packet.schema.json`.
 */
import type { CodecOptions, Direction, FieldNode, Protocol } from '@gamequery/codec';
import { asciiBytes, type ByteSink, type InternalQueryLayout } from '@gamequery/codec/internal';
import { formatTimestamp, timestampDifference, type Timestamp } from './capture/timestamp.ts';
import { frameLayers, writeFrameChain, type FrameLayers, type Reassembled } from './net/layers.ts';
import type { Endpoint, Reassembly } from './net/types.ts';
import type { UnmatchedCause } from '@gamequery/codec/pairing';

/**
 * The protocol of a record or a server: a built-in protocol's name, or the name of one declared with
 * `defineProtocol` and given to the dissector (`DissectOptions.protocols`).
 */
export type ProtocolName = Protocol | (string & {});

/**
 * One dissected packet, as the dissector hands it on: where and when it was captured, its dissection and
 * its pairing.
 */
export interface PacketRecord {
  /** Frame number in the capture (1-based), or packet number in a hex dump. */
  readonly frame: number;
  /** Absolute capture time in seconds at the capture's resolution ("1700000000.012500"), or null. */
  readonly captureTime: string | null;
  readonly src: Endpoint;
  readonly dst: Endpoint;
  readonly protocol: ProtocolName;
  readonly direction: Direction | 'either';
  readonly message: string;
  /** Layout id, e.g. `samp.info.response`. */
  readonly layout: string;
  /** Info-column text, e.g. `SA:MP info response: "Server" 13/250`. */
  readonly summary: string;
  /** The annotated tree (built on first use when the fast path wrote `fieldsJson`). */
  readonly fields: FieldNode[];
  /**
   * The tree as JSON text (`nodeJson` of each node), written while decoding when the
   * message decoded cleanly; NDJSON output uses it instead of building the tree.
   */
  readonly fieldsJson?: string | undefined;
  /** Offset of the UDP payload within the frame (of the first fragment when reassembled). */
  readonly payloadOffset: number;
  readonly payloadLength: number;
  /** Frames that carried the fragments of a reassembled datagram. */
  readonly fragments?: readonly number[] | undefined;
  /** Where and why decoding stopped. */
  readonly malformed?: { readonly type: string; readonly field: string; readonly offset: number; readonly message: string } | undefined;
  /** Oddities that did not stop decoding; `code` names the declared kind (codec `expertInfo`: group and severity). */
  readonly warnings: readonly { readonly code: string; readonly field: string; readonly offset: number; readonly message: string }[];
  /** Frame of the first response to this request. */
  responseIn?: number | undefined;
  /** Frame of the request this responds to. */
  requestIn?: number | undefined;
  /** Seconds between request and response, exact at the capture's resolution. */
  responseTime?: string | undefined;
  /** Why a request got no reply (timeout in capture time). */
  unanswered?: string | undefined;
  /** A response that repeats one already paired. */
  duplicateOf?: number | undefined;
  /**
   * Why a response is paired with no request: a late reply (after its request's
   * timeout), another reply to a request already answered, one from the wrong address,
   * or no request for it within the duplicate window. `requestIn` then names the request
   * it most likely belongs to, if there is one.
   */
  unmatched?: string | undefined;
  /**
   * The pairer's code for `unmatched` (`late`, `extra`, `rcon-closed`, `dropped`, `near-miss`,
   * `no-request`: the codec's UnmatchedCause), for programs to decide on. Not written to
   * JSON or text, which carry the words.
   */
  unmatchedCause?: UnmatchedCause | undefined;
  /**
   * Why the record says less than its exchange would have: let out before the exchange
   * settled, when one-pass input (a pipe) reached its memory ceiling. Absent otherwise.
   */
  incomplete?: string | undefined;
  /**
   * Why the links may be crossed: an identical request from the same client to the same
   * server was pending at the same time, and identical replies cannot say whose they are.
   */
  ambiguous?: string | undefined;
  /** The UDP payload (kept for the hex pane; not part of the JSON). */
  readonly payload: Uint8Array;
  /** The whole frame when the payload came from one frame (for the hex pane). */
  readonly frameBytes?: Uint8Array | undefined;
}

/** What a record is: protocol, direction, message and layout, with its NDJSON text written once. */
export interface RecordKind {
  readonly protocol: ProtocolName;
  readonly direction: Direction | 'either';
  readonly message: string;
  readonly layout: string;
  /** `,"protocol":…,"direction":…,"message":…,"layout":…,"summary":` as UTF-8. */
  readonly json: Uint8Array;
}

const kinds = new Map<string, Partial<Record<Direction | 'either', RecordKind>>>();

/** The kind of record of a layout id in a direction; made once each. */
export function recordKind(protocol: ProtocolName, direction: Direction | 'either', message: string, layout: string): RecordKind {
  let byDirection = kinds.get(layout);
  if (!byDirection) kinds.set(layout, (byDirection = {}));
  let kind = byDirection[direction];
  if (!kind) {
    const json = asciiBytes(
      `,"protocol":${JSON.stringify(protocol)},"direction":${JSON.stringify(direction)},"message":${JSON.stringify(message)},"layout":${JSON.stringify(layout)},"summary":`,
    );
    byDirection[direction] = kind = Object.freeze({ protocol, direction, message, layout, json });
  }
  return kind;
}

/** Where a record's tree comes from: built, or annotated from its layout on first use. */
export type TreeSource = FieldNode[] | { readonly layout: InternalQueryLayout; readonly codec: CodecOptions };

const decoder = new TextDecoder();

/**
 * A record as the dissector makes it: one class, every property set in one order, the
 * kind shared, the capture time formatted and the tree built only when asked for. When
 * the fast path wrote the tree's JSON while decoding, the record holds those bytes (a
 * range of a buffer it shares with its neighbours), and NDJSON output copies them.
 */
export class Packet implements PacketRecord {
  readonly src: Endpoint;
  readonly dst: Endpoint;
  readonly payloadOffset: number;
  readonly payloadLength: number;
  readonly fragments: readonly number[] | undefined;
  /** With `fragments`: what each held, and the reassembled bytes (for -V). */
  readonly #reassembly: Reassembly | undefined;
  readonly payload: Uint8Array;
  readonly frameBytes: Uint8Array | undefined;
  responseIn: number | undefined = undefined;
  requestIn: number | undefined = undefined;
  responseTime: string | undefined = undefined;
  unanswered: string | undefined = undefined;
  unmatched: string | undefined = undefined;
  unmatchedCause: UnmatchedCause | undefined = undefined;
  duplicateOf: number | undefined = undefined;
  incomplete: string | undefined = undefined;
  ambiguous: string | undefined = undefined;
  /** The time of the capture's frame before it (its own for the first frame); undefined without times. */
  previousTimestamp: Timestamp | null | undefined = undefined;

  /** Seconds since the capture's frame before it (`frame.time_delta`), exactly; undefined without times. */
  get timeDelta(): string | undefined {
    const t = this.timestamp;
    return t && this.previousTimestamp ? timestampDifference(t, this.previousTimestamp) : undefined;
  }
  /** The UDP header's length field (`udp.length`: the payload's length and 8 even where the capture cut the payload). */
  udpLength: number | undefined = undefined;
  /** The frame's length on the wire (`frame.len`); undefined for a bare payload. */
  frameLength: number | undefined = undefined;
  /** The bytes its datagram took on the wire: its frame's, and for a reassembled one every fragment's frame. */
  wireLength: number | undefined = undefined;
  /** Its IP header's time to live (hop limit) and length (`ip.ttl`, `ip.len`; `ipv6.hlim`, `ipv6.plen`). */
  ipTtl: number | undefined = undefined;
  ipLength: number | undefined = undefined;
  /** The frame's link type and bytes (those of the frame that completed it, when reassembled); undefined for a bare payload. */
  linkType: number | undefined = undefined;
  frameData: Uint8Array | undefined = undefined;

  /** The frame's length as captured (`frame.cap_len`); undefined for a bare payload. */
  get capturedLength(): number | undefined {
    return this.frameData?.length;
  }

  /** The layers under the message (net/layers.ts), with their tree when `tree`; undefined for a bare payload. */
  layers(tree: boolean): FrameLayers | undefined {
    const data = this.frameData;
    if (this.linkType === undefined || !data) return undefined;
    return frameLayers(this.linkType, data, tree, this.#reassembled());
  }

  /**
   * The layers under the message, their tree written into `sink` as `-V` lines; their
   * `frame.protocols` chain returned (the rest of their facts is the record's own); undefined
   * for a bare payload.
   */
  writeLayers(sink: ByteSink): string | undefined {
    const data = this.frameData;
    if (this.linkType === undefined || !data) return undefined;
    return writeFrameChain(this.linkType, data, sink, this.#reassembled());
  }

  /** What its frame completed, when its datagram was reassembled. */
  #reassembled(): Reassembled | undefined {
    const f = this.fragments;
    const length = this.udpLength ?? this.payloadLength + 8;
    if (!f?.length) return undefined;
    return { fragments: f, length, srcPort: this.src.port, dstPort: this.dst.port, udpLength: length, reassembly: this.#reassembly };
  }

  /** `frame.protocols`: the layers' chain and the protocol (`eth:ethertype:ip:udp:samp`); undefined for a bare payload. */
  get protocols(): string | undefined {
    const l = this.layers(false);
    return l ? `${l.protocols}:${this.protocol}` : undefined;
  }

  /**
   * For a layout with secrets whose tree JSON the fast path wrote: whether that JSON shows
   * them in clear. Undefined for a layout without secrets.
   */
  secretsShown: boolean | undefined = undefined;
  #tree: TreeSource;

  constructor(
    readonly frame: number,
    readonly timestamp: Timestamp | null,
    udp: {
      readonly src: Endpoint;
      readonly dst: Endpoint;
      readonly payload: Uint8Array;
      readonly payloadOffset: number;
      readonly fragments?: readonly number[] | undefined;
      readonly reassembly?: Reassembly | undefined;
    },
    frameBytes: Uint8Array | undefined,
    readonly kind: RecordKind,
    readonly summary: string,
    tree: TreeSource,
    json: Uint8Array | undefined,
    jsonStart: number,
    jsonEnd: number,
    readonly malformed: PacketRecord['malformed'],
    readonly warnings: PacketRecord['warnings'],
  ) {
    this.src = udp.src;
    this.dst = udp.dst;
    this.payloadOffset = udp.payloadOffset;
    this.payloadLength = udp.payload.length;
    this.fragments = udp.fragments;
    this.#reassembly = udp.reassembly;
    this.payload = udp.payload;
    this.frameBytes = frameBytes;
    this.#tree = tree;
    this.#json = json;
    this.#jsonStart = jsonStart;
    this.#jsonEnd = jsonEnd;
  }

  #json: Uint8Array | undefined;
  #jsonStart: number;
  #jsonEnd: number;

  /** The tree's JSON as UTF-8, `json[jsonStart, jsonEnd)`, when the fast path wrote it. */
  get json(): Uint8Array | undefined {
    return this.#json;
  }

  get jsonStart(): number {
    return this.#jsonStart;
  }

  get jsonEnd(): number {
    return this.#jsonEnd;
  }

  /** The tree's JSON, written after the record was made (once it passed a display filter). */
  attachJson(json: Uint8Array, start: number, end: number): void {
    this.#json = json;
    this.#jsonStart = start;
    this.#jsonEnd = end;
  }

  get protocol(): ProtocolName {
    return this.kind.protocol;
  }

  get direction(): Direction | 'either' {
    return this.kind.direction;
  }

  get message(): string {
    return this.kind.message;
  }

  get layout(): string {
    return this.kind.layout;
  }

  get captureTime(): string | null {
    return this.timestamp ? formatTimestamp(this.timestamp) : null;
  }

  get fieldsJson(): string | undefined {
    return this.json ? decoder.decode(this.json.subarray(this.jsonStart, this.jsonEnd)) : undefined;
  }

  /**
   * The layout and codec options the tree would be annotated with, while it has not been
   * built (a record the fast path wrote): renderers that write the tree by other means
   * (the layout's compiled text emitter) read the payload with them. Undefined otherwise.
   */
  get treeSource(): { readonly layout: InternalQueryLayout; readonly codec: CodecOptions } | undefined {
    const tree = this.#tree;
    return Array.isArray(tree) ? undefined : tree;
  }

  get fields(): FieldNode[] {
    const tree = this.#tree;
    if (Array.isArray(tree)) return tree;
    return (this.#tree = tree.layout.annotate(this.payload, tree.codec).fields);
  }
}
