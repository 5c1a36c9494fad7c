/**
 * The field registry: every abbreviation of every layout with its label, type,
 * display base, value table and description — the one list behind `gamequery fields`,
 * the dissector's tree and the exports. Built by walking the declarations.
 */
import type { Base, Field, NumberType, ValueTable } from './fields.ts';
import { lengthMeta } from './fields.ts';
import type { Layout } from './layout.ts';
import { numbers, type NumberFieldType } from './numbers.ts';

/** Wireshark field types, as `tshark -G fields` prints them (a number's from its wire type, numbers.ts). */
export type FieldType =
  NumberFieldType | 'FT_NONE' | 'FT_BOOLEAN' | 'FT_IPv4' | 'FT_STRING' | 'FT_STRINGZ' | 'FT_BYTES' | 'FT_FRAMENUM' | 'FT_RELATIVE_TIME';

/** One row of the field registry: a field as Wireshark registers it (`tshark -G fields`). */
export interface RegisteredField<P extends string = string> {
  readonly abbrev: string;
  readonly label: string;
  readonly protocol: P;
  readonly type: FieldType;
  /** Byte order of a multi-byte number. */
  readonly endian?: 'le' | 'be';
  readonly base: Base | 'none';
  readonly values?: ValueTable;
  readonly doc: string;
  /** Not on the wire: links, response time, malformed item. */
  readonly generated?: boolean;
  /** The layouts that contain it. */
  readonly layouts: readonly string[];
}

type Row = Omit<RegisteredField<string>, 'layouts' | 'protocol'>;

function intRow(abbrev: string, label: string, t: NumberType, base: Base, doc: string, values?: ValueTable): Row {
  const { ft, endian, based } = numbers[t];
  return { abbrev, label, type: ft, base: based ? base : 'none', doc, ...(endian ? { endian } : {}), ...(values ? { values } : {}) };
}

/** The registry rows a field declares, in wire order. */
export function rowsOf(f: Field): Row[] {
  const doc = ('doc' in f && f.doc) || '';
  switch (f.kind) {
    case 'magic':
      return [{ abbrev: f.abbrev, label: f.label, type: f.display === 'text' ? 'FT_STRING' : 'FT_BYTES', base: 'none', doc }];
    case 'const':
    case 'int':
      return [intRow(f.abbrev, f.label, f.type, f.base, doc, f.values)];
    case 'bool':
      return [{ abbrev: f.abbrev, label: f.label, type: 'FT_BOOLEAN', base: 'none', doc }];
    case 'ipv4':
      return [{ abbrev: f.abbrev, label: f.label, type: 'FT_IPv4', base: 'none', doc }];
    case 'bytes':
      return [{ abbrev: f.abbrev, label: f.label, type: 'FT_BYTES', base: 'none', doc }];
    case 'string': {
      const type: FieldType = 'terminator' in f.size ? 'FT_STRINGZ' : 'FT_STRING';
      const own: Row = { abbrev: f.abbrev, label: f.label, type, base: 'none', doc };
      if (!('prefix' in f.size)) return [own];
      const len = lengthMeta(f);
      return [intRow(len.abbrev, len.label, f.size.prefix, 'dec', `Length of ${f.label.toLowerCase()} in bytes`), own];
    }
    case 'group':
      return [{ abbrev: f.abbrev, label: f.label, type: 'FT_NONE', base: 'none', doc }, ...f.fields.flatMap(rowsOf)];
    case 'list': {
      const head = f.count
        ? [intRow(f.count.abbrev, f.count.label, f.count.type, 'dec', f.count.doc ?? `Number of ${f.entry.label.toLowerCase()} entries`)]
        : [];
      const entry: Row[] = f.flat
        ? []
        : [{ abbrev: f.entry.abbrev, label: f.entry.label, type: 'FT_NONE', base: 'none', doc: f.entry.doc ?? '' }];
      const end = f.until ? [intRow(f.until.abbrev, f.until.label, 'u8', 'dec', f.until.doc ?? 'Empty string that ends the list')] : [];
      return [...head, ...entry, ...f.entry.fields.flatMap(rowsOf), ...end];
    }
  }
}

/** Fields every protocol adds that are not on the wire. */
export function generatedRows(protocol: string): Row[] {
  return [
    {
      abbrev: `${protocol}.response_in`,
      label: 'Response In',
      type: 'FT_FRAMENUM',
      base: 'none',
      doc: 'Frame number of the response to this request',
      generated: true,
    },
    {
      abbrev: `${protocol}.response_to`,
      label: 'Request In',
      type: 'FT_FRAMENUM',
      base: 'none',
      doc: 'Frame number of the request this responds to',
      generated: true,
    },
    {
      abbrev: `${protocol}.time`,
      label: 'Time',
      type: 'FT_RELATIVE_TIME',
      base: 'none',
      doc: 'Time between request and response, in seconds',
      generated: true,
    },
    {
      abbrev: `${protocol}.malformed`,
      label: 'Malformed Packet',
      type: 'FT_NONE',
      base: 'none',
      doc: 'Where and why decoding stopped on a truncated or inconsistent packet',
      generated: true,
    },
  ];
}

/**
 * Builds the registry from layouts. The same abbreviation may appear in several
 * layouts (headers); it must then have the same label and type everywhere, or the
 * declarations disagree and this throws.
 */
export function buildRegistry<P extends string = string>(layouts: readonly Layout<unknown, P>[]): RegisteredField<P>[] {
  const byAbbrev = new Map<string, RegisteredField<P> & { layouts: string[] }>();
  const add = (protocol: P, row: Row, layout?: string): void => {
    const seen = byAbbrev.get(row.abbrev);
    if (!seen) {
      byAbbrev.set(row.abbrev, { ...row, protocol, layouts: layout ? [layout] : [] });
      return;
    }
    if (seen.label !== row.label || seen.type !== row.type || seen.base !== row.base || seen.endian !== row.endian) {
      throw new Error(`field ${row.abbrev} is declared twice with different label, type or base`);
    }
    if (row.values && seen.values && row.values !== seen.values) throw new Error(`field ${row.abbrev} has two value tables`);
    if (layout && !seen.layouts.includes(layout)) seen.layouts.push(layout);
  };
  const protocols: P[] = [];
  for (const l of layouts) {
    if (!protocols.includes(l.protocol)) protocols.push(l.protocol);
    for (const f of l.fields) for (const row of rowsOf(f)) add(l.protocol, row, l.id);
  }
  for (const p of protocols) for (const row of generatedRows(p)) add(p, row);
  return [...byAbbrev.values()];
}
