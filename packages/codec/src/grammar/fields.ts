/**
 * The declarative grammar: a message layout is an ordered list of these field
 * declarations, plain data carrying its own display metadata (label, abbreviation,
 * display base, value table, doc) like a Wireshark `hf_register_info` row.
 *
 * Everything else is derived from a declaration: the binary-parser decoder
 * (`compile.ts`), the annotating decode (`annotate.ts`), the encoder (`encode.ts`),
 * the field registry (`registry.ts`) and the exporters, each taking what a kind of field
 * is from its module (`kinds/`). The TypeScript type of a decoded message is inferred
 * from the declaration too ({@link ValueOf}).
 */

import { numbers, type Base, type IntType, type NumberType, type NumberValue, type ValueTable } from './numbers.ts';

export type { Base, IntType, NumberType, ValueTable } from './numbers.ts';

/** What every field declares about itself for display: exported as `FieldMeta`. */
export interface Meta {
  /** Display-filter abbreviation, `<protocol>.<message>.<field>` (e.g. `acme.status.hostname`): public API, never renamed. */
  readonly abbrev: string;
  /** Human label shown in trees, e.g. "Max players". */
  readonly label: string;
  /** One-line description for the field listing and exports. */
  readonly doc?: string;
}

/** A fixed byte sequence: protocol magic or a section marker. Not part of the value. */
export interface MagicField extends Meta {
  readonly kind: 'magic';
  readonly bytes: Uint8Array;
  /** Show as text (`ACME`) or as hex (`fefd`). */
  readonly display: 'text' | 'hex';
}

/** An integer whose value the layout fixes (opcode, packet type). Not part of the value. */
export interface ConstField extends Meta {
  readonly kind: 'const';
  readonly type: IntType;
  readonly value: number;
  readonly base: Base;
  /** The table of every value this field can hold across layouts (for displays). */
  readonly values?: ValueTable;
}

/**
 * A number of a fixed-size wire type (numbers.ts): an integer, a 64-bit integer (a bigint in the
 * value) or a float; its display base and, for an integer, optionally a value table naming its values.
 */
export interface IntField<N extends string = string, T extends NumberType = NumberType> extends Meta {
  readonly kind: 'int';
  readonly name: N;
  readonly type: T;
  readonly base: Base;
  readonly values?: ValueTable;
}

/** A u8 flag decoded as a boolean (0 = false, anything else = true). */
export interface BoolField<N extends string = string> extends Meta {
  readonly kind: 'bool';
  readonly name: N;
}

/** Four bytes shown in dotted order. */
export interface Ipv4Field<N extends string = string> extends Meta {
  readonly kind: 'ipv4';
  readonly name: N;
}

/** How a string's extent is given on the wire. */
export type StringSize =
  | { readonly prefix: IntType } // length prefix, a field `<abbrev>.len` of its own
  | { readonly fixed: number } // fixed width, NUL-padded
  | { readonly terminator: 0 }; // NUL-terminated

/** Text, or a decimal number written as text (`numeric`). */
export interface StringField<N extends string = string, T extends string | number = string> extends Meta {
  readonly kind: 'string';
  readonly name: N;
  readonly size: StringSize;
  /** Decimal text decoded to a number in this integer range. */
  readonly numeric?: 'i32' | 'u32';
  /** Never shown in clear by the dissector (RCON passwords). */
  readonly secret?: boolean;
  /**
   * Text that is a secret only in part: where this matches, its first capture group is
   * masked (a new password in `rcon_password NEW`). The match makes the node a secret.
   */
  readonly redact?: RegExp;
  /** Phantom: the decoded type. */
  readonly __type?: T;
}

/** Opaque bytes of a fixed length. */
export interface BytesField<N extends string = string> extends Meta {
  readonly kind: 'bytes';
  readonly name: N;
  readonly length: number;
}

/** One entry of a repeated group: a subtree of its own. */
export interface Entry<F extends readonly Field[] = readonly Field[]> extends Meta {
  readonly fields: F;
  /** Subtree text, with `{name}` replaced by the entry's field values. */
  readonly summary?: string;
}

/** A repeated group, either counted by a prefix or ended by an empty first string. */
export interface ListField<N extends string = string, F extends readonly Field[] = readonly Field[], Flat extends boolean = boolean> {
  readonly kind: 'list';
  readonly name: N;
  readonly entry: Entry<F>;
  /** Count prefix (shown as a field, computed when encoding). */
  readonly count?: { readonly type: IntType } & Meta;
  /** Terminator: the list ends where the entry's first (NUL-terminated) string is empty. */
  readonly until?: Meta;
  /** The value holds the entry's single field directly instead of an object. */
  readonly flat: Flat;
  /**
   * Counted lists only: a count larger than the entries present is tolerated when the
   * message ends exactly between two entries (servers that hide players do this).
   */
  readonly tolerateShort?: boolean;
}

/** A subtree whose fields belong to the enclosing value. */
export interface GroupField<F extends readonly Field[] = readonly Field[]> extends Meta {
  readonly kind: 'group';
  readonly fields: F;
}

/** Any field of a layout declaration, told apart by `kind`. */
export type Field =
  MagicField | ConstField | IntField | BoolField | Ipv4Field | StringField<string, string | number> | BytesField | ListField | GroupField;

/* ---------- value types inferred from a declaration ---------- */

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type FieldValue<F> =
  F extends IntField<infer N, infer T>
    ? { [K in N]: NumberValue<T> }
    : F extends BoolField<infer N>
      ? { [K in N]: boolean }
      : F extends Ipv4Field<infer N>
        ? { [K in N]: string }
        : F extends StringField<infer N, infer T>
          ? { [K in N]: T }
          : F extends BytesField<infer N>
            ? { [K in N]: Uint8Array }
            : F extends ListField<infer N, infer E, infer Flat>
              ? { [K in N]: Array<Flat extends true ? ValueOf<E>[keyof ValueOf<E>] : ValueOf<E>> }
              : F extends GroupField<infer G>
                ? ValueOf<G>
                : // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no property: the identity of the intersection below
                  {};

/**
 * The decoded value of a field list: one property per value-carrying field. A list whose fields the
 * types do not know one by one (`readonly Field[]`: another layout's `fields`, a list built at run
 * time) has a value of unknown properties; read field by field, its `Field` union would nest groups
 * in groups without end (TS2589).
 */
export type ValueOf<F extends readonly Field[]> = number extends F['length']
  ? Record<string, unknown>
  : // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` keeps an empty list's value an empty object
    Simplify<UnionToIntersection<FieldValue<F[number]> | {}>>;

/* ---------- builders ---------- */

type IntMeta = Meta & { readonly base?: Base; readonly values?: ValueTable };

const numberBuilder =
  <T extends NumberType, M extends Meta = IntMeta>(type: T) =>
  <const N extends string>(name: N, meta: M): IntField<N, T> => {
    // Said where it is declared: Wireshark's Lua API refuses a signed field shown in hex, and the plugin would not load.
    if ((meta as IntMeta).base === 'hex' && numbers[type].signed)
      throw new TypeError(`${meta.abbrev}: a signed number (${type}) cannot be shown in hex (Wireshark refuses it): declare it in decimal`);
    return { kind: 'int', name, type, base: 'dec', ...meta };
  };

/** An unsigned byte, a number in the value: `u8('version', { abbrev: 'acme.version', label: 'Version' })`. Options: `base`, `values`. */
export const u8 = numberBuilder('u8');
/** An unsigned 16-bit little-endian integer (see {@link u8}). */
export const u16le = numberBuilder('u16le');
/** An unsigned 16-bit big-endian integer (see {@link u8}). */
export const u16be = numberBuilder('u16be');
/** A signed 16-bit little-endian integer (see {@link u8}). */
export const i16le = numberBuilder('i16le');
/** A signed 16-bit big-endian integer (see {@link u8}). */
export const i16be = numberBuilder('i16be');
/** An unsigned 32-bit little-endian integer (see {@link u8}). */
export const u32le = numberBuilder('u32le');
/** An unsigned 32-bit big-endian integer (see {@link u8}). */
export const u32be = numberBuilder('u32be');
/** A signed 32-bit little-endian integer (see {@link u8}). */
export const i32le = numberBuilder('i32le');
/** A signed 32-bit big-endian integer (see {@link u8}). */
export const i32be = numberBuilder('i32be');
/** An unsigned 64-bit little-endian integer, a `bigint` in the value (the encoder also takes a safe-integer number). Option: `base`. */
export const u64le = numberBuilder<'u64le', Meta & { readonly base?: 'dec' | 'hex' }>('u64le');
/** An unsigned 64-bit big-endian integer (see {@link u64le}). */
export const u64be = numberBuilder<'u64be', Meta & { readonly base?: 'dec' | 'hex' }>('u64be');
/** A 32-bit little-endian IEEE 754 float, a number in the value, shown as the shortest decimal that reads back to it. */
export const f32le = numberBuilder<'f32le', Meta>('f32le');
/** A 32-bit big-endian IEEE 754 float (see {@link f32le}). */
export const f32be = numberBuilder<'f32be', Meta>('f32be');
/** A 64-bit little-endian IEEE 754 float (see {@link f32le}). */
export const f64le = numberBuilder<'f64le', Meta>('f64le');

/** A flag byte, a boolean in the value (0 false, anything else true; above 1 a decode warning). */
export const bool = <const N extends string>(name: N, meta: Meta): BoolField<N> => ({ kind: 'bool', name, ...meta });

/** Four bytes of an IPv4 address, dotted text in the value (`"127.0.0.1"`). */
export const ipv4 = <const N extends string>(name: N, meta: Meta): Ipv4Field<N> => ({ kind: 'ipv4', name, ...meta });

/** `length` opaque bytes, a `Uint8Array` in the value. */
export const bytes = <const N extends string>(name: N, length: number, meta: Meta): BytesField<N> => ({
  kind: 'bytes',
  name,
  length,
  ...meta,
});

type StringMeta = Meta & { readonly secret?: boolean; readonly redact?: RegExp };

const stringOf = <N extends string, T extends string | number>(
  name: N,
  size: StringSize,
  meta: StringMeta & Pick<StringField, 'numeric'>,
): StringField<N, T> => ({ kind: 'string', name, size, ...meta });

/** A string with an integer length prefix. */
export const prefixedString = <const N extends string>(name: N, prefix: IntType, meta: StringMeta) =>
  stringOf<N, string>(name, { prefix }, meta);

/** A fixed-width, NUL-padded string. */
export const fixedString = <const N extends string>(name: N, width: number, meta: StringMeta) =>
  stringOf<N, string>(name, { fixed: width }, meta);

/** A NUL-terminated string. */
export const cstring = <const N extends string>(name: N, meta: StringMeta) => stringOf<N, string>(name, { terminator: 0 }, meta);

/** A NUL-terminated decimal number. */
export const decimalCstring = <const N extends string>(name: N, numeric: 'i32' | 'u32', meta: Meta) =>
  stringOf<N, number>(name, { terminator: 0 }, { numeric, ...meta });

/** Fixed bytes given as text (`"ACME"`) or as an array of byte values. */
export const magic = (value: string | readonly number[], meta: Meta): MagicField =>
  typeof value === 'string'
    ? { kind: 'magic', bytes: Uint8Array.from(value, (c) => c.charCodeAt(0)), display: 'text', ...meta }
    : { kind: 'magic', bytes: Uint8Array.from(value), display: 'hex', ...meta };

/** An integer the layout fixes (an opcode, a packet type): checked when decoding, written when encoding, not in the value. */
export const constant = (type: IntType, value: number, meta: IntMeta): ConstField => ({
  kind: 'const',
  type,
  value,
  base: meta.base ?? 'dec',
  ...meta,
});

/** A list counted by a prefix of type `count.type`. */
export const countedList = <const N extends string, const F extends readonly Field[]>(
  name: N,
  count: { readonly type: IntType } & Meta,
  entry: Entry<F>,
  options: { tolerateShort?: boolean } = {},
): ListField<N, F, false> => ({ kind: 'list', name, count, entry, flat: false, ...options });

/** A list ended by an entry whose first (NUL-terminated) string is empty. */
export function terminatedList<const N extends string, const F extends readonly Field[]>(
  name: N,
  until: Meta,
  entry: Entry<F>,
  options: { flat: true },
): ListField<N, F, true>;
export function terminatedList<const N extends string, const F extends readonly Field[]>(
  name: N,
  until: Meta,
  entry: Entry<F>,
  options?: { flat?: false },
): ListField<N, F, false>;
export function terminatedList(name: string, until: Meta, entry: Entry, options: { flat?: boolean } = {}): ListField {
  return { kind: 'list', name, until, entry, flat: options.flat ?? false };
}

/** A subtree of the annotated tree whose fields belong to the enclosing value (a section of the message). */
export const group = <const F extends readonly Field[]>(meta: Meta, fields: F): GroupField<F> => ({ kind: 'group', fields, ...meta });

/** True for fields that contribute a property to the decoded value: those with a name. */
export const hasValue = (f: Field): f is Exclude<Field, MagicField | ConstField | GroupField> => 'name' in f;
