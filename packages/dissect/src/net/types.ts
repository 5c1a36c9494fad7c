import type { Timestamp } from '../capture/timestamp.ts';

/** What the decoder needs of a frame; a CapturePacket from the capture reader fits. */
export interface FrameInput {
  /** Frame number, used to list the fragments of a reassembled datagram. */
  readonly index: number;
  readonly linkType: number;
  readonly data: Uint8Array;
  /** Capture time, which drives the reassembly timeout; null when unknown (pcapng Simple Packet Block). */
  readonly timestamp: Timestamp | null;
  /** Length on the wire, where the capture says (else the bytes' length). */
  readonly originalLength?: number;
}

/** One end of a UDP datagram: IP address and port. */
export interface Endpoint {
  /** IPv4 dotted decimal or IPv6 in RFC 5952 form. */
  readonly ip: string;
  readonly port: number;
}

/** What the fragments of a reassembled datagram held, beside their frame numbers (tshark -V lists them). */
export interface Reassembly {
  /** Bytes of the IP payload each fragment carried, in order of their offset (the frames' order in `fragments`). */
  readonly sizes: readonly number[];
  /** The reassembled IP payload: the UDP header first (after any IPv6 extension headers that follow the fragment header). */
  readonly data: Uint8Array;
  /** Where the UDP header lies in `data`. */
  readonly udpAt: number;
}

/** A UDP datagram found in a frame (or completed by it, for a reassembled one). */
export interface UdpDatagram {
  readonly kind: 'udp';
  readonly ipVersion: 4 | 6;
  readonly src: Endpoint;
  readonly dst: Endpoint;
  readonly payload: Uint8Array;
  /**
   * Offset of the payload within the frame's data; for a reassembled datagram, within the frame that
   * carried its first fragment (the one holding the UDP header), which is `fragments[0]`.
   */
  readonly payloadOffset: number;
  /** The UDP header's length field (header included). */
  readonly udpLength: number;
  /** Frame numbers of the fragments, in order of their offset, when the datagram was reassembled. */
  readonly fragments?: readonly number[];
  /** With `fragments`: what each fragment held, and the reassembled bytes. */
  readonly reassembly?: Reassembly;
  /**
   * True when the payload is shorter than the UDP length says: the capture's snapshot length cut the frame
   * (or the length field is larger than the IP packet). The payload holds what was captured.
   */
  readonly truncated: boolean;
  /** The frame's IP header: IPv4 time to live or IPv6 hop limit. */
  readonly ipTtl?: number;
  /** The frame's IP header: IPv4 total length (header included) or IPv6 payload length. */
  readonly ipLength?: number;
}

/** Why a frame yielded no UDP datagram. */
export type SkipReason =
  /** A link type this layer does not decode. */
  | 'link-type'
  /** Not IPv4 or IPv6 (ARP, LLC, …). */
  | 'not-ip'
  /** IP, but not UDP (ICMP, TCP, a fragment of a non-UDP packet, …). */
  | 'not-udp'
  /** A UDP fragment held for reassembly; the datagram appears at the frame that completes it. */
  | 'fragment'
  /** A fragment of a datagram that was dropped (overlap, limits, timeout …); see the decoder's stats. */
  | 'fragment-dropped'
  /** Headers that contradict themselves or end early. */
  | 'malformed';

/** A frame that holds no UDP datagram the dissector reads, and why. */
export interface SkippedFrame {
  readonly kind: 'skipped';
  readonly reason: SkipReason;
  /** Human-readable details: "EtherType 0x0806", "IP protocol 6", "IPv4 header length 16 is below 20". */
  readonly detail: string;
}

/** What decoding a frame gives: its UDP datagram, or why it was skipped. */
export type DecodedFrame = UdpDatagram | SkippedFrame;
