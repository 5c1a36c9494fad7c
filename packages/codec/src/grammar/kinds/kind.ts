/**
 * What a kind of field is made of: the facts and pieces every walker of a declaration takes from the kind's module (gathered by
 * index.ts). A walker keeps its own mechanics only: where it is, what it writes, and the recursion into groups and lists.
 */
import type { DecodeWarning } from '../expert.ts';
import type { Base, Field, NumberType, ValueTable } from '../fields.ts';
import { numbers, type NumberFieldType } from '../numbers.ts';

/** A value as it appears in a tree node (a bigint: a 64-bit integer). */
export type NodeValue = number | bigint | string | boolean | Uint8Array | null;

/** Wireshark field types, as `tshark -G fields` prints them (a number's from its wire type, numbers.ts). */
export type FieldType =
  NumberFieldType | 'FT_NONE' | 'FT_BOOLEAN' | 'FT_IPv4' | 'FT_STRING' | 'FT_STRINGZ' | 'FT_BYTES' | 'FT_FRAMENUM' | 'FT_RELATIVE_TIME';

/** A field as Wireshark registers it: a row of the field registry (registry.ts adds its protocol and layouts). */
export interface Row {
  readonly abbrev: string;
  readonly label: string;
  readonly type: FieldType;
  /** Byte order of a multi-byte number. */
  readonly endian?: 'le' | 'be';
  readonly base: Base | 'none';
  readonly values?: ValueTable;
  readonly doc: string;
  /** Not on the wire: links, response time, malformed item. */
  readonly generated?: boolean;
}

/** The registry row of a number of type `t`: an integer, a constant, a length prefix or a count. */
export function numberRow(abbrev: string, label: string, t: NumberType, base: Base, doc: string, values?: ValueTable): Row {
  const { ft, endian, based } = numbers[t];
  return { abbrev, label, type: ft, base: based ? base : 'none', doc, ...(endian ? { endian } : {}), ...(values ? { values } : {}) };
}

/** A binary-parser chain: its types track every field name, and the compiler builds chains from data. */
export type Chain = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- binary-parser's chained Parser type changes with every call

const LEAVE = new Error('leave the fast path');
/** Thrown inside binary-parser's formatters to leave the fast path; never escapes the compiled decoder. */
export const leave = (): never => {
  throw LEAVE;
};

/** What a kind of field `F` says of itself to every walker: its size and inner fields, registry rows, Lua and reference forms. */
export interface FieldKind<F extends Field> {
  /** Bytes it takes where that does not depend on the data (`sizeOf`: of a field list). */
  size(f: F, sizeOf: (fields: readonly Field[]) => number | undefined): number | undefined;
  /** Of a field of variable size: its length prefix's or count's bytes (read before anything variable), and the fewest it takes. */
  head?(f: F): { readonly prefix: number; readonly least: number };
  /** The fields it holds (a group's, a list entry's): what the walkers recurse into. */
  inner?(f: F): readonly Field[];
  /** The registry rows it declares, in wire order (`rowsOf`: an inner field's). */
  rows(f: F, doc: string, rowsOf: (f: Field) => Row[]): Row[];
  /** What the Wireshark plugin's Lua walker (runtime.lua) reads of it besides its kind, abbreviation and name (`luaField`: an inner field's). */
  lua?(f: F, luaField: (f: Field) => object): object;
  /** Its wire type in the protocol reference (docs/protocols/), strings in `charset`. */
  title(f: F, charset: string): string;
  /** A field the layout fixes: what its node shows, its JSON `value,"show":shown`, and generated code true where the bytes at `p` are not it. */
  fixed?(f: F): { readonly shown: string; readonly json: string; mismatch(p: string): string | undefined };
}

/** A kind of a fixed number of bytes holding no other field: every walker reads, writes and describes it through these. */
export interface LeafKind<F extends Field> extends FieldKind<F> {
  size(f: F): number;
  /** Its node's value and shown text at `at` (bounds checked): a CodecError where the bytes are not what `layout` fixes, a warning where odd. */
  read(f: F, bytes: Uint8Array, at: number, layout: string, warnings: DecodeWarning[]): { value: NodeValue; show: string };
  /** What the encoder writes of the value `v` (a field without a value: what it fixes), or why it cannot (a string). */
  fit(f: F, v: unknown): number | bigint | Uint8Array | string;
  /** Writes `wire` (as {@link fit} gives it) at `at`. */
  put(f: F, view: DataView, bytes: Uint8Array, at: number, wire: number | bigint | Uint8Array): void;
  /** binary-parser: `p` with its read into `name` added (a formatter leaves the fast path where only the interpreter may say). */
  parse(p: Chain, f: F, name: string): Chain;
  /** Of a leaf whose JSON value is its shown text, as generated code: its value (at position `p`, offset `at`), and what writes its text at `o` and at most how many bytes. */
  value?(f: F, p: string, at: string): string;
  shown?(f: F, at: string): readonly [code: string, max: number];
  /** Kaitai Struct: the number type it is read as, or its size in bytes, and what its doc adds (magic and constants are the exporter's). */
  kaitai?(f: F): { readonly type?: NumberType; readonly size?: number; readonly note?: string };
}
