/**
 * Bounded IP fragment reassembly, shared by IPv4 (RFC 791) and IPv6 (RFC 8200 §4.5).
 *
 * Fragments are keyed by (source, destination, protocol, identification) for IPv4 and (source, destination,
 * identification) for IPv6. The rules, applied in this order to each fragment:
 * - a fragment of a datagram already dropped is counted and ignored until that datagram's timeout;
 * - an exact duplicate (same offset, length and bytes) is ignored;
 * - any other overlap drops the whole datagram (as RFC 5722 requires for IPv6, and Linux does for IPv4);
 * - so does a fragment cut by the snapshot length, a non-final fragment whose length is not a multiple of 8,
 *   a second "last" fragment with a different end, data beyond the end, or an end above `maxDatagramBytes`.
 * Limits: at most `maxDatagrams` datagrams and `maxPendingBytes` bytes are held (the oldest datagram is
 * dropped to make room), and a datagram whose first fragment is more than `timeoutSeconds` of capture time
 * older than the current frame is dropped. Fragment data is copied, so held datagrams pin no input chunks.
 * @module
 */

export interface ReassemblyLimits {
  /** Datagrams held at once, dropped ones awaiting their timeout included (default 1024). */
  readonly maxDatagrams: number;
  /** Largest reassembled IP payload (default 65535). */
  readonly maxDatagramBytes: number;
  /**
   * Bytes held over all datagrams (default 8 MiB): fragment data plus {@link PIECE_COST} per fragment,
   * so a flood of tiny fragments is bounded in memory, not just in payload.
   */
  readonly maxPendingBytes: number;
  /** Capture-time seconds after its first fragment before an incomplete datagram is dropped (default 30). */
  readonly timeoutSeconds: number;
}

/**
 * What one held fragment costs beyond its data: its record and its copy's Uint8Array (an
 * 8-byte fragment measured 273 bytes of heap on Node 20, data included).
 */
export const PIECE_COST = 256;

/** The reassembly limits used where none are given: 1024 datagrams, 65535 bytes each, 8 MiB held, 30 s. */
export const DEFAULT_REASSEMBLY_LIMITS: ReassemblyLimits = Object.freeze({
  maxDatagrams: 1024,
  maxDatagramBytes: 65535,
  maxPendingBytes: 8 * 1024 * 1024,
  timeoutSeconds: 30,
});

/** Why a fragmented datagram was given up on. */
export type DropReason =
  'timeout' | 'overlap' | 'invalid-fragment' | 'truncated-fragment' | 'too-large' | 'datagram-limit' | 'byte-limit' | 'end-of-capture';

/** A datagram given up on, as reported to `onDrop` and counted in the stats. */
export interface DroppedDatagram {
  readonly reason: DropReason;
  readonly ipVersion: 4 | 6;
  readonly src: string;
  readonly dst: string;
  readonly id: number;
  /** Frames whose fragments had been accepted for it, in arrival order. */
  readonly frames: readonly number[];
}

/** Counts of a {@link Reassembler}: fragments seen, datagrams reassembled, duplicates and drops. */
export interface ReassemblyStats {
  fragments: number;
  reassembled: number;
  duplicates: number;
  /** Fragments ignored because their datagram had already been dropped. */
  lateFragments: number;
  dropped: Record<DropReason, number>;
}

/** One fragment as the IP layer hands it over. */
export interface Fragment {
  readonly ipVersion: 4 | 6;
  readonly src: string;
  readonly dst: string;
  /** IPv4 protocol; for IPv6 the Next Header of the fragment header (not part of the key). */
  readonly protocol: number;
  readonly id: number;
  /** Byte offset of this fragment's data in the datagram's payload. */
  readonly start: number;
  readonly more: boolean;
  /** The fragment's data (a view: it is copied when kept). */
  readonly data: Uint8Array;
  /** Where `data` starts within its frame. */
  readonly dataOffset: number;
  readonly frame: number;
  /** Capture time in seconds, NaN when unknown. */
  readonly time: number;
  /** The frame was cut by the snapshot length inside this fragment. */
  readonly truncated: boolean;
}

/** A completed datagram: the IP payload reassembled, and where its first fragment came from. */
export interface Reassembled {
  readonly payload: Uint8Array;
  /** Frames in fragment-offset order. */
  readonly frames: readonly number[];
  /** `dataOffset` and `protocol` of the fragment at offset 0. */
  readonly firstDataOffset: number;
  readonly protocol: number;
}

interface Piece {
  readonly start: number;
  readonly end: number;
  readonly data: Uint8Array;
  readonly frame: number;
}

interface Pending {
  readonly fragment: Fragment; // the first one seen, for key fields and reports
  readonly firstSeen: number;
  readonly frames: number[];
  pieces: Piece[];
  /** Payload length, known once the last fragment arrived; -1 before. */
  totalLength: number;
  received: number;
  /** What its pieces cost against `maxPendingBytes`: data plus {@link PIECE_COST} each. */
  held: number;
  dropped: DropReason | undefined;
  firstDataOffset: number;
  protocol: number;
}

/** The outcome of {@link Reassembler.add}: the datagram, 'pending', or 'dropped'. */
export type AddResult = Reassembled | 'pending' | 'dropped';

/** Reassembles fragmented IPv4 and IPv6 datagrams within its limits, by the rules of the module comment. */
export class Reassembler {
  readonly limits: ReassemblyLimits;
  readonly stats: ReassemblyStats = {
    fragments: 0,
    reassembled: 0,
    duplicates: 0,
    lateFragments: 0,
    dropped: {
      timeout: 0,
      overlap: 0,
      'invalid-fragment': 0,
      'truncated-fragment': 0,
      'too-large': 0,
      'datagram-limit': 0,
      'byte-limit': 0,
      'end-of-capture': 0,
    },
  };
  /** In order of first fragment seen, which is what expiry and eviction walk. */
  private readonly pending = new Map<string, Pending>();
  private pendingBytes = 0;
  /**
   * When the oldest datagram held was first seen, or NaN when unknown since a datagram left
   * (found again at the next expiry): every frame asks, and most need not walk the map.
   */
  private oldest = Number.NaN;

  constructor(
    limits: Partial<ReassemblyLimits> = {},
    private readonly onDrop?: (dropped: DroppedDatagram) => void,
  ) {
    this.limits = { ...DEFAULT_REASSEMBLY_LIMITS, ...limits };
  }

  /** Datagrams currently held (dropped ones waiting for their timeout included). */
  get size(): number {
    return this.pending.size;
  }

  /** Bytes held: fragment data plus the bookkeeping of each fragment ({@link PIECE_COST}). */
  get bytes(): number {
    return this.pendingBytes;
  }

  /** Drops datagrams older than the timeout at capture time `now` (seconds). */
  expire(now: number): void {
    if (this.pending.size === 0 || Number.isNaN(now) || now - this.oldest <= this.limits.timeoutSeconds) return;
    this.oldest = Number.NaN;
    for (const [key, entry] of this.pending) {
      if (!(now - entry.firstSeen > this.limits.timeoutSeconds)) {
        this.oldest = entry.firstSeen;
        break;
      }
      this.pending.delete(key);
      if (entry.dropped === undefined) this.drop(entry, 'timeout');
    }
  }

  /** Reports every incomplete datagram as dropped at the end of the capture, and forgets them all. */
  finish(): void {
    for (const entry of this.pending.values()) if (entry.dropped === undefined) this.drop(entry, 'end-of-capture');
    this.pending.clear();
    this.oldest = Number.NaN;
  }

  /** Adds one fragment. Returns the whole datagram when this fragment completes it. */
  add(fragment: Fragment): AddResult {
    this.stats.fragments++;
    this.expire(fragment.time);
    const key = `${fragment.ipVersion} ${fragment.src} ${fragment.dst} ${fragment.ipVersion === 4 ? fragment.protocol : 0} ${fragment.id}`;
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = {
        fragment,
        firstSeen: fragment.time,
        frames: [],
        pieces: [],
        totalLength: -1,
        received: 0,
        held: 0,
        dropped: undefined,
        firstDataOffset: -1,
        protocol: -1,
      };
      if (this.pending.size === 0) this.oldest = fragment.time;
      this.pending.set(key, entry);
      for (const [oldKey, old] of this.pending) {
        if (this.pending.size <= this.limits.maxDatagrams) break;
        this.evict(oldKey, old, 'datagram-limit');
      }
    }
    if (entry.dropped !== undefined) {
      this.stats.lateFragments++;
      return 'dropped';
    }
    entry.frames.push(fragment.frame);

    const { start, data } = fragment;
    const end = start + data.length;
    if (fragment.truncated) return this.reject(entry, 'truncated-fragment');
    if (end > this.limits.maxDatagramBytes) return this.reject(entry, 'too-large');
    if (
      fragment.more
        ? data.length % 8 !== 0 || (entry.totalLength >= 0 && end > entry.totalLength)
        : (entry.totalLength >= 0 && entry.totalLength !== end) || entry.pieces.some((p) => p.end > end)
    ) {
      return this.reject(entry, 'invalid-fragment');
    }

    // Insert in offset order; an exact duplicate is ignored, any other overlap rejects the datagram.
    const pieces = entry.pieces;
    let at = pieces.length;
    while (at > 0 && pieces[at - 1]!.start >= start) at--;
    const same = pieces[at];
    if (same !== undefined && same.start === start && same.end === end && equalBytes(same.data, data)) {
      this.stats.duplicates++;
      entry.frames.pop();
      return 'pending';
    }
    if ((at > 0 && pieces[at - 1]!.end > start) || (same !== undefined && same.start < end)) {
      return this.reject(entry, 'overlap');
    }

    const cost = data.length + PIECE_COST;
    if (this.pendingBytes + cost > this.limits.maxPendingBytes) {
      for (const [oldKey, old] of this.pending) {
        if (this.pendingBytes + cost <= this.limits.maxPendingBytes) break;
        if (old !== entry) this.evict(oldKey, old, 'byte-limit');
      }
      if (this.pendingBytes + cost > this.limits.maxPendingBytes) return this.reject(entry, 'byte-limit');
    }
    pieces.splice(at, 0, { start, end, data: data.slice(), frame: fragment.frame });
    entry.received += data.length;
    entry.held += cost;
    this.pendingBytes += cost;
    if (!fragment.more) entry.totalLength = end;
    if (start === 0) {
      entry.firstDataOffset = fragment.dataOffset;
      entry.protocol = fragment.protocol;
    }
    if (entry.received !== entry.totalLength) return 'pending';

    // Complete: no overlaps and as many bytes as the length, so the pieces tile [0, totalLength).
    this.pending.delete(key);
    this.oldest = Number.NaN;
    this.pendingBytes -= entry.held;
    this.stats.reassembled++;
    const payload = new Uint8Array(entry.totalLength);
    for (const piece of pieces) payload.set(piece.data, piece.start);
    return {
      payload,
      frames: pieces.map((p) => p.frame),
      firstDataOffset: entry.firstDataOffset,
      protocol: entry.protocol,
    };
  }

  /** Drops a datagram but keeps its key until the timeout, so its later fragments are recognised. */
  private reject(entry: Pending, reason: DropReason): 'dropped' {
    this.drop(entry, reason);
    return 'dropped';
  }

  private evict(key: string, entry: Pending, reason: DropReason): void {
    this.pending.delete(key);
    this.oldest = Number.NaN;
    if (entry.dropped === undefined) this.drop(entry, reason);
  }

  private drop(entry: Pending, reason: DropReason): void {
    this.pendingBytes -= entry.held;
    entry.received = 0;
    entry.held = 0;
    entry.pieces = [];
    entry.dropped = reason;
    this.stats.dropped[reason]++;
    const { ipVersion, src, dst, id } = entry.fragment;
    this.onDrop?.({ reason, ipVersion, src, dst, id, frames: entry.frames });
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
