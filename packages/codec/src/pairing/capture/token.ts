/**
 * Reading one numeric field of a message straight from the bytes: a `token` (a request
 * quotes the token an earlier reply issued, under a session key) for the capture pairer, a player
 * count for the statistics the first pass takes. Where every field before it has a fixed
 * size or is NUL-terminated text, its offset is found by adding sizes and skipping to NULs,
 * and an integer is read there, or decimal text up to its NUL. Elsewhere (after another
 * variable field), and for bytes that do not read plainly, the layout's own decoder reads it,
 * or for bytes cut short what its annotation read. Undefined where there is no number to read.
 */
import type { CodecOptions } from '../../grammar/layout.ts';
import type { QueryLayout } from '../../protocols/index.ts';
import type { Field } from '../../grammar/fields.ts';
import { fixedSize } from '../../grammar/kinds/index.ts';
import { numbers } from '../../grammar/numbers.ts';

/** The token reader of `layout`, or undefined if it has no `token` field. */
export const tokenReader = (layout: QueryLayout, codec: CodecOptions): ((bytes: Uint8Array) => number | undefined) | undefined =>
  numberReader(layout, 'token', codec);

/** The reader of `layout`'s numeric field `name` (see the module comment), or undefined if it has none. */
export function numberReader(
  layout: QueryLayout,
  name: string,
  codec: CodecOptions,
): ((bytes: Uint8Array) => number | undefined) | undefined {
  const fields = layout.fields as readonly Field[];
  const i = fields.findIndex((f) => 'name' in f && f.name === name);
  if (i < 0) return undefined;
  const decoded = (bytes: Uint8Array): number | undefined => {
    let v: unknown;
    try {
      v = (layout.decode(bytes, codec).value as Record<string, unknown>)[name];
    } catch {
      v = (layout.annotate(bytes, codec).partial as Record<string, unknown> | undefined)?.[name];
    }
    return typeof v === 'number' ? v : undefined;
  };
  // Where the field starts: fixed sizes added up, and NUL-terminated text (a Minecraft basic
  // stat's three strings before its player count) skipped to its NUL; -1 where a string has
  // none (the decoder says what the bytes are). Any other variable field: the decoder reads it.
  const steps: number[] = []; // a size, or -1 for text up to its NUL
  for (const f of fields.slice(0, i)) {
    const size = fixedSize(f);
    if (size !== undefined) steps.push(size);
    else if (f.kind === 'string' && 'terminator' in f.size && !f.numeric) steps.push(-1);
    else return decoded;
  }
  const fixed = steps.every((n) => n >= 0) ? steps.reduce((a, n) => a + n, 0) : -1;
  const offsetIn = (b: Uint8Array): number => {
    if (fixed >= 0) return fixed;
    let at = 0;
    for (const n of steps) {
      if (n >= 0) at += n;
      else {
        const nul = b.indexOf(0, at);
        if (nul < 0) return -1;
        at = nul + 1;
      }
    }
    return at;
  };
  const f = fields[i]!;
  if (f.kind === 'int' && numbers[f.type].is === 'int') {
    const { read, size } = numbers[f.type];
    return (b) => {
      const at = offsetIn(b);
      if (at < 0) return decoded(b);
      return b.length < at + size ? undefined : (read(b, at) as number);
    };
  }
  if (f.kind === 'string' && 'terminator' in f.size && f.numeric) {
    const [min, max] = f.numeric === 'i32' ? [-0x80000000, 0x7fffffff] : [0, 0xffffffff];
    return (b) => {
      const at = offsetIn(b);
      if (at < 0) return decoded(b);
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

/**
 * Reads one value of a list of NUL-terminated key/value strings (a full status reply's
 * `hostname`, `numplayers`) without decoding the message: the list's offset comes from the
 * fixed-size fields before it in the declaration, then the pairs are walked to the key. The
 * value's bytes (without its NUL), or undefined where the key is not there or the list is cut.
 * Undefined where the declaration has no such list after fixed-size fields only.
 */
export function keyedReader(
  layout: QueryLayout,
  list: string,
): ((bytes: Uint8Array, key: Uint8Array) => Uint8Array | undefined) | undefined {
  const fields = layout.fields as readonly Field[];
  const i = fields.findIndex((f) => f.kind === 'list' && f.name === list);
  if (i < 0) return undefined;
  const entry = (fields[i] as Extract<Field, { kind: 'list' }>).entry.fields;
  const cstring = (f: Field | undefined): boolean => f?.kind === 'string' && 'terminator' in f.size;
  if (entry.length !== 2 || !cstring(entry[0]) || !cstring(entry[1])) return undefined;
  let at = 0;
  for (const f of fields.slice(0, i)) {
    const size = fixedSize(f);
    if (size === undefined) return undefined;
    at += size;
  }
  return (bytes, key) => {
    for (let p = at; ;) {
      const keyEnd = nul(bytes, p);
      // The empty key ends the list.
      if (keyEnd <= p) return undefined;
      const valueEnd = nul(bytes, keyEnd + 1);
      if (valueEnd < 0) return undefined;
      if (keyEnd - p === key.length) {
        let same = true;
        for (let k = 0; k < key.length && same; k++) same = bytes[p + k] === key[k];
        if (same) return bytes.subarray(keyEnd + 1, valueEnd);
      }
      p = valueEnd + 1;
    }
  };
}

/**
 * The first NUL of `bytes` from `from`, or -1: `indexOf(0, from)` in a loop the optimising
 * compiler keeps inline (indexOf is a call into the runtime, a dozen of them a full stat).
 */
function nul(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length; i++) if (bytes[i] === 0) return i;
  return -1;
}
