/**
 * The code-writing half of the JSON emitter compiler (`emit.ts`): generated source is
 * collected here as lines of reads and a queue of pending writes, and the read position
 * is tracked so that a run of fixed-size fields is bounds-checked once and a field's
 * offset is a literal where no variable-length field precedes it.
 *
 * Writes are queued (`lit`, `number`, `write`) and emitted by `flush`: one capacity check
 * per run of bounded writes, neighbouring constants merged into one copy.
 */
import type { Field, IntField, StringSize } from './fields.ts';
import { fixedSize, runLength } from './fields.ts';
import { numbers, showInt, type NumberType } from './numbers.ts';

export const encoder = new TextEncoder();

/** `text` as a JSON string literal. */
export const jsonText = (text: string): string => JSON.stringify(text);

/** A node's shown text written by code: as text, and inside a JSON string; `maybeEmpty` where it may be empty. */
export type CodeShow = { readonly text: () => void; readonly json: () => void; readonly maybeEmpty: boolean };

/** `{"abbrev":…,"label":…,"offset":` — the part of a node that never changes. */
export const head = (abbrev: string, label: string): string =>
  `{"abbrev":${JSON.stringify(abbrev)},"label":${JSON.stringify(label)},"offset":`;

/**
 * A write: fixed JSON text, an integer, or code that writes at `o` at most `max` bytes
 * (an expression), or with no bound (it reserves for itself).
 */
type Op =
  | { readonly lit: string }
  | { readonly num: string; readonly signed: boolean }
  | { readonly code: string; readonly max: string | undefined };

/** Gives up: the interpreter has something to say. */
export const DECLINE = '{ sink.at = from; return undefined; }';
/** After a helper that may have written through the sink (and so grown its buffer). */
export const RELOAD = 'if (buf !== sink.buf) { buf = sink.buf; dv = viewOf(buf); }';

/** Bytes a fixed-size leaf field takes, for one bounds check over a run of them (a group is compiled field by field). */
export const checkedSize = (f: Field): number | undefined => (f.kind === 'group' ? undefined : fixedSize(f));

/** The generated code so far, the writes pending and what is known of the read position. */
export abstract class EmitterCode {
  protected id = 0;
  protected readonly lines: string[] = [];
  /** Values (pre-encoded pieces, caches) the code refers to by name. */
  protected readonly consts: unknown[] = [];
  /** Writes not yet emitted. */
  protected ops: Op[] = [];
  /** The read position is `at + k`... */
  protected k = 0;
  /** ...of which this many bytes are known to be there. */
  protected avail = 0;
  /** The read position when no variable-length field precedes it. */
  protected fixed: number | undefined = 0;
  /** Locals holding `at + k`, by k, while `at` stays. */
  protected here = new Map<number, string>();
  /** Nothing is written: the code reads, checks and builds the value (a summary's), and every write is dropped. */
  protected silent = false;

  protected name(prefix: string): string {
    return `${prefix}${this.id++}`;
  }

  protected constRef(value: unknown): string {
    this.consts.push(value);
    return `K${this.consts.length - 1}`;
  }

  protected emit(line: string): void {
    this.lines.push(line);
  }

  protected lit(text: string): void {
    this.ops.push({ lit: text });
  }

  protected write(code: string, max: string | number | undefined): void {
    this.ops.push({ code, max: max === undefined ? undefined : String(max) });
  }

  /** An integer; `signed` when it may be negative (i32, decimal text). */
  protected number(expr: string, signed = false): void {
    this.ops.push({ num: expr, signed });
  }

  /**
   * Emits the pending writes: one capacity check per run of bounded writes, neighbouring
   * pieces merged, and an integer written again (a value and its `show`, an entry's
   * summary) copied from where it was first written.
   */
  protected flush(): void {
    const ops = this.ops;
    this.ops = [];
    if (this.silent) return;
    const uses = new Map<string, number>();
    for (const op of ops) if ('num' in op) uses.set(op.num, (uses.get(op.num) ?? 0) + 1);
    const written = new Map<string, string>();
    let i = 0;
    while (i < ops.length) {
      const first = ops[i]!;
      if ('code' in first && first.max === undefined) {
        this.emit(first.code);
        i++;
        continue;
      }
      // A run of bounded writes.
      const run: ({ readonly lit: string } | string)[] = [];
      let fixed = 0;
      const bounds: string[] = [];
      for (; i < ops.length; i++) {
        const op = ops[i]!;
        if ('lit' in op) {
          const last = run.at(-1);
          if (typeof last === 'object') run[run.length - 1] = { lit: last.lit + op.lit };
          else run.push({ lit: op.lit });
        } else if ('num' in op) {
          fixed += 11;
          const at = written.get(op.num);
          if (at !== undefined) {
            run.push(`for (let i = ${at}; i < ${at}e; i++) buf[o++] = buf[i];`);
          } else if (uses.get(op.num)! > 1) {
            const p = this.name('p');
            written.set(op.num, p);
            run.push(`const ${p} = o; ${numberCode(op.num, op.signed)} const ${p}e = o;`);
          } else {
            run.push(numberCode(op.num, op.signed));
          }
        } else if (op.max === undefined) {
          break;
        } else {
          run.push(op.code);
          if (/^\d+$/.test(op.max)) fixed += Number(op.max);
          else bounds.push(op.max);
        }
      }
      const pieces = run.map((x) => (typeof x === 'string' ? x : encoder.encode(x.lit)));
      for (const x of pieces) if (typeof x !== 'string') fixed += x.length;
      const bound = [String(fixed), ...bounds].join(' + ');
      if (bound !== '0')
        this.emit(`if (o + ${bound} > buf.length) { sink.at = o; sink.reserve(${bound}); buf = sink.buf; dv = viewOf(buf); }`);
      for (const x of pieces) {
        if (typeof x === 'string') this.emit(x);
        else this.emit(`${fixedText(x)} o += ${x.length};`);
      }
    }
  }

  /** A number read into `n` as a node's JSON `value`: an integer's digits, else its kind's JSON text (numbers.ts). */
  protected numberValue(type: NumberType, n: string): void {
    const k = numbers[type];
    if (k.is === 'int') this.number(n, k.signed);
    else this.write(`o = ascii(buf, o, ${this.constRef(k.json)}(${n}));`, 26);
  }

  /**
   * A number's shown text, by its declaration: an integer in decimal, hexadecimal or by its value
   * table (each value's text kept once made), anything else as its kind shows it (numbers.ts).
   */
  protected numberShow(f: Pick<IntField, 'type' | 'base' | 'values'>, n: string): CodeShow {
    const { type, base, values } = f;
    const k = numbers[type];
    const quoted = (text: () => void) => (): void => {
      this.lit('"');
      text();
      this.lit('"');
    };
    if (k.is !== 'int') {
      const text = (): void => this.write(`o = ascii(buf, o, ${this.constRef((v: number | bigint) => k.show(v, base))}(${n}));`, 24);
      return { text, json: quoted(text), maybeEmpty: false };
    }
    if (base === 'dec' && !values) {
      const text = (): void => this.number(n, k.signed);
      return { text, json: quoted(text), maybeEmpty: false };
    }
    if (base === 'hex' && !values) {
      const text = (): void => {
        this.lit('0x');
        this.write(`o = hexInt(buf, o, ${n}, ${k.size * 2});`, k.size * 2);
      };
      return { text, json: quoted(text), maybeEmpty: false };
    }
    // Few distinct values per field in practice (opcodes, types): keep the encoded text of each.
    const cached = (form: (s: string) => string): ((v: number) => Uint8Array) => {
      const seen = new Map<number, Uint8Array>();
      return (v: number): Uint8Array => {
        let b = seen.get(v);
        if (b === undefined) {
          b = encoder.encode(form(showInt(v, type, base, values)));
          if (seen.size < 256) seen.set(v, b);
        }
        return b;
      };
    };
    const longest = Math.max(0, ...Object.values(values ?? {}).map((v) => v.length));
    return {
      text: () => this.write(`o = put(buf, o, ${this.constRef(cached((s) => s))}(${n}));`, 3 * longest + 40),
      json: () => this.write(`o = put(buf, o, ${this.constRef(cached(jsonText))}(${n}));`, 6 * longest + 40),
      maybeEmpty: false,
    };
  }

  /** The array of a node's nodes ends: its last comma becomes the bracket. */
  protected closeArray(empty: boolean): void {
    if (empty) {
      this.lit(']');
      return;
    }
    const last = this.ops.at(-1);
    if (last && 'lit' in last && last.lit.endsWith(',')) this.ops[this.ops.length - 1] = { lit: `${last.lit.slice(0, -1)}]` };
    else this.write('buf[o - 1] = 93;', 0); // every node ends with '},'
  }

  /** The current read position as an expression. */
  protected pos(k = this.k): string {
    return k === 0 ? 'at' : `at + ${k}`;
  }

  /** The offset of the field about to be read, as a literal or a local. */
  protected offset(): string {
    if (this.fixed !== undefined) return String(this.fixed);
    let a = this.here.get(this.k);
    if (a === undefined) {
      a = this.name('a');
      this.emit(`const ${a} = ${this.pos()};`);
      this.here.set(this.k, a);
    }
    return a;
  }

  /** Writes an offset or length: a literal joins the fixed text. */
  protected numberOrLit(expr: string): void {
    if (/^\d+$/.test(expr)) this.lit(expr);
    else this.number(expr);
  }

  /** Makes `at` the read position. */
  protected settle(): void {
    if (this.k !== 0) this.emit(`at += ${this.k};`);
    this.avail -= this.k;
    if (this.k !== 0) this.here.clear();
    this.k = 0;
  }

  /** Makes sure `size` bytes are there at the read position, checking once for the run of fixed-size fields from `fields[i]`. */
  protected need(size: number, fields: readonly Field[], i: number): void {
    if (this.avail - this.k >= size) return;
    const run = Math.max(runLength(fields, i, checkedSize), size);
    this.emit(`if (${this.pos()} + ${run} > len) ${DECLINE}`);
    this.avail = this.k + run;
  }

  /**
   * Reads the bounds of a string of fixed width or ending at a NUL: declares `s` and `e`
   * (its text is bytes s..e) and, for a NUL-terminated one, moves the read position past
   * its NUL. Returns the expression of the bytes it takes on the wire.
   */
  protected unprefixedString(
    size: Exclude<StringSize, { readonly prefix: unknown }>,
    fields: readonly Field[],
    i: number,
    s: string,
    e: string,
  ): string {
    if ('fixed' in size) {
      this.need(size.fixed, fields, i);
      this.emit(`const ${s} = ${this.pos()};`);
      this.emit(`let ${e} = ${s};`);
      this.emit(`while (${e} < ${s} + ${size.fixed} && bytes[${e}] !== 0) ${e}++;`);
      return String(size.fixed);
    }
    this.emit(`const ${s} = ${this.pos()};`);
    this.emit(`let ${e} = ${s};`);
    this.emit(`while (${e} < len && bytes[${e}] !== 0) ${e}++;`);
    this.emit(`if (${e} === len) ${DECLINE}`);
    this.emit(`at = ${e} + 1;`);
    return `${e} - ${s} + 1`;
  }

  /** The read position moved by a variable amount: nothing is known past it. */
  protected moved(): void {
    this.here.clear();
    this.k = 0;
    this.avail = 0;
    this.fixed = undefined;
  }

  protected advance(size: number): void {
    this.k += size;
    if (this.fixed !== undefined) this.fixed += size;
  }

  /**
   * A subtree node: head (`offset`, `length`, `show`), then its children, whose reads
   * fix the length. Children that are plain fields are read into locals and written
   * after the head. Children holding a list or group are written first, then the head
   * behind them, and the two are swapped in place.
   */
  protected subtree(pre: string, start: string, fields: readonly Field[], children: () => void, show: () => void): void {
    if (this.silent) {
      // Its children's reads, checks and values; no head to write, nothing to move.
      children();
      return;
    }
    const plainKids = fields.every((x) => x.kind !== 'list' && x.kind !== 'group');
    // Held in a local: the writes come later, when `at` may have moved on.
    const length = (): string => {
      if (this.fixed !== undefined && /^\d+$/.test(start)) return String(this.fixed - Number(start));
      const l = this.name('l');
      this.emit(`const ${l} = ${this.pos()} - ${start};`);
      return l;
    };
    const writeHead = (len: string): void => {
      this.lit(pre);
      this.numberOrLit(start);
      this.lit(',"length":');
      this.numberOrLit(len);
      this.lit(',"value":null,"show":');
      show();
      this.lit(',"children":[');
    };
    if (plainKids) {
      const pending = this.ops;
      this.ops = [];
      children();
      const kids = this.ops;
      this.ops = pending;
      writeHead(length());
      this.ops.push(...kids);
      this.closeArray(fields.length === 0);
      this.lit('},');
      return;
    }
    this.flush();
    const g = this.name('g');
    this.emit(`const ${g} = o;`);
    children();
    this.closeArray(fields.length === 0);
    const len = length();
    this.flush();
    const h = this.name('h');
    this.emit(`const ${h} = o;`);
    writeHead(len);
    this.flush();
    this.emit(`{ const n = o - ${h}; if (o + n > buf.length) { sink.at = o; sink.reserve(n); buf = sink.buf; dv = viewOf(buf); }`);
    this.emit(`  buf.copyWithin(o, ${h}, o); buf.copyWithin(${g} + n, ${g}, ${h}); buf.copyWithin(${g}, o, o + n); }`);
    this.lit('},');
  }

  /** The node of a decimal count read into `n` (a string's length prefix, a list's count), and the comma after it. */
  protected countNode(abbrev: string, label: string, at: string, width: number, n: string): void {
    this.lit(head(abbrev, label));
    this.numberOrLit(at);
    this.lit(`,"length":${width},"value":`);
    this.number(n);
    this.lit(',"show":"');
    this.number(n);
    this.lit('"},');
  }
}

/**
 * Code that writes an integer at `o`: up to five digits inline (every offset and length in
 * a datagram, most values), more through `digits`. With a call per number, numbers took a
 * quarter of the time.
 */
const numberCode = (expr: string, signed: boolean): string =>
  `{ let m = ${expr};${signed ? ' if (m < 0) { buf[o++] = 45; m = -m; }' : ''}` +
  ' if (m < 10) buf[o++] = 48 + m;' +
  ' else if (m < 100000) { let i = o + (m < 100 ? 2 : m < 1000 ? 3 : m < 10000 ? 4 : 5); o = i;' +
  ' while (m >= 10) { const q = (m / 10) | 0; buf[--i] = 48 + m - q * 10; m = q; } buf[--i] = 48 + m; }' +
  ' else o = digits(buf, o, m); }';

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

/** The little-endian double whose bytes are `b[j..j+8]`, if writing it gives those bytes back (not a NaN). */
function asDouble(b: Uint8Array, j: number): string | undefined {
  for (let i = 0; i < 8; i++) f64Bytes[i] = b[j + i]!;
  const d = f64[0]!;
  if (Number.isNaN(d)) return undefined;
  const text = Object.is(d, -0) ? '-0' : String(d);
  f64[0] = Number(text);
  for (let i = 0; i < 8; i++) if (f64Bytes[i] !== b[j + i]) return undefined;
  return text;
}

/**
 * Code that writes fixed bytes at `o` through the DataView: eight at a time as a double
 * (never a NaN, so its bits are kept), else four as a 32-bit integer. For the 30 to 60
 * bytes of a node's fixed parts this measured five times faster than `set` (a call) and
 * twenty times faster than a byte loop.
 */
function fixedText(b: Uint8Array): string {
  const out: string[] = [];
  let j = 0;
  const word = (at: number): string =>
    `dv.setUint32(o + ${at}, ${(b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0}, true);`;
  for (; j + 8 <= b.length; j += 8) {
    const d = asDouble(b, j);
    out.push(d === undefined ? `${word(j)} ${word(j + 4)}` : `dv.setFloat64(o + ${j}, ${d}, true);`);
  }
  for (; j + 4 <= b.length; j += 4) out.push(word(j));
  for (; j < b.length; j++) out.push(`buf[o + ${j}] = ${b[j]};`);
  return out.join(' ');
}
