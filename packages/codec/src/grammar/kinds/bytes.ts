/** Fields of bytes: opaque ones of a fixed length, a `Uint8Array` in the value shown as hex, and a magic, which the layout fixes. */
import type { BytesField, MagicField } from '../fields.ts';
import { showText } from '../display.ts';
import { leave, type LeafKind } from './kind.ts';
import { BadMagicError } from '../../errors.ts';

/** Each byte's two hex digits, made once: a byte's `toString(16)` and `padStart` made two strings each time. */
const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** The bytes as lowercase hex, two digits a byte, no separators. */
export const toHex = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX_PAIRS[bytes[i]!]!;
  return s;
};

export const bytes: LeafKind<BytesField> = {
  size: (f) => f.length,
  read(f, b, at) {
    const value = b.slice(at, at + f.length);
    return { value, show: toHex(value) };
  },
  fit: (f, v) => (v instanceof Uint8Array && v.length === f.length ? v : `expected ${f.length} bytes`),
  put: (_, __, b, at, wire) => b.set(wire as Uint8Array, at),
  parse: (p, { length }, name) => p.buffer(name, { length, formatter: (b: Uint8Array) => (b.length === length ? b.slice() : leave()) }),
  rows: (f, doc) => [{ abbrev: f.abbrev, label: f.label, type: 'FT_BYTES', base: 'none', doc }],
  lua: (f) => ({ n: f.length }),
  title: () => 'bytes',
  kaitai: (f) => ({ size: f.length }),
  value: (f, _, at) => `bytes.slice(${at}, ${at} + ${f.length})`,
  shown: (f, at) => [`o = hexBytes(buf, o, bytes, ${at}, ${at} + ${f.length});`, 2 * f.length],
};

/** A magic's bytes as a tree shows them: as text (`ACME`) or as hex (`fefd`). */
const shownBytes = (f: MagicField, b: Uint8Array): string => (f.display === 'text' ? showText(String.fromCharCode(...b)) : toHex(b));

export const magic: LeafKind<MagicField> = {
  size: (f) => f.bytes.length,
  read(f, bytes, at, layout) {
    const got = bytes.subarray(at, at + f.bytes.length);
    const show = shownBytes(f, got);
    if (!got.every((b, i) => b === f.bytes[i]))
      throw new BadMagicError({ layout, field: f.abbrev, offset: at, expected: shownBytes(f, f.bytes), actual: show });
    return { value: show, show };
  },
  fit: (f) => f.bytes,
  put: (_, __, b, at, wire) => b.set(wire as Uint8Array, at),
  parse: (p, { bytes }, name) =>
    p.buffer(name, { length: bytes.length, assert: (b: Uint8Array) => b.length === bytes.length && b.every((x, i) => x === bytes[i]) }),
  rows: (f, doc) => [{ abbrev: f.abbrev, label: f.label, type: f.display === 'text' ? 'FT_STRING' : 'FT_BYTES', base: 'none', doc }],
  lua: (f) => ({ bytes: f.bytes, text: f.display === 'text' }),
  title(f) {
    const hex = toHex(f.bytes).replace(/..(?!$)/g, '$& ');
    // Quoted text: `\0` for NUL and `\xNN` for the other unprintable bytes.
    const text = [...f.bytes].map((b) =>
      b === 0 ? '\\0' : b < 0x20 || b > 0x7e ? `\\x${toHex(Uint8Array.of(b))}` : String.fromCharCode(b),
    );
    return `bytes = ${f.display === 'text' ? `"${text.join('')}" (${hex})` : hex}`;
  },
  fixed(f) {
    const shown = shownBytes(f, f.bytes);
    const mismatch = (p: string): string | undefined => [...f.bytes].map((b, j) => `bytes[${p} + ${j}] !== ${b}`).join(' || ') || undefined;
    return { shown, json: `${JSON.stringify(shown)},"show":${JSON.stringify(shown)}`, mismatch };
  },
};
