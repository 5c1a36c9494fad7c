/** A string: text, or decimal text (`numeric`), after a length prefix (a field `<abbrev>.len`), NUL-padded or NUL-terminated. */
import type { Meta, StringField } from '../fields.ts';
import { numbers } from '../numbers.ts';
import { numberRow, type FieldKind, type Row } from './kind.ts';

/** Inclusive range of the integers decimal text may hold. */
export const numericRange = { i32: [-0x80000000, 0x7fffffff], u32: [0, 0xffffffff] } as const;

/** Canonical signed/unsigned decimal text. */
export const DECIMAL = /^-?(0|[1-9][0-9]{0,9})$/;

/** The number decimal text of a `numeric` string holds, or undefined where decoding throws (not canonical, out of range). */
export function decimalOf(text: string, numeric: 'i32' | 'u32'): number | undefined {
  const [min, max] = numericRange[numeric];
  const n = Number(text);
  return DECIMAL.test(text) && n >= min && n <= max ? n : undefined;
}

/** The `.len` field that sits under a length-prefixed string's abbreviation. */
export const lengthMeta = (f: Meta): Meta => ({ abbrev: `${f.abbrev}.len`, label: `${f.label} length` });

export const string: FieldKind<StringField<string, string | number>> = {
  size: (f) => ('fixed' in f.size ? f.size.fixed : undefined),
  head: (f) => ('prefix' in f.size ? { prefix: numbers[f.size.prefix].size, least: numbers[f.size.prefix].size } : { prefix: 0, least: 1 }),
  rows(f, doc) {
    const own: Row = { abbrev: f.abbrev, label: f.label, type: 'terminator' in f.size ? 'FT_STRINGZ' : 'FT_STRING', base: 'none', doc };
    if (!('prefix' in f.size)) return [own];
    const len = lengthMeta(f);
    return [numberRow(len.abbrev, len.label, f.size.prefix, 'dec', `Length of ${f.label.toLowerCase()} in bytes`), own];
  },
  lua: (f) => ({
    numeric: f.numeric,
    prefix: 'prefix' in f.size ? { a: lengthMeta(f).abbrev, ...numbers[f.size.prefix].lua } : undefined,
    fixed: 'fixed' in f.size ? f.size.fixed : undefined,
  }),
  title(f, charset) {
    const text = `${f.numeric ? `decimal text (${f.numeric})` : `text (${charset})`}${f.secret ? ', secret' : f.redact ? ', secret in part' : ''}`;
    return 'prefix' in f.size ? text : `${text}, NUL-${'fixed' in f.size ? 'padded' : 'terminated'}`;
  },
};
