/**
 * How many bytes `decode` would consume, compiled from the declaration: for recognising a
 * message by whether it fits (an RCON request or reply) and for telling cheaply whether a
 * datagram decodes, millions of times, without an exception where it does not.
 *
 * A measurer walks only what decides that: bounds, length prefixes and counts, NUL
 * terminators, magic and constant values, and decimal text (the one value check that makes
 * `decode` throw). It decodes no text and builds no value. Each layout is compiled once,
 * like the JSON emitter (`emit.ts`), into one straight-line function: a run of fixed-size
 * fields is one bounds check, and offsets that no variable-length field precedes are
 * literals. Groups are transparent (their fields are the message's); list entries loop.
 *
 * It returns the bytes read, or -1 wherever `decode` throws. Where decode succeeds with a
 * warning (a flag byte above 1, a list shorter than its count, trailing bytes) it returns
 * the bytes read just the same. The tests hold it to `decode` on every vector, random
 * valid values and damaged bytes.
 */
import type { Charset } from './charset.ts';
import { textCodec } from './charset.ts';
import type { Field, ListField, StringField } from './fields.ts';
import { fixedSize, leastSize } from './kinds/index.ts';
import { numericRange } from './kinds/string.ts';
import { EmitterCode, compiled } from './emit-code.ts';
import { decimalText } from './emit-runtime.ts';

/** Bytes `decode(bytes, { charset })` would read, or -1 where it would throw. */
export type Measurer = (bytes: Uint8Array, charset: Charset) => number;

/** Whether bytes `s..e` are decimal text `decode` takes: what the text emitter checks, without its text. */
const decimal = (bytes: Uint8Array, s: number, e: number, min: number, max: number, charset: Charset): boolean =>
  decimalText(bytes, s, e, min, max, textCodec(charset)) !== undefined;

const runtime = { decimal };

/** The fields of `fields` with groups opened: a group's fields are read where it stands. */
const flat = (fields: readonly Field[]): Field[] => fields.flatMap((f) => (f.kind === 'group' ? flat(f.fields) : [f]));

/** The measurer's code: as the emitters' (emit-code.ts) reads, with nothing written, and -1 where they decline. */
class MeasureCompiler extends EmitterCode {
  protected override readonly fail = 'return -1;';

  fields(fields: readonly Field[]): void {
    const all = flat(fields);
    for (let i = 0; i < all.length; i++) this.#field(all, i);
  }

  #field(fields: readonly Field[], i: number): void {
    const f = fields[i]!;
    if (f.kind === 'list') return this.#list(f, fields, i);
    if (f.kind === 'string') return this.#string(f, fields, i);
    const size = fixedSize(f)!;
    this.need(size, fields, i);
    this.check(f, this.pos());
    this.advance(size);
  }

  #string(f: StringField<string, string | number>, fields: readonly Field[], i: number): void {
    const size = f.size;
    // Text of a fixed width that is no number: its bytes are only skipped.
    if ('fixed' in size && !f.numeric) {
      this.need(size.fixed, fields, i);
      this.advance(size.fixed);
      return;
    }
    const s = this.name('s');
    const e = this.name('e');
    this.stringBounds(size, fields, i, s, e);
    // Decimal text: checked as `decode` checks it.
    if (f.numeric) this.emit(`if (!decimal(bytes, ${s}, ${e}, ${numericRange[f.numeric].join(', ')}, charset)) ${this.fail}`);
    if ('fixed' in size) this.advance(size.fixed);
    else this.moved();
  }

  #list(f: ListField, fields: readonly Field[], i: number): void {
    // Entries that always take no bytes read nothing, however many there are.
    if (f.count && leastSize(f.entry.fields) === 0) {
      this.listCount(f.count, fields, i);
      this.moved();
      return;
    }
    this.listLoop(f, fields, i, {
      short: () => (f.tolerateShort ? 'break;' : this.fail),
      entry: () => {
        this.fields(f.entry.fields);
        this.settle();
      },
    });
  }

  compile(fields: readonly Field[]): string {
    this.fields(fields);
    this.settle();
    return ['const len = bytes.length;', 'let at = 0;', ...this.lines, 'return at;'].join('\n');
  }
}

/** Compiles a layout's fields to its measurer. */
export function compileMeasure(fields: readonly Field[]): Measurer {
  return compiled('measure', 'bytes, charset', new MeasureCompiler().compile(fields), [], runtime);
}

/** The generated source of a layout's measurer, for reading and for profiles. */
export const measurerSource = (fields: readonly Field[]): string => new MeasureCompiler().compile(fields);
