/**
 * Link layers down to the IP header (LINKTYPE_* values from the tcpdump.org link-layer header types list).
 *
 * ```
 * Ethernet II      | dst (6) | src (6) | [ TPID 8100/88a8/9100 (2) | TCI (2) ]… | EtherType (2) |
 * Linux SLL  113   | packet type (2) | ARPHRD (2) | addr len (2) | addr (8) | protocol (2) |
 * Linux SLL2 276   | protocol (2) | reserved (2) | ifindex (4) | ARPHRD (2) | pkt type (1) | addr len (1) | addr (8) |
 * NULL 0, LOOP 108 | address family (4), in either byte order |
 * raw IP 101 (and 12, 14 of old files) | IPv4 or IPv6 by version nibble; 228 IPv4; 229 IPv6 |
 * ```
 * @module
 */

export const LINKTYPE = {
  NULL: 0,
  ETHERNET: 1,
  RAW_DLT12: 12,
  RAW_DLT14: 14,
  RAW: 101,
  LOOP: 108,
  LINUX_SLL: 113,
  IPV4: 228,
  IPV6: 229,
  LINUX_SLL2: 276,
} as const;

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;

/** Where the network layer starts, filled in by {@link findNetworkLayer}. */
export interface NetworkLocation {
  /** 4 or 6; 0 when the frame carries something else (described by `detail`). */
  ipVersion: 0 | 4 | 6;
  /** Offset of the IP header in the frame. */
  offset: number;
}

/**
 * Finds the IP header of a frame. Fills `out` and returns undefined, or returns why the frame has no IP
 * layer this decoder can reach: `'link-type'` or `'not-ip'` / `'malformed'` with a detail string.
 */
export function findNetworkLayer(
  linkType: number,
  data: Uint8Array,
  out: NetworkLocation,
): [reason: 'link-type' | 'not-ip' | 'malformed', detail: string] | undefined {
  switch (linkType) {
    case LINKTYPE.ETHERNET:
      return etherType(data, 12, out);
    case LINKTYPE.LINUX_SLL:
      return etherType(data, 14, out);
    case LINKTYPE.LINUX_SLL2:
      if (data.length < 20) return ['malformed', `frame of ${data.length} bytes ends inside the 20-byte SLL2 header`];
      return etherType(data, 0, out, 20);
    case LINKTYPE.NULL:
    case LINKTYPE.LOOP:
      return addressFamily(data, out);
    case LINKTYPE.RAW:
    case LINKTYPE.RAW_DLT12:
    case LINKTYPE.RAW_DLT14:
      return ipVersion(data, 0, out);
    case LINKTYPE.IPV4:
      out.ipVersion = 4;
      out.offset = 0;
      return undefined;
    case LINKTYPE.IPV6:
      out.ipVersion = 6;
      out.offset = 0;
      return undefined;
    default:
      return ['link-type', `link type ${linkType}`];
  }
}

/**
 * Reads the EtherType at `typePos`, stepping over any stack of VLAN tags (802.1Q 0x8100, 802.1ad 0x88a8,
 * the pre-standard 0x9100). The header after the type starts at `next` (default: right after it).
 */
function etherType(data: Uint8Array, typePos: number, out: NetworkLocation, next = typePos + 2): ReturnType<typeof findNetworkLayer> {
  if (data.length < next) return ['malformed', `frame of ${data.length} bytes ends inside the link-layer header`];
  let type = (data[typePos]! << 8) | data[typePos + 1]!;
  let pos = next;
  while (isVlanTag(type)) {
    if (data.length < pos + 4) return ['malformed', `frame of ${data.length} bytes ends inside a VLAN tag`];
    type = (data[pos + 2]! << 8) | data[pos + 3]!;
    pos += 4;
  }
  out.offset = pos;
  if (type === ETHERTYPE_IPV4) out.ipVersion = 4;
  else if (type === ETHERTYPE_IPV6) out.ipVersion = 6;
  else return ['not-ip', `EtherType 0x${type.toString(16).padStart(4, '0')}`];
  return undefined;
}

/** BSD loopback: a 4-byte address family in the capturing host's byte order (NULL) or network order (LOOP). */
function addressFamily(data: Uint8Array, out: NetworkLocation): ReturnType<typeof findNetworkLayer> {
  if (data.length < 4) return ['malformed', `frame of ${data.length} bytes ends inside the loopback header`];
  const family = loopbackFamily(data);
  out.offset = 4;
  const version = familyVersion(family);
  if (version === 0) return ['not-ip', `address family ${family}`];
  out.ipVersion = version;
  return undefined;
}

/** A BSD loopback header's address family (4 bytes at the frame's start, in either byte order). */
export function loopbackFamily(data: Uint8Array): number {
  const little = (data[0]! | (data[1]! << 8) | (data[2]! << 16) | (data[3]! << 24)) >>> 0;
  // A family is small: if the little-endian reading is not, the field was written big-endian.
  return little > 0xffff ? ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0 : little;
}

/** The IP version of a loopback address family: AF_INET 2; AF_INET6 24 NetBSD/OpenBSD, 28 FreeBSD/DragonFly, 30 Darwin (and 10 Linux, seen in converted files); else 0. */
export function familyVersion(family: number): 0 | 4 | 6 {
  if (family === 2) return 4;
  return family === 24 || family === 28 || family === 30 || family === 10 ? 6 : 0;
}

/** Whether an EtherType is a VLAN tag's (802.1Q 0x8100, 802.1ad 0x88a8, the pre-standard 0x9100). */
export const isVlanTag = (type: number): boolean => type === 0x8100 || type === 0x88a8 || type === 0x9100;

/** Raw IP: the version nibble tells IPv4 from IPv6. */
function ipVersion(data: Uint8Array, pos: number, out: NetworkLocation): ReturnType<typeof findNetworkLayer> {
  if (data.length <= pos) return ['malformed', 'empty raw IP frame'];
  const version = data[pos]! >> 4;
  out.offset = pos;
  if (version === 4 || version === 6) out.ipVersion = version;
  else return ['not-ip', `IP version ${version}`];
  return undefined;
}
