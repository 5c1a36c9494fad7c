/** A number field (`u8` … `f64le`): everything of its wire type is numbers.ts's; this is the field around it. */
import type { IntField } from '../fields.ts';
import { numbers } from '../numbers.ts';
import { numberRow, type LeafKind } from './kind.ts';

export const number: LeafKind<IntField> = {
  size: (f) => numbers[f.type].size,
  read(f, bytes, at) {
    const k = numbers[f.type];
    const n = k.read(bytes, at);
    return { value: n, show: k.show(n, f.base, f.values) };
  },
  fit: (f, v) => numbers[f.type].fit(v),
  put: (f, view, _, at, wire) => numbers[f.type].set(view, at, wire as number | bigint),
  parse: (p, f, name) => p[numbers[f.type].parser](name),
  rows: (f, doc) => [numberRow(f.abbrev, f.label, f.type, f.base, doc, f.values)],
  lua: (f) => ({ name: f.name, ...numbers[f.type].lua }),
  title: (f) => numbers[f.type].title,
  kaitai: (f) => ({ type: f.type }),
};
