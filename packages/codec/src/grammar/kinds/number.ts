/** The number fields: one the layout reads (`u8` … `f64le`) and one it fixes (`constant`); all of their wire type is numbers.ts's. */
import type { ConstField, IntField } from '../fields.ts';
import { hexOf, numbers } from '../numbers.ts';
import { numberRow, type LeafKind } from './kind.ts';
import { UnexpectedValueError } from '../../errors.ts';

const numeric: Pick<LeafKind<IntField | ConstField>, 'size' | 'read' | 'put' | 'rows'> = {
  size: (f) => numbers[f.type].size,
  read(f, bytes, at) {
    const n = numbers[f.type].read(bytes, at);
    return { value: n, show: numbers[f.type].show(n, f.base, f.values) };
  },
  put: (f, view, _, at, wire) => numbers[f.type].set(view, at, wire as number | bigint),
  rows: (f, doc) => [numberRow(f.abbrev, f.label, f.type, f.base, doc, f.values)],
};

export const number: LeafKind<IntField> = {
  ...numeric,
  fit: (f, v) => numbers[f.type].fit(v),
  parse: (p, f, name) => p[numbers[f.type].parser](name),
  lua: (f) => numbers[f.type].lua,
  title: (f) => numbers[f.type].title,
  kaitai: (f) => ({ type: f.type }),
};

export const constant: LeafKind<ConstField> = {
  ...numeric,
  read(f, bytes, at, layout, warnings) {
    const node = numeric.read(f, bytes, at, layout, warnings);
    if (node.value === f.value) return node;
    throw new UnexpectedValueError({ layout, field: f.abbrev, offset: at, expected: constant.fixed!(f).shown, actual: node.show });
  },
  fit: (f) => f.value,
  // A function, not the number: binary-parser skips a falsy assert such as 0.
  parse: (p, { type, value }, name) => p[numbers[type].parser](name, { assert: (n: number) => n === value }),
  lua: (f) => ({ ...numbers[f.type].lua, value: f.value }),
  title: ({ type, value: v, base }) =>
    `${numbers[type].title} = ${base === 'dec' ? v : hexOf(v, type)}${base === 'char' && v >= 0x20 && v < 0x7f ? ` ('${String.fromCharCode(v)}')` : ''}`,
  fixed(f) {
    const shown = numbers[f.type].show(f.value, f.base, f.values);
    return { shown, json: `${f.value},"show":${JSON.stringify(shown)}`, mismatch: (p) => `${numbers[f.type].code(p)} !== ${f.value}` };
  },
};
