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
 * older than the current frame is dropped. Fragment data is copied, so held datagrams pin no input chunks:
 * into blocks reused once their datagram leaves (see {@link Blocks}).
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
  /** The bytes of the payload each of them carried, in the same order. */
  readonly sizes: readonly number[];
  /** `dataOffset` and `protocol` of the fragment at offset 0. */
  readonly firstDataOffset: number;
  readonly protocol: number;
}

interface Piece {
  readonly start: number;
  readonly end: number;
  /** Its bytes, at the start of a block (`end - start` of them): see {@link Blocks}. */
  readonly data: Uint8Array;
  readonly frame: number;
}

interface Pending {
  readonly fragment: Fragment; // the first one seen, for key fields and reports
  /** Its number in `byNumber`: identification, protocol and IP version (see {@link numberOf}). */
  readonly number: number;
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

/**
 * A datagram's identification with its IPv4 protocol and its IP version, as one number; the
 * addresses tell apart the few datagrams that share one. A string key of all five made and
 * hashed for each fragment was a third of what reassembling one cost.
 */
const numberOf = (f: Fragment): number => (f.ipVersion === 4 ? (f.protocol << 16) | f.id : 0x1000000 + f.id);

/** Whether datagram `p` is the one fragment `f` belongs to. */
const holds = (p: Pending, f: Fragment): boolean => {
  const g = p.fragment;
  return (
    g.id === f.id && g.ipVersion === f.ipVersion && g.src === f.src && g.dst === f.dst && (f.ipVersion === 6 || g.protocol === f.protocol)
  );
};

/** Free blocks kept for reuse, at most this many bytes of them. */
const FREE_BYTES = 1 << 20;
/** The smallest block: 2^6 bytes. */
const LEAST_CLASS = 6;

/**
 * Blocks that fragments' data is copied into, reused once their datagram leaves: an
 * ArrayBuffer made (and later freed) for each fragment was half of what reassembling one
 * cost. A block is a power of two from 64 bytes, so at most twice its data; at most
 * {@link FREE_BYTES} of free blocks wait for reuse.
 */
class Blocks {
  /** Free blocks by size class (log2 of their length). */
  readonly #free: Uint8Array[][] = [];
  #freeBytes = 0;

  /** A block holding a copy of `data` (its first `data.length` bytes). */
  copy(data: Uint8Array): Uint8Array {
    const c = Math.max(LEAST_CLASS, 32 - Math.clz32(data.length - 1));
    const free = this.#free[c];
    let block: Uint8Array;
    if (free?.length) {
      block = free.pop()!;
      this.#freeBytes -= block.length;
    } else block = new Uint8Array(1 << c);
    block.set(data);
    return block;
  }

  /** The blocks of `pieces` are free again. */
  give(pieces: readonly Piece[]): void {
    for (const p of pieces) {
      const block = p.data;
      if (this.#freeBytes + block.length > FREE_BYTES) continue;
      const c = 31 - Math.clz32(block.length);
      while (this.#free.length <= c) this.#free.push([]);
      this.#free[c]!.push(block);
      this.#freeBytes += block.length;
    }
  }
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
  private readonly pending = new Set<Pending>();
  /** The same by number ({@link numberOf}). */
  private readonly byNumber = new Map<number, Pending[]>();
  private readonly blocks = new Blocks();
  private pendingBytes = 0;
  /**
   * When the oldest datagram held was first seen, or NaN when unknown since a datagram left
   * (found again at the next expiry): every frame asks, and most need not walk the map.
   */
  private oldest = Number.NaN;
  /** With `reuse`: the buffer every datagram is put together in (grown to the largest yet). */
  private whole: Uint8Array | undefined;

  /**
   * `reuse`: the caller is done with each datagram before it adds the next fragment, so all of
   * them are put together in one buffer, not each in a new one: the first pass of a capture,
   * which reads a datagram's bytes and keeps numbers. A new buffer a datagram, zeroed and let go,
   * was 2.7 % of `stats` on the mix (its large replies come in fragments).
   */
  constructor(
    limits: Partial<ReassemblyLimits> = {},
    private readonly onDrop?: (dropped: DroppedDatagram) => void,
    private readonly reuse = false,
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
    for (const entry of this.pending) {
      if (!(now - entry.firstSeen > this.limits.timeoutSeconds)) {
        this.oldest = entry.firstSeen;
        break;
      }
      this.forget(entry);
      if (entry.dropped === undefined) this.drop(entry, 'timeout');
    }
  }

  /** Reports every incomplete datagram as dropped at the end of the capture, and forgets them all. */
  finish(): void {
    for (const entry of this.pending) if (entry.dropped === undefined) this.drop(entry, 'end-of-capture');
    this.pending.clear();
    this.byNumber.clear();
    this.oldest = Number.NaN;
  }

  /** Adds one fragment. Returns the whole datagram when this fragment completes it. */
  add(fragment: Fragment): AddResult {
    this.stats.fragments++;
    this.expire(fragment.time);
    const number = numberOf(fragment);
    let same = this.byNumber.get(number);
    let entry = same?.find((p) => holds(p, fragment));
    if (entry === undefined) {
      entry = {
        fragment,
        number,
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
      this.pending.add(entry);
      if (same) same.push(entry);
      else this.byNumber.set(number, (same = [entry]));
      for (const old of this.pending) {
        if (this.pending.size <= this.limits.maxDatagrams) break;
        this.evict(old, 'datagram-limit');
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
    const next = pieces[at];
    if (next !== undefined && next.start === start && next.end === end && equalBytes(next.data, data)) {
      this.stats.duplicates++;
      entry.frames.pop();
      return 'pending';
    }
    if ((at > 0 && pieces[at - 1]!.end > start) || (next !== undefined && next.start < end)) {
      return this.reject(entry, 'overlap');
    }

    const cost = data.length + PIECE_COST;
    if (this.pendingBytes + cost > this.limits.maxPendingBytes) {
      for (const old of this.pending) {
        if (this.pendingBytes + cost <= this.limits.maxPendingBytes) break;
        if (old !== entry) this.evict(old, 'byte-limit');
      }
      if (this.pendingBytes + cost > this.limits.maxPendingBytes) return this.reject(entry, 'byte-limit');
    }
    pieces.splice(at, 0, { start, end, data: this.blocks.copy(data), frame: fragment.frame });
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
    this.forget(entry);
    this.oldest = Number.NaN;
    this.pendingBytes -= entry.held;
    this.stats.reassembled++;
    const payload = this.reuse ? this.wholeOf(entry.totalLength) : new Uint8Array(entry.totalLength);
    for (const piece of pieces) payload.set(piece.data.subarray(0, piece.end - piece.start), piece.start);
    this.blocks.give(pieces);
    return {
      payload,
      frames: pieces.map((p) => p.frame),
      sizes: pieces.map((p) => p.end - p.start),
      firstDataOffset: entry.firstDataOffset,
      protocol: entry.protocol,
    };
  }

  /** The first `n` bytes of the reused buffer, grown (to a power of two) if need be. */
  private wholeOf(n: number): Uint8Array {
    if (!this.whole || this.whole.length < n) this.whole = new Uint8Array(2 ** Math.ceil(Math.log2(Math.max(n, 2048))));
    return this.whole.subarray(0, n);
  }

  /** Drops a datagram but keeps its key until the timeout, so its later fragments are recognised. */
  private reject(entry: Pending, reason: DropReason): 'dropped' {
    this.drop(entry, reason);
    return 'dropped';
  }

  /** Takes a datagram out of the maps. */
  private forget(entry: Pending): void {
    this.pending.delete(entry);
    const same = this.byNumber.get(entry.number)!;
    if (same.length === 1) this.byNumber.delete(entry.number);
    else same.splice(same.indexOf(entry), 1);
  }

  private evict(entry: Pending, reason: DropReason): void {
    this.forget(entry);
    this.oldest = Number.NaN;
    if (entry.dropped === undefined) this.drop(entry, reason);
  }

  private drop(entry: Pending, reason: DropReason): void {
    this.pendingBytes -= entry.held;
    entry.received = 0;
    entry.held = 0;
    this.blocks.give(entry.pieces);
    entry.pieces = [];
    entry.dropped = reason;
    this.stats.dropped[reason]++;
    const { ipVersion, src, dst, id } = entry.fragment;
    this.onDrop?.({ reason, ipVersion, src, dst, id, frames: entry.frames });
  }
}

/** Whether block `a` starts with the bytes of `b` (its length compared by the caller). */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
