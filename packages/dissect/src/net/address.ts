/**
 * IP addresses as text: IPv4 dotted decimal, IPv6 in the canonical form of RFC 5952 (§4: lowercase, no
 * leading zeros, the longest run of two or more zero groups — the first of equal runs — as "::"; §5: an
 * IPv4-mapped address ends in dotted decimal, "::ffff:192.0.2.1").
 * @module
 */
import { hostPort, ipv6Text } from '@gamequery/codec/internal';

/**
 * Addresses written lately, direct-mapped by a hash of the address: a slot holds the last address
 * filed there and its text. A query capture names a few thousand clients and servers again and
 * again; a map cost some 95 ns a look-up (190 ms of `dissect -F ndjson` on 1 M frames of the mix,
 * two addresses a frame), a slot a tenth of that. A flood's new source every packet only misses.
 */
const IPV4_SLOTS = 4096;
/** The address filed in each slot, -1 for none. */
const ipv4Keys = new Float64Array(IPV4_SLOTS).fill(-1);
const ipv4Texts: string[] = new Array<string>(IPV4_SLOTS).fill('');

/** "192.0.2.1" for the four bytes at `pos`. Recently seen addresses come from a small cache. */
export function formatIPv4(bytes: Uint8Array, pos: number): string {
  const a = bytes[pos]!;
  const b = bytes[pos + 1]!;
  const c = bytes[pos + 2]!;
  const d = bytes[pos + 3]!;
  const key = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  const slot = (Math.imul(key, 0x9e3779b1) >>> 20) & (IPV4_SLOTS - 1);
  if (ipv4Keys[slot] === key) return ipv4Texts[slot]!;
  const text = `${a}.${b}.${c}.${d}`;
  ipv4Keys[slot] = key;
  ipv4Texts[slot] = text;
  return text;
}

/** RFC 5952 text of the sixteen bytes at `pos`: "2001:db8::1", "::1", "fe80::1:0:0:1", "::ffff:10.0.0.1". */
export function formatIPv6(bytes: Uint8Array, pos: number): string {
  return ipv6Text(bytes, pos);
}

/**
 * An endpoint as text: `192.0.2.1:7777`, or `[2001:db8::1]:7777` for IPv6 (RFC 3986's brackets), as the summary
 * lines, the tree's first line and the statistics table write it. The text writer's fast path writes the same
 * bytes without making a string (render/packet-text.ts `writeEndpointText`).
 */
export function formatEndpoint(e: { readonly ip: string; readonly port: number }): string {
  return hostPort(e.ip, e.port);
}
