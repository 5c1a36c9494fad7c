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
import { fixedSize, runLength } from './fields.ts';
import { numbers } from './numbers.ts';
import { decimalText } from './emit-runtime.ts';
import { numericRange } from './wire.ts';

/** Bytes `decode(bytes, { charset })` would read, or -1 where it would throw. */
export type Measurer = (bytes: Uint8Array, charset: Charset) => number;

/** Whether bytes `s..e` are decimal text `decode` takes: what the text emitter checks, without its text. */
const decimal = (bytes: Uint8Array, s: number, e: number, min: number, max: number, charset: Charset): boolean =>
  decimalText(bytes, s, e, min, max, textCodec(charset)) !== undefined;

const runtime = { decimal };

/** The fields of `fields` with groups opened: a group's fields are read where it stands. */
const flat = (fields: readonly Field[]): Field[] => fields.flatMap((f) => (f.kind === 'group' ? flat(f.fields) : [f]));

/** The fewest bytes a field list can take (a NUL-terminated string: its NUL). */
function leastSize(fields: readonly Field[]): number {
  let n = 0;
  for (const f of fields) {
    const size = fixedSize(f);
    if (size !== undefined) n += size;
    else if (f.kind === 'string') n += 'prefix' in f.size ? numbers[f.size.prefix].size : 1;
    else if (f.kind === 'list') n += f.count ? numbers[f.count.type].size : 1;
    else if (f.kind === 'group') n += leastSize(f.fields);
  }
  return n;
}

const FAIL = 'return -1;';

class MeasureCompiler {
  #id = 0;
  readonly #lines: string[] = [];
  /** The read position is `at + k`... */
  #k = 0;
  /** ...of which this many bytes are known to be there... */
  #avail = 0;
  /** ...and `at` is 0 until a variable-length field moves it. */
  #atZero = true;

  #name(prefix: string): string {
    return `${prefix}${this.#id++}`;
  }

  #emit(line: string): void {
    this.#lines.push(line);
  }

  #pos(k = this.#k): string {
    return this.#atZero ? String(k) : k === 0 ? 'at' : `at + ${k}`;
  }

  /** Makes `at` the read position. */
  #settle(): void {
    if (this.#k === 0) return;
    this.#emit(this.#atZero ? `at = ${this.#k};` : `at += ${this.#k};`);
    this.#avail -= this.#k;
    this.#k = 0;
    this.#atZero = false;
  }

  /** The read position moved by a variable amount (`at` holds it): nothing is known past it. */
  #moved(): void {
    this.#k = 0;
    this.#avail = 0;
    this.#atZero = false;
  }

  /** Makes sure `size` bytes are there, checking once for the run of fixed-size fields from `fields[i]`. */
  #need(size: number, fields: readonly Field[], i: number): void {
    if (this.#avail - this.#k >= size) return;
    const run = Math.max(runLength(fields, i), size);
    this.#emit(`if (${this.#pos(this.#k + run)} > len) ${FAIL}`);
    this.#avail = this.#k + run;
  }

  fields(fields: readonly Field[]): void {
    const all = flat(fields);
    for (let i = 0; i < all.length; i++) this.#field(all, i);
  }

  #field(fields: readonly Field[], i: number): void {
    const f = fields[i]!;
    if (f.kind === 'list') return this.#list(f, fields, i);
    if (f.kind === 'string') return this.#string(f, fields, i);
    const size = fixedSize(f)!;
    this.#need(size, fields, i);
    const p = this.#pos();
    if (f.kind === 'magic') {
      if (f.bytes.length) this.#emit(`if (${[...f.bytes].map((b, j) => `bytes[${p} + ${j}] !== ${b}`).join(' || ')}) ${FAIL}`);
    } else if (f.kind === 'const') {
      this.#emit(`if (${numbers[f.type].code(p)} !== ${f.value}) ${FAIL}`);
    }
    this.#k += size;
  }

  /** Decimal text between the locals `s` and `e`: checked as `decode` checks it. */
  #numeric(f: StringField<string, string | number>, s: string, e: string): void {
    if (!f.numeric) return;
    const [min, max] = numericRange[f.numeric];
    this.#emit(`if (!decimal(bytes, ${s}, ${e}, ${min}, ${max}, charset)) ${FAIL}`);
  }

  #string(f: StringField<string, string | number>, fields: readonly Field[], i: number): void {
    const size = f.size;
    if ('prefix' in size) {
      const width = numbers[size.prefix].size;
      this.#need(width, fields, i);
      const length = numbers[size.prefix].code(this.#pos());
      if (f.numeric) {
        const s = this.#name('s');
        const e = this.#name('e');
        this.#emit(`const ${s} = ${this.#pos(this.#k + width)}, ${e} = ${s} + ${length};`);
        this.#emit(`if (${e} > len) ${FAIL}`);
        this.#numeric(f, s, e);
        this.#emit(`at = ${e};`);
      } else {
        this.#emit(`at = ${this.#pos(this.#k + width)} + ${length};`);
        this.#emit(`if (at > len) ${FAIL}`);
      }
      this.#moved();
    } else if ('fixed' in size) {
      this.#need(size.fixed, fields, i);
      if (f.numeric) {
        const s = this.#name('s');
        const e = this.#name('e');
        this.#emit(`const ${s} = ${this.#pos()};`);
        this.#emit(`let ${e} = ${s};`);
        this.#emit(`while (${e} < ${s} + ${size.fixed} && bytes[${e}] !== 0) ${e}++;`);
        this.#numeric(f, s, e);
      }
      this.#k += size.fixed;
    } else {
      const s = this.#name('s');
      const e = this.#name('e');
      this.#emit(`const ${s} = ${this.#pos()};`);
      this.#emit(`let ${e} = ${s};`);
      this.#emit(`while (${e} < len && bytes[${e}] !== 0) ${e}++;`);
      this.#emit(`if (${e} === len) ${FAIL}`);
      this.#numeric(f, s, e);
      this.#emit(`at = ${e} + 1;`);
      this.#moved();
    }
  }

  #list(f: ListField, fields: readonly Field[], i: number): void {
    if (f.count) {
      // Entries that always take no bytes read nothing, however many there are.
      const empty = leastSize(f.entry.fields) === 0;
      const width = numbers[f.count.type].size;
      this.#need(width, fields, i);
      const n = this.#name('n');
      this.#emit(`const ${n} = ${numbers[f.count.type].code(this.#pos())};`);
      this.#k += width;
      this.#settle();
      this.#moved();
      if (empty) return;
      const j = this.#name('j');
      this.#emit(`for (let ${j} = 0; ${j} < ${n}; ${j}++) {`);
      // The message ending between two entries is tolerated (a warning) or an error.
      this.#emit(`if (at === len) ${f.tolerateShort ? 'break;' : FAIL}`);
    } else {
      this.#settle();
      this.#moved();
      this.#emit('for (;;) {');
      this.#emit(`if (at >= len) ${FAIL}`);
      this.#emit('if (bytes[at] === 0) { at++; break; }');
    }
    this.fields(f.entry.fields);
    this.#settle();
    this.#emit('}');
    this.#moved();
  }

  compile(fields: readonly Field[]): string {
    this.fields(fields);
    this.#settle();
    return ['const len = bytes.length;', 'let at = 0;', ...this.#lines, 'return at;'].join('\n');
  }
}

/** Compiles a layout's fields to its measurer. */
export function compileMeasure(fields: readonly Field[]): Measurer {
  const source = new MeasureCompiler().compile(fields);
  const factory = new Function('rt', `const { decimal } = rt;\nreturn function measure(bytes, charset) {\n${source}\n};`) as (
    rt: typeof runtime,
  ) => Measurer;
  return factory(runtime);
}

/** The generated source of a layout's measurer, for reading and for profiles. */
export const measurerSource = (fields: readonly Field[]): string => new MeasureCompiler().compile(fields);
