/**
 * IP addresses as text: IPv4 dotted decimal, IPv6 in the canonical form of RFC 5952 (§4: lowercase, no
 * leading zeros, the longest run of two or more zero groups — the first of equal runs — as "::"; §5: an
 * IPv4-mapped address ends in dotted decimal, "::ffff:192.0.2.1").
 * @module
 */
import { hostPort, ipv6Text } from '@gamequery/codec/internal';

const ipv4Cache = new Map<number, string>();
const IPV4_CACHE_LIMIT = 4096;

/** "192.0.2.1" for the four bytes at `pos`. Recently seen addresses come from a small cache. */
export function formatIPv4(bytes: Uint8Array, pos: number): string {
  const a = bytes[pos]!;
  const b = bytes[pos + 1]!;
  const c = bytes[pos + 2]!;
  const d = bytes[pos + 3]!;
  const key = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  let text = ipv4Cache.get(key);
  if (text === undefined) {
    if (ipv4Cache.size >= IPV4_CACHE_LIMIT) ipv4Cache.clear();
    text = `${a}.${b}.${c}.${d}`;
    ipv4Cache.set(key, text);
  }
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
