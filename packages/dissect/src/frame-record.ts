/**
 * A frame that holds no query message — a DNS datagram, an ICMPv6 neighbour solicitation,
 * an IP fragment still waiting for the rest — as the text outputs list it (tshark lists
 * every frame), when `allFrames` asks for them. Its layers are read from its bytes when it
 * is shown (net/layers.ts); JSON output never carries it (its shape is the query packet's).
 */
import { formatTimestamp, timestampDifference, type Timestamp } from './capture/timestamp.ts';
import type { ByteSink } from '@gamequery/codec/internal';
import { frameLayers, writeFrameLayers, type FrameLayers, type Reassembled } from './net/layers.ts';
import type { Endpoint, SkipReason, UdpDatagram } from './net/types.ts';
import { Packet, type PacketRecord } from './packet-record.ts';

const EMPTY = new Uint8Array(0);

/** Why a frame has no query record: what the decoder skipped it for, or `data` (UDP whose payload is no query message). */
export type FrameReason = SkipReason | 'data';

/** A frame without a query message. */
export class FrameRecord {
  /** The UDP payload given, for a UDP datagram the decoder read (a reassembled one's too). */
  readonly #udpPayload: Uint8Array | undefined;
  /** The UDP ends, for a UDP datagram. */
  readonly src: Endpoint | undefined;
  readonly dst: Endpoint | undefined;
  /** The time of the capture's frame before it (its own for the first); undefined for a hex dump. */
  previousTimestamp: Timestamp | null | undefined = undefined;
  #layers: FrameLayers | undefined;
  readonly #reassembled: Reassembled | undefined;

  constructor(
    readonly frame: number,
    readonly timestamp: Timestamp | null,
    /** LINKTYPE_* of the frame; undefined for a bare payload (a hex dump of a UDP payload). */
    readonly linkType: number | undefined,
    /** The frame's bytes (the payload's for a bare payload). */
    readonly frameBytes: Uint8Array,
    /** Length on the wire. */
    readonly frameLength: number,
    readonly reason: FrameReason,
    /** The decoder's words for a skipped frame (`IP protocol 58`), empty for UDP. */
    readonly detail: string,
    udp?: UdpDatagram,
  ) {
    this.#udpPayload = udp ? udp.payload : linkType === undefined ? frameBytes : undefined;
    this.src = udp?.src;
    this.dst = udp?.dst;
    this.#reassembled =
      udp?.fragments && udp.fragments.length
        ? {
            fragments: udp.fragments,
            length: udp.udpLength,
            srcPort: udp.src.port,
            dstPort: udp.dst.port,
            udpLength: udp.udpLength,
            reassembly: udp.reassembly,
          }
        : undefined;
  }

  /**
   * The bytes no layer reads, shown as tshark's Data: a UDP payload, a fragment's payload, what
   * an unknown EtherType carries (a bare payload: all of it); empty when none.
   */
  get payload(): Uint8Array {
    if (this.#udpPayload) return this.#udpPayload;
    const l = this.layers;
    return l.dataEnd > l.dataStart ? this.frameBytes.subarray(l.dataStart, l.dataEnd) : EMPTY;
  }

  get capturedLength(): number {
    return this.frameBytes.length;
  }

  get captureTime(): string | null {
    return this.timestamp ? formatTimestamp(this.timestamp) : null;
  }

  /** Seconds since the capture's frame before it, exactly; undefined without times. */
  get timeDelta(): string | undefined {
    const t = this.timestamp;
    return t && this.previousTimestamp ? timestampDifference(t, this.previousTimestamp) : undefined;
  }

  /** Its layers (without their tree), read on first use. */
  get layers(): FrameLayers {
    return (this.#layers ??= this.#read(false));
  }

  /** Its layers with their tree (for `-V`). */
  treeLayers(): FrameLayers {
    const l = this.#read(true);
    this.#layers = l;
    return l;
  }

  /** Its layers, their tree written into `sink` as `-V` lines (not kept in `lines`); undefined for a bare payload. */
  writeTreeLayers(sink: ByteSink): FrameLayers | undefined {
    if (this.linkType === undefined) return undefined;
    return (this.#layers = this.#cut(writeFrameLayers(this.linkType, this.frameBytes, sink, this.#reassembled)));
  }

  #read(tree: boolean): FrameLayers {
    if (this.linkType === undefined) return bareLayers(this.payload);
    return this.#cut(frameLayers(this.linkType, this.frameBytes, tree, this.#reassembled));
  }

  /**
   * As tshark: a frame the snapshot length cut says so after its Info text, where a layer was read
   * past what the capture kept; not an IP fragment held for reassembly, whose bytes nothing reads.
   */
  #cut(l: FrameLayers): FrameLayers {
    return this.frameLength > this.frameBytes.length && this.reason !== 'fragment' && this.reason !== 'fragment-dropped'
      ? { ...l, info: `${l.info}[Packet size limited during capture]` }
      : l;
  }

  /** `frame.protocols`: the layers' chain, and `data` for a UDP payload. */
  get protocols(): string {
    const l = this.layers;
    return l.udp && this.payload.length ? `${l.protocols}:data` : l.protocols;
  }

  /** The Protocol column. */
  get column(): string {
    return this.layers.column;
  }

  /** The Info column. */
  get summary(): string {
    return this.layers.info;
  }
}

/** A bare payload's one layer: data. */
function bareLayers(payload: Uint8Array): FrameLayers {
  return {
    protocols: 'data',
    column: 'Data',
    source: '',
    destination: '',
    info: `Data (${payload.length} bytes)`,
    ip: undefined,
    udp: undefined,
    dataStart: 0,
    dataEnd: payload.length,
    lines: [],
  };
}

/** What the dissector lists: query packets, and with `allFrames` every other frame too. */
export type DissectedRecord = PacketRecord | FrameRecord;

/**
 * What a dissection lists by its options' `allFrames` flag (its type `A`): query packets, unless
 * the flag may be true. The dissecting functions take the flag's type as their type parameter, so
 * that options with a function in them (`needs: (layout) => …`) leave it to be inferred too.
 */
export type ListedBy<A extends boolean> = true extends A ? DissectedRecord : PacketRecord;

/** Whether a listed record is a frame without a query message. */
export const isFrameRecord = (r: DissectedRecord): r is FrameRecord => r instanceof FrameRecord;

/** A record's `frame.protocols` words (its layers read for a query packet; a bare payload's protocol alone). */
export function protocolsOf(p: DissectedRecord): string {
  if (p instanceof FrameRecord) return p.protocols;
  return (p instanceof Packet ? p.protocols : undefined) ?? p.protocol;
}

/**
 * What a frame comes out as when the caller does not need its record (`DissectOptions.needs`):
 * one shared record of no frame, with no bytes. Its fields are all absent.
 */
export const BLANK: FrameRecord = new FrameRecord(0, null, undefined, EMPTY, 0, 'data', '');
