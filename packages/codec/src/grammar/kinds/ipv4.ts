/** Four bytes of an IPv4 address, dotted text in the value (`"127.0.0.1"`). */
import type { Ipv4Field } from '../fields.ts';
import { numbers } from '../numbers.ts';
import type { LeafKind } from './kind.ts';

export const ipv4ToString = (n: number): string => `${n >>> 24}.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`;

/** Parses dotted IPv4 text to its 32-bit value (big-endian order), or undefined. */
function parseIpv4(text: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)?.slice(1).map(Number);
  return parts?.every((p) => p <= 255) ? parts.reduce((n, p) => n * 256 + p, 0) : undefined;
}

export const ipv4: LeafKind<Ipv4Field> = {
  size: () => 4,
  read(_, bytes, at) {
    const ip = ipv4ToString(numbers.u32be.read(bytes, at) as number);
    return { value: ip, show: ip };
  },
  fit: (_, v) => (typeof v === 'string' ? parseIpv4(v) : undefined) ?? 'expected dotted IPv4 text',
  put: (_, view, __, at, wire) => view.setUint32(at, wire as number, false),
  parse: (p, _, name) => p.uint32be(name, { formatter: ipv4ToString }),
  rows: (f, doc) => [{ abbrev: f.abbrev, label: f.label, type: 'FT_IPv4', base: 'none', doc }],
  title: () => 'IPv4 address',
  kaitai: () => ({ size: 4, note: '; the 4 octets in dotted order' }),
  value: (_, p) => `ipv4ToString(${numbers.u32be.code(p)})`,
  shown: (_, at) => [`o = dotted(buf, o, bytes, ${at});`, 15],
};
