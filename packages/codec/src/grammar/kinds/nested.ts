/** Fields holding fields: a list of entries (counted, or ended by an empty first string) and a group. Walkers recurse themselves. */
import type { GroupField, ListField } from '../fields.ts';
import { numbers } from '../numbers.ts';
import { SHORT_LIST, warning, type DecodeWarning } from '../expert.ts';
import { numberRow, type FieldKind } from './kind.ts';

/** A counted list that the message ends before its count (`tolerateShort`). */
export const shortListWarning = (field: string, offset: number, declared: number, present: number): DecodeWarning =>
  warning(SHORT_LIST, field, offset, { declared, present });

export const list: FieldKind<ListField> = {
  size: () => undefined,
  head: (f) => (f.count ? { prefix: numbers[f.count.type].size, least: numbers[f.count.type].size } : { prefix: 0, least: 1 }),
  inner: (f) => f.entry.fields,
  rows(f, _, rowsOf) {
    const { count: c, entry, until } = f;
    return [
      ...(c ? [numberRow(c.abbrev, c.label, c.type, 'dec', c.doc ?? `Number of ${entry.label.toLowerCase()} entries`)] : []),
      ...(f.flat
        ? []
        : [{ abbrev: entry.abbrev, label: entry.label, type: 'FT_NONE' as const, base: 'none' as const, doc: entry.doc ?? '' }]),
      ...entry.fields.flatMap(rowsOf),
      ...(until ? [numberRow(until.abbrev, until.label, 'u8', 'dec', until.doc ?? 'Empty string that ends the list')] : []),
    ];
  },
  lua: (f, luaField) => ({
    flat: f.flat || undefined,
    tolerate_short: f.tolerateShort || undefined,
    count: f.count ? { a: f.count.abbrev, ...numbers[f.count.type].lua } : undefined,
    terminator: f.until ? { a: f.until.abbrev } : undefined,
    entry: { a: f.entry.abbrev, summary: f.entry.summary, fields: f.entry.fields.map(luaField) },
  }),
  title: (f) => `entries, ${f.count ? `\`${f.count.abbrev}\` times` : `until the entry's first string is empty`}`,
};

export const group: FieldKind<GroupField> = {
  size: (f, sizeOf) => sizeOf(f.fields),
  inner: (f) => f.fields,
  rows: (f, doc, rowsOf) => [{ abbrev: f.abbrev, label: f.label, type: 'FT_NONE', base: 'none', doc }, ...f.fields.flatMap(rowsOf)],
  lua: (f, luaField) => ({ fields: f.fields.map(luaField) }),
  title: () => 'group',
};
