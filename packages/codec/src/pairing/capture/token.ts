/**
 * Reading a message's `token` field (Minecraft: a stat request quotes the token a
 * handshake reply issued) straight from the bytes, for the capture pairer: where every
 * field before it has a fixed size, its offset is known, and an integer is read there, or
 * decimal text up to its NUL. Elsewhere (a token after a variable field) the layout's own
 * decoder reads it. Undefined where there is no token to read.
 */
import type { CodecOptions, QueryLayout } from '../../grammar/layout.ts';
import { fixedSize, intSize, type Field } from '../../grammar/fields.ts';

/** The token reader of `layout`, or undefined if it has no `token` field. */
export function tokenReader(layout: QueryLayout, codec: CodecOptions): ((bytes: Uint8Array) => number | undefined) | undefined {
  const fields = layout.fields as readonly Field[];
  const i = fields.findIndex((f) => 'name' in f && f.name === 'token');
  if (i < 0) return undefined;
  const decoded = (bytes: Uint8Array): number | undefined => {
    try {
      const v = (layout.decode(bytes, codec).value as { token?: unknown }).token;
      return typeof v === 'number' ? v : undefined;
    } catch {
      return undefined;
    }
  };
  let at = 0;
  for (const f of fields.slice(0, i)) {
    const size = fixedSize(f);
    if (size === undefined) return decoded;
    at += size;
  }
  const f = fields[i]!;
  if (f.kind === 'int' && (f.type === 'i32be' || f.type === 'u32be')) {
    const signed = f.type === 'i32be';
    return (b) => {
      if (b.length < at + intSize[f.type]) return undefined;
      const v = (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
      return signed ? v : v >>> 0;
    };
  }
  if (f.kind === 'string' && 'terminator' in f.size && f.numeric) {
    const [min, max] = f.numeric === 'i32' ? [-0x80000000, 0x7fffffff] : [0, 0xffffffff];
    return (b) => {
      let i = at;
      const negative = b[i] === 0x2d;
      if (negative) i++;
      const first = i;
      let v = 0;
      for (; i < b.length && b[i] !== 0; i++) {
        const d = b[i]! - 0x30;
        if (d < 0 || d > 9) return decoded(b);
        v = v * 10 + d;
      }
      const digits = i - first;
      if (i === b.length || digits === 0 || digits > 10 || (digits > 1 && b[first] === 0x30)) return decoded(b);
      const n = negative ? -v : v;
      return n >= min && n <= max ? n : undefined;
    };
  }
  return decoded;
}
