/** Four bytes of an IPv4 address, dotted text in the value (`"127.0.0.1"`). */
import type { Ipv4Field } from '../fields.ts';
import { numbers } from '../numbers.ts';
import type { LeafKind, Shown } from './kind.ts';

export const ipv4ToString = (n: number): string => `${n >>> 24}.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`;

/** Parses dotted IPv4 text to its 32-bit value (big-endian order), or undefined. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

export const ipv4: LeafKind<Ipv4Field> & Shown<Ipv4Field> = {
  size: () => 4,
  read(_, bytes, at) {
    const ip = ipv4ToString(numbers.u32be.read(bytes, at) as number);
    return { value: ip, show: ip };
  },
  fit: (_, v) => (typeof v === 'string' ? parseIpv4(v) : undefined) ?? 'expected dotted IPv4 text',
  put: (_, view, __, at, wire) => view.setUint32(at, wire as number, false),
  parse: (p, _, name) => p.uint32be(name, { formatter: ipv4ToString }),
  rows: (f, doc) => [{ abbrev: f.abbrev, label: f.label, type: 'FT_IPv4', base: 'none', doc }],
  lua: (f) => ({ name: f.name }),
  title: () => 'IPv4 address',
  kaitai: () => ({ size: 4, note: '; the 4 octets in dotted order' }),
  value: (_, p) => `ipv4ToString(${numbers.u32be.code(p)})`,
  shown: (_, at) => [`o = dotted(buf, o, bytes, ${at});`, 15],
};
