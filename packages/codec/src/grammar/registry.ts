/**
 * The field registry: every abbreviation of every layout with its label, type,
 * display base, value table and description — the one list behind `gamequery fields`,
 * the dissector's tree and the exports. Built by walking the declarations.
 */
import type { Layout } from './layout.ts';
import { rowsOf } from './kinds/index.ts';
import type { Row } from './kinds/kind.ts';

/** One row of the field registry: a field as Wireshark registers it (`tshark -G fields`), with where it is declared. */
export interface RegisteredField<P extends string = string> extends Row {
  readonly protocol: P;
  /** The layouts that contain it. */
  readonly layouts: readonly string[];
}

/** Fields every protocol adds that are not on the wire. */
export const generatedRows = (protocol: string): Row[] =>
  (
    [
      ['response_in', 'Response In', 'FT_FRAMENUM', 'Frame number of the response to this request'],
      ['response_to', 'Request In', 'FT_FRAMENUM', 'Frame number of the request this responds to'],
      ['time', 'Time', 'FT_RELATIVE_TIME', 'Time between request and response, in seconds'],
      ['malformed', 'Malformed Packet', 'FT_NONE', 'Where and why decoding stopped on a truncated or inconsistent packet'],
    ] as const
  ).map(([name, label, type, doc]) => ({ abbrev: `${protocol}.${name}`, label, type, base: 'none', doc, generated: true }));

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
