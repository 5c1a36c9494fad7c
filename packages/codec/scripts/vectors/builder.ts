/**
 * What the test-vector cases of every protocol share (scripts/vectors/<protocol>): the case
 * shape, the byte builder `B`, and the statements of what a damaged case broke.
 *
 * `B` knows nothing of our layouts and imports no codec code. A case names each field as it
 * writes it (its abbreviation, and its value where the bytes alone do not say it), and `B`
 * records where the field starts and how many bytes it took. Those records, the warnings a
 * case states and the damage it states (`cutAt`, `fault`) are the vector's expected field
 * tree, warnings and error (vector.ts); the codec is only checked against them.
 */
import type { Charset, Protocol } from '@gamequery/codec';

/**
 * A value as the annotated tree's JSON shows it: text, a number, a flag, hex for bytes, `null` for
 * a subtree; a 64-bit integer as its decimal digits, a float JSON has no number for by its name.
 */
export type NodeValue = string | number | boolean | null;

/** One field of the expected tree, as test-vectors/schema.json describes it. */
export interface Node {
  abbrev: string;
  offset: number;
  length: number;
  value: NodeValue;
  children?: Node[];
}

/** The warnings a decoder reports without failing (test-vectors/README.md). */
export type WarningCode = 'flag-byte' | 'short-list' | 'trailing-bytes';

export interface Warning {
  code: WarningCode;
  field: string;
  offset: number;
}

/**
 * A field as a case names it: its abbreviation, or that with its value where the value is not
 * what was written (a flag byte, a magic shown as text, text in a code page), and the warning
 * a decoder must give on it.
 */
export type FieldName = string | { abbrev: string; value?: NodeValue; warning?: WarningCode };

export type ErrorType =
  'TruncatedError' | 'BadMagicError' | 'UnexpectedValueError' | 'UnknownOpcodeError' | 'LengthOutOfRangeError' | 'InvalidValueError';

/** What a damaged case broke: the error a decoder must stop with, in our codec's words. */
export interface Fault {
  type: ErrorType;
  field: string;
  /** The message, given where the fault is and how many bytes are left from there. */
  message(offset: number, available: number): string;
}

/** `field` wants `requested` bytes where fewer are left (a cut datagram, or a length that lies). */
export const truncated = (field: string, requested: number): Fault => ({
  type: 'TruncatedError',
  field,
  message: (offset, available) => `${field}: requested ${requested} bytes, but only ${available} bytes available at offset ${offset}`,
});
/** A NUL-terminated `field` whose NUL never comes. */
export const unterminated = (field: string): Fault => ({
  type: 'TruncatedError',
  field,
  message: (offset, available) => `${field}: no NUL terminator in the ${available} bytes available at offset ${offset}`,
});
/** A fixed byte sequence that differs: `expected` and `got` as the tree shows a magic. */
export const badMagic = (field: string, expected: string, got: string): Fault => ({
  type: 'BadMagicError',
  field,
  message: (offset) => `${field}: expected ${expected}, got ${got} at offset ${offset}`,
});
/** A constant that differs. */
export const unexpected = (field: string, expected: string, got: string): Fault => ({
  type: 'UnexpectedValueError',
  field,
  message: (offset) => `${field}: expected ${expected}, got ${got} at offset ${offset}`,
});
/** A decimal-text field whose text is not a number of its range. */
export const notDecimal = (field: string, text: string, range: 'signed' | 'unsigned'): Fault => ({
  type: 'InvalidValueError',
  field,
  message: (offset) => `${field}: ${JSON.stringify(text)} is not a decimal ${range} 32-bit integer at offset ${offset}`,
});

/** What a case's bytes must decode to, from the builder's records alone. */
export interface Expected {
  fields: Node[];
  warnings: Warning[];
  error?: { type: ErrorType; offset: number; field: string; message: string };
}

/** A field as written: its place in write order, and whether it is a NUL-terminated string. */
interface Written extends Node {
  seq: number;
  terminated: boolean;
  children?: Written[];
}

const hexOf = (bytes: Iterable<number>): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const bytesOf = (hex: string): number[] => {
  const clean = hex.replace(/\s/g, '').toLowerCase();
  if (!/^(?:[0-9a-f]{2})*$/.test(clean)) throw new TypeError(`not hex: ${hex}`);
  return Array.from({ length: clean.length / 2 }, (_, i) => parseInt(clean.slice(i * 2, i * 2 + 2), 16));
};

/**
 * A byte builder independent of the codec that records, for each field a case names, its
 * offset, length and value as it writes it. Strings are written a byte per character (the
 * character code's low byte: ASCII, and Latin-1 as is); text in another code page is written
 * with `hex` and its value named.
 */
export class B {
  readonly out: number[] = [];
  private readonly top: Written[] = [];
  private readonly open: Written[] = [];
  private readonly stated: Warning[] = [];
  private seq = 0;
  private broken?: { fault: Fault; offset: number; seq: number };

  private record(name: FieldName | undefined, start: number, value: NodeValue, terminated = false): this {
    if (name === undefined) return this;
    const { abbrev, value: shown = value, warning } = typeof name === 'string' ? { abbrev: name, value, warning: undefined } : name;
    const node: Written = { abbrev, offset: start, length: this.out.length - start, value: shown, seq: this.seq++, terminated };
    (this.open.at(-1)?.children ?? this.top).push(node);
    if (warning) this.stated.push({ code: warning, field: abbrev, offset: start });
    return this;
  }

  raw(...bytes: number[]): this {
    this.out.push(...bytes);
    return this;
  }
  /** Bytes; the field's value is their hex. */
  bytes(bytes: Iterable<number>, name?: FieldName): this {
    const start = this.out.length;
    this.out.push(...bytes);
    return this.record(name, start, hexOf(this.out.slice(start)));
  }
  /** Bytes given in hex (whitespace ignored); the field's value is their hex. */
  hex(h: string, name?: FieldName): this {
    return this.bytes(bytesOf(h), name);
  }
  ascii(s: string, name?: FieldName): this {
    const start = this.out.length;
    for (const c of s) this.out.push(c.charCodeAt(0) & 0xff);
    return this.record(name, start, s);
  }
  /** An IPv4 address from its dotted form, as four bytes. */
  ip(dotted: string, name?: FieldName): this {
    const start = this.out.length;
    this.out.push(...dotted.split('.').map(Number));
    return this.record(name, start, dotted);
  }
  private int(n: NodeValue, bytes: Iterable<number>, name?: FieldName): this {
    const start = this.out.length;
    this.out.push(...bytes);
    return this.record(name, start, n);
  }
  /** `size` bytes Node's Buffer writes (`write`), the field's value what Buffer reads back from them (`read`), as JSON shows it. */
  private buffer(size: number, write: (b: Buffer) => unknown, read: (b: Buffer) => number | bigint, name?: FieldName): this {
    const b = Buffer.alloc(size);
    write(b);
    const v = read(b);
    return this.int(typeof v === 'bigint' || !Number.isFinite(v) ? String(v) : v, b, name);
  }
  i16le(n: number, name?: FieldName): this {
    return this.buffer(
      2,
      (b) => b.writeInt16LE(n),
      (b) => b.readInt16LE(),
      name,
    );
  }
  i16be(n: number, name?: FieldName): this {
    return this.buffer(
      2,
      (b) => b.writeInt16BE(n),
      (b) => b.readInt16BE(),
      name,
    );
  }
  u64le(n: bigint, name?: FieldName): this {
    return this.buffer(
      8,
      (b) => b.writeBigUInt64LE(n),
      (b) => b.readBigUInt64LE(),
      name,
    );
  }
  u64be(n: bigint, name?: FieldName): this {
    return this.buffer(
      8,
      (b) => b.writeBigUInt64BE(n),
      (b) => b.readBigUInt64BE(),
      name,
    );
  }
  /** A 32-bit float: `n` rounded to one by Buffer; the field's value is what it reads back. */
  f32le(n: number, name?: FieldName): this {
    return this.buffer(
      4,
      (b) => b.writeFloatLE(n),
      (b) => b.readFloatLE(),
      name,
    );
  }
  f32be(n: number, name?: FieldName): this {
    return this.buffer(
      4,
      (b) => b.writeFloatBE(n),
      (b) => b.readFloatBE(),
      name,
    );
  }
  f64le(n: number, name?: FieldName): this {
    return this.buffer(
      8,
      (b) => b.writeDoubleLE(n),
      (b) => b.readDoubleLE(),
      name,
    );
  }
  u8(n: number, name?: FieldName): this {
    return this.int(n, [n & 0xff], name);
  }
  u16le(n: number, name?: FieldName): this {
    return this.int(n, [n & 0xff, (n >>> 8) & 0xff], name);
  }
  u16be(n: number, name?: FieldName): this {
    return this.int(n, [(n >>> 8) & 0xff, n & 0xff], name);
  }
  u32le(n: number, name?: FieldName): this {
    return this.int(n, [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff], name);
  }
  u32be(n: number, name?: FieldName): this {
    return this.int(n, [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff], name);
  }
  i32le(n: number, name?: FieldName): this {
    return this.u32le(n >>> 0, name && this.valued(name, n));
  }
  i32be(n: number, name?: FieldName): this {
    return this.u32be(n >>> 0, name && this.valued(name, n));
  }
  private valued(name: FieldName, value: NodeValue): FieldName {
    return typeof name === 'string' ? { abbrev: name, value } : { value, ...name };
  }
  /** A NUL-terminated string; the field's length counts the NUL. */
  cstr(s: string, name?: FieldName): this {
    const start = this.out.length;
    for (const c of s) this.out.push(c.charCodeAt(0) & 0xff);
    this.out.push(0);
    return this.record(name, start, s, true);
  }
  /** A number written as NUL-terminated decimal text; the field's value is the number. */
  decimal(n: number, abbrev: string): this {
    return this.cstr(String(n), { abbrev, value: n });
  }
  /** A string after its length in one byte: the fields `<abbrev>.len` and `<abbrev>`. */
  str8(s: string, abbrev?: string): this {
    return this.u8(s.length, abbrev && `${abbrev}.len`).ascii(s, abbrev);
  }
  str16(s: string, abbrev?: string): this {
    return this.u16le(s.length, abbrev && `${abbrev}.len`).ascii(s, abbrev);
  }
  str32(s: string, abbrev?: string): this {
    return this.u32le(s.length, abbrev && `${abbrev}.len`).ascii(s, abbrev);
  }
  /** A subtree (a list entry, a section): what `write` writes, under `abbrev`. */
  group(abbrev: string, write: (b: this) => unknown): this {
    const node: Written = { abbrev, offset: this.out.length, length: 0, value: null, children: [], seq: this.seq++, terminated: false };
    (this.open.at(-1)?.children ?? this.top).push(node);
    this.open.push(node);
    write(this);
    this.open.pop();
    node.length = this.out.length - node.offset;
    return this;
  }

  /** A warning the decoder must give here (where a short list ends, where trailing bytes start). */
  warn(code: WarningCode, field: string): this {
    this.stated.push({ code, field, offset: this.out.length });
    return this;
  }
  /** The decoder must stop here with `fault`: what is written from here on is what it stops at. */
  fault(fault: Fault): this {
    if (this.broken) throw new Error('a case breaks once');
    this.broken = { fault, offset: this.out.length, seq: this.seq };
    return this;
  }
  /**
   * Keeps the first `length` bytes: the datagram ends inside `field` (the first field not
   * whole), which the decoder must report as truncated where that field starts.
   */
  cutAt(length: number, field: string): this {
    const leaves: Written[] = [];
    const walk = (nodes: Written[]) => nodes.forEach((n) => (n.children ? walk(n.children) : leaves.push(n)));
    walk(this.top);
    const cut = leaves.sort((a, b) => a.seq - b.seq).find((n) => n.offset + n.length > length);
    if (!cut || cut.abbrev !== field) throw new Error(`cut at ${length}: inside ${cut?.abbrev ?? 'no field'}, not ${field}`);
    this.broken = { fault: cut.terminated ? unterminated(field) : truncated(field, cut.length), offset: cut.offset, seq: cut.seq };
    this.out.length = length;
    return this;
  }

  /** Checks that the bytes are `quoted` (an example copied from a protocol's notes), whitespace ignored. */
  is(quoted: string): this {
    const want = hexOf(bytesOf(quoted));
    if (this.hexString !== want) throw new Error(`built ${this.hexString}, not the quoted ${want}`);
    return this;
  }

  get hexString(): string {
    return hexOf(this.out);
  }

  /** What the bytes must decode to: the recorded tree, the stated warnings, the fault's error. */
  expected(): Expected {
    const b = this.broken;
    if (!b) return { fields: this.top.map(plain), warnings: [...this.stated] };
    // Fields written before the fault; a subtree the fault is in ends where the fault is.
    const before = (nodes: Written[]): Node[] =>
      nodes
        .filter((n) => n.seq < b.seq)
        .map((n) =>
          n.children ? { ...plain(n), length: Math.min(n.length, b.offset - n.offset), children: before(n.children) } : plain(n),
        );
    const available = this.out.length - b.offset;
    return {
      fields: before(this.top),
      warnings: [],
      error: { type: b.fault.type, offset: b.offset, field: b.fault.field, message: b.fault.message(b.offset, available) },
    };
  }
}

const plain = (n: Written): Node => ({
  abbrev: n.abbrev,
  offset: n.offset,
  length: n.length,
  value: n.value,
  ...(n.children ? { children: n.children.map(plain) } : {}),
});

/** One vector: the bytes, written field by field, and the value they decode to, written by hand. */
export interface Case {
  protocol: Protocol;
  message: string;
  direction: 'request' | 'response';
  name: string;
  description: string;
  source: string;
  /** The bytes, and through their builder the expected tree, warnings and (for a damaged case) error. */
  bytes: B;
  charset?: Charset;
  /** The decoded message of an undamaged case. */
  value?: Record<string, unknown>;
  /** What encode(value) gives when the bytes are deliberately not canonical. */
  canonical?: string;
}

export const CONSTRUCTED = 'constructed from the layout in packages/codec/docs/protocols/ with an independent byte builder';

/** A protocol's case list, and the function that appends a case to it. */
export function caseList(): [Case[], (c: Case) => void] {
  const cases: Case[] = [];
  return [cases, (c) => void cases.push(c)];
}
