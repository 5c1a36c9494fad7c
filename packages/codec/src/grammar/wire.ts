/** Integer access by wire type, shared by the interpreter and the encoder. */
import type { IntType } from './fields.ts';

export function readInt(view: DataView, offset: number, type: IntType): number {
  switch (type) {
    case 'u8':
      return view.getUint8(offset);
    case 'u16le':
      return view.getUint16(offset, true);
    case 'u16be':
      return view.getUint16(offset, false);
    case 'u32le':
      return view.getUint32(offset, true);
    case 'u32be':
      return view.getUint32(offset, false);
    case 'i32le':
      return view.getInt32(offset, true);
    case 'i32be':
      return view.getInt32(offset, false);
  }
}

/** Readers straight off the bytes, for hot paths that have no DataView at hand (bounds checked by the caller). */
export const intReaders: Record<IntType, (b: Uint8Array, at: number) => number> = {
  u8: (b, at) => b[at]!,
  u16le: (b, at) => b[at]! | (b[at + 1]! << 8),
  u16be: (b, at) => (b[at]! << 8) | b[at + 1]!,
  u32le: (b, at) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0,
  u32be: (b, at) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0,
  i32le: (b, at) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24),
  i32be: (b, at) => (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!,
};

export function writeInt(view: DataView, offset: number, type: IntType, value: number): void {
  switch (type) {
    case 'u8':
      return view.setUint8(offset, value);
    case 'u16le':
      return view.setUint16(offset, value, true);
    case 'u16be':
      return view.setUint16(offset, value, false);
    case 'u32le':
      return view.setUint32(offset, value, true);
    case 'u32be':
      return view.setUint32(offset, value, false);
    case 'i32le':
      return view.setInt32(offset, value, true);
    case 'i32be':
      return view.setInt32(offset, value, false);
  }
}

const ranges: Record<IntType, readonly [number, number]> = {
  u8: [0, 0xff],
  u16le: [0, 0xffff],
  u16be: [0, 0xffff],
  u32le: [0, 0xffffffff],
  u32be: [0, 0xffffffff],
  i32le: [-0x80000000, 0x7fffffff],
  i32be: [-0x80000000, 0x7fffffff],
};

/** Inclusive range of an integer wire type. */
export const intRange = (type: IntType): readonly [number, number] => ranges[type];

export const numericRange = { i32: intRange('i32le'), u32: intRange('u32le') } as const;

/** The bytes as lowercase hex, two digits a byte, no separators. */
export const toHex = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += bytes[i]!.toString(16).padStart(2, '0');
  return s;
};

export const ipv4ToString = (n: number): string => `${n >>> 24}.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`;

/** Parses dotted IPv4 text to its 32-bit value (big-endian order), or undefined. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

/** Canonical signed/unsigned decimal text. */
export const DECIMAL = /^-?(0|[1-9][0-9]{0,9})$/;
