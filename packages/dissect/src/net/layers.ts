/**
 * The layers under the game: a frame read from its link header down to UDP, as tshark lists
 * and shows them — the `frame.protocols` chain (`eth:ethertype:ip:udp`), the columns of a
 * frame that holds no query message (`ICMPv6`, `Neighbor Solicitation`), and for `-V` the
 * Ethernet / Linux cooked / loopback, IPv4 / IPv6 and UDP subtrees with tshark's labels.
 *
 * The decoder (decoder.ts) finds a frame's datagram with numbers only, for every frame of a
 * capture; this module reads a frame again, field by field, where it is shown with its
 * layers (a `-V` tree, a line for a frame without a query message). The header layouts are
 * those of decoder.ts and link.ts.
 *
 * `-V` shows every frame's layers, a thousand bytes of text a frame, so the tree is written
 * into a byte sink as it is read, in tshark's order (a subtree's title, then its items),
 * the lines every frame has from pieces encoded once: lines built as strings, kept in lists,
 * joined and encoded again took a quarter of `-F text` on 1 M frames of the mix, and writing
 * a title before its items keeps what was pushed under a subtree after it was written
 * (an IPv6 extension header, the fragments a frame completed) from being lost.
 * @module
 */
import { ByteSink, asciiBytes, dotted, hexInt, toHex } from '@gamequery/codec/internal';
import { formatIPv4, formatIPv6 } from './address.ts';
import { LINKTYPE, familyVersion, isVlanTag, loopbackFamily } from './link.ts';
import type { Reassembly } from './types.ts';

/** What a completed reassembly tells the frame that completed it (the UDP header lies in the first fragment). */
export interface Reassembled {
  readonly fragments: readonly number[];
  /** Length of the reassembled IP payload. */
  readonly length: number;
  readonly srcPort: number;
  readonly dstPort: number;
  readonly udpLength: number;
  /** What each fragment held, and the reassembled bytes: their list and the datagram as tshark lists them, the UDP checksum. */
  readonly reassembly?: Reassembly;
}

/**
 * The IP header of a frame, as filters and columns read it. A header the snapshot length cut
 * has the values whose bytes are there, as tshark reads them; the rest undefined.
 */
export interface IpFacts {
  readonly version: 4 | 6;
  readonly src: string | undefined;
  readonly dst: string | undefined;
  /** IPv4 time to live, IPv6 hop limit. */
  readonly ttl: number | undefined;
  /** IPv4 total length, IPv6 payload length. */
  readonly length: number | undefined;
  /** The protocol after the IP header and its extension headers (17 UDP, 58 ICMPv6, …); for a cut IPv6 header, its Next Header. */
  readonly protocol: number | undefined;
  /** A fragment that does not complete a datagram here. */
  readonly fragment: boolean;
}

/** The UDP header of a frame (of the first fragment, for a reassembled datagram). */
export interface UdpFacts {
  readonly srcPort: number;
  readonly dstPort: number;
  /** Undefined where the capture cut the header before its length field (the ports are there). */
  readonly length: number | undefined;
  /** True where the capture cut the 8-byte header (before its checksum or earlier); undefined for a whole one. */
  readonly truncated?: true | undefined;
  /** Where the payload lies in the frame (for a reassembled datagram: nowhere in it, so both are 0). */
  readonly payloadStart: number;
  readonly payloadEnd: number;
}

/** A frame's layers down to the transport. */
export interface FrameLayers {
  /** `frame.protocols` up to the transport: `eth:ethertype:ip:udp`, `sll:ethertype:ipv6:icmpv6`, `raw:ip` … */
  readonly protocols: string;
  /** Protocol column of a frame without a query message: `UDP`, `ICMPv6`, `IPv4` (a fragment), `ARP` … */
  readonly column: string;
  /** Source and destination columns: IP addresses, else the link addresses, else empty. */
  readonly source: string;
  readonly destination: string;
  /** Info column of a frame without a query message, as tshark words it where it can. */
  readonly info: string;
  readonly ip: IpFacts | undefined;
  readonly udp: UdpFacts | undefined;
  /** Bytes no layer here reads, as tshark's Data: a fragment's, an unknown EtherType's, a UDP payload ([start, end) in the frame; equal when none). */
  readonly dataStart: number;
  readonly dataEnd: number;
  /**
   * The link, IP (with extension headers) and UDP subtrees as tshark -V writes them, four
   * spaces a level; empty unless asked for ({@link frameLayers} with `tree`), and empty from
   * {@link writeFrameLayers}, which writes them into a sink instead.
   */
  readonly lines: string[];
}

const ETHERTYPES: Record<number, string> = {
  0x0800: 'IPv4',
  0x0806: 'ARP',
  0x86dd: 'IPv6',
  0x8100: '802.1Q Virtual LAN',
  0x88a8: '802.1ad Provider Bridge (Q-in-Q)',
  0x9100: 'VLAN tag (0x9100)',
  0x88cc: '802.1 Link Layer Discovery Protocol (LLDP)',
  0x8035: 'RARP',
};
/** IP protocol numbers: tshark's name in the tree, its column and its `frame.protocols` word. */
const IP_PROTOCOLS: Record<number, readonly [name: string, column: string, word: string]> = {
  1: ['ICMP', 'ICMP', 'icmp'],
  2: ['IGMP', 'IGMPv2', 'igmp'],
  6: ['TCP', 'TCP', 'tcp'],
  17: ['UDP', 'UDP', 'udp'],
  41: ['IPv6', 'IPv6', 'ipv6'],
  47: ['Generic Routing Encapsulation', 'GRE', 'gre'],
  50: ['Encap Security Payload', 'ESP', 'esp'],
  51: ['Authentication Header', 'AH', 'ah'],
  58: ['ICMPv6', 'ICMPv6', 'icmpv6'],
  132: ['SCTP', 'SCTP', 'sctp'],
};
const IPV6_EXTENSIONS: Record<number, readonly [title: string, word: string]> = {
  0: ['IPv6 Hop-by-Hop Option', 'ipv6.hopopts'],
  43: ['Routing Header for IPv6', 'ipv6.routing'],
  44: ['Fragment Header for IPv6', 'ipv6.fraghdr'],
  60: ['Destination Options for IPv6', 'ipv6.dstopts'],
};
const ICMP_TYPES: Record<number, string> = {
  0: 'Echo (ping) reply',
  3: 'Destination unreachable',
  5: 'Redirect',
  8: 'Echo (ping) request',
  11: 'Time-to-live exceeded',
};
const ICMP_UNREACHABLE: Record<number, string> = {
  0: 'Network unreachable',
  1: 'Host unreachable',
  3: 'Port unreachable',
  13: 'Communication administratively filtered',
};
const ICMPV6_TYPES: Record<number, string> = {
  1: 'Destination Unreachable',
  2: 'Packet Too Big',
  3: 'Time Exceeded',
  128: 'Echo (ping) request',
  129: 'Echo (ping) reply',
  130: 'Multicast Listener Query',
  131: 'Multicast Listener Report',
  133: 'Router Solicitation',
  134: 'Router Advertisement',
  135: 'Neighbor Solicitation',
  136: 'Neighbor Advertisement',
  143: 'Multicast Listener Report Message v2',
};
const SLL_PACKET_TYPES: Record<number, string> = {
  0: 'Unicast to us',
  1: 'Broadcast',
  2: 'Multicast',
  3: 'Unicast to another host',
  4: 'Sent by us',
};
const ARPHRD: Record<number, string> = { 1: 'Ethernet', 772: 'Loopback', 776: 'IPv6-in-IPv4', 65534: 'None' };
const DSCP: Record<number, string> = {
  0: 'CS0',
  8: 'CS1',
  10: 'AF11',
  12: 'AF12',
  14: 'AF13',
  16: 'CS2',
  18: 'AF21',
  20: 'AF22',
  22: 'AF23',
  24: 'CS3',
  26: 'AF31',
  28: 'AF32',
  30: 'AF33',
  32: 'CS4',
  34: 'AF41',
  36: 'AF42',
  38: 'AF43',
  40: 'CS5',
  44: 'VA',
  46: 'EF',
  48: 'CS6',
  56: 'CS7',
};
const ECN = ['Not-ECT', 'ECT(1)', 'ECT(0)', 'CE'];
/** The 802.1Q priority code points' names, in tshark's words. */
const PRIORITIES = [
  'Best Effort (default)',
  'Background',
  'Excellent Effort',
  'Critical Applications',
  'Video, < 100ms latency and jitter',
  'Voice, < 10ms latency and jitter',
  'Internetwork Control',
  'Network Control',
];
const TCP_FLAGS = ['FIN', 'SYN', 'RST', 'PSH', 'ACK', 'URG', 'ECE', 'CWR', 'AE'];

const hex = (n: number, digits: number): string => `0x${n.toString(16).padStart(digits, '0')}`;
const u16 = (d: Uint8Array, p: number): number => (d[p]! << 8) | d[p + 1]!;
const u32 = (d: Uint8Array, p: number): number => ((d[p]! << 24) | (d[p + 1]! << 16) | (d[p + 2]! << 8) | d[p + 3]!) >>> 0;
const HEX2 = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
function mac(d: Uint8Array, p: number, n = 6): string {
  let out = n > 0 ? HEX2[d[p]!]! : '';
  for (let i = 1; i < n; i++) out += `:${HEX2[d[p + i]!]!}`;
  return out;
}

/**
 * A bit field as tshark draws it, as ASCII bytes: the field's `width` bits in groups of
 * four, the masked ones as the value's bits and the rest as dots (`0100 ....` for an IPv4
 * version of 4).
 */
export function bitPattern(raw: number, mask: number, width: number): Uint8Array {
  // The same few fields take the same few values (a version, a header length, flags): drawn once each.
  // A field of 16 bits or fewer is keyed by a number (no string made to look it up).
  const key = width <= 16 ? width * 2 ** 32 + mask * 2 ** 16 + (raw & mask) : `${width}/${mask}/${raw & mask}`;
  let out = patterns.get(key);
  if (out === undefined) {
    if (patterns.size >= 4096) patterns.clear();
    patterns.set(key, (out = asciiBytes(drawBits(raw, mask, width))));
  }
  return out;
}

const patterns = new Map<number | string, Uint8Array>();

function drawBits(raw: number, mask: number, width: number): string {
  let out = '';
  for (let bit = width - 1; bit >= 0; bit--) {
    const m = 2 ** bit;
    out += Math.floor(mask / m) % 2 ? String(Math.floor(raw / m) % 2) : '.';
    if (bit % 4 === 0 && bit) out += ' ';
  }
  return out;
}

/** Reads a frame's layers; `tree` writes their text too (tshark -V's lines); `reassembled` is what the frame completed. */
export function frameLayers(linkType: number, data: Uint8Array, tree: boolean, reassembled?: Reassembled): FrameLayers {
  if (!tree) return new Walk(data, undefined, reassembled).frame(linkType, []);
  const sink = new ByteSink(1024);
  const layers = new Walk(data, sink, reassembled).frame(linkType, []);
  if (sink.at) layers.lines.push(...sink.text().slice(0, -1).split('\n'));
  return layers;
}

/**
 * {@link frameLayers} with its tree: the lines written into `sink` as they are read (ASCII,
 * each ending in a newline), not returned (`lines` is empty). What `-V` writes for every
 * frame of a capture.
 */
export function writeFrameLayers(linkType: number, data: Uint8Array, sink: ByteSink, reassembled?: Reassembled): FrameLayers {
  return new Walk(data, sink, reassembled).frame(linkType, []);
}

/**
 * {@link writeFrameLayers} for a caller that needs only the `frame.protocols` chain back (the
 * `-V` text of a query frame, whose columns come from its record; with no `sink`, nothing
 * written: the statistics of the first pass, `-z io,phs`): the IPv4, UDP and Ethernet facts
 * are not made (addresses as text, the Info words, their objects), some 0.3 µs a frame.
 */
export function writeFrameChain(linkType: number, data: Uint8Array, sink: ByteSink | undefined, reassembled?: Reassembled): string {
  const walk = new Walk(data, sink, reassembled, false);
  walk.link(linkType);
  return walk.chain;
}

const NEWLINE = asciiBytes('\n');
const LEVEL = asciiBytes('    ');
/** The indents of the first levels, each written at once. */
const INDENTS = Array.from({ length: 6 }, (_, depth) => asciiBytes('    '.repeat(depth)));
/**
 * The words that begin each top-level item's title the layers write, with tshark's abbreviation
 * of its protocol: the writers below build their titles from them, and `-O` finds the protocol
 * of a title line by them (render/only.ts).
 */
export const LAYER_TITLES = {
  eth: 'Ethernet II',
  sll: 'Linux cooked capture v1',
  sll2: 'Linux cooked capture v2',
  null: 'Null/Loopback',
  raw: 'Raw packet data',
  vlan: '802.1Q Virtual LAN',
  arp: 'Address Resolution Protocol',
  ip: 'Internet Protocol Version 4',
  ipv6: 'Internet Protocol Version 6',
  tcp: 'Transmission Control Protocol',
  udp: 'User Datagram Protocol',
  icmp: 'Internet Control Message Protocol',
  icmpv6: 'Internet Control Message Protocol v6',
} as const;
const T = LAYER_TITLES;

const COLON = asciiBytes(': ');
const EQUALS = asciiBytes(' = ');
const DST = asciiBytes(', Dst: ');
const OPEN = asciiBytes(' (');
const CLOSE_LINE = asciiBytes(')\n');
// The pieces of the lines every frame has, encoded once.
const ETHERNET_TITLE = asciiBytes(`${T.eth}, Src: `);
const DESTINATION = asciiBytes('Destination: ');
const SOURCE = asciiBytes('Source: ');
const IPV4_TITLE = asciiBytes(`${T.ip}, Src: `);
const IDENTIFICATION = asciiBytes('Identification: ');
const HEADER_CHECKSUM = asciiBytes('Header Checksum: ');
const VALIDATION_DISABLED = asciiBytes(' [validation disabled]\n');
const SOURCE_ADDRESS = asciiBytes('Source Address: ');
const DESTINATION_ADDRESS = asciiBytes('Destination Address: ');
const UDP_TITLE = asciiBytes(`${T.udp}, Src Port: `);
const SOURCE_PORT = asciiBytes('Source Port: ');
const DESTINATION_PORT = asciiBytes('Destination Port: ');
const LENGTH = asciiBytes('Length: ');
const TOTAL_LENGTH = asciiBytes('Total Length: ');
const DST_PORT = asciiBytes(', Dst Port: ');
const CHECKSUM = asciiBytes('Checksum: ');
const UNVERIFIED = asciiBytes(' [unverified]\n');
const ZERO_IGNORED = asciiBytes(' [zero-value ignored]\n');
const ZERO_ILLEGAL = asciiBytes(' [zero-value illegal]\n');
const UDP_PAYLOAD = asciiBytes('UDP payload (');
const BYTES_CLOSE = asciiBytes(' bytes)\n');
const HEX_DIGITS = asciiBytes('0123456789abcdef');

/** `0x` and the low `digits` hex digits of `n`. */
function writeHex(out: ByteSink, n: number, digits: number): void {
  out.reserve(digits + 2);
  out.buf[out.at++] = 0x30;
  out.buf[out.at++] = 0x78;
  out.at = hexInt(out.buf, out.at, n, digits);
}

/** The four bytes at `pos` in dotted decimal (`formatIPv4`'s text). */
function writeDotted(out: ByteSink, d: Uint8Array, pos: number): void {
  out.reserve(15);
  out.at = dotted(out.buf, out.at, d, pos);
}

/** The six bytes at `pos` as a link address (`mac`'s text). */
function writeMac(out: ByteSink, d: Uint8Array, pos: number): void {
  out.reserve(17);
  const buf = out.buf;
  let at = out.at;
  for (let i = 0; i < 6; i++) {
    if (i) buf[at++] = 0x3a;
    const b = d[pos + i]!;
    buf[at++] = HEX_DIGITS[b >> 4]!;
    buf[at++] = HEX_DIGITS[b & 15]!;
  }
  out.at = at;
}

/**
 * A `frame.protocols` chain, each made once (`eth:ethertype:ip:udp` is `eth:ethertype:ip`
 * then `udp`): a frame's chain is found word by word, not joined from a list. A capture has a
 * handful; one made to have more (IPv6 extension headers in every order, many VLAN tags)
 * gets {@link CHAINS_KEPT} kept, and the rest made each time, so it costs time, not memory.
 */
class Chain {
  readonly #next = new Map<string, Chain>();

  constructor(readonly text: string) {}

  then(word: string): Chain {
    const next = this.#next.get(word);
    if (next) return next;
    const chain = new Chain(this.text ? `${this.text}:${word}` : word);
    if (chainsKept < CHAINS_KEPT) {
      chainsKept++;
      this.#next.set(word, chain);
    }
    return chain;
  }
}
const CHAINS_KEPT = 1024;
let chainsKept = 0;
const NO_CHAIN = new Chain('');

/** One walk down a frame. */
class Walk {
  /** The `frame.protocols` chain so far. */
  #chain = NO_CHAIN;
  column = '';
  source = '';
  destination = '';
  info = '';
  ip: IpFacts | undefined;
  /** The IP header's version (4 or 6; 0 before one): set where `ip` is, and where the facts are not made. */
  ipVersion = 0;
  udp: UdpFacts | undefined;
  dataStart = 0;
  dataEnd = 0;
  /** How deep the next line of the tree is, four spaces a level. */
  #depth = 0;
  /** Where the IP header says its payload ends (the capture may keep less); -1 before one, or where it says 0. */
  #ipEnd = -1;
  /** The IPv4 packet is a first fragment read on (its datagram not reassembled). */
  #firstFragment = false;

  /**
   * `out`: where the tree's lines go (undefined: the facts only). `facts` false: the caller
   * reads the lines and the chain only, so the IPv4, UDP and Ethernet walks make no facts.
   */
  constructor(
    readonly data: Uint8Array,
    readonly out: ByteSink | undefined,
    readonly reassembled: Reassembled | undefined,
    readonly facts = true,
  ) {}

  /** The `frame.protocols` chain so far. */
  get chain(): string {
    return this.#chain.text;
  }

  frame(linkType: number, lines: string[]): FrameLayers {
    this.link(linkType);
    return {
      protocols: this.#chain.text,
      column: this.column,
      source: this.source,
      destination: this.destination,
      info: this.info,
      ip: this.ip,
      udp: this.udp,
      dataStart: this.dataStart,
      dataEnd: this.dataEnd,
      lines,
    };
  }

  /*
   * The tree is written line by line as it is read, in tshark's order: a subtree's title,
   * then its items a level deeper. Each call names tshark's abbreviation and the bytes the
   * item covers, as its documentation: they are what a filter or a hex pane would use.
   */

  /** The next word of the `frame.protocols` chain. */
  word(word: string): void {
    this.#chain = this.#chain.then(word);
  }

  /** The sink, with the indent of a line at the current depth written. */
  #line(): ByteSink {
    const out = this.out!;
    const depth = this.#depth;
    if (depth < INDENTS.length) out.bytes(INDENTS[depth]!);
    else for (let i = 0; i < depth; i++) out.bytes(LEVEL);
    return out;
  }

  /** A line of text at the current depth (the tree is ASCII). */
  text(text: string): void {
    if (!this.out) return;
    const out = this.#line();
    out.ascii(text);
    out.bytes(NEWLINE);
  }

  /** A subtree: its title line, its items a level under it until {@link close}. */
  open(abbrev: string, title: string, _offset: number, _length: number): void {
    this.text(title);
    this.#depth++;
  }

  /**
   * {@link open} with a title the caller writes into the sink returned, piece by piece (no
   * string made for it), and ends with a newline. Only while there is a tree.
   */
  #opened(_abbrev: string, _offset: number, _length: number): ByteSink {
    const out = this.#line();
    this.#depth++;
    return out;
  }

  close(): void {
    this.#depth--;
  }

  /** A field, `Label: shown value`; a number without `show` is shown as it is. */
  field(abbrev: string, label: string, offset: number, length: number, value: number | string, show?: string | Uint8Array): void {
    if (!this.out) return;
    const out = this.#line();
    out.ascii(label);
    out.bytes(COLON);
    if (show === undefined) {
      if (typeof value === 'number') out.number(value);
      else out.ascii(value);
    } else if (typeof show === 'string') out.ascii(show);
    else out.bytes(show);
    out.bytes(NEWLINE);
  }

  /**
   * A field whose shown value the caller writes into the sink returned, and ends with a
   * newline: `head` is its label and `: `, encoded once. Only while there is a tree.
   */
  #field(abbrev: string, head: Uint8Array, _offset: number, _length: number): ByteSink {
    const out = this.#line();
    out.bytes(head);
    return out;
  }

  /** A field shown as its number: `head` is its label and `: `, encoded once. Only while there is a tree. */
  #numberField(abbrev: string, head: Uint8Array, offset: number, length: number, value: number): void {
    const out = this.#field(abbrev, head, offset, length);
    out.number(value);
    out.bytes(NEWLINE);
  }

  /** A field drawn as bits: `0100 .... = Version: 4`. */
  bits(
    abbrev: string,
    label: string,
    offset: number,
    length: number,
    raw: number,
    mask: number,
    value: number,
    show?: string | Uint8Array,
  ): void {
    if (!this.out) return;
    const out = this.#line();
    out.bytes(bitPattern(raw, mask, length * 8));
    out.bytes(EQUALS);
    out.ascii(label);
    out.bytes(COLON);
    if (show === undefined) out.number(value);
    else if (typeof show === 'string') out.ascii(show);
    else out.bytes(show);
    out.bytes(NEWLINE);
  }

  /** The frame stops early at offset `at`: what was read stays, and the column and the tree say where it stopped. */
  malformed(column: string, why: string, at: number): void {
    this.column ||= column;
    this.info = `[Malformed Packet: ${why}]`;
    // A top-level item, as tshark shows it, whatever subtree was being read: nothing follows it.
    this.#depth = 0;
    this.text(`[Malformed Packet: ${why} (from offset ${at})]`);
  }

  link(linkType: number): void {
    const d = this.data;
    switch (linkType) {
      case LINKTYPE.ETHERNET: {
        this.word('eth');
        this.word('ethertype');
        if (d.length < 14) return this.malformed('Ethernet', `frame of ${d.length} bytes ends inside the 14-byte Ethernet header`, 0);
        const type = u16(d, 12);
        if (this.out) {
          const out = this.#opened('eth', 0, 14);
          out.bytes(ETHERNET_TITLE);
          writeMac(out, d, 6);
          out.bytes(DST);
          writeMac(out, d, 0);
          out.bytes(NEWLINE);
          writeMac(this.#field('eth.dst', DESTINATION, 0, 6), d, 0);
          out.bytes(NEWLINE);
          writeMac(this.#field('eth.src', SOURCE, 6, 6), d, 6);
          out.bytes(NEWLINE);
          this.field('eth.type', 'Type', 12, 2, type, etherTypeBytes(type));
          this.close();
        }
        this.etherType(type, 14);
        // The link addresses are the columns' where no IP header names others (an IP header cut after its source: the destination's).
        if (this.facts) {
          this.source ||= mac(d, 6);
          this.destination ||= mac(d, 0);
        }
        return;
      }
      case LINKTYPE.LINUX_SLL: {
        this.word('sll');
        this.word('ethertype');
        if (d.length < 16) return this.malformed('SLL', `frame of ${d.length} bytes ends inside the 16-byte SLL header`, 0);
        const packetType = u16(d, 0);
        const hardware = u16(d, 2);
        const addressLength = u16(d, 4);
        const type = u16(d, 14);
        this.open('sll', T.sll, 0, 16);
        this.field('sll.pkttype', 'Packet type', 0, 2, packetType, named(SLL_PACKET_TYPES, packetType));
        this.field('sll.hatype', 'Link-layer address type', 2, 2, hardware, named(ARPHRD, hardware));
        this.field('sll.halen', 'Link-layer address length', 4, 2, addressLength);
        this.sllAddress(6, addressLength);
        this.field('sll.etype', 'Protocol', 14, 2, type, etherTypeText(type));
        this.close();
        return this.etherType(type, 16);
      }
      case LINKTYPE.LINUX_SLL2: {
        this.word('sll');
        this.word('ethertype');
        if (d.length < 20) return this.malformed('SLL', `frame of ${d.length} bytes ends inside the 20-byte SLL2 header`, 0);
        const type = u16(d, 0);
        const hardware = u16(d, 8);
        const packetType = d[10]!;
        const addressLength = d[11]!;
        this.open('sll', T.sll2, 0, 20);
        this.field('sll.etype', 'Protocol', 0, 2, type, etherTypeText(type));
        this.field('sll.ifindex', 'Interface index', 4, 4, u32(d, 4));
        this.field('sll.hatype', 'Link-layer address type', 8, 2, hardware, named(ARPHRD, hardware));
        this.field('sll.pkttype', 'Packet type', 10, 1, packetType, named(SLL_PACKET_TYPES, packetType));
        this.field('sll.halen', 'Link-layer address length', 11, 1, addressLength);
        this.sllAddress(12, addressLength);
        this.close();
        return this.etherType(type, 20);
      }
      case LINKTYPE.NULL:
      case LINKTYPE.LOOP: {
        this.word(linkType === LINKTYPE.NULL ? 'null' : 'loop');
        if (d.length < 4) return this.malformed('NULL', `frame of ${d.length} bytes ends inside the loopback header`, 0);
        const family = loopbackFamily(d);
        const version = familyVersion(family);
        this.open('null', T.null, 0, 4);
        this.field('null.family', 'Family', 0, 4, family, `${version === 4 ? 'IP' : version === 6 ? 'IPv6' : 'Unknown'} (${family})`);
        this.close();
        if (version === 4) return this.ipv4(4);
        if (version === 6) return this.ipv6(4);
        this.column = 'NULL';
        this.info = `Address family ${family}`;
        return;
      }
      case LINKTYPE.RAW:
      case LINKTYPE.RAW_DLT12:
      case LINKTYPE.RAW_DLT14: {
        this.word('raw');
        this.open('raw', T.raw, 0, 0);
        this.close();
        const version = d.length ? d[0]! >> 4 : 0;
        if (version === 4) return this.ipv4(0);
        if (version === 6) return this.ipv6(0);
        this.column = 'Raw';
        this.info = d.length ? `IP version ${version}` : 'Empty raw IP frame';
        return;
      }
      case LINKTYPE.IPV4:
        return this.ipv4(0);
      case LINKTYPE.IPV6:
        return this.ipv6(0);
      default:
        this.column = `DLT ${linkType}`;
        this.info = `Link type ${linkType}, not decoded`;
    }
  }

  /** A cooked header's 8-byte address field at `at`: the address its length says, and what is left unused. */
  sllAddress(at: number, length: number): void {
    const n = Math.min(length, 8);
    this.field('sll.src.eth', 'Source', at, n, mac(this.data, at, n));
    if (n < 8) this.field('sll.unused', 'Unused', at + n, 8 - n, hexBytes(this.data, at + n, 8 - n));
  }

  /** What an EtherType at `pos`'s header carries, VLAN tags stepped over. */
  etherType(type: number, pos: number): void {
    const d = this.data;
    while (isVlanTag(type)) {
      this.word('vlan');
      this.word('ethertype');
      if (d.length < pos + 4) return this.malformed('VLAN', `frame of ${d.length} bytes ends inside a VLAN tag`, pos);
      const tci = u16(d, pos);
      this.open('vlan', `${T.vlan}, PRI: ${tci >> 13}, DEI: ${(tci >> 12) & 1}, ID: ${tci & 0xfff}`, pos, 4);
      this.bits('vlan.priority', 'Priority', pos, 2, tci, 0xe000, tci >> 13, this.out && `${PRIORITIES[tci >> 13]} (${tci >> 13})`);
      this.bits('vlan.dei', 'DEI', pos, 2, tci, 0x1000, (tci >> 12) & 1, tci & 0x1000 ? 'Eligible' : 'Ineligible');
      this.bits('vlan.id', 'ID', pos, 2, tci, 0x0fff, tci & 0xfff);
      type = u16(d, pos + 2);
      this.field('vlan.etype', 'Type', pos + 2, 2, type, etherTypeText(type));
      this.close();
      pos += 4;
    }
    if (type === 0x0800) return this.ipv4(pos);
    if (type === 0x86dd) return this.ipv6(pos);
    if (type === 0x0806) return this.arp(pos);
    this.word('data');
    this.leaveData(pos, d.length);
    this.column = ETHERTYPES[type] ?? `0x${type.toString(16).padStart(4, '0')}`;
    this.info = `Ethernet frame of type ${etherTypeText(type)}`;
  }

  arp(pos: number): void {
    const d = this.data;
    this.word('arp');
    this.column = 'ARP';
    if (d.length < pos + 28) return this.malformed('ARP', 'frame ends inside the ARP message', pos);
    const op = u16(d, pos + 6);
    const senderMac = mac(d, pos + 8);
    const senderIp = formatIPv4(d, pos + 14);
    const targetIp = formatIPv4(d, pos + 24);
    this.info = op === 1 ? `Who has ${targetIp}? Tell ${senderIp}` : op === 2 ? `${senderIp} is at ${senderMac}` : `ARP opcode ${op}`;
    this.open('arp', `${T.arp} (${op === 1 ? 'request' : op === 2 ? 'reply' : `opcode ${op}`})`, pos, 28);
    this.field('arp.opcode', 'Opcode', pos + 6, 2, op, `${op === 1 ? 'request' : op === 2 ? 'reply' : 'unknown'} (${op})`);
    this.field('arp.src.hw_mac', 'Sender MAC address', pos + 8, 6, senderMac);
    this.field('arp.src.proto_ipv4', 'Sender IP address', pos + 14, 4, senderIp);
    this.field('arp.dst.hw_mac', 'Target MAC address', pos + 18, 6, mac(d, pos + 18));
    this.field('arp.dst.proto_ipv4', 'Target IP address', pos + 24, 4, targetIp);
    this.close();
  }

  ipv4(start: number): void {
    const d = this.data;
    this.word('ip');
    const available = d.length - start;
    if (available < 1) return this.#cutIpv4(start, 0);
    const first = d[start]!;
    if (first >> 4 === 4 && available < 20) return this.#cutIpv4(start, available);
    if (available < 20) return this.malformed('IPv4', `frame ends ${available} bytes into the IPv4 header`, start);
    if (first >> 4 !== 4) {
      // Not an IPv4 header (the decoder skips it as malformed): its version, flagged as tshark flags it, and nothing past it.
      if (this.out) {
        this.open('ip', T.ip, start, 1);
        this.#line().bytes(VERSION_LINES[first >> 4]!);
        this.#depth++;
        this.text('[Expert Info (Error/Protocol): Bogus IPv4 version]');
        this.#depth--;
        this.close();
      }
      this.column = 'IPv4';
      this.info = `Bogus IPv4 version (${first >> 4}, must be 4)`;
      return;
    }
    const headerLength = (first & 0x0f) * 4;
    const total = u16(d, start + 2);
    const id = u16(d, start + 4);
    const fragmentField = u16(d, start + 6);
    const ttl = d[start + 8]!;
    const protocol = d[start + 9]!;
    const facts = this.facts;
    const src = facts ? formatIPv4(d, start + 12) : '';
    const dst = facts ? formatIPv4(d, start + 16) : '';
    const fragmentOffset = (fragmentField & 0x1fff) * 8;
    // A first fragment the snapshot length cut is read on as tshark reads it (it reassembles only fragments captured
    // whole): its UDP length is the datagram's, longer than this packet by design.
    this.#firstFragment = fragmentOffset === 0 && (fragmentField & 0x2000) !== 0 && total > available;
    const fragment = ((fragmentField & 0x2000) !== 0 || fragmentOffset !== 0) && !this.#firstFragment;
    const completes = fragment && this.reassembled !== undefined;
    const sound = headerLength >= 20 && headerLength <= available;
    if (this.out) {
      const out = this.#opened('ip', start, Math.max(20, headerLength));
      out.bytes(IPV4_TITLE);
      writeDotted(out, d, start + 12);
      out.bytes(DST);
      writeDotted(out, d, start + 16);
      out.bytes(NEWLINE);
      this.#ipv4Items(start, available);
      if (completes && sound) this.fragments('IPv4');
      this.close();
    }
    this.ipVersion = 4;
    if (facts) {
      this.source = src;
      this.destination = dst;
      this.ip = { version: 4, src, dst, ttl, length: total, protocol, fragment: fragment && !completes };
    }
    if (!sound)
      return this.malformed(
        'IPv4',
        `IPv4 header length ${headerLength} ${headerLength < 20 ? 'is below 20' : `runs past the ${available} bytes captured`}`,
        start,
      );
    const end = Math.min(d.length, total ? start + total : d.length);
    this.#ipEnd = total ? start + total : -1;
    if (fragment && !completes) {
      // Its bytes, where the capture kept any (tshark names no data in a fragment cut after its IP header).
      if (end > start + headerLength) this.word('data');
      this.leaveData(start + headerLength, end);
      this.column = 'IPv4';
      this.info = `Fragmented IP protocol (proto=${IP_PROTOCOLS[protocol]?.[1] ?? protocol} ${protocol}, off=${fragmentOffset}, ID=${id.toString(16).padStart(4, '0')})`;
      return;
    }
    this.transport(protocol, start + headerLength, end);
  }

  ipv6(start: number): void {
    const d = this.data;
    this.word('ipv6');
    const available = d.length - start;
    if (available < 40)
      return available < 1 || d[start]! >> 4 === 6
        ? this.#cutIpv6(start, Math.max(0, available))
        : this.malformed('IPv6', `frame ends ${available} bytes into the IPv6 header`, start);
    const payloadLength = u16(d, start + 4);
    let next = d[start + 6]!;
    const hopLimit = d[start + 7]!;
    const src = formatIPv6(d, start + 8);
    const dst = formatIPv6(d, start + 24);
    this.open('ipv6', `${T.ipv6}, Src: ${src}, Dst: ${dst}`, start, 40);
    if (this.out) this.#ipv6Items(start, 40, src, dst);
    this.source = src;
    this.destination = dst;
    const end = Math.min(d.length, payloadLength ? start + 40 + payloadLength : d.length);
    this.#ipEnd = payloadLength ? start + 40 + payloadLength : -1;
    let pos = start + 40;
    let fragment = false;
    let fragmentText = '';
    // The extension headers are subtrees of the IPv6 one, as tshark draws them.
    while (next in IPV6_EXTENSIONS || next === 51) {
      const [title, word] = next === 51 ? ['Authentication Header', 'ah'] : IPV6_EXTENSIONS[next]!;
      this.word(word);
      if (pos + (next === 44 ? 8 : 2) > end)
        return this.malformed('IPv6', `IPv6 extension header ${next} at offset ${pos} is cut off`, pos);
      const after = d[pos]!;
      const length = next === 44 ? 8 : next === 51 ? (d[pos + 1]! + 2) * 4 : (d[pos + 1]! + 1) * 8;
      this.open(word, title, pos, length);
      // tshark's own capitals: "Next header" in the fragment header, "Next Header" in the others.
      this.field('ipv6.nxt', next === 44 ? 'Next header' : 'Next Header', pos, 1, after, nextHeaderText(after));
      if (next === 44) {
        const field = u16(d, pos + 2);
        const id = u32(d, pos + 4);
        this.field('ipv6.fragment.reserved_octet', 'Reserved octet', pos + 1, 1, d[pos + 1]!, hex(d[pos + 1]!, 2));
        this.bits('ipv6.fragment.offset', 'Offset', pos + 2, 2, field, 0xfff8, field >> 3, `${field >> 3} (${field & 0xfff8} bytes)`);
        this.bits('ipv6.fragment.reserved_bits', 'Reserved bits', pos + 2, 2, field, 0x0006, (field >> 1) & 3);
        this.bits('ipv6.fragment.more', 'More Fragments', pos + 2, 2, field, 0x0001, field & 1, field & 1 ? 'Yes' : 'No');
        this.field('ipv6.fragment.id', 'Identification', pos + 4, 4, id, hex(id, 8));
        if ((field & 0xfff9) !== 0) {
          fragment = true;
          fragmentText = `IPv6 fragment (off=${field & 0xfff8} more=${field & 1 ? 'y' : 'n'} ident=${hex(id, 8)} nxt=${after})`;
        }
      } else {
        this.field('ipv6.opt.length', 'Length', pos + 1, 1, d[pos + 1]!);
        this.text(`[Length: ${length} bytes]`);
      }
      this.close();
      // The datagram it completes, under the IPv6 subtree after the fragment header.
      if (fragment && this.reassembled) this.fragments('IPv6');
      next = after;
      pos += length;
      if (fragment) break;
    }
    this.close();
    const completes = fragment && this.reassembled !== undefined;
    this.ipVersion = 6;
    this.ip = { version: 6, src, dst, ttl: hopLimit, length: payloadLength, protocol: next, fragment: fragment && !completes };
    if (fragment && !completes) {
      this.word('data');
      this.leaveData(pos, end);
      this.column = 'IPv6';
      this.info = fragmentText;
      return;
    }
    this.transport(next, pos, end);
  }

  /** The bytes left as data. */
  leaveData(start: number, end: number): void {
    this.dataStart = start;
    this.dataEnd = Math.max(start, end);
  }

  /**
   * The fragments a reassembly took, under the header of the frame that completed it: each
   * one's frame and the bytes it carried, as tshark lists them, then the datagram they made.
   */
  fragments(version: string): void {
    const r = this.reassembled!;
    if (!this.out) return;
    const x = r.reassembly;
    if (!x) {
      this.text(`[${r.fragments.length} ${version} Fragments (${r.length} bytes): ${r.fragments.map((f) => `#${f}`).join(', ')}]`);
      return;
    }
    const length = x.data.length;
    this.open(
      version === 'IPv4' ? 'ip.fragments' : 'ipv6.fragments',
      `[${r.fragments.length} ${version} Fragments (${length} bytes): ${r.fragments.map((f, i) => `#${f}(${x.sizes[i]})`).join(', ')}]`,
      0,
      0,
    );
    let at = 0;
    r.fragments.forEach((f, i) => {
      const size = x.sizes[i]!;
      this.text(`[Frame: ${f}, payload: ${at}-${at + size - 1} (${size} bytes)]`);
      at += size;
    });
    this.text(`[Fragment count: ${r.fragments.length}]`);
    this.text(`[Reassembled ${version} length: ${length}]`);
    // Not ASCII: the cut ends with an ellipsis.
    const out = this.#line();
    out.raw(`[Reassembled ${version} data: ${shortHex(x.data)}]`);
    out.bytes(NEWLINE);
    this.close();
  }

  /** The protocol after the IP header(s): UDP read field by field, the rest named. */
  transport(protocol: number, pos: number, end: number): void {
    const d = this.data;
    const known = IP_PROTOCOLS[protocol];
    if (protocol === 17) return this.udpHeader(pos, end);
    this.word(known?.[2] ?? 'data');
    this.column = known?.[1] ?? (this.ipVersion === 6 ? 'IPv6' : 'IPv4');
    if (protocol === 1 && pos + 2 <= end) {
      const type = d[pos]!;
      const code = d[pos + 1]!;
      this.info = `${ICMP_TYPES[type] ?? `Type ${type}`}${type === 3 ? ` (${ICMP_UNREACHABLE[code] ?? `Code ${code}`})` : ''}`;
      this.icmp('icmp', T.icmp, pos, end, type, code, ICMP_TYPES);
    } else if (protocol === 58 && pos + 2 <= end) {
      const type = d[pos]!;
      this.info = ICMPV6_TYPES[type] ?? `Type ${type}`;
      this.icmp('icmpv6', T.icmpv6, pos, end, type, d[pos + 1]!, ICMPV6_TYPES);
    } else if (protocol === 6 && pos + 20 <= end) {
      const srcPort = u16(d, pos);
      const dstPort = u16(d, pos + 2);
      const flags = u16(d, pos + 12) & 0x1ff;
      const headerLength = (d[pos + 12]! >> 4) * 4;
      const names = TCP_FLAGS.filter((_, i) => flags & (1 << i));
      // In tshark's order: SYN, FIN, … as its column lists them.
      const order = ['SYN', 'FIN', 'RST', 'PSH', 'ACK', 'URG', 'ECE', 'CWR', 'AE'];
      names.sort((a, b) => order.indexOf(a) - order.indexOf(b));
      this.info = `${srcPort} → ${dstPort} [${names.join(', ')}] Seq=${u32(d, pos + 4)}${flags & 0x10 ? ` Ack=${u32(d, pos + 8)}` : ''} Win=${u16(d, pos + 14)} Len=${Math.max(0, end - pos - headerLength)}`;
      this.open('tcp', `${T.tcp}, Src Port: ${srcPort}, Dst Port: ${dstPort}`, pos, headerLength);
      this.field('tcp.srcport', 'Source Port', pos, 2, srcPort);
      this.field('tcp.dstport', 'Destination Port', pos + 2, 2, dstPort);
      this.close();
    } else {
      this.info = `${known?.[0] ?? 'IP protocol'} (${protocol})`;
    }
  }

  icmp(word: string, title: string, pos: number, end: number, type: number, code: number, names: Record<number, string>): void {
    this.open(word, title, pos, end - pos);
    this.field(`${word}.type`, 'Type', pos, 1, type, `${names[type] ?? 'Unknown'} (${type})`);
    this.field(`${word}.code`, 'Code', pos + 1, 1, code);
    this.close();
  }

  udpHeader(pos: number, end: number): void {
    const d = this.data;
    // What the IP header says its payload holds from here (not what the capture kept), where it says.
    const declared = this.#ipEnd >= 0 ? this.#ipEnd - pos : -1;
    this.word('udp');
    this.column = 'UDP';
    const r = this.reassembled;
    let srcPort: number;
    let dstPort: number;
    let length: number;
    let payloadStart = 0;
    let payloadEnd = 0;
    if (r) {
      // The header is in the first fragment: its values are the reassembled datagram's.
      ({ srcPort, dstPort, udpLength: length } = r);
    } else {
      // A snapshot length that cuts the header after its length field still tells ports and length; before it, the ports, as tshark reads them.
      if (end - pos < 6) return this.#cutUdp(pos, end);
      srcPort = u16(d, pos);
      dstPort = u16(d, pos + 2);
      length = u16(d, pos + 4);
      payloadStart = Math.min(pos + 8, end);
      payloadEnd = Math.max(payloadStart, Math.min(end, pos + length));
    }
    const payload = Math.max(0, length - 8);
    // A length the datagram cannot have, as tshark flags it (its payload is read from what the IP header holds).
    const bad =
      r || end - pos < 8
        ? undefined
        : length < 8
          ? { expert: `Bad length value ${length} < 8`, info: `[BAD UDP LENGTH ${length} < 8]` }
          : declared >= 0 && length > declared && !this.#firstFragment
            ? { expert: `Bad length value ${length} > IP payload length`, info: `[BAD UDP LENGTH ${length} > IP PAYLOAD LENGTH]` }
            : undefined;
    // The payload's bytes present (all of a reassembled one's); none when the capture cut the header itself.
    const present = r ? payload : payloadEnd - payloadStart;
    const whole = r !== undefined || end - pos >= 8;
    if (this.out) {
      let out = this.#opened('udp', r ? 0 : pos, r ? 0 : Math.min(8, end - pos));
      out.bytes(UDP_TITLE);
      out.number(srcPort);
      out.bytes(DST_PORT);
      out.number(dstPort);
      out.bytes(NEWLINE);
      const width = r ? 0 : 2;
      this.#numberField('udp.srcport', SOURCE_PORT, r ? 0 : pos, width, srcPort);
      this.#numberField('udp.dstport', DESTINATION_PORT, r ? 0 : pos + 2, width, dstPort);
      this.#numberField('udp.length', LENGTH, r ? 0 : pos + 4, width, length);
      if (bad) {
        this.#depth++;
        this.text(`[Expert Info (Error/Malformed): ${bad.expert}]`);
        this.#depth--;
      }
      // A reassembled datagram's header is in its first fragment: its checksum is read from the bytes reassembled.
      const header = r?.reassembly;
      if (header || (!r && whole)) {
        const checksum = header ? u16(header.data, header.udpAt + 6) : u16(d, pos + 6);
        out = this.#field('udp.checksum', CHECKSUM, r ? 0 : pos + 6, r ? 0 : 2);
        writeHex(out, checksum, 4);
        // A zero checksum is "none" over IPv4 and not allowed over IPv6 (RFC 8200 §8.1), as tshark says.
        out.bytes(checksum ? UNVERIFIED : this.ipVersion === 6 ? ZERO_ILLEGAL : ZERO_IGNORED);
      }
      if (whole) {
        out = this.#line();
        out.bytes(UDP_PAYLOAD);
        out.number(present);
        out.bytes(BYTES_CLOSE);
      }
      this.close();
      if (!whole) this.text('[Packet size limited during capture: UDP truncated]');
    }
    this.leaveData(payloadStart, payloadEnd);
    if (!this.facts) return;
    // One shape for a whole header and a cut one (what reads the facts stays monomorphic).
    this.udp = { srcPort, dstPort, length, payloadStart, payloadEnd, truncated: whole ? undefined : true };
    this.info = bad
      ? `${srcPort} → ${dstPort} ${bad.info}${length >= 8 ? ` Len=${payload}` : ''}`
      : `${srcPort} → ${dstPort} Len=${payload}`;
  }

  /**
   * An IPv4 header's items in tshark's order, those whose bytes the capture kept: `available` of
   * them, 20 or more for a whole header (a cut one stops where tshark stops). Only while there is a tree.
   */
  #ipv4Items(start: number, available: number): void {
    const d = this.data;
    const first = d[start]!;
    // Lines of a byte's worth of values each are made once, whole (IPV4_LINES).
    this.#line().bytes(VERSION_LINES[first >> 4]!);
    this.#line().bytes(HEADER_LENGTH_LINES[first & 0x0f]!);
    if (available < 2) return;
    this.#line().bytes(ipv4Line(DS_FIELD, d[start + 1]!));
    if (available < 4) return;
    this.#numberField('ip.len', TOTAL_LENGTH, start + 2, 2, u16(d, start + 2));
    if (available < 6) return;
    const id = u16(d, start + 4);
    let out = this.#field('ip.id', IDENTIFICATION, start + 4, 2);
    writeHex(out, id, 4);
    out.bytes(OPEN);
    out.number(id);
    out.bytes(CLOSE_LINE);
    if (available < 7) return;
    this.#line().bytes(FLAGS_LINES[d[start + 6]! >> 5]!);
    if (available < 8) return;
    const fragmentField = u16(d, start + 6);
    const fragmentOffset = (fragmentField & 0x1fff) * 8;
    if (fragmentOffset) this.bits('ip.frag_offset', 'Fragment Offset', start + 6, 2, fragmentField, 0x1fff, fragmentOffset);
    else this.#line().bytes(NO_FRAGMENT_OFFSET);
    if (available < 9) return;
    this.#line().bytes(ipv4Line(TTL, d[start + 8]!));
    if (available < 10) return;
    this.#line().bytes(ipv4Line(PROTOCOL, d[start + 9]!));
    if (available < 12) return;
    out = this.#field('ip.checksum', HEADER_CHECKSUM, start + 10, 2);
    writeHex(out, u16(d, start + 10), 4);
    out.bytes(VALIDATION_DISABLED);
    if (available < 16) return;
    writeDotted(this.#field('ip.src', SOURCE_ADDRESS, start + 12, 4), d, start + 12);
    out.bytes(NEWLINE);
    if (available < 20) return;
    writeDotted(this.#field('ip.dst', DESTINATION_ADDRESS, start + 16, 4), d, start + 16);
    out.bytes(NEWLINE);
  }

  /**
   * An IPv6 header's items in tshark's order, those whose bytes the capture kept (`available`, 40
   * for a whole header); its addresses as text where there (undefined: cut before them).
   */
  #ipv6Items(start: number, available: number, src: string | undefined, dst: string | undefined): void {
    const d = this.data;
    if (available < 1) return;
    this.bits('ipv6.version', 'Version', start, 1, d[start]!, 0xf0, d[start]! >> 4);
    if (available < 4) return;
    const head = u32(d, start);
    const tclass = (head >>> 20) & 0xff;
    this.bits('ipv6.tclass', 'Traffic Class', start, 4, head, 0x0ff00000, tclass, dsText(tclass));
    const flow = head & 0xfffff;
    this.bits('ipv6.flow', 'Flow Label', start + 1, 3, head & 0xffffff, 0x0fffff, flow, hex(flow, 5));
    // tshark adds the payload length with the next header, or neither.
    if (available < 7) return;
    this.field('ipv6.plen', 'Payload Length', start + 4, 2, u16(d, start + 4));
    this.field('ipv6.nxt', 'Next Header', start + 6, 1, d[start + 6]!, nextHeaderText(d[start + 6]!));
    if (available < 8) return;
    this.field('ipv6.hlim', 'Hop Limit', start + 7, 1, d[start + 7]!);
    if (src !== undefined) this.field('ipv6.src', 'Source Address', start + 8, 16, src);
    if (dst !== undefined) this.field('ipv6.dst', 'Destination Address', start + 24, 16, dst);
  }

  /**
   * An IPv4 header the snapshot length cut (fewer than its 20 bytes), as tshark reads it: its fields
   * in order while their bytes are there, the source address in the title once it is, then
   * `[Packet size limited during capture: IPv4 truncated]`; the IPv4 protocol column and no Info
   * of its own (not a malformed packet: the capture kept less).
   */
  #cutIpv4(start: number, available: number): void {
    const d = this.data;
    const has = (bytes: number): boolean => available >= bytes;
    const src = has(16) ? formatIPv4(d, start + 12) : undefined;
    // Not a byte of it: no subtree, as tshark (a cut IPv6 header keeps its title).
    if (this.out && has(1)) {
      this.open('ip', src === undefined ? T.ip : `${T.ip}, Src: ${src}`, start, available);
      this.#ipv4Items(start, available);
      this.close();
    }
    this.#depth = 0;
    this.text('[Packet size limited during capture: IPv4 truncated]');
    this.column = 'IPv4';
    this.info = '';
    if (src !== undefined) this.source = src;
    this.ipVersion = 4;
    if (this.facts)
      this.ip = {
        version: 4,
        src,
        dst: undefined,
        ttl: has(9) ? d[start + 8]! : undefined,
        length: has(4) ? u16(d, start + 2) : undefined,
        protocol: has(10) ? d[start + 9]! : undefined,
        fragment: false,
      };
  }

  /** An IPv6 header the snapshot length cut (fewer than its 40 bytes), as tshark reads it: as {@link #cutIpv4}, the title plain. */
  #cutIpv6(start: number, available: number): void {
    const d = this.data;
    const has = (bytes: number): boolean => available >= bytes;
    const src = has(24) ? formatIPv6(d, start + 8) : undefined;
    this.open('ipv6', T.ipv6, start, available);
    if (this.out) this.#ipv6Items(start, available, src, undefined);
    this.close();
    this.#depth = 0;
    this.text('[Packet size limited during capture: IPv6 truncated]');
    this.column = 'IPv6';
    this.info = '';
    if (src !== undefined) this.source = src;
    this.ipVersion = 6;
    if (this.facts)
      this.ip = {
        version: 6,
        src,
        dst: undefined,
        ttl: has(8) ? d[start + 7]! : undefined,
        length: has(7) ? u16(d, start + 4) : undefined,
        protocol: has(7) ? d[start + 6]! : undefined,
        fragment: false,
      };
  }

  /**
   * A UDP header the snapshot length cut before its length field (fewer than 6 of its 8 bytes), as
   * tshark reads it: with both ports, its subtree with them and the ports in the Info column;
   * with fewer, nothing of it. Either way `[Packet size limited during capture: UDP truncated]`,
   * not a malformed packet: the capture kept less, the packet was whole.
   */
  #cutUdp(pos: number, end: number): void {
    const ports = end - pos >= 4;
    const d = this.data;
    const srcPort = ports ? u16(d, pos) : 0;
    const dstPort = ports ? u16(d, pos + 2) : 0;
    if (this.out) {
      if (ports) {
        const out = this.#opened('udp', pos, end - pos);
        out.bytes(UDP_TITLE);
        out.number(srcPort);
        out.bytes(DST_PORT);
        out.number(dstPort);
        out.bytes(NEWLINE);
        this.#numberField('udp.srcport', SOURCE_PORT, pos, 2, srcPort);
        this.#numberField('udp.dstport', DESTINATION_PORT, pos + 2, 2, dstPort);
        this.close();
      }
      this.text('[Packet size limited during capture: UDP truncated]');
    }
    this.leaveData(end, end);
    if (!this.facts) return;
    this.info = ports ? `${srcPort} → ${dstPort}` : '';
    if (ports) this.udp = { srcPort, dstPort, length: undefined, payloadStart: end, payloadEnd: end, truncated: true as const };
  }
}

/** `0x00 (DSCP: CS0, ECN: Not-ECT)`: an IPv4 DS field's or an IPv6 traffic class's text. */
function dsText(ds: number): string {
  return `${hex(ds, 2)} (DSCP: ${DSCP[ds >> 2] ?? `Unknown (${ds >> 2})`}, ECN: ${ECN[ds & 3]})`;
}

/** Bytes as tshark shows a byte string in a tree: in hex, cut after 36 of them with `…`. */
export function shortHex(bytes: Uint8Array): string {
  return bytes.length > 36 ? `${toHex(bytes.subarray(0, 36))}…` : toHex(bytes);
}

/** A line and its newline, as bytes. */
const lineBytes = (text: string): Uint8Array => asciiBytes(`${text}\n`);

/*
 * IPV4_LINES: the IPv4 items whose value is one byte or less, every one of them a line made
 * once for each value it takes, then copied whole: a frame's IPv4 subtree is mostly these.
 */
const VERSION_LINES = Array.from({ length: 16 }, (_, v) => lineBytes(`${drawBits(v << 4, 0xf0, 8)} = Version: ${v}`));
const HEADER_LENGTH_LINES = Array.from({ length: 16 }, (_, n) =>
  lineBytes(`${drawBits(n, 0x0f, 8)} = Header Length: ${n * 4} bytes (${n})`),
);
const FLAGS_LINES = Array.from({ length: 8 }, (_, flags) => {
  const names = [flags & 4 ? 'Reserved bit' : '', flags & 2 ? "Don't fragment" : '', flags & 1 ? 'More fragments' : ''].filter(Boolean);
  return lineBytes(`${drawBits(flags << 5, 0xe0, 8)} = Flags: ${hex(flags, 1)}${names.length ? `, ${names.join(', ')}` : ''}`);
});
const NO_FRAGMENT_OFFSET = lineBytes(`${drawBits(0, 0x1fff, 16)} = Fragment Offset: 0`);
const DS_FIELD = 0;
const TTL = 1;
const PROTOCOL = 2;
/** By item and value, as made. */
const byteLines: (Uint8Array | undefined)[][] = [[], [], []];
const byteLineText = [
  (ds: number): string => `Differentiated Services Field: ${dsText(ds)}`,
  (ttl: number): string => `Time to Live: ${ttl}`,
  (protocol: number): string => `Protocol: ${IP_PROTOCOLS[protocol]?.[0] ?? 'Unknown'} (${protocol})`,
];
/** The line of IPv4 item `item` (DS_FIELD, TTL, PROTOCOL) for the byte value `value`. */
function ipv4Line(item: number, value: number): Uint8Array {
  return (byteLines[item]![value] ??= lineBytes(byteLineText[item]!(value)));
}

function named(table: Record<number, string>, n: number): string {
  return `${table[n] ?? 'Unknown'} (${n})`;
}

function etherTypeText(type: number): string {
  return `${ETHERTYPES[type] ?? 'Unknown'} (${hex(type, 4)})`;
}

/** {@link etherTypeText} as bytes, made once per type. */
function etherTypeBytes(type: number): Uint8Array {
  let text = ETHERTYPE_BYTES.get(type);
  if (text === undefined) {
    if (ETHERTYPE_BYTES.size >= 256) ETHERTYPE_BYTES.clear();
    ETHERTYPE_BYTES.set(type, (text = asciiBytes(etherTypeText(type))));
  }
  return text;
}
const ETHERTYPE_BYTES = new Map<number, Uint8Array>();

function nextHeaderText(next: number): string {
  const ext = IPV6_EXTENSIONS[next];
  return `${ext ? ext[0] : (IP_PROTOCOLS[next]?.[0] ?? 'Unknown')} (${next})`;
}

function hexBytes(d: Uint8Array, pos: number, n: number): string {
  return Array.from(d.subarray(pos, pos + n), (b) => b.toString(16).padStart(2, '0')).join('');
}
