/**
 * Each kind of field's module by its `kind`, and what is derived alike from any: sizes, secrets, registry rows. A new kind is a
 * module here (kind.ts says what it holds), its type and builder in fields.ts, and unless a leaf its branch in the walkers.
 */
import type { Field } from '../fields.ts';
import { constant, number } from './number.ts';
import { bool } from './bool.ts';
import { ipv4 } from './ipv4.ts';
import { bytes, magic } from './bytes.ts';
import { string } from './string.ts';
import { group, list } from './nested.ts';
import type { FieldKind, LeafKind, Row } from './kind.ts';

/** Each kind's module, by kind: a kind of field without one does not type-check. */
export const kinds = { magic, const: constant, int: number, bool, ipv4, bytes, string, list, group } satisfies {
  readonly [K in Field['kind']]: FieldKind<Extract<Field, { kind: K }>>;
};

/** The fields of fixed size holding no other field: every walker's alike. */
export type LeafField = Extract<Field, { kind: 'magic' | 'const' | 'int' | 'bool' | 'ipv4' | 'bytes' }>;

/** A field's kind (the table holds each module under its kind, so the one a field picks takes that field). */
export const fieldKind = (f: Field): FieldKind<Field> => kinds[f.kind] as unknown as FieldKind<Field>;
/** A leaf field's kind. */
export const leafKind = (f: LeafField): LeafKind<LeafField> => kinds[f.kind] as unknown as LeafKind<LeafField>;

/** Wire size of a field whose size does not depend on the data. */
export const fixedSize = (f: Field): number | undefined => fieldKind(f).size(f, sizeOf);

/** Wire size of a field list whose size does not depend on the data. */
export function sizeOf(fields: readonly Field[]): number | undefined {
  let total = 0;
  for (const f of fields) {
    const n = fixedSize(f);
    if (n === undefined) return undefined;
    total += n;
  }
  return total;
}

/**
 * The bytes a run of fields from `fields[i]` is known to take before anything variable: its fixed-size fields (as `size`
 * counts them), then the length prefix or count of the first variable-size one. What a compiled reader checks once for the run.
 */
export function runLength(fields: readonly Field[], i: number, size: (f: Field) => number | undefined = fixedSize): number {
  let run = 0;
  for (let j = i; j < fields.length; j++) {
    const f = fields[j]!;
    const n = size(f);
    if (n !== undefined) run += n;
    else return run + (fieldKind(f).head?.(f).prefix ?? 0);
  }
  return run;
}

/** The fewest bytes a field list can take (a NUL-terminated string: its NUL). */
export function leastSize(fields: readonly Field[]): number {
  let n = 0;
  for (const f of fields) n += fixedSize(f) ?? fieldKind(f).head?.(f).least ?? leastSize(fieldKind(f).inner!(f));
  return n;
}

/**
 * The fields that hold a secret, by abbreviation: `whole` (`secret`) or `part` (`redact`). Renderers mask them, the JSON fast
 * path leaves them to the tree, and a malformed item that starts inside a whole secret is a secret too.
 */
export function secretFields(fields: readonly Field[], into = new Map<string, 'whole' | 'part'>()): Map<string, 'whole' | 'part'> {
  for (const f of fields) {
    const inner = fieldKind(f).inner?.(f);
    if (inner) secretFields(inner, into);
    else if (f.kind === 'string' && (f.secret || f.redact)) into.set(f.abbrev, f.secret ? 'whole' : 'part');
  }
  return into;
}

/** The registry rows a field declares, in wire order. */
export const rowsOf = (f: Field): Row[] => fieldKind(f).rows(f, ('doc' in f && f.doc) || '', rowsOf);
