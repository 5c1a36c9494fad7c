/**
 * PROPOSED, NOT MERGED: the SA:MP query header for IPv6 servers of open.mp pull request #1204
 * (openmultiplayer/open.mp, commit 0a7db55 "Generalize legacy query handler for IPv6 transport",
 * 2026-03-07; query.hpp BASE_QUERY6_SIZE = 24, QUERY6_TYPE_INDEX = 23, QUERY6_COPY_TO = 23). No
 * released server sends or answers it; servers answer today's 11-byte header over IPv6.
 *
 *   0        5                 21        23   24
 *   | "SAMP6" | IPv6 address (16) | port LE | op | then the payload of the 11-byte form
 *
 * The reply repeats the request's first 23 bytes, then the opcode and the same payload as today.
 * The proposal's server takes any datagram of 24 bytes or more that starts "SAMP6" for it; so does
 * an IPv4 query to a 54.x.x.x server ('6' is 54). Here the proposed form is only what the lengths
 * fit and the IPv4 reading does not: an 11- or 15-byte datagram, or an RCON request to such a
 * server, stays IPv4. It is read by moving the payload behind an 11-byte header and decoding it
 * with today's layouts, the tree's offsets moved back — not a layout of its own, so the dissector
 * of captures, the pairer and the exports do not know it; `dissectPayload` (`gamequery decode`) does.
 */
import { internals, type Annotation, type CodecOptions, type Direction } from '../../grammar/layout.ts';
import type { FieldNode } from '../../grammar/annotate.ts';
import { sampMessages } from './messages.ts';
import { sampProtocol } from './protocol.ts';
import { identify } from '../../packet.ts';
import { toHex } from '../../grammar/kinds/bytes.ts';

/** Length of the proposed SAMP6 header in bytes: magic, IPv6 address, port and opcode. */
export const SAMP6_HEADER = 24;
/** Today's magic (the header's, `SAMP`) followed by '6'. */
const MAGIC6 = [...sampProtocol.signatures[0]!.bytes, 0x36];
/** Bytes 4–9 of the 11-byte header stand for bytes 4–22 here. */
const SHIFT = SAMP6_HEADER - 11;

/** A datagram read as the proposed SAMP6 form: its message, the address it names and its annotated tree. */
export interface Samp6Packet {
  readonly direction: Direction | 'either';
  readonly message: string;
  /** The IPv6 address as written (RFC 5952 text) and the port. */
  readonly serverIp6: string;
  readonly serverPort: number;
  /** The annotated tree, offsets in the SAMP6 datagram, the header's nodes its own. */
  readonly annotation: Annotation<Record<string, unknown>, string>;
}

/**
 * The 16 bytes at `pos` as RFC 5952 text (§4: lowercase, no leading zeros, the longest run of two or more
 * zero groups — the first of equal runs — as "::"; §5: an IPv4-mapped address ends in dotted decimal,
 * "::ffff:192.0.2.1"). The one IPv6 writer: the dissector's addresses come from here too.
 */
export function ipv6Text(b: Uint8Array, pos = 0): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[pos + i]! << 8) | b[pos + i + 1]!);
  if (groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff) {
    return `::ffff:${b[pos + 12]}.${b[pos + 13]}.${b[pos + 14]}.${b[pos + 15]}`;
  }
  // Longest run of zero groups (at least two); the first one wins a tie.
  let best = -1,
    bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** The same datagram with today's 11-byte header (address 0.0.0.0, the port, the opcode) before the payload. */
function asIpv4(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - SHIFT);
  out.set(MAGIC6.slice(0, 4));
  out[8] = bytes[21]!;
  out[9] = bytes[22]!;
  out.set(bytes.subarray(23), 10);
  return out;
}

/**
 * The proposed SAMP6 reading of `bytes`, if the lengths fit it exactly and do not fit an IPv4 query:
 * otherwise undefined (an IPv4 datagram, or neither).
 */
export function decodeSamp6(bytes: Uint8Array, options?: CodecOptions): Samp6Packet | undefined {
  if (bytes.length < SAMP6_HEADER || MAGIC6.some((m, i) => bytes[i] !== m)) return undefined;
  if (!(String.fromCharCode(bytes[23]!) in sampMessages)) return undefined;
  // Today's reading first: an IPv4 query to 54.x.x.x that decodes exactly stays one.
  const ipv4 = identify(bytes, {}, options);
  if (ipv4 && internals(ipv4.layout).measure(bytes, options) === bytes.length) return undefined;
  const inner = asIpv4(bytes);
  const r = identify(inner, {}, options);
  if (!r || internals(r.layout).measure(inner, options) !== inner.length) return undefined;
  const ann = r.layout.annotate(inner, options);
  const header: FieldNode[] = [
    { abbrev: 'samp.magic', label: 'Magic (proposed IPv6 form, open.mp #1204)', offset: 0, length: 5, value: 'SAMP6', show: 'SAMP6' },
    {
      abbrev: 'samp.server_ip6',
      label: 'Server IPv6 (proposed)',
      offset: 5,
      length: 16,
      value: toHex(bytes.subarray(5, 21)),
      show: ipv6Text(bytes.subarray(5, 21)),
    },
  ];
  const moved = (n: FieldNode): FieldNode => ({
    ...n,
    offset: n.offset + SHIFT,
    ...(n.children ? { children: n.children.map(moved) } : {}),
  });
  const rest = ann.fields
    .filter((n) => n.abbrev !== 'samp.magic' && n.abbrev !== 'samp.server_ip')
    .map((n) => (n.abbrev === 'samp.server_port' ? { ...n, offset: 21 } : moved(n)));
  const value = ann.value ? { ...withoutIp(ann.value), serverIp6: ipv6Text(bytes.subarray(5, 21)) } : undefined;
  return {
    direction: r.direction,
    message: r.message,
    serverIp6: ipv6Text(bytes.subarray(5, 21)),
    serverPort: bytes[21]! | (bytes[22]! << 8),
    annotation: {
      ...ann,
      fields: [...header, ...rest],
      bytesRead: ann.bytesRead + SHIFT,
      info: `${ann.info} [proposed SAMP6 header]`,
      ...(value ? { value } : {}),
    } as Annotation<Record<string, unknown>, string>,
  };
}

const withoutIp = (v: Record<string, unknown>): Record<string, unknown> => {
  const { serverIp: _ip, ...rest } = v;
  return rest;
};

/** The proposed SAMP6 form of an 11-byte-header datagram (`bytes`), for the server at `address` (16 bytes) and `port`. */
export function encodeSamp6(bytes: Uint8Array, address: Uint8Array, port: number): Uint8Array {
  if (address.length !== 16) throw new TypeError(`an IPv6 address is 16 bytes, got ${address.length}`);
  if (bytes.length < 11) throw new TypeError(`an SA:MP query is at least 11 bytes, got ${bytes.length}`);
  const out = new Uint8Array(bytes.length + SHIFT);
  out.set(MAGIC6);
  out.set(address, 5);
  out[21] = port & 0xff;
  out[22] = (port >> 8) & 0xff;
  out.set(bytes.subarray(10), 23);
  return out;
}
