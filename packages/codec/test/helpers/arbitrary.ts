/**
 * fast-check arbitraries of valid values, derived by walking a layout's declaration,
 * so every layout gets property tests without a second list of its fields.
 */
import fc from 'fast-check';
import type { Charset, Field, Layout } from '@gamequery/codec';
import type { NumberType } from '@gamequery/codec/define';
import { samp } from '@gamequery/codec';
import { textCodec } from '@gamequery/codec/internal';

const unsigned = (bits: number) => fc.integer({ min: 0, max: 2 ** bits - 1 });
const signed = (bits: number) => fc.integer({ min: -(2 ** (bits - 1)), max: 2 ** (bits - 1) - 1 });
const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });

/** Every value of each numeric wire type: integers over their whole range, every 32-bit float (NaN, ±Infinity and -0 among them), every double. */
const numberArbs: Record<NumberType, fc.Arbitrary<number | bigint>> = {
  u8: unsigned(8),
  u16le: unsigned(16),
  u16be: unsigned(16),
  i16le: signed(16),
  i16be: signed(16),
  u32le: unsigned(32),
  u32be: unsigned(32),
  i32le: signed(32),
  i32be: signed(32),
  u64le: u64,
  u64be: u64,
  f32le: fc.float(),
  f32be: fc.float(),
  f64le: fc.double(),
};

/** Characters that the charset can encode (and that decode back to themselves). */
function alphabet(charset: Charset): fc.Arbitrary<string> {
  if (charset === 'utf8') return fc.string({ unit: 'grapheme', maxLength: 12 });
  const codec = textCodec(charset);
  const chars: string[] = [];
  for (let b = 0; b < 256; b++) chars.push(codec.decode(Uint8Array.of(b)));
  return fc.string({ unit: fc.constantFrom(...chars), maxLength: 24 });
}

function textArb(charset: Charset, opts: { maxBytes: number; noNul: boolean; nonEmpty?: boolean }): fc.Arbitrary<string> {
  const codec = textCodec(charset);
  return alphabet(charset).filter((s) => {
    if (opts.noNul && s.includes('\0')) return false;
    if (opts.nonEmpty && s === '') return false;
    const n = codec.byteLength(s);
    return n !== undefined && n <= opts.maxBytes;
  });
}

function fieldsArb(fields: readonly Field[], charset: Charset): fc.Arbitrary<Record<string, unknown>> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  const groups: fc.Arbitrary<Record<string, unknown>>[] = [];
  fields.forEach((f, i) => {
    switch (f.kind) {
      case 'magic':
      case 'const':
        return;
      case 'int':
        parts[f.name] = numberArbs[f.type];
        return;
      case 'bool':
        parts[f.name] = fc.boolean();
        return;
      case 'ipv4':
        parts[f.name] = fc.tuple(...[0, 1, 2, 3].map(() => fc.integer({ min: 0, max: 255 }))).map((a) => a.join('.'));
        return;
      case 'bytes':
        parts[f.name] = fc.uint8Array({ minLength: f.length, maxLength: f.length });
        return;
      case 'string': {
        if (f.numeric) {
          parts[f.name] = fc.integer({ min: f.numeric === 'i32' ? -0x80000000 : 0, max: f.numeric === 'i32' ? 0x7fffffff : 0xffffffff });
          return;
        }
        const size = f.size;
        const maxBytes = 'prefix' in size ? (size.prefix === 'u8' ? 255 : 300) : 'fixed' in size ? size.fixed : 64;
        parts[f.name] = textArb(charset, { maxBytes, noNul: !('prefix' in size) });
        return;
      }
      case 'group':
        groups.push(fieldsArb(f.fields, charset));
        return;
      case 'list': {
        const [first, ...rest] = f.entry.fields;
        let entry = fieldsArb(f.entry.fields, charset);
        if (f.until && first?.kind === 'string') {
          // The first string of a terminated list's entry must not be empty.
          entry = fc
            .tuple(textArb(charset, { maxBytes: 64, noNul: true, nonEmpty: true }), fieldsArb(rest, charset))
            .map(([head, tail]) => ({ [first.name]: head, ...tail }));
        }
        const item = f.flat ? entry.map((e) => Object.values(e)[0]) : entry;
        parts[f.name] = fc.array(item, { maxLength: 6 });
        return;
      }
    }
    void i;
  });
  return fc.tuple(fc.record(parts), ...groups).map(([own, ...rest]) => Object.assign({}, own, ...rest));
}

/** Valid values of any layout, of its value's type (`V`: they are read off the declaration that type is derived from). */
export const valueArb = <V>(layout: Layout<V>, charset: Charset = layout.defaultCharset): fc.Arbitrary<V> =>
  fieldsArb(layout.fields, charset) as fc.Arbitrary<V>;

/** Text that the RCON command's redaction pattern matches, or nearly does. */
export const commandArb = fc.oneof(
  valueArb(samp.rconRequest).map((v) => v.command as string),
  fc
    .tuple(
      fc.constantFrom('rcon_password', 'password', ' RCON_Password', '\tpassword', 'passwords', 'rcon_password'),
      fc.constantFrom(' ', '  ', '\t', '\n', ''),
      fc.string({ unit: fc.constantFrom('a', ' ', '\\', '"', '\n', '\x01', 'é', 'ж', '*'), maxLength: 8 }),
    )
    .map(([verb, space, rest]) => verb + space + rest),
);
