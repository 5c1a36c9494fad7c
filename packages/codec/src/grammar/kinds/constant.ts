/** The fields a layout fixes, checked when decoding and written when encoding, never in the value: a magic's bytes and a constant integer. */
import type { ConstField, MagicField } from '../fields.ts';
import { hexOf, numbers } from '../numbers.ts';
import { showText } from '../display.ts';
import { numberRow, type LeafKind } from './kind.ts';
import { toHex } from './bytes.ts';
import { BadMagicError, UnexpectedValueError } from '../../errors.ts';

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
  put: (_, __, bytes, at, wire) => bytes.set(wire as Uint8Array, at),
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

export const constant: LeafKind<ConstField> = {
  size: (f) => numbers[f.type].size,
  read(f, bytes, at, layout) {
    const k = numbers[f.type];
    const n = k.read(bytes, at);
    const show = k.show(n, f.base, f.values);
    if (n !== f.value)
      throw new UnexpectedValueError({ layout, field: f.abbrev, offset: at, expected: k.show(f.value, f.base, f.values), actual: show });
    return { value: n, show };
  },
  fit: (f) => f.value,
  put: (f, view, _, at, wire) => numbers[f.type].set(view, at, wire as number),
  // A function, not the number: binary-parser skips a falsy assert such as 0.
  parse: (p, { type, value }, name) => p[numbers[type].parser](name, { assert: (n: number) => n === value }),
  rows: (f, doc) => [numberRow(f.abbrev, f.label, f.type, f.base, doc, f.values)],
  lua: (f) => ({ ...numbers[f.type].lua, value: f.value }),
  title: ({ type, value: v, base }) =>
    `${numbers[type].title} = ${base === 'dec' ? v : hexOf(v, type)}${base === 'char' && v >= 0x20 && v < 0x7f ? ` ('${String.fromCharCode(v)}')` : ''}`,
  fixed(f) {
    const shown = numbers[f.type].show(f.value, f.base, f.values);
    return { shown, json: `${f.value},"show":${JSON.stringify(shown)}`, mismatch: (p) => `${numbers[f.type].code(p)} !== ${f.value}` };
  },
};
