/** The wire forms that are not numbers of a type (numbers.ts has those): hex, dotted IPv4, decimal text. */

/** Inclusive range of the integers decimal text may hold. */
export const numericRange: Readonly<Record<'i32' | 'u32', readonly [number, number]>> = {
  i32: [-0x80000000, 0x7fffffff],
  u32: [0, 0xffffffff],
};

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
