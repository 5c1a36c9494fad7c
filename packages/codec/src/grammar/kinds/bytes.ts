/** Opaque bytes of a fixed length, a `Uint8Array` in the value, shown as hex. */
import type { BytesField } from '../fields.ts';
import { leave, type LeafKind, type Shown } from './kind.ts';

/** The bytes as lowercase hex, two digits a byte, no separators. */
export const toHex = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += bytes[i]!.toString(16).padStart(2, '0');
  return s;
};

export const bytes: LeafKind<BytesField> & Shown<BytesField> = {
  size: (f) => f.length,
  read(f, b, at) {
    const value = b.slice(at, at + f.length);
    return { value, show: toHex(value) };
  },
  fit: (f, v) => (v instanceof Uint8Array && v.length === f.length ? v : `expected ${f.length} bytes`),
  put: (_, __, b, at, wire) => b.set(wire as Uint8Array, at),
  parse: (p, { length }, name) => p.buffer(name, { length, formatter: (b: Uint8Array) => (b.length === length ? b.slice() : leave()) }),
  rows: (f, doc) => [{ abbrev: f.abbrev, label: f.label, type: 'FT_BYTES', base: 'none', doc }],
  lua: (f) => ({ name: f.name, n: f.length }),
  title: () => 'bytes',
  kaitai: (f) => ({ size: f.length }),
  value: (f, _, at) => `bytes.slice(${at}, ${at} + ${f.length})`,
  shown: (f, at) => [`o = hexBytes(buf, o, bytes, ${at}, ${at} + ${f.length});`, 2 * f.length],
};
