import type { Timestamp } from './timestamp.ts';

/** One captured packet: a pcap record, or a pcapng Enhanced / Simple / (obsolete) Packet Block. */
export interface CapturePacket {
  readonly kind: 'packet';
  /** Frame number, 1-based, counted over the whole file as Wireshark does. */
  readonly index: number;
  /** Byte offset in the file of the record or block that holds the packet. */
  readonly offset: number;
  /** LINKTYPE_* value of the packet's interface (1 Ethernet, 113 Linux SLL, …); any value is passed on. */
  readonly linkType: number;
  /** Capture time; `null` for a pcapng Simple Packet Block, which has none. */
  readonly timestamp: Timestamp | null;
  readonly capturedLength: number;
  /** Length of the packet on the wire; larger than capturedLength when the snapshot length cut it. */
  readonly originalLength: number;
  /** The captured bytes: a view into the input chunk (or into the record's own buffer when it spanned chunks). */
  readonly data: Uint8Array;
  /**
   * The packet's interface: its Interface Description Block's position in the section, from 0 (always 0 for
   * classic pcap). Like Wireshark's frame.interface_id, numbering restarts in each pcapng section.
   */
  readonly interfaceId: number;
  /** 1-based pcapng section (Section Header Block) the packet is in, like frame.section_number; 1 for pcap. */
  readonly sectionNumber: number;
}

/** Why a capture could not be read further. */
export type CaptureErrorCode =
  /** The file starts with neither a pcap nor a pcapng magic, or a section has a bad byte-order magic. */
  | 'bad-magic'
  /** The input is gzip (a `.pcap.gz`), and its compressed data is damaged or cut short. */
  | 'bad-gzip'
  /** A format version, timestamp resolution or variant this reader does not handle. */
  | 'unsupported'
  /** The input ends inside a header, record or block. */
  | 'truncated'
  /** A pcapng block length that is 0, below the block's minimum, not a multiple of 4, absurdly large, or
   * different in the block's header and trailer. */
  | 'bad-block-length'
  /** A captured length above the snapshot length, above the per-record limit, or beyond its block. */
  | 'bad-captured-length'
  /** Any other inconsistency inside a block: an unknown interface id, an option running past the block. */
  | 'bad-block';

/**
 * The last item of a damaged capture. Everything before `offset` was delivered as packets; reading stops
 * here (a capture format has no way to resynchronise after a bad length).
 */
export interface CaptureError {
  readonly kind: 'error';
  readonly code: CaptureErrorCode;
  /** Byte offset in the file of the header, record or block that could not be read. */
  readonly offset: number;
  /** Stable English text naming the offset and the numbers involved. */
  readonly message: string;
}

/** What a capture reader yields: a packet, or the error that stopped it (the last item). */
export type CaptureItem = CapturePacket | CaptureError;

/** The capture file formats read: pcap and pcapng. */
export type CaptureFormat = 'pcap' | 'pcapng';

/** Options of the capture readers. */
export interface CaptureReaderOptions {
  /**
   * Largest captured length accepted for one packet, in bytes (default 262144, libpcap's maximum snapshot
   * length). Larger records stop the reader with a `bad-captured-length` error instead of being buffered.
   */
  readonly maxRecordLength?: number;
}
