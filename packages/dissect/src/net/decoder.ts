/**
 * From a captured frame to its UDP datagram: link layer, IPv4 / IPv6 (with extension headers and fragment
 * reassembly), UDP.
 *
 * ```
 * IPv4 | ver/IHL (1) | TOS (1) | total length (2) | id (2) | flags/fragment offset (2) | TTL | protocol | checksum (2) | src (4) | dst (4) | options |
 * IPv6 | ver/class/flow (4) | payload length (2) | next header (1) | hop limit (1) | src (16) | dst (16) |
 *      extension headers 0 hop-by-hop, 43 routing, 60 destination: | next (1) | length in 8 bytes - 1 (1) | … |
 *      51 AH: | next (1) | length in 4 bytes - 2 (1) | … |   44 fragment: | next (1) | res (1) | offset/M (2) | id (4) |
 * UDP  | src port (2) | dst port (2) | length (2) | checksum (2) | payload |
 * ```
 * Checksums are not verified (captures of locally sent traffic often carry offloaded, unfilled ones).
 * @module
 */
import { timestampToNumber } from '../capture/timestamp.ts';
import { formatIPv4, formatIPv6 } from './address.ts';
import { findNetworkLayer, type NetworkLocation } from './link.ts';
import { Reassembler, type AddResult, type DroppedDatagram, type ReassemblyLimits, type ReassemblyStats } from './reassembly.ts';
import type { DecodedFrame, FrameInput, Reassembly, SkippedFrame, SkipReason } from './types.ts';

const PROTOCOL_UDP = 17;
const IPV4_HEADER_LENGTH = 20;
const IPV6_HEADER_LENGTH = 40;
const UDP_HEADER_LENGTH = 8;
const IPV6_HOP_BY_HOP = 0;
const IPV6_ROUTING = 43;
const IPV6_FRAGMENT = 44;
const IPV6_AUTHENTICATION = 51;
const IPV6_DESTINATION = 60;

/** Options of {@link UdpDecoder}. */
export interface UdpDecoderOptions {
  /** Reassembly limits (defaults: 1024 datagrams, 65535 bytes each, 8 MiB, 30 s), or false to turn it off. */
  readonly reassembly?: Partial<ReassemblyLimits> | false;
  /** Called for each datagram whose fragments were given up on (timeout, overlap, limits, end of capture). */
  readonly onDrop?: (dropped: DroppedDatagram) => void;
  /**
   * The caller reads a reassembled datagram's bytes before the next frame and keeps none of
   * them: each is put together in one buffer, reused (a first pass; default false).
   */
  readonly reuse?: boolean;
}

function skipped(reason: SkipReason, detail: string): SkippedFrame {
  return { kind: 'skipped', reason, detail };
}

const FRAGMENT_HELD = Object.freeze(skipped('fragment', 'fragment held for reassembly'));
const FRAGMENT_DROPPED = Object.freeze(skipped('fragment-dropped', 'fragment of a dropped datagram'));
const FRAGMENT_NOT_REASSEMBLED = Object.freeze(skipped('fragment', 'fragment (reassembly is off)'));

/** Where an IPv6 header chain reaches a header that is not a skippable extension header. */
interface ChainEnd {
  next: number;
  offset: number;
}

/**
 * Where a frame's UDP datagram is, as numbers (what {@link UdpDecoder.locate} fills in, one
 * object reused): the first pass over a capture pairs from these without a string or an
 * object per frame; {@link UdpDecoder.decode} builds the datagram's object from them.
 */
export class Located {
  /** Whether the frame holds a UDP datagram the dissector reads; else `skipped`. */
  found = false;
  skipped: SkippedFrame = FRAGMENT_HELD;
  ipVersion: 4 | 6 = 4;
  /** The bytes holding the IP addresses (the frame's), and where each is. */
  addresses: Uint8Array = EMPTY;
  srcAt = 0;
  dstAt = 0;
  srcPort = 0;
  dstPort = 0;
  /** The bytes holding the payload (the frame, or a reassembled datagram), from `start` to `end`. */
  data: Uint8Array = EMPTY;
  start = 0;
  end = 0;
  /** Offset of the payload within the frame (of the first fragment when reassembled). */
  payloadOffset = 0;
  udpLength = 0;
  truncated = false;
  fragments: readonly number[] | undefined = undefined;
  /** With `fragments`: what each held, and the reassembled bytes. */
  reassembly: Reassembly | undefined = undefined;
  /** IPv4 time to live or IPv6 hop limit, and IPv4 total length or IPv6 payload length, of the frame's IP header. */
  ipTtl = 0;
  ipLength = 0;
}

const EMPTY = new Uint8Array(0);

/**
 * Decodes frames to UDP datagrams. Stateful: it holds IP fragments until their datagram is complete, so
 * feed it every frame of a capture in order, then call {@link finish}.
 */
export class UdpDecoder {
  private readonly reassembler: Reassembler | undefined;
  private readonly location: NetworkLocation = { ipVersion: 0, offset: 0 };
  private readonly chain: ChainEnd = { next: 0, offset: 0 };
  private readonly out = new Located();
  private time = Number.NaN;
  private frameIndex = 0;

  constructor(options: UdpDecoderOptions = {}) {
    this.reassembler = options.reassembly === false ? undefined : new Reassembler(options.reassembly, options.onDrop, options.reuse);
  }

  /** Reassembly counters (fragments, datagrams reassembled, duplicates, drops by reason); undefined when off. */
  get stats(): ReassemblyStats | undefined {
    return this.reassembler?.stats;
  }

  /** Decodes one frame. Never throws on bad input: a frame without a usable UDP datagram is `skipped`. */
  decode(frame: FrameInput): DecodedFrame {
    const at = this.locate(frame);
    if (!at.found) return at.skipped;
    const src = at.ipVersion === 4 ? formatIPv4(at.addresses, at.srcAt) : formatIPv6(at.addresses, at.srcAt);
    const dst = at.ipVersion === 4 ? formatIPv4(at.addresses, at.dstAt) : formatIPv6(at.addresses, at.dstAt);
    return {
      kind: 'udp',
      ipVersion: at.ipVersion,
      src: { ip: src, port: at.srcPort },
      dst: { ip: dst, port: at.dstPort },
      payload: at.data.subarray(at.start, at.end),
      payloadOffset: at.payloadOffset,
      udpLength: at.udpLength,
      fragments: at.fragments,
      reassembly: at.reassembly,
      truncated: at.truncated,
      ipTtl: at.ipTtl,
      ipLength: at.ipLength,
    };
  }

  /** Finds one frame's UDP datagram, as numbers (the object is reused: read it before the next call). Never throws. */
  locate(frame: FrameInput): Located {
    this.pass(frame);
    const problem = findNetworkLayer(frame.linkType, frame.data, this.location);
    if (problem !== undefined) return this.skip(skipped(problem[0], problem[1]));
    return this.location.ipVersion === 4 ? this.ipv4(frame.data, this.location.offset) : this.ipv6(frame.data, this.location.offset);
  }

  /**
   * A frame goes by unread, known to hold a whole datagram (no fragment): its time moves the
   * reassembly clock on, as reading it would.
   */
  pass(frame: FrameInput): void {
    this.frameIndex = frame.index;
    this.time = frame.timestamp === null ? Number.NaN : timestampToNumber(frame.timestamp);
    this.reassembler?.expire(this.time);
  }

  /** Ends the capture: datagrams still incomplete are reported to `onDrop` as 'end-of-capture'. */
  finish(): void {
    this.reassembler?.finish();
  }

  private skip(why: SkippedFrame): Located {
    this.out.found = false;
    this.out.skipped = why;
    return this.out;
  }

  private ipv4(data: Uint8Array, start: number): Located {
    const available = data.length - start;
    if (available < IPV4_HEADER_LENGTH) {
      return this.skip(skipped('malformed', `frame ends ${available} bytes into the IPv4 header`));
    }
    const versionAndLength = data[start]!;
    if (versionAndLength >> 4 !== 4) return this.skip(skipped('malformed', `IP version ${versionAndLength >> 4} in an IPv4 header`));
    const headerLength = (versionAndLength & 0x0f) * 4;
    if (headerLength < IPV4_HEADER_LENGTH) {
      return this.skip(skipped('malformed', `IPv4 header length ${headerLength} is below 20`));
    }
    if (headerLength > available) {
      return this.skip(skipped('malformed', `IPv4 header length ${headerLength} runs past the ${available} bytes captured`));
    }
    let totalLength = u16(data, start + 2);
    // 0 is what a capture shows for a segmentation-offloaded packet: the length is the frame's.
    if (totalLength === 0) totalLength = available;
    else if (totalLength < headerLength) {
      return this.skip(skipped('malformed', `IPv4 total length ${totalLength} is below its header length ${headerLength}`));
    }
    const protocol = data[start + 9]!;
    if (protocol !== PROTOCOL_UDP) return this.skip(skipped('not-udp', `IP protocol ${protocol}`));
    const cut = totalLength > available;
    const end = cut ? data.length : start + totalLength;
    const fragmentField = u16(data, start + 6);
    const more = (fragmentField & 0x2000) !== 0;
    const fragmentOffset = (fragmentField & 0x1fff) * 8;
    const out = this.out;
    out.ipVersion = 4;
    out.ipTtl = data[start + 8]!;
    out.ipLength = u16(data, start + 2);
    out.addresses = data;
    out.srcAt = start + 12;
    out.dstAt = start + 16;
    if (more || fragmentOffset !== 0) {
      // A first fragment the snapshot length cut is read as far as it goes, as tshark reads it (it reassembles
      // only fragments captured whole): its UDP header and what its payload holds. Its datagram is dropped.
      const readOn = cut && fragmentOffset === 0;
      if (this.reassembler === undefined) {
        if (!readOn) return this.skip(FRAGMENT_NOT_REASSEMBLED);
      } else {
        const result = this.reassembler.add({
          ipVersion: 4,
          src: formatIPv4(data, start + 12),
          dst: formatIPv4(data, start + 16),
          protocol,
          id: u16(data, start + 4),
          start: fragmentOffset,
          more,
          data: data.subarray(start + headerLength, end),
          dataOffset: start + headerLength,
          frame: this.frameIndex,
          time: this.time,
          truncated: cut,
        });
        if (!readOn) return this.reassembled(result, 4);
      }
    }
    return this.udp(data, start + headerLength, end, cut, 0);
  }

  private ipv6(data: Uint8Array, start: number): Located {
    const available = data.length - start;
    if (available < IPV6_HEADER_LENGTH) {
      return this.skip(skipped('malformed', `frame ends ${available} bytes into the IPv6 header`));
    }
    if (data[start]! >> 4 !== 6) return this.skip(skipped('malformed', `IP version ${data[start]! >> 4} in an IPv6 header`));
    const payloadLength = u16(data, start + 4);
    // 0: a jumbogram or an offloaded packet; the frame tells the length.
    const declaredEnd = payloadLength === 0 ? data.length : start + IPV6_HEADER_LENGTH + payloadLength;
    const cut = declaredEnd > data.length;
    const end = cut ? data.length : declaredEnd;
    const out = this.out;
    out.ipVersion = 6;
    out.ipTtl = data[start + 7]!;
    out.ipLength = payloadLength;
    out.addresses = data;
    out.srcAt = start + 8;
    out.dstAt = start + 24;
    const chain = this.chain;
    let next = data[start + 6]!;
    let pos = start + IPV6_HEADER_LENGTH;
    for (;;) {
      const problem = skipExtensionHeaders(data, pos, end, next, chain);
      if (problem !== undefined) return this.skip(skipped('malformed', problem));
      next = chain.next;
      pos = chain.offset;
      if (next !== IPV6_FRAGMENT) break;
      if (pos + 8 > end) return this.skip(skipped('malformed', 'frame ends inside the IPv6 fragment header'));
      const fragmentNext = data[pos]!;
      const field = u16(data, pos + 2);
      const fragmentOffset = field & 0xfff8;
      const more = (field & 1) !== 0;
      if (fragmentOffset === 0 && !more) {
        // An atomic fragment (RFC 6946): the whole packet, to be processed as is.
        next = fragmentNext;
        pos += 8;
        continue;
      }
      if (
        fragmentNext !== PROTOCOL_UDP &&
        fragmentNext !== IPV6_ROUTING &&
        fragmentNext !== IPV6_DESTINATION &&
        fragmentNext !== IPV6_AUTHENTICATION
      ) {
        return this.skip(skipped('not-udp', `IPv6 fragment of IP protocol ${fragmentNext}`));
      }
      // A first fragment the snapshot length cut stays a fragment, as tshark keeps it for IPv6 (not for IPv4).
      if (this.reassembler === undefined) return this.skip(FRAGMENT_NOT_REASSEMBLED);
      const id = ((data[pos + 4]! << 24) | (data[pos + 5]! << 16) | (data[pos + 6]! << 8) | data[pos + 7]!) >>> 0;
      const result = this.reassembler.add({
        ipVersion: 6,
        src: formatIPv6(data, start + 8),
        dst: formatIPv6(data, start + 24),
        protocol: fragmentNext,
        id,
        start: fragmentOffset,
        more,
        data: data.subarray(pos + 8, end),
        dataOffset: pos + 8,
        frame: this.frameIndex,
        time: this.time,
        truncated: cut,
      });
      return this.reassembled(result, 6);
    }
    if (next !== PROTOCOL_UDP) return this.skip(skipped('not-udp', `IP protocol ${next}`));
    return this.udp(data, pos, end, cut, 0);
  }

  /** Turns the reassembler's answer into this frame's result (the addresses are the completing fragment's). */
  private reassembled(result: AddResult, ipVersion: 4 | 6): Located {
    if (result === 'pending') return this.skip(FRAGMENT_HELD);
    if (result === 'dropped') return this.skip(FRAGMENT_DROPPED);
    const { payload, frames, sizes, firstDataOffset } = result;
    let pos = 0;
    if (ipVersion === 6) {
      const problem = skipExtensionHeaders(payload, 0, payload.length, result.protocol, this.chain);
      if (problem !== undefined) return this.skip(skipped('malformed', `reassembled datagram: ${problem}`));
      if (this.chain.next !== PROTOCOL_UDP) return this.skip(skipped('not-udp', `IP protocol ${this.chain.next}`));
      pos = this.chain.offset;
    }
    return this.udp(payload, pos, payload.length, false, firstDataOffset, frames, { sizes, data: payload, udpAt: pos });
  }

  /**
   * The UDP header at `pos` and its payload up to `end` (the end of the IP payload). `base` is added to
   * offsets within `data` to make them offsets within the frame (non-zero for reassembled datagrams).
   */
  private udp(
    data: Uint8Array,
    pos: number,
    end: number,
    cut: boolean,
    base: number,
    fragments?: readonly number[],
    reassembly?: Reassembly,
  ): Located {
    const available = end - pos;
    // A snapshot length that cuts the header after its length field still tells ports and length.
    if (available < (cut ? 6 : UDP_HEADER_LENGTH)) {
      return this.skip(skipped('malformed', `${cut ? 'frame' : 'IP payload'} ends ${available} bytes into the UDP header`));
    }
    const udpLength = u16(data, pos + 4);
    if (udpLength < UDP_HEADER_LENGTH) return this.skip(skipped('malformed', `UDP length ${udpLength} is below 8`));
    const truncated = udpLength > available;
    const out = this.out;
    out.found = true;
    out.srcPort = u16(data, pos);
    out.dstPort = u16(data, pos + 2);
    out.data = data;
    out.start = Math.min(pos + UDP_HEADER_LENGTH, end);
    out.end = truncated ? end : pos + udpLength;
    out.payloadOffset = base + pos + UDP_HEADER_LENGTH;
    out.udpLength = udpLength;
    out.fragments = fragments;
    out.reassembly = reassembly;
    out.truncated = truncated;
    return out;
  }
}

/**
 * Walks IPv6 extension headers that need no processing (hop-by-hop, routing, destination options,
 * authentication) from header type `next` at `pos`; fills `out` with the first other header. Returns a
 * message when a header runs past `end`.
 */
function skipExtensionHeaders(data: Uint8Array, pos: number, end: number, next: number, out: ChainEnd): string | undefined {
  while (next === IPV6_HOP_BY_HOP || next === IPV6_ROUTING || next === IPV6_DESTINATION || next === IPV6_AUTHENTICATION) {
    if (pos + 2 > end) return `IPv6 extension header ${next} at offset ${pos} is cut off`;
    const length = next === IPV6_AUTHENTICATION ? (data[pos + 1]! + 2) * 4 : (data[pos + 1]! + 1) * 8;
    if (pos + length > end) return `IPv6 extension header ${next} at offset ${pos} runs past the packet`;
    next = data[pos]!;
    pos += length;
  }
  out.next = next;
  out.offset = pos;
  return undefined;
}

function u16(data: Uint8Array, pos: number): number {
  return (data[pos]! << 8) | data[pos + 1]!;
}
