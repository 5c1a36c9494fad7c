/**
 * The encoder and `encodingLength`, interpreted from the same declarations as the
 * decoders. Length prefixes and counts are computed from the data; values that do not
 * fit their wire type raise typed errors naming the field and the offset.
 */
import type { TextCodec } from './charset.ts';
import type { Field, IntType, NumberType, StringField } from './fields.ts';
import { hasValue } from './fields.ts';
import { numbers } from './numbers.ts';
import { leafKind } from './kinds/index.ts';
import { decimalOf, lengthMeta } from './kinds/string.ts';
import { MASK, redacted } from './display.ts';
import { InvalidValueError, LengthOutOfRangeError } from '../errors.ts';

type Obj = Readonly<Record<string, unknown>>;

/** Where encoding is, and where it writes (no `view` = only measure). */
interface Out {
  readonly layout: string;
  readonly text: TextCodec;
  readonly view?: DataView;
  readonly bytes?: Uint8Array;
  offset: number;
}

function invalid(o: Out, field: string, actual: unknown, reason: string): never {
  throw new InvalidValueError({ layout: o.layout, field, offset: o.offset, actual: String(actual) }, reason);
}

function get(o: Out, value: Obj, name: string, field: string): unknown {
  const v = value[name];
  if (v === undefined) invalid(o, field, v, `missing value "${name}"`);
  return v;
}

function putNumber(o: Out, type: NumberType, n: number | bigint): void {
  const k = numbers[type];
  if (o.view) k.set(o.view, o.offset, n);
  o.offset += k.size;
}

function tooLong(o: Out, field: string, actual: number, expected: string): never {
  throw new LengthOutOfRangeError({ layout: o.layout, field, offset: o.offset, actual, expected });
}

/** A length prefix or count (`field`) of `type`: `length`, where it fits. */
function putLength(o: Out, field: string, type: IntType, length: number): void {
  const max = numbers[type].max as number;
  if (length > max) tooLong(o, field, length, `0..${max}`);
  putNumber(o, type, length);
}

/** A string field's value as an error may quote it: never a secret's. */
const quoted = (f: StringField<string, string | number>, v: unknown): unknown =>
  f.secret ? MASK : f.redact && typeof v === 'string' ? (redacted(v, f.redact) ?? v) : v;

/** The text of a string field's value, validated. */
function textOf(o: Out, f: StringField<string, string | number>, v: unknown): string {
  if (f.numeric) {
    if (typeof v !== 'number' || decimalOf(String(v), f.numeric) === undefined)
      invalid(o, f.abbrev, v, `${String(v)} is not a ${f.numeric} integer`);
    return String(v);
  }
  if (typeof v !== 'string') invalid(o, f.abbrev, quoted(f, v), 'expected a string');
  return v;
}

/**
 * Encoded bytes of a string when writing; when only measuring, its byte length without
 * allocating (and `undefined` bytes). NUL checks only matter for unprefixed strings.
 */
function encodeText(o: Out, f: StringField<string, string | number>, text: string): { bytes?: Uint8Array; length: number } {
  if (o.bytes) {
    const b = o.text.encode(text);
    if (!b) invalid(o, f.abbrev, quoted(f, text), `text has characters that ${o.text.charset} cannot encode`);
    return { bytes: b, length: b.length };
  }
  const n = o.text.byteLength(text);
  if (n === undefined) invalid(o, f.abbrev, quoted(f, text), `text has characters that ${o.text.charset} cannot encode`);
  return { length: n };
}

function putString(o: Out, f: StringField<string, string | number>, v: unknown): void {
  const text = textOf(o, f, v);
  const { bytes: b, length } = encodeText(o, f, text);
  const size = f.size;
  if ('prefix' in size) {
    putLength(o, lengthMeta(f).abbrev, size.prefix, length);
  } else if ('fixed' in size) {
    if (length > size.fixed || text.includes('\0')) tooLong(o, f.abbrev, length, `0..${size.fixed} bytes, no NUL`);
  } else if (text.includes('\0')) {
    invalid(o, f.abbrev, quoted(f, v), 'a NUL-terminated string cannot contain NUL');
  }
  if (b) o.bytes!.set(b, o.offset);
  o.offset += length;
  if ('fixed' in size) {
    o.bytes?.fill(0, o.offset, o.offset + size.fixed - length);
    o.offset += size.fixed - length;
  } else if ('terminator' in size) {
    putNumber(o, 'u8', 0);
  }
}

function putFields(o: Out, fields: readonly Field[], value: Obj): void {
  for (const f of fields) {
    switch (f.kind) {
      case 'string':
        putString(o, f, get(o, value, f.name, f.abbrev));
        break;
      case 'group':
        putFields(o, f.fields, value);
        break;
      case 'list': {
        const items = get(o, value, f.name, f.entry.abbrev);
        if (!Array.isArray(items)) invalid(o, f.entry.abbrev, items, 'expected an array');
        const single = f.entry.fields.find((e) => 'name' in e);
        const asEntry = (item: unknown): Obj => (f.flat ? { [(single as { name: string }).name]: item } : (item as Obj));
        if (f.count) {
          putLength(o, f.count.abbrev, f.count.type, items.length);
          for (const item of items) putFields(o, f.entry.fields, asEntry(item));
        } else {
          const first = f.entry.fields[0]!;
          for (const item of items) {
            const e = asEntry(item);
            if (first.kind === 'string' && e[first.name] === '') invalid(o, first.abbrev, '', 'an empty first string would end the list');
            putFields(o, f.entry.fields, e);
          }
          putNumber(o, 'u8', 0);
        }
        break;
      }
      default: {
        const k = leafKind(f);
        const v = hasValue(f) ? get(o, value, f.name, f.abbrev) : undefined;
        const wire = k.fit(f, v);
        if (typeof wire === 'string') invalid(o, f.abbrev, v, wire);
        if (o.view) k.put(f, o.view, o.bytes!, o.offset, wire);
        o.offset += k.size(f);
      }
    }
  }
}

/** Byte length of `value` once encoded. */
export function measure(layout: string, fields: readonly Field[], value: Obj, text: TextCodec): number {
  const o: Out = { layout, text, offset: 0 };
  putFields(o, fields, value);
  return o.offset;
}

/** Writes `value` into `target` at `offset`; returns the number of bytes written. */
export function writeInto(
  layout: string,
  fields: readonly Field[],
  value: Obj,
  text: TextCodec,
  target: Uint8Array,
  offset: number,
  length = measure(layout, fields, value, text),
): number {
  if (offset < 0 || offset + length > target.length) {
    throw new RangeError(`${layout}: encoding needs ${length} bytes at offset ${offset}, target has ${target.length}`);
  }
  const o: Out = {
    layout,
    text,
    offset,
    bytes: target,
    view: new DataView(target.buffer, target.byteOffset, target.byteLength),
  };
  putFields(o, fields, value);
  return o.offset - offset;
}
