/**
 * What the test-vector cases of every protocol share (scripts/vectors/<protocol>): the case
 * shape that make-vectors.ts checks and writes, and the byte builder `B`, which knows nothing
 * of our layouts, so that a case's bytes are built independently of the codec that decodes them.
 */
import { fromHex, toHex, type Charset, type Protocol } from '@gamequery/codec';

/** A byte builder independent of the codec. */
export class B {
  readonly out: number[] = [];
  ascii(s: string): this {
    for (const c of s) this.out.push(c.charCodeAt(0) & 0xff);
    return this;
  }
  raw(...bytes: number[]): this {
    this.out.push(...bytes);
    return this;
  }
  hex(h: string): this {
    this.out.push(...fromHex(h));
    return this;
  }
  u8(n: number): this {
    return this.raw(n & 0xff);
  }
  u16le(n: number): this {
    return this.raw(n & 0xff, (n >>> 8) & 0xff);
  }
  u32le(n: number): this {
    return this.raw(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
  }
  u32be(n: number): this {
    return this.raw((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  }
  i32le(n: number): this {
    return this.u32le(n >>> 0);
  }
  i32be(n: number): this {
    return this.u32be(n >>> 0);
  }
  cstr(s: string): this {
    return this.ascii(s).u8(0);
  }
  /** A string given as its raw bytes in hex, with a length prefix. */
  str8(s: string): this {
    return this.u8(s.length).ascii(s);
  }
  str16(s: string): this {
    return this.u16le(s.length).ascii(s);
  }
  str32(s: string): this {
    return this.u32le(s.length).ascii(s);
  }
  get hexString(): string {
    return toHex(Uint8Array.from(this.out));
  }
}

/** One vector: the bytes, and the value (or the error) they decode to, written by hand. */
export interface Case {
  protocol: Protocol;
  message: string;
  direction: 'request' | 'response';
  name: string;
  description: string;
  source: string;
  hex: string;
  charset?: Charset;
  value?: Record<string, unknown>;
  /** What encode(value) gives when `hex` is deliberately not canonical. */
  canonical?: string;
  error?: { type: string; offset: number; field: string };
}

export const CONSTRUCTED = 'constructed from the layout in packages/codec/docs/protocols/ with an independent byte builder';

/** A protocol's case list, and the function that appends a case to it. */
export function caseList(): [Case[], (c: Case) => void] {
  const cases: Case[] = [];
  return [cases, (c) => void cases.push(c)];
}
