/**
 * The layers under the game: a frame read from its link header down to UDP, as tshark lists
 * and shows them — the `frame.protocols` chain (`eth:ethertype:ip:udp`), the columns of a
 * frame that holds no query message (`ICMPv6`, `Neighbor Solicitation`), and for `-V` the
 * Ethernet / Linux cooked / loopback, IPv4 / IPv6 and UDP subtrees with tshark's labels.
 *
 * The decoder (decoder.ts) finds a frame's datagram with numbers only, for every frame of a
 * capture; this module reads a frame again, field by field, for the few that are shown
 * with their layers (a `-V` tree, a line for a frame without a query message). The header
 * layouts are those of decoder.ts and link.ts.
 * @module
 */
import { formatIPv4, formatIPv6 } from './address.ts';
import { LINKTYPE, familyVersion, isVlanTag, loopbackFamily } from './link.ts';

/** What a completed reassembly tells the frame that completed it (the UDP header lies in the first fragment). */
export interface Reassembled {
  readonly fragments: readonly number[];
  /** Length of the reassembled IP payload. */
  readonly length: number;
  readonly srcPort: number;
  readonly dstPort: number;
  readonly udpLength: number;
}

/** The IP header of a frame, as filters and columns read it. */
export interface IpFacts {
  readonly version: 4 | 6;
  readonly src: string;
  readonly dst: string;
  /** IPv4 time to live, IPv6 hop limit. */
  readonly ttl: number;
  /** IPv4 total length, IPv6 payload length. */
  readonly length: number;
  /** The protocol after the IP header and its extension headers (17 UDP, 58 ICMPv6, …). */
  readonly protocol: number;
  /** A fragment that does not complete a datagram here. */
  readonly fragment: boolean;
}

/** The UDP header of a frame (of the first fragment, for a reassembled datagram). */
export interface UdpFacts {
  readonly srcPort: number;
  readonly dstPort: number;
  readonly length: number;
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
  /** The link, IP (with extension headers) and UDP subtrees as tshark -V writes them, four spaces a level; empty unless asked for. */
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
 * A bit field as tshark draws it: the field's `width` bits in groups of four, the masked ones
 * as the value's bits and the rest as dots (`0100 ....` for an IPv4 version of 4).
 */
export function bitPattern(raw: number, mask: number, width: number): string {
  // The same few fields take the same few values (a version, a header length, flags): drawn once each.
  const key = `${width}/${mask}/${raw & mask}`;
  let out = patterns.get(key);
  if (out === undefined) {
    if (patterns.size >= 4096) patterns.clear();
    patterns.set(key, (out = drawBits(raw, mask, width)));
  }
  return out;
}

const patterns = new Map<string, string>();

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
  return new Walk(data, tree, reassembled).frame(linkType);
}

/** One walk down a frame. */
class Walk {
  readonly words: string[] = [];
  readonly lines: string[] = [];
  column = '';
  source = '';
  destination = '';
  info = '';
  ip: IpFacts | undefined;
  udp: UdpFacts | undefined;
  dataStart = 0;
  dataEnd = 0;

  constructor(
    readonly data: Uint8Array,
    readonly tree: boolean,
    readonly reassembled: Reassembled | undefined,
  ) {}

  frame(linkType: number): FrameLayers {
    this.link(linkType);
    return {
      protocols: this.words.join(':'),
      column: this.column,
      source: this.source,
      destination: this.destination,
      info: this.info,
      ip: this.ip,
      udp: this.udp,
      dataStart: this.dataStart,
      dataEnd: this.dataEnd,
      lines: this.lines,
    };
  }

  /*
   * The tree is written as text lines (what -V prints, for every frame of a capture: no node
   * objects). Each call names tshark's abbreviation and the bytes the item covers, as its
   * documentation: they are what a filter or a hex pane would use.
   */

  /** A subtree: its title line and its fields indented under it. */
  layer(abbrev: string, title: string, offset: number, length: number, children: string[], into = this.lines): void {
    if (!this.tree) return;
    into.push(title);
    for (const line of children) into.push(`    ${line}`);
  }

  /** A field of a subtree, `Label: shown value` (only written when the tree is asked for). */
  field(into: string[], abbrev: string, label: string, offset: number, length: number, value: number | string, show = String(value)): void {
    if (this.tree) into.push(`${label}: ${show}`);
  }

  /** A field drawn as bits: `0100 .... = Version: 4`. */
  bits(
    into: string[],
    abbrev: string,
    label: string,
    offset: number,
    length: number,
    raw: number,
    mask: number,
    value: number,
    show = String(value),
  ): void {
    if (this.tree) into.push(`${bitPattern(raw, mask, length * 8)} = ${label}: ${show}`);
  }

  /** The frame stops early at offset `at`: what was read stays, and the column and the tree say where it stopped. */
  malformed(column: string, why: string, at: number): void {
    this.column ||= column;
    this.info = `[Malformed Packet: ${why}]`;
    if (this.tree) this.lines.push(`[Malformed Packet: ${why} (from offset ${at})]`);
  }

  link(linkType: number): void {
    const d = this.data;
    switch (linkType) {
      case LINKTYPE.ETHERNET: {
        this.words.push('eth', 'ethertype');
        if (d.length < 14) return this.malformed('Ethernet', `frame of ${d.length} bytes ends inside the 14-byte Ethernet header`, 0);
        const dst = mac(d, 0);
        const src = mac(d, 6);
        const kids: string[] = [];
        this.field(kids, 'eth.dst', 'Destination', 0, 6, dst);
        this.field(kids, 'eth.src', 'Source', 6, 6, src);
        const type = u16(d, 12);
        this.field(kids, 'eth.type', 'Type', 12, 2, type, etherTypeText(type));
        this.layer('eth', `Ethernet II, Src: ${src}, Dst: ${dst}`, 0, 14, kids);
        this.source = src;
        this.destination = dst;
        return this.etherType(type, 14);
      }
      case LINKTYPE.LINUX_SLL: {
        this.words.push('sll', 'ethertype');
        if (d.length < 16) return this.malformed('SLL', `frame of ${d.length} bytes ends inside the 16-byte SLL header`, 0);
        const kids: string[] = [];
        const packetType = u16(d, 0);
        const hardware = u16(d, 2);
        const addressLength = u16(d, 4);
        this.field(kids, 'sll.pkttype', 'Packet type', 0, 2, packetType, named(SLL_PACKET_TYPES, packetType));
        this.field(kids, 'sll.hatype', 'Link-layer address type', 2, 2, hardware, named(ARPHRD, hardware));
        this.field(kids, 'sll.halen', 'Link-layer address length', 4, 2, addressLength);
        this.sllAddress(kids, 6, addressLength);
        const type = u16(d, 14);
        this.field(kids, 'sll.etype', 'Protocol', 14, 2, type, etherTypeText(type));
        this.layer('sll', 'Linux cooked capture v1', 0, 16, kids);
        return this.etherType(type, 16);
      }
      case LINKTYPE.LINUX_SLL2: {
        this.words.push('sll', 'ethertype');
        if (d.length < 20) return this.malformed('SLL', `frame of ${d.length} bytes ends inside the 20-byte SLL2 header`, 0);
        const kids: string[] = [];
        const type = u16(d, 0);
        const hardware = u16(d, 8);
        const packetType = d[10]!;
        const addressLength = d[11]!;
        this.field(kids, 'sll.etype', 'Protocol', 0, 2, type, etherTypeText(type));
        this.field(kids, 'sll.ifindex', 'Interface index', 4, 4, u32(d, 4));
        this.field(kids, 'sll.hatype', 'Link-layer address type', 8, 2, hardware, named(ARPHRD, hardware));
        this.field(kids, 'sll.pkttype', 'Packet type', 10, 1, packetType, named(SLL_PACKET_TYPES, packetType));
        this.field(kids, 'sll.halen', 'Link-layer address length', 11, 1, addressLength);
        this.sllAddress(kids, 12, addressLength);
        this.layer('sll', 'Linux cooked capture v2', 0, 20, kids);
        return this.etherType(type, 20);
      }
      case LINKTYPE.NULL:
      case LINKTYPE.LOOP: {
        this.words.push(linkType === LINKTYPE.NULL ? 'null' : 'loop');
        if (d.length < 4) return this.malformed('NULL', `frame of ${d.length} bytes ends inside the loopback header`, 0);
        const family = loopbackFamily(d);
        const version = familyVersion(family);
        const kids: string[] = [];
        this.field(kids, 'null.family', 'Family', 0, 4, family, `${version === 4 ? 'IP' : version === 6 ? 'IPv6' : 'Unknown'} (${family})`);
        this.layer('null', 'Null/Loopback', 0, 4, kids);
        if (version === 4) return this.ipv4(4);
        if (version === 6) return this.ipv6(4);
        this.column = 'NULL';
        this.info = `Address family ${family}`;
        return;
      }
      case LINKTYPE.RAW:
      case LINKTYPE.RAW_DLT12:
      case LINKTYPE.RAW_DLT14: {
        this.words.push('raw');
        this.layer('raw', 'Raw packet data', 0, 0, []);
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
  sllAddress(kids: string[], at: number, length: number): void {
    const n = Math.min(length, 8);
    this.field(kids, 'sll.src.eth', 'Source', at, n, mac(this.data, at, n));
    if (n < 8) this.field(kids, 'sll.unused', 'Unused', at + n, 8 - n, hexBytes(this.data, at + n, 8 - n));
  }

  /** What an EtherType at `pos`'s header carries, VLAN tags stepped over. */
  etherType(type: number, pos: number): void {
    const d = this.data;
    while (isVlanTag(type)) {
      this.words.push('vlan', 'ethertype');
      if (d.length < pos + 4) return this.malformed('VLAN', `frame of ${d.length} bytes ends inside a VLAN tag`, pos);
      const tci = u16(d, pos);
      const kids: string[] = [];
      this.bits(kids, 'vlan.priority', 'Priority', pos, 2, tci, 0xe000, tci >> 13);
      this.bits(kids, 'vlan.dei', 'DEI', pos, 2, tci, 0x1000, (tci >> 12) & 1);
      this.bits(kids, 'vlan.id', 'ID', pos, 2, tci, 0x0fff, tci & 0xfff);
      type = u16(d, pos + 2);
      this.field(kids, 'vlan.etype', 'Type', pos + 2, 2, type, etherTypeText(type));
      this.layer('vlan', `802.1Q Virtual LAN, PRI: ${tci >> 13}, DEI: ${(tci >> 12) & 1}, ID: ${tci & 0xfff}`, pos, 4, kids);
      pos += 4;
    }
    if (type === 0x0800) return this.ipv4(pos);
    if (type === 0x86dd) return this.ipv6(pos);
    if (type === 0x0806) return this.arp(pos);
    this.words.push('data');
    this.leaveData(pos, d.length);
    this.column = ETHERTYPES[type] ?? `0x${type.toString(16).padStart(4, '0')}`;
    this.info = `Ethernet frame of type ${etherTypeText(type)}`;
  }

  arp(pos: number): void {
    const d = this.data;
    this.words.push('arp');
    this.column = 'ARP';
    if (d.length < pos + 28) return this.malformed('ARP', 'frame ends inside the ARP message', pos);
    const op = u16(d, pos + 6);
    const senderMac = mac(d, pos + 8);
    const senderIp = formatIPv4(d, pos + 14);
    const targetIp = formatIPv4(d, pos + 24);
    this.info = op === 1 ? `Who has ${targetIp}? Tell ${senderIp}` : op === 2 ? `${senderIp} is at ${senderMac}` : `ARP opcode ${op}`;
    const kids: string[] = [];
    this.field(kids, 'arp.opcode', 'Opcode', pos + 6, 2, op, `${op === 1 ? 'request' : op === 2 ? 'reply' : 'unknown'} (${op})`);
    this.field(kids, 'arp.src.hw_mac', 'Sender MAC address', pos + 8, 6, senderMac);
    this.field(kids, 'arp.src.proto_ipv4', 'Sender IP address', pos + 14, 4, senderIp);
    this.field(kids, 'arp.dst.hw_mac', 'Target MAC address', pos + 18, 6, mac(d, pos + 18));
    this.field(kids, 'arp.dst.proto_ipv4', 'Target IP address', pos + 24, 4, targetIp);
    this.layer('arp', `Address Resolution Protocol (${op === 1 ? 'request' : op === 2 ? 'reply' : `opcode ${op}`})`, pos, 28, kids);
  }

  ipv4(start: number): void {
    const d = this.data;
    this.words.push('ip');
    const available = d.length - start;
    if (available < 20) return this.malformed('IPv4', `frame ends ${available} bytes into the IPv4 header`, start);
    const first = d[start]!;
    const headerLength = (first & 0x0f) * 4;
    const total = u16(d, start + 2);
    const id = u16(d, start + 4);
    const fragmentField = u16(d, start + 6);
    const ttl = d[start + 8]!;
    const protocol = d[start + 9]!;
    const src = formatIPv4(d, start + 12);
    const dst = formatIPv4(d, start + 16);
    const kids: string[] = [];
    this.bits(kids, 'ip.version', 'Version', start, 1, first, 0xf0, first >> 4);
    this.bits(kids, 'ip.hdr_len', 'Header Length', start, 1, first, 0x0f, headerLength, `${headerLength} bytes (${first & 0x0f})`);
    const ds = d[start + 1]!;
    this.field(
      kids,
      'ip.dsfield',
      'Differentiated Services Field',
      start + 1,
      1,
      ds,
      `${hex(ds, 2)} (DSCP: ${DSCP[ds >> 2] ?? `Unknown (${ds >> 2})`}, ECN: ${ECN[ds & 3]})`,
    );
    this.field(kids, 'ip.len', 'Total Length', start + 2, 2, total);
    this.field(kids, 'ip.id', 'Identification', start + 4, 2, id, `${hex(id, 4)} (${id})`);
    const flags = fragmentField >> 13;
    const flagNames = [flags & 4 ? 'Reserved bit' : '', flags & 2 ? "Don't fragment" : '', flags & 1 ? 'More fragments' : ''].filter(
      Boolean,
    );
    this.bits(
      kids,
      'ip.flags',
      'Flags',
      start + 6,
      1,
      fragmentField >> 8,
      0xe0,
      flags,
      `${hex(flags, 1)}${flagNames.length ? `, ${flagNames.join(', ')}` : ''}`,
    );
    const fragmentOffset = (fragmentField & 0x1fff) * 8;
    this.bits(kids, 'ip.frag_offset', 'Fragment Offset', start + 6, 2, fragmentField, 0x1fff, fragmentOffset);
    this.field(kids, 'ip.ttl', 'Time to Live', start + 8, 1, ttl);
    this.field(kids, 'ip.proto', 'Protocol', start + 9, 1, protocol, `${IP_PROTOCOLS[protocol]?.[0] ?? 'Unknown'} (${protocol})`);
    const checksum = u16(d, start + 10);
    this.field(kids, 'ip.checksum', 'Header Checksum', start + 10, 2, checksum, `${hex(checksum, 4)} [validation disabled]`);
    this.field(kids, 'ip.src', 'Source Address', start + 12, 4, src);
    this.field(kids, 'ip.dst', 'Destination Address', start + 16, 4, dst);
    this.layer('ip', `Internet Protocol Version 4, Src: ${src}, Dst: ${dst}`, start, Math.max(20, headerLength), kids);
    this.source = src;
    this.destination = dst;
    const more = (fragmentField & 0x2000) !== 0;
    const fragment = more || fragmentOffset !== 0;
    const completes = fragment && this.reassembled !== undefined;
    this.ip = { version: 4, src, dst, ttl, length: total, protocol, fragment: fragment && !completes };
    if (headerLength < 20 || headerLength > available)
      return this.malformed(
        'IPv4',
        `IPv4 header length ${headerLength} ${headerLength < 20 ? 'is below 20' : `runs past the ${available} bytes captured`}`,
        start,
      );
    const end = Math.min(d.length, total ? start + total : d.length);
    if (fragment && !completes) {
      this.words.push('data');
      this.leaveData(start + headerLength, end);
      this.column = 'IPv4';
      this.info = `Fragmented IP protocol (proto=${IP_PROTOCOLS[protocol]?.[1] ?? protocol} ${protocol}, off=${fragmentOffset}, ID=${id.toString(16).padStart(4, '0')})`;
      return;
    }
    if (completes) this.fragments(kids, 'IPv4');
    this.transport(protocol, start + headerLength, end);
  }

  ipv6(start: number): void {
    const d = this.data;
    this.words.push('ipv6');
    const available = d.length - start;
    if (available < 40) return this.malformed('IPv6', `frame ends ${available} bytes into the IPv6 header`, start);
    const head = u32(d, start);
    const payloadLength = u16(d, start + 4);
    let next = d[start + 6]!;
    const hopLimit = d[start + 7]!;
    const src = formatIPv6(d, start + 8);
    const dst = formatIPv6(d, start + 24);
    const kids: string[] = [];
    this.bits(kids, 'ipv6.version', 'Version', start, 1, d[start]!, 0xf0, head >>> 28);
    const tclass = (head >>> 20) & 0xff;
    this.bits(
      kids,
      'ipv6.tclass',
      'Traffic Class',
      start,
      4,
      head,
      0x0ff00000,
      tclass,
      `${hex(tclass, 2)} (DSCP: ${DSCP[tclass >> 2] ?? `Unknown (${tclass >> 2})`}, ECN: ${ECN[tclass & 3]})`,
    );
    const flow = head & 0xfffff;
    this.bits(kids, 'ipv6.flow', 'Flow Label', start + 1, 3, head & 0xffffff, 0x0fffff, flow, hex(flow, 5));
    this.field(kids, 'ipv6.plen', 'Payload Length', start + 4, 2, payloadLength);
    this.field(kids, 'ipv6.nxt', 'Next Header', start + 6, 1, next, nextHeaderText(next));
    this.field(kids, 'ipv6.hlim', 'Hop Limit', start + 7, 1, hopLimit);
    this.field(kids, 'ipv6.src', 'Source Address', start + 8, 16, src);
    this.field(kids, 'ipv6.dst', 'Destination Address', start + 24, 16, dst);
    this.layer('ipv6', `Internet Protocol Version 6, Src: ${src}, Dst: ${dst}`, start, 40, kids);
    this.source = src;
    this.destination = dst;
    const end = Math.min(d.length, payloadLength ? start + 40 + payloadLength : d.length);
    let pos = start + 40;
    let fragment = false;
    let fragmentText = '';
    while (next in IPV6_EXTENSIONS || next === 51) {
      const [title, word] = next === 51 ? ['Authentication Header', 'ah'] : IPV6_EXTENSIONS[next]!;
      this.words.push(word);
      if (pos + (next === 44 ? 8 : 2) > end)
        return this.malformed('IPv6', `IPv6 extension header ${next} at offset ${pos} is cut off`, pos);
      const after = d[pos]!;
      const length = next === 44 ? 8 : next === 51 ? (d[pos + 1]! + 2) * 4 : (d[pos + 1]! + 1) * 8;
      const ext: string[] = [];
      // tshark's own capitals: "Next header" in the fragment header, "Next Header" in the others.
      this.field(ext, 'ipv6.nxt', next === 44 ? 'Next header' : 'Next Header', pos, 1, after, nextHeaderText(after));
      if (next === 44) {
        const field = u16(d, pos + 2);
        const id = u32(d, pos + 4);
        this.field(ext, 'ipv6.fragment.reserved_octet', 'Reserved octet', pos + 1, 1, d[pos + 1]!, hex(d[pos + 1]!, 2));
        this.bits(ext, 'ipv6.fragment.offset', 'Offset', pos + 2, 2, field, 0xfff8, field >> 3, `${field >> 3} (${field & 0xfff8} bytes)`);
        this.bits(ext, 'ipv6.fragment.reserved_bits', 'Reserved bits', pos + 2, 2, field, 0x0006, (field >> 1) & 3);
        this.bits(ext, 'ipv6.fragment.more', 'More Fragments', pos + 2, 2, field, 0x0001, field & 1, field & 1 ? 'Yes' : 'No');
        this.field(ext, 'ipv6.fragment.id', 'Identification', pos + 4, 4, id, hex(id, 8));
        if ((field & 0xfff9) !== 0) {
          fragment = true;
          fragmentText = `IPv6 fragment (off=${field & 0xfff8} more=${field & 1 ? 'y' : 'n'} ident=${hex(id, 8)} nxt=${after})`;
        }
      } else {
        this.field(ext, 'ipv6.opt.length', 'Length', pos + 1, 1, d[pos + 1]!);
        if (this.tree) ext.push(`[Length: ${length} bytes]`);
      }
      this.layer(word, title, pos, length, ext, kids);
      if (fragment && this.reassembled) this.fragments(ext, 'IPv6');
      next = after;
      pos += length;
      if (fragment) break;
    }
    const completes = fragment && this.reassembled !== undefined;
    this.ip = { version: 6, src, dst, ttl: hopLimit, length: payloadLength, protocol: next, fragment: fragment && !completes };
    if (fragment && !completes) {
      this.words.push('data');
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

  /** The fragments a reassembly took, under the header of the frame that completed it. */
  fragments(into: string[], version: string): void {
    const r = this.reassembled!;
    if (this.tree)
      into.push(`[${r.fragments.length} ${version} Fragments (${r.length} bytes): ${r.fragments.map((f) => `#${f}`).join(', ')}]`);
  }

  /** The protocol after the IP header(s): UDP read field by field, the rest named. */
  transport(protocol: number, pos: number, end: number): void {
    const d = this.data;
    const known = IP_PROTOCOLS[protocol];
    if (protocol === 17) return this.udpHeader(pos, end);
    this.words.push(known?.[2] ?? 'data');
    this.column = known?.[1] ?? (this.ip?.version === 6 ? 'IPv6' : 'IPv4');
    if (protocol === 1 && pos + 2 <= end) {
      const type = d[pos]!;
      const code = d[pos + 1]!;
      this.info = `${ICMP_TYPES[type] ?? `Type ${type}`}${type === 3 ? ` (${ICMP_UNREACHABLE[code] ?? `Code ${code}`})` : ''}`;
      this.icmp('icmp', 'Internet Control Message Protocol', pos, end, type, code, ICMP_TYPES);
    } else if (protocol === 58 && pos + 2 <= end) {
      const type = d[pos]!;
      this.info = ICMPV6_TYPES[type] ?? `Type ${type}`;
      this.icmp('icmpv6', 'Internet Control Message Protocol v6', pos, end, type, d[pos + 1]!, ICMPV6_TYPES);
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
      const kids: string[] = [];
      this.field(kids, 'tcp.srcport', 'Source Port', pos, 2, srcPort);
      this.field(kids, 'tcp.dstport', 'Destination Port', pos + 2, 2, dstPort);
      this.layer('tcp', `Transmission Control Protocol, Src Port: ${srcPort}, Dst Port: ${dstPort}`, pos, headerLength, kids);
    } else {
      this.info = `${known?.[0] ?? 'IP protocol'} (${protocol})`;
    }
  }

  icmp(word: string, title: string, pos: number, end: number, type: number, code: number, names: Record<number, string>): void {
    const kids: string[] = [];
    this.field(kids, `${word}.type`, 'Type', pos, 1, type, `${names[type] ?? 'Unknown'} (${type})`);
    this.field(kids, `${word}.code`, 'Code', pos + 1, 1, code);
    this.layer(word, title, pos, end - pos, kids);
  }

  udpHeader(pos: number, end: number): void {
    const d = this.data;
    this.words.push('udp');
    this.column = 'UDP';
    const r = this.reassembled;
    const kids: string[] = [];
    let srcPort: number;
    let dstPort: number;
    let length: number;
    let payloadStart = 0;
    let payloadEnd = 0;
    if (r) {
      // The header is in the first fragment: its values are the reassembled datagram's.
      ({ srcPort, dstPort, udpLength: length } = r);
      this.field(kids, 'udp.srcport', 'Source Port', 0, 0, srcPort);
      this.field(kids, 'udp.dstport', 'Destination Port', 0, 0, dstPort);
      this.field(kids, 'udp.length', 'Length', 0, 0, length);
    } else {
      // A snapshot length that cuts the header after its length field still tells ports and length.
      if (end - pos < 6) return this.malformed('UDP', `frame ends ${Math.max(0, end - pos)} bytes into the UDP header`, pos);
      srcPort = u16(d, pos);
      dstPort = u16(d, pos + 2);
      length = u16(d, pos + 4);
      this.field(kids, 'udp.srcport', 'Source Port', pos, 2, srcPort);
      this.field(kids, 'udp.dstport', 'Destination Port', pos + 2, 2, dstPort);
      this.field(kids, 'udp.length', 'Length', pos + 4, 2, length);
      if (end - pos >= 8) {
        const checksum = u16(d, pos + 6);
        this.field(kids, 'udp.checksum', 'Checksum', pos + 6, 2, checksum, `${hex(checksum, 4)} [unverified]`);
      }
      payloadStart = Math.min(pos + 8, end);
      payloadEnd = Math.max(payloadStart, Math.min(end, pos + length));
    }
    const payload = Math.max(0, length - 8);
    // The payload's bytes present (all of a reassembled one's); none when the capture cut the header itself.
    const present = r ? payload : payloadEnd - payloadStart;
    const whole = r !== undefined || end - pos >= 8;
    if (this.tree && whole) kids.push(`UDP payload (${present} bytes)`);
    this.layer(
      'udp',
      `User Datagram Protocol, Src Port: ${srcPort}, Dst Port: ${dstPort}`,
      r ? 0 : pos,
      r ? 0 : Math.min(8, end - pos),
      kids,
    );
    if (this.tree && !whole) this.lines.push('[Packet size limited during capture: UDP truncated]');
    this.udp = { srcPort, dstPort, length, payloadStart, payloadEnd };
    this.leaveData(payloadStart, payloadEnd);
    this.info = `${srcPort} → ${dstPort} Len=${payload}`;
  }
}

function named(table: Record<number, string>, n: number): string {
  return `${table[n] ?? 'Unknown'} (${n})`;
}

function etherTypeText(type: number): string {
  return `${ETHERTYPES[type] ?? 'Unknown'} (${hex(type, 4)})`;
}

function nextHeaderText(next: number): string {
  const ext = IPV6_EXTENSIONS[next];
  return `${ext ? ext[0] : (IP_PROTOCOLS[next]?.[0] ?? 'Unknown')} (${next})`;
}

function hexBytes(d: Uint8Array, pos: number, n: number): string {
  return Array.from(d.subarray(pos, pos + n), (b) => b.toString(16).padStart(2, '0')).join('');
}
