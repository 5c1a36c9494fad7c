/**
 * The numeric wire types, each described once. A type is one line of {@link table}: its size,
 * byte order, whether it is signed and what its value is — an integer in a `number`, a 64-bit
 * integer in a `bigint`, or an IEEE 754 float in a `number`. Everything every walker needs of
 * it is derived here from those facts: the binary-parser method, its read (straight off the
 * bytes, and as generated code) and write (through a DataView), the range an encoder takes, the
 * text a tree shows and the JSON a node's value is written as, the Wireshark field type and
 * what the Lua plugin reads it with, the Kaitai type and the protocol reference's name.
 * A big-endian double would be `f64be: { size: 8, endian: 'be', is: 'float' }`.
 *
 * Decisions a declaration of one's own can rely on (docs/declaring-protocols.md):
 * - a 64-bit integer is a `bigint` in the value; the encoder takes a bigint, or a number that is a
 *   safe integer (JSON and hand-written values);
 * - in a node's JSON, a 64-bit integer is written as a string of its decimal digits, since
 *   JSON.parse (and most parsers) read numbers as doubles, exact only to 2^53; other integers,
 *   exact in every parser, stay numbers. A float is a number, and NaN and ±Infinity, which JSON
 *   has no number for, the strings `"NaN"`, `"Infinity"`, `"-Infinity"`;
 * - a float is shown as the shortest decimal that reads back to it: for a 32-bit float, the
 *   shortest that `Math.fround` maps back (`0.1`, where the value is 0.10000000149011612);
 *   `-0` keeps its sign.
 */

/** Display base, as in Wireshark: decimal, hexadecimal, or the byte as an ASCII character. */
export type Base = 'dec' | 'hex' | 'char';

/** Value → label, e.g. opcode 0x69 → "Information". */
export type ValueTable = Readonly<Record<number, string>>;

const table = {
  u8: { size: 1, is: 'int' },
  u16le: { size: 2, endian: 'le', is: 'int' },
  u16be: { size: 2, endian: 'be', is: 'int' },
  i16le: { size: 2, endian: 'le', is: 'int', signed: true },
  i16be: { size: 2, endian: 'be', is: 'int', signed: true },
  u32le: { size: 4, endian: 'le', is: 'int' },
  u32be: { size: 4, endian: 'be', is: 'int' },
  i32le: { size: 4, endian: 'le', is: 'int', signed: true },
  i32be: { size: 4, endian: 'be', is: 'int', signed: true },
  u64le: { size: 8, endian: 'le', is: 'bigint' },
  u64be: { size: 8, endian: 'be', is: 'bigint' },
  f32le: { size: 4, endian: 'le', is: 'float' },
  f32be: { size: 4, endian: 'be', is: 'float' },
  f64le: { size: 8, endian: 'le', is: 'float' },
} as const;

type Table = typeof table;
/** What a line of the table says. */
type Facts = { readonly size: number; readonly endian?: 'le' | 'be'; readonly is: NumberKind['is']; readonly signed?: boolean };

/** Every numeric wire type: the `type` of a number field. */
export type NumberType = keyof Table;

/** The integer types a `number` holds exactly: what constants, length prefixes and counts are. */
export type IntType = { [K in NumberType]: Table[K]['is'] extends 'int' ? K : never }[NumberType];

/** The value of a number of type `T`: a bigint for a 64-bit integer, else a number. */
export type NumberValue<T extends NumberType> = Table[T]['is'] extends 'bigint' ? bigint : number;

/** Wireshark's field type of a number (`tshark -G fields`). */
export type NumberFieldType = `FT_${'UINT' | 'INT'}${8 | 16 | 32 | 64}` | 'FT_FLOAT' | 'FT_DOUBLE';

/** One numeric wire type and everything derived from it (see the module comment). */
export interface NumberKind {
  readonly type: NumberType;
  /** Bytes on the wire. */
  readonly size: number;
  /** Byte order; none for a single byte. */
  readonly endian: 'le' | 'be' | undefined;
  /** What its value is: an integer (a number), a 64-bit integer (a bigint), a float (a number). */
  readonly is: 'int' | 'bigint' | 'float';
  readonly signed: boolean;
  /** The least and greatest integer it holds (a float: ±Infinity). */
  readonly min: number | bigint;
  readonly max: number | bigint;
  /** Whether a display base (decimal, hexadecimal) applies to it: integers. */
  readonly based: boolean;
  /** Its name in the protocol reference: `uint16 LE`, `float32 BE`. */
  readonly title: string;
  /** binary-parser's method: `uint16le`, `int32be`, `uint64le`, `floatle`, `doublele`. */
  readonly parser: string;
  /** Kaitai Struct's type, without byte order: `u1`, `s2`, `u8`, `f4`. */
  readonly kaitai: string;
  readonly ft: NumberFieldType;
  /** What the Lua plugin reads it by: size, byte order, signedness, float (plugin.ts writes it into SPEC). */
  readonly lua: { readonly size: number; readonly le?: true; readonly signed?: true; readonly float?: true };
  /** Writes `v` (as {@link fit} gives it) at `at` of `view`. */
  set(view: DataView, at: number, v: number | bigint): void;
  /** Its value at `at` of the bytes (bounds checked by the caller). */
  read(b: Uint8Array, at: number): number | bigint;
  /** Generated code that reads it at position `p` of `bytes`: inline for an integer, else through {@link numbers} (in the emitters' runtime). */
  code(p: string): string;
  /** `v` as the encoder writes it, or why it cannot be written (a string). */
  fit(v: unknown): number | bigint | string;
  /** The value as a tree shows it (integers by their display base and value table). */
  show(v: number | bigint, base: Base, values?: ValueTable): string;
  /** The value as JSON text: what a node's `value` is written as. */
  json(v: number | bigint): string;
}

const scratch = new DataView(new ArrayBuffer(8));
const scratchBytes = new Uint8Array(scratch.buffer);

/** `0x` and the low `size` bytes of `n` in hex, as Wireshark shows a hexadecimal integer. */
export function hexOf(n: number | bigint, type: NumberType): string {
  const size = table[type].size;
  const digits =
    typeof n === 'bigint' ? BigInt.asUintN(size * 8, n).toString(16) : (size < 4 ? n & ((1 << (size * 8)) - 1) : n >>> 0).toString(16);
  return `0x${digits.padStart(size * 2, '0')}`;
}

const charOf = (n: number): string => (n >= 0x20 && n < 0x7f ? String.fromCharCode(n) : '.');

/**
 * An integer as Wireshark shows it: `250`, `0x00000001`, and with a value table `Information (105)`,
 * `i (Information) (0x69)`.
 */
export function showInt(n: number, type: NumberType, base: Base, values?: ValueTable): string {
  const label = values?.[n];
  switch (base) {
    case 'char': {
      const hex = hexOf(n, type);
      return label === undefined ? `${charOf(n)} (${hex})` : `${charOf(n)} (${label}) (${hex})`;
    }
    case 'hex': {
      const hex = hexOf(n, type);
      return label === undefined ? hex : `${label} (${hex})`;
    }
    case 'dec':
      return label === undefined ? String(n) : `${label} (${n})`;
  }
}

/** The shortest decimal that reads back to `v`: for a 32-bit float (`single`), the shortest `Math.fround` maps back. */
export function showFloat(v: number, single: boolean): string {
  if (Object.is(v, -0)) return '-0';
  if (single && Number.isFinite(v)) {
    for (let p = 1; p < 9; p++) {
      const d = Number(v.toPrecision(p));
      if (Math.fround(d) === v) return String(d);
    }
  }
  return String(v);
}

/** One line of the table, with everything derived from it. */
function kind(type: NumberType): NumberKind {
  const facts: Facts = table[type];
  const { size, endian, is } = facts;
  const signed = facts.signed === true;
  const le = endian === 'le';
  const bits = size * 8;
  const float = is === 'float';
  const word = float ? `Float${bits}` : `${is === 'bigint' ? 'Big' : ''}${signed ? 'Int' : 'Uint'}${bits}`;
  // DataView's methods of this kind, by name (`getFloat32`, `setBigUint64`), called as methods (twice as fast as
  // through `call`). Typed as one of them for all: the values are what each gives and takes.
  const getter = `get${word}` as 'getFloat64';
  const setter = `set${word}` as 'setFloat64';
  // Byte i of the value, most significant first.
  const byteAt = (i: number): number => (le ? size - 1 - i : i);
  const min = float ? -Infinity : is === 'bigint' ? (signed ? -(2n ** BigInt(bits - 1)) : 0n) : signed ? -(2 ** (bits - 1)) : 0;
  const max = float
    ? Infinity
    : is === 'bigint'
      ? 2n ** BigInt(signed ? bits - 1 : bits) - 1n
      : signed
        ? 2 ** (bits - 1) - 1
        : 2 ** bits - 1;
  return {
    type,
    size,
    endian,
    is,
    signed,
    min,
    max,
    based: !float,
    title: `${float ? 'float' : signed ? 'int' : 'uint'}${bits}${endian ? ` ${endian.toUpperCase()}` : ''}`,
    parser: `${float ? (size === 4 ? 'float' : 'double') : `${signed ? 'int' : 'uint'}${bits}`}${endian ?? ''}`,
    kaitai: `${float ? 'f' : signed ? 's' : 'u'}${size}`,
    ft: float ? (size === 4 ? 'FT_FLOAT' : 'FT_DOUBLE') : `FT_${signed ? 'INT' : 'UINT'}${bits as 8 | 16 | 32 | 64}`,
    lua: {
      size,
      ...(le ? { le: true as const } : {}),
      ...(signed && !float ? { signed: true as const } : {}),
      ...(float ? { float: true as const } : {}),
    },
    set: (view, at, v) => view[setter](at, v as number, le),
    read:
      is === 'int'
        ? (b, at) => {
            let n = 0;
            for (let i = 0; i < size; i++) n = n * 256 + b[at + byteAt(i)]!;
            return signed && n > max ? n - 2 ** bits : n;
          }
        : (b, at) => {
            for (let i = 0; i < size; i++) scratchBytes[i] = b[at + i]!;
            return scratch[getter](0, le);
          },
    code(p) {
      if (is !== 'int') return `numbers.${type}.read(bytes, ${p})`;
      if (size === 1) return `bytes[${p}]`;
      const terms = Array.from({ length: size }, (_, i) => {
        const shift = 8 * (size - 1 - byteAt(i));
        return `bytes[${i === 0 ? p : `${p} + ${i}`}]${shift ? ` << ${shift}` : ''}`;
      });
      const or = `(${terms.join(' | ')})`;
      return size === 4 ? (signed ? or : `(${or} >>> 0)`) : signed ? `(${or} << ${32 - bits} >> ${32 - bits})` : or;
    },
    fit(v) {
      if (float) {
        if (typeof v !== 'number') return `${String(v)} is not a number (${type})`;
        return size === 4 && Number.isFinite(v) && !Number.isFinite(Math.fround(v)) ? `${String(v)} is beyond the range of ${type}` : v;
      }
      const n = is === 'bigint' && typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : v;
      const integer = is === 'bigint' ? typeof n === 'bigint' : typeof n === 'number' && Number.isInteger(n);
      return integer && (n as number | bigint) >= min && (n as number | bigint) <= max
        ? (n as number | bigint)
        : `${String(v)} is not an integer in ${min}..${max} (${type})`;
    },
    show: float
      ? (v) => showFloat(v as number, size === 4)
      : is === 'bigint'
        ? (v, base) => (base === 'hex' ? hexOf(v, type) : String(v))
        : (v, base, values) => showInt(v as number, type, base, values),
    // Not finite: NaN and ±Infinity, and a bigint (Number.isFinite takes only numbers), as strings.
    json: (v) => (Number.isFinite(v) ? String(v) : `"${String(v)}"`),
  };
}

/** Every numeric wire type's {@link NumberKind}, by type. */
export const numbers: Readonly<Record<NumberType, NumberKind>> = Object.fromEntries(
  (Object.keys(table) as NumberType[]).map((t) => [t, kind(t)]),
) as Record<NumberType, NumberKind>;
