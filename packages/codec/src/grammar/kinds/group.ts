/** A group: a subtree of the annotated tree whose fields belong to the enclosing value (a section of the message). */
import type { GroupField } from '../fields.ts';
import type { FieldKind } from './kind.ts';

export const group: FieldKind<GroupField> = {
  size: (f, sizeOf) => sizeOf(f.fields),
  inner: (f) => f.fields,
  rows: (f, doc, rowsOf) => [{ abbrev: f.abbrev, label: f.label, type: 'FT_NONE', base: 'none', doc }, ...f.fields.flatMap(rowsOf)],
  lua: (f, luaField) => ({ fields: f.fields.map(luaField) }),
  title: () => 'group',
};
