/** A flag byte, a boolean in the value: 0 is false, anything else true, and above 1 a warning. */
import type { BoolField } from '../fields.ts';
import { FLAG_BYTE, warning, type DecodeWarning } from '../expert.ts';
import { leave, type LeafKind } from './kind.ts';

/** A flag byte as a tree shows it: `Yes (1)`, `No (0)`, `Yes (7)`. */
export const shownFlag = (n: number): string => `${n !== 0 ? 'Yes' : 'No'} (${n})`;

/** A flag byte other than 0 or 1 (decoded as true). */
export const flagWarning = (field: string, offset: number, n: number): DecodeWarning => warning(FLAG_BYTE, field, offset, { value: n });

/** A flag byte's node as JSON from its value on: `true,"show":"Yes (1)"` (what the emitters write, pre-encoded). */
export const flagJson = (n: number): string => `${n !== 0},"show":"${shownFlag(n)}"`;

export const bool: LeafKind<BoolField> = {
  size: () => 1,
  read(f, bytes, at, _, warnings) {
    const n = bytes[at]!;
    if (n > 1) warnings.push(flagWarning(f.abbrev, at, n));
    return { value: n !== 0, show: shownFlag(n) };
  },
  fit: (_, v) => (typeof v === 'boolean' ? (v ? 1 : 0) : 'expected a boolean'),
  put: (_, view, __, at, wire) => view.setUint8(at, wire as number),
  // A flag byte above 1 is true with a warning, which only the interpreter gives.
  parse: (p, _, name) => p.uint8(name, { formatter: (n: number) => (n > 1 ? leave() : n !== 0) }),
  rows: (f, doc) => [{ abbrev: f.abbrev, label: f.label, type: 'FT_BOOLEAN', base: 'none', doc }],
  title: () => 'uint8 flag (0 false, else true)',
  kaitai: () => ({ type: 'u8', note: ' (0 = no, anything else = yes)' }),
};
