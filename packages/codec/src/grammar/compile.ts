/**
 * Compiles a layout declaration to a binary-parser decoder (generated JavaScript,
 * compiled once per layout and charset).
 *
 * The fast path only has to be right for well-formed input: whenever binary-parser
 * throws, a check fails, or a read would come up short, the caller falls back to the
 * interpreter in `annotate.ts`, which produces the typed error or the tolerated result.
 *
 * - Strings are read as raw byte views and decoded with the charset's cached codec.
 * - binary-parser silently shortens a buffer read at the end of input, so every
 *   variable-length read checks its own length, and a NUL-terminated read consumes
 *   its terminator with a u8 read that throws when there is none.
 * - Length prefixes and counts live in nested parsers whose formatter returns only the
 *   payload, so they never appear in the decoded value.
 * - Constants at fixed offsets (magic, opcode) are checked before parsing; constants
 *   inside a group are asserted inside the group's nested parser.
 */
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- binary-parser's typings are unreachable through its exports map: ours re-export them
/// <reference path="../types/binary-parser.d.ts" />
import { Parser } from 'binary-parser';
import type { TextCodec } from './charset.ts';
import type { Field, ListField, StringField } from './fields.ts';
import { hasValue } from './fields.ts';
import { numbers } from './numbers.ts';
import { fixedSize, leafKind } from './kinds/index.ts';
import { leave, type Chain } from './kinds/kind.ts';
import { DECIMAL, numericRange } from './kinds/string.ts';

export type FastDecoder = (bytes: Uint8Array) => { value: Record<string, unknown>; bytesRead: number } | undefined;

interface Precheck {
  offset: number;
  bytes?: Uint8Array;
  value?: number;
}

function stringFormatter(f: StringField<string, string | number>, text: TextCodec): (b: Uint8Array) => string | number {
  const decode = (b: Uint8Array): string => text.decode(b);
  if (!f.numeric) return decode;
  const [min, max] = numericRange[f.numeric];
  return (b) => {
    const s = decode(b);
    const n = Number(s);
    return DECIMAL.test(s) && n >= min && n <= max ? n : leave();
  };
}

function addString(p: Chain, f: StringField<string, string | number>, text: TextCodec): Chain {
  const format = stringFormatter(f, text);
  const size = f.size;
  if ('prefix' in size) {
    const inner = (new Parser() as Chain)[numbers[size.prefix].parser]('n').buffer('b', { length: 'n' });
    return p.nest(f.name, { type: inner, formatter: (o: { n: number; b: Uint8Array }) => (o.b.length === o.n ? format(o.b) : leave()) });
  }
  if ('fixed' in size) {
    const width = size.fixed;
    return p.buffer(f.name, {
      length: width,
      formatter: (b: Uint8Array) => {
        if (b.length !== width) leave();
        const nul = b.indexOf(0);
        return format(nul < 0 ? b : b.subarray(0, nul));
      },
    });
  }
  const inner = new Parser().buffer('b', { readUntil: (b: number) => b === 0 }).uint8('z');
  return p.nest(f.name, { type: inner, formatter: (o: { b: Uint8Array }) => format(o.b) });
}

function addList(p: Chain, f: ListField, text: TextCodec): Chain {
  const names = f.entry.fields.filter(hasValue).map((e) => e.name);
  const flat = f.flat ? names[0]! : undefined;
  if (f.count) {
    const entry = chain(f.entry.fields, text, 'entry');
    const inner = (new Parser() as Chain)[numbers[f.count.type].parser]('n').array('items', { type: entry, length: 'n' });
    const pick =
      flat === undefined ? (o: { items: unknown[] }) => o.items : (o: { items: Record<string, unknown>[] }) => o.items.map((e) => e[flat]);
    return p.nest(f.name, { type: inner, formatter: pick });
  }
  // Terminated: read the first (NUL-terminated) string, then the rest only if it was
  // not empty; the empty one is the terminator and is dropped by the formatter.
  const [first, ...rest] = f.entry.fields;
  if (!first || first.kind !== 'string' || !('terminator' in first.size)) {
    throw new Error(`${f.entry.abbrev}: a terminated list must start with a NUL-terminated string`);
  }
  const key = first.name;
  const entry = chain([first], text, 'entry').choice({
    tag: function (this: Record<string, string>) {
      return this[key] === '' ? 0 : 1;
    },
    choices: { 0: new Parser(), 1: chain(rest, text, 'entry') },
  });
  return p.array(f.name, {
    type: entry,
    readUntil: (item: Record<string, unknown>) => item[key] === '',
    formatter: (items: Record<string, unknown>[]) => {
      items.pop();
      return flat === undefined ? items : items.map((e) => e[flat]);
    },
  });
}

/**
 * Builds the binary-parser chain for `fields`. At the top level, constants are
 * collected into `prechecks` (they must sit at fixed offsets); inside groups they are
 * asserted in the group's own nested parser, whose formatter keeps only its value.
 */
function chain(fields: readonly Field[], text: TextCodec, where: 'top' | 'group' | 'entry', prechecks?: Precheck[]): Chain {
  let p: Chain = new Parser();
  let fixedOffset: number | undefined = 0;
  let tmp = 0;
  for (const f of fields) {
    switch (f.kind) {
      case 'string':
        p = addString(p, f, text);
        break;
      case 'list':
        p = addList(p, f, text);
        break;
      case 'group': {
        const inner = f.fields.filter(hasValue);
        if (inner.length !== 1) throw new Error(`${f.abbrev}: the compiler supports groups with exactly one value field`);
        const name = inner[0]!.name;
        p = p.nest(name, { type: chain(f.fields, text, 'group'), formatter: (o: Record<string, unknown>) => o[name] });
        break;
      }
      case 'magic':
      case 'const':
        if (where === 'top') {
          if (fixedOffset === undefined) throw new Error(`${f.abbrev}: a top-level constant must sit at a fixed offset`);
          if (f.kind === 'const' && numbers[f.type].size !== 1) throw new Error(`${f.abbrev}: top-level constants must be one byte`);
          prechecks!.push(f.kind === 'magic' ? { offset: fixedOffset, bytes: f.bytes } : { offset: fixedOffset, value: f.value });
          p = p.seek(leafKind(f).size(f));
          break;
        }
        if (where === 'entry') throw new Error(`${f.abbrev}: constants inside list entries are not supported by the compiler`);
        p = leafKind(f).parse(p, f, `$c${tmp++}`);
        break;
      default:
        p = leafKind(f).parse(p, f, f.name);
    }
    const size = fixedSize(f);
    fixedOffset = fixedOffset === undefined || size === undefined ? undefined : fixedOffset + size;
  }
  return p;
}

/** Compiles `fields` to a decoder that returns undefined where it cannot decide. */
export function compile(fields: readonly Field[], text: TextCodec): FastDecoder {
  const prechecks: Precheck[] = [];
  const body = chain(fields, text, 'top', prechecks);
  const parser = new Parser().nest('value', { type: body }).saveOffset('bytesRead');
  parser.compile();
  const check = (bytes: Uint8Array): boolean => {
    for (const c of prechecks) {
      if (c.bytes) {
        if (bytes.length < c.offset + c.bytes.length) return false;
        for (let i = 0; i < c.bytes.length; i++) if (bytes[c.offset + i] !== c.bytes[i]) return false;
      } else if (bytes[c.offset] !== c.value) return false;
    }
    return true;
  };
  return (bytes) => {
    if (!check(bytes)) return undefined;
    try {
      return parser.parse(bytes) as { value: Record<string, unknown>; bytesRead: number };
    } catch {
      return undefined;
    }
  };
}
