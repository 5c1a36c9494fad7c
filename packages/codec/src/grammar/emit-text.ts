/**
 * The annotated tree as text, compiled from the declaration like the JSON emitter
 * (`emit.ts`) and written as UTF-8 into a {@link ByteSink}: what `gamequery dissect -F text`
 * and `-e FIELD` print, for captures of hundreds of thousands of packets, without a
 * `FieldNode` per field.
 *
 * Three things are compiled from one walk of a layout's fields:
 *
 * - `tree`: a line per node, as the dissector's `renderTree` writes it: four spaces per
 *   level (from `indent`), the label, and `: ` and the node's `show` unless that is empty;
 *   secrets shown as it shows them (`********`, or the redacted text) unless told to show
 *   them in clear.
 * - `text`: only the nodes of some abbreviations, in tree order, as `    abbrev: show`
 *   lines (`tshark -e`; the dissector's text `-e`).
 * - `json`: only the nodes of some abbreviations, in tree order, each as `nodeJson` has it
 *   without its children and followed by a comma (the dissector's JSON `-e`).
 *
 * As in the JSON emitter, reads come first and writes are queued, so a run of fixed-size
 * fields is one bounds check and one capacity check, and the fixed text of neighbouring
 * lines (labels, indentation, constants' shown values) is one copy. A node's text that is
 * known only after its children are read (an entry's summary; in JSON, a subtree's length)
 * is written after reading them: entries of plain fields read into locals first; a subtree
 * holding a list writes its children, then its head behind them, and swaps the two.
 *
 * In text, strings cost nothing to decode when their bytes are printable ASCII (but a backslash):
 * every charset decodes those to themselves and `showText` leaves them be, so the bytes are
 * copied. Anything else is decoded in the caller's charset and escaped as `showText` does.
 *
 * It is right only for messages that decode: it declines (returns undefined, `sink.at`
 * where it was) wherever decoding would throw (and, as the JSON emitter does, at a list
 * entry that reads no bytes), and the caller takes the interpreter's tree
 * (`annotate.ts`), which ends with the malformed item. Warnings (a flag byte above 1, a list
 * shorter than its count, trailing bytes) leave the tree as it is and do not stop it. The
 * tests hold it to the interpreter's tree, rendered, byte for byte.
 */
import type { TextCodec } from './charset.ts';
import { MASK, redacted, showInt, showText } from './display.ts';
import type { Entry, Field, IntType, ListField, StringField } from './fields.ts';
import { intSize, lengthMeta } from './fields.ts';
import { DECLINE, EmitterCode, RELOAD, checkedSize, encoder, head, readers } from './emit-code.ts';
import { decimalText, runtime as jsonRuntime } from './emit-runtime.ts';
import type { ByteSink } from './sink.ts';
import { numericRange, toHex } from './wire.ts';

/**
 * Writes a message's lines (or its selected nodes) at `sink.at` and returns the bytes the
 * message took (trailing bytes are not its), or undefined, with `sink.at` where it was,
 * where decoding would throw. Secrets are written in clear when `clear`.
 */
export type TextEmitter = (bytes: Uint8Array, text: TextCodec, sink: ByteSink, clear: boolean) => number | undefined;

/** What to compile: the whole tree from `indent`, or the nodes of the abbreviations in `pick` as text or JSON. */
export type TextMode =
  | { readonly kind: 'tree'; readonly indent: number }
  | { readonly kind: 'text' | 'json'; readonly pick: ReadonlySet<string> };

/* ---------- run time ---------- */

/** 1 for the bytes that every charset decodes to themselves and `showText` leaves as they are. */
const PLAIN = Uint8Array.from({ length: 256 }, (_, c) => (c >= 0x20 && c <= 0x7e && c !== 0x5c ? 1 : 0));

/**
 * `showText` of the string decoded from bytes `s..e`, as UTF-8: its bytes, when every one is
 * {@link PLAIN}, else decoded and escaped through the sink (the caller reloads `buf`). At most
 * 4 bytes a byte (`\x9f`, or U+FFFD for a byte UTF-8 cannot decode), which the caller reserves.
 */
function shown(sink: ByteSink, buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number, text: TextCodec): number {
  let i = s;
  let p = o;
  for (; i < e; i++) {
    const c = bytes[i]!;
    if (PLAIN[c] === 0) break;
    buf[p++] = c;
  }
  if (i === e) return p;
  sink.at = o;
  sink.raw(showText(text.decode(bytes, s, e)));
  return sink.at;
}

/** What a secret shows in place of `text` unless shown in clear: a match of `pattern` redacted, else the mask for a `whole` secret. */
function hiddenText(text: string, whole: boolean, pattern: RegExp | undefined): string | undefined {
  const masked = pattern === undefined ? undefined : redacted(text, pattern);
  return masked !== undefined ? showText(masked) : whole ? MASK : undefined;
}

/** A secret string's (or decimal string's) shown text, masked unless `clear`, through the sink (it reserves for itself). */
function secretShown(sink: ByteSink, o: number, bytes: Uint8Array, s: number, e: number, text: TextCodec, clear: boolean, whole: boolean, pattern: RegExp | undefined): number {
  const t = text.decode(bytes, s, e);
  sink.at = o;
  sink.raw((clear ? undefined : hiddenText(t, whole, pattern)) ?? showText(t));
  return sink.at;
}

/** ASCII text (at most `t.length` bytes). */
function ascii(buf: Uint8Array, o: number, t: string): number {
  for (let i = 0; i < t.length; i++) buf[o++] = t.charCodeAt(i);
  return o;
}

/** Decimal text's shown form (`d` from {@link decimalText}): the bytes, or the decoded text (at most 11 bytes). */
function decimalShown(buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number, d: string | null): number {
  if (d !== null) return ascii(buf, o, d);
  for (let i = s; i < e; i++) buf[o++] = bytes[i]!;
  return o;
}

/** Decimal text's value as a template shows it, `String(Number(text))` (`-0` is `0`): at most 11 bytes. */
function decimalValue(buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number, d: string | null): number {
  if (d !== null) return ascii(buf, o, String(Number(d)));
  if (e - s === 2 && bytes[s] === 0x2d && bytes[s + 1] === 0x30) {
    buf[o] = 0x30;
    return o + 1;
  }
  return decimalShown(buf, o, bytes, s, e, d);
}

/** Bytes `s..e` as a template shows a `Uint8Array`, `String(bytes)`: decimal, comma-separated (at most 4 bytes a byte). */
function byteList(buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) {
    if (i > s) buf[o++] = 0x2c;
    o = jsonRuntime.digits(buf, o, bytes[i]!);
  }
  return o;
}

const runtime = { ...jsonRuntime, shown, secretShown, decimalText, decimalShown, decimalValue, byteList, asciiText: ascii };

/* ---------- the compiler ---------- */

/** A layout the compiler does not handle (a summary naming a list): its emitter always declines. */
class Unsupported extends Error {}

/** Where a field's decoded parts are, for an entry summary that names it. */
type Leaf =
  | { readonly kind: 'int'; readonly local: string; readonly signed: boolean }
  | { readonly kind: 'bool'; readonly local: string }
  | { readonly kind: 'text'; readonly s: string; readonly e: string }
  | { readonly kind: 'decimal'; readonly s: string; readonly e: string; readonly d: string }
  | { readonly kind: 'bytes'; readonly at: string; readonly length: number }
  | { readonly kind: 'ipv4'; readonly at: string };

/** The shown text of a node: fixed, or written by code (`text` and `json` forms) and possibly empty. */
type Show = { readonly lit: string } | CodeShow;
type CodeShow = { readonly text: () => void; readonly json: () => void; readonly maybeEmpty: boolean };

/** A leaf node: where it is, its JSON value and shown text (`value,"show":show`, for `json`), and its text. */
interface Node {
  readonly abbrev: string;
  readonly label: string;
  readonly at: () => string;
  readonly length: string;
  /** Writes `value,"show":"shown"`. */
  readonly json: () => void;
  readonly show: Show;
}

const jsonText = (text: string): string => JSON.stringify(text);

class TextCompiler extends EmitterCode {
  constructor(readonly mode: TextMode) {
    super();
  }

  /** Whether the node of `abbrev` is written. */
  #writes(abbrev: string): boolean {
    return this.mode.kind === 'tree' || this.mode.pick.has(abbrev);
  }

  #indent(depth: number): string {
    return ' '.repeat(4 * ((this.mode.kind === 'tree' ? this.mode.indent : 0) + depth));
  }

  /** Queues the writes of a leaf node at `depth`, if it is written. */
  #node(n: Node, depth: number): void {
    if (!this.#writes(n.abbrev)) return;
    const show = n.show;
    switch (this.mode.kind) {
      case 'tree':
        if ('lit' in show) this.lit(`${this.#indent(depth)}${n.label}${show.lit === '' ? '' : `: ${show.lit}`}\n`);
        else this.#maybeEmpty(`${this.#indent(depth)}${n.label}`, show);
        return;
      case 'text':
        this.lit(`    ${n.abbrev}: `);
        if ('lit' in show) this.lit(show.lit);
        else show.text();
        this.lit('\n');
        return;
      case 'json':
        this.lit(head(n.abbrev, n.label));
        this.numberOrLit(n.at());
        this.lit(',"length":');
        this.numberOrLit(n.length);
        this.lit(',"value":');
        n.json();
        this.lit('},');
    }
  }

  /** `prefix: shown\n`, or `prefix\n` where the shown text turns out empty. */
  #maybeEmpty(prefix: string, show: CodeShow): void {
    this.lit(`${prefix}: `);
    if (!show.maybeEmpty) {
      show.text();
      this.lit('\n');
      return;
    }
    const q = this.name('q');
    this.write(`const ${q} = o;`, 0);
    show.text();
    this.write(`if (o === ${q}) o -= 2;`, 0);
    this.lit('\n');
  }

  /** Code for `fields` at `depth` (reads now, writes pending); `leaves` collects what an entry summary may name. */
  fields(fields: readonly Field[], depth: number, leaves: Map<string, Leaf> | undefined): void {
    for (let i = 0; i < fields.length; i++) this.#field(fields, i, depth, leaves);
  }

  #field(fields: readonly Field[], i: number, depth: number, leaves: Map<string, Leaf> | undefined): void {
    const f = fields[i]!;
    if (f.kind === 'list') {
      this.#list(f, fields, i, depth);
      return;
    }
    if (f.kind === 'group') {
      this.#subtree(f, f.fields, depth, () => this.fields(f.fields, depth + 1, leaves), { lit: '' });
      return;
    }
    if (f.kind === 'string') {
      this.#string(f, fields, i, depth, leaves);
      return;
    }
    const size = checkedSize(f)!;
    this.need(size, fields, i);
    const p = this.pos();
    // The offset as a literal or a local, made only where something writes it (reads are
    // emitted now, writes later, when `at` may have moved on).
    let offset: string | undefined;
    const at = (): string => (offset ??= this.offset());
    const node = (json: () => void, show: Show): void =>
      this.#node({ abbrev: f.abbrev, label: f.label, at, length: String(size), json, show }, depth);
    const writes = this.#writes(f.abbrev);
    switch (f.kind) {
      case 'magic': {
        const expected = f.bytes;
        if (expected.length) this.emit(`if (${[...expected].map((b, j) => `bytes[${p} + ${j}] !== ${b}`).join(' || ')}) ${DECLINE}`);
        const text = f.display === 'text' ? showText(String.fromCharCode(...expected)) : toHex(expected);
        node(() => this.lit(`${jsonText(text)},"show":${jsonText(text)}`), { lit: text });
        break;
      }
      case 'const': {
        this.emit(`if (${readers[f.type](p)} !== ${f.value}) ${DECLINE}`);
        const text = showInt(f.value, f.type, f.base, f.values);
        node(() => this.lit(`${f.value},"show":${jsonText(text)}`), { lit: text });
        break;
      }
      case 'int': {
        const n = this.name('n');
        const signed = f.type.startsWith('i');
        if (writes || leaves) this.emit(`const ${n} = ${readers[f.type](p)};`);
        leaves?.set(f.name, { kind: 'int', local: n, signed });
        if (!writes) break;
        const shownInt = this.#intShow(f, n, signed);
        node(() => {
          this.number(n, signed);
          this.lit(',"show":');
          shownInt.json();
        }, shownInt);
        break;
      }
      case 'bool': {
        const b = this.name('b');
        if (!writes && !leaves) break;
        this.emit(`const ${b} = bytes[${p}];`);
        leaves?.set(f.name, { kind: 'bool', local: b });
        if (!writes) break;
        const text = this.constRef(FLAG_TEXT);
        const json = this.constRef(FLAG_JSON);
        node(() => this.write(`o = put(buf, o, ${json}[${b}]);`, 24), {
          text: () => this.write(`o = put(buf, o, ${text}[${b}]);`, 9), json: () => {}, maybeEmpty: false,
        });
        break;
      }
      case 'ipv4': {
        if (!writes && !leaves) break;
        const a = at();
        leaves?.set(f.name, { kind: 'ipv4', at: a });
        const dotted = (): void => this.write(`o = dotted(buf, o, bytes, ${a});`, 15);
        node(() => {
          this.lit('"');
          dotted();
          this.lit('","show":"');
          dotted();
          this.lit('"');
        }, { text: dotted, json: () => {}, maybeEmpty: false });
        break;
      }
      case 'bytes': {
        if (!writes && !leaves) break;
        const a = at();
        leaves?.set(f.name, { kind: 'bytes', at: a, length: f.length });
        const hex = (): void => this.write(`o = hexBytes(buf, o, bytes, ${a}, ${a} + ${f.length});`, 2 * f.length);
        node(() => {
          this.lit('"');
          hex();
          this.lit('","show":"');
          hex();
          this.lit('"');
        }, { text: hex, json: () => {}, maybeEmpty: f.length === 0 });
        break;
      }
    }
    this.advance(size);
  }

  /** An integer's shown text, by its declaration: decimal, hexadecimal, or a table's label (each value's text kept once made). */
  #intShow(f: { readonly type: IntType; readonly base: 'dec' | 'hex' | 'char'; readonly values?: Readonly<Record<number, string>> }, n: string, signed: boolean): CodeShow {
    if (f.base === 'dec' && !f.values) {
      return { text: () => this.number(n, signed), json: () => { this.lit('"'); this.number(n, signed); this.lit('"'); }, maybeEmpty: false };
    }
    if (f.base === 'hex' && !f.values) {
      const width = intSize[f.type] * 2;
      const text = (): void => {
        this.lit('0x');
        this.write(`o = hexInt(buf, o, ${n}, ${width});`, width);
      };
      return { text, json: () => { this.lit('"'); text(); this.lit('"'); }, maybeEmpty: false };
    }
    // Few distinct values per field in practice (opcodes, types): keep the encoded text of each.
    const { type, base, values } = f;
    const cached = (form: (s: string) => string): ((n: number) => Uint8Array) => {
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
    const text = this.constRef(cached((s) => s));
    const json = this.constRef(cached(jsonText));
    return {
      text: () => this.write(`o = put(buf, o, ${text}(${n}));`, 3 * longest + 40),
      json: () => this.write(`o = put(buf, o, ${json}(${n}));`, 6 * longest + 40),
      maybeEmpty: false,
    };
  }

  #string(f: StringField<string, string | number>, fields: readonly Field[], i: number, depth: number, leaves: Map<string, Leaf> | undefined): void {
    const size = f.size;
    const s = this.name('s');
    const e = this.name('e');
    // The string's own offset, when no variable-length field precedes it.
    const fixedStart = this.fixed === undefined ? undefined : this.fixed + ('prefix' in size ? intSize[size.prefix] : 0);
    let wire: string;
    if ('prefix' in size) {
      const width = intSize[size.prefix];
      this.need(width, fields, i);
      const p = this.pos();
      let offset: string | undefined;
      const len = lengthMeta(f);
      const n = this.name('n');
      const writesLength = this.#writes(len.abbrev);
      if (writesLength && this.mode.kind === 'json') offset = this.offset();
      this.emit(`const ${n} = ${readers[size.prefix](p)}, ${s} = ${this.pos(this.k + width)}, ${e} = ${s} + ${n};`);
      this.emit(`if (${e} > len) ${DECLINE}`);
      this.#count(len.abbrev, len.label, () => offset!, width, n, depth);
      this.emit(`at = ${e};`);
      this.moved();
      wire = n;
    } else {
      wire = this.unprefixedString(size, fields, i, s, e);
    }
    const writes = this.#writes(f.abbrev);
    const json = this.mode.kind === 'json' && writes;
    // The wire length as an expression of locals that stay as they are until the writes queued in their block.
    const length = wire;
    const at = (): string => (fixedStart === undefined ? s : String(fixedStart));
    // A secret is written masked or in clear as the caller asks: `whole, pattern` of its helpers.
    const secret = f.secret || f.redact ? `${!!f.secret}, ${f.redact ? this.constRef(f.redact) : 'undefined'}` : undefined;
    if (f.numeric) {
      const [min, max] = numericRange[f.numeric];
      const d = this.name('d');
      this.emit(`const ${d} = decimalText(bytes, ${s}, ${e}, ${min}, ${max}, text);`);
      this.emit(`if (${d} === undefined) ${DECLINE}`);
      leaves?.set(f.name, { kind: 'decimal', s, e, d });
      if (json) {
        const t = this.name('t');
        const v = this.name('v');
        this.emit(`const ${t} = ${d} ?? text.decode(bytes, ${s}, ${e}), ${v} = Number(${t});`);
        this.#node({
          abbrev: f.abbrev, label: f.label, at, length,
          json: () => {
            if (secret) this.write(`o = secretNumber(sink, o, ${v}, ${t}, clear, ${secret}); ${RELOAD}`, undefined);
            else {
              this.number(v, true);
              this.lit(',"show":"');
              this.write(`o = asciiText(buf, o, ${t});`, 11);
              this.lit('"');
            }
          },
          show: { lit: '' },
        }, depth);
      } else if (writes) {
        const text = secret
          ? (): void => this.write(`o = secretShown(sink, o, bytes, ${s}, ${e}, text, clear, ${secret}); ${RELOAD}`, undefined)
          : (): void => this.write(`o = decimalShown(buf, o, bytes, ${s}, ${e}, ${d});`, 11);
        this.#node({ abbrev: f.abbrev, label: f.label, at, length, json: () => {}, show: { text, json: () => {}, maybeEmpty: false } }, depth);
      }
    } else {
      leaves?.set(f.name, { kind: 'text', s, e });
      if (json) {
        const t = this.name('t');
        this.emit(`const ${t} = text.decode(bytes, ${s}, ${e});`);
        this.#node({
          abbrev: f.abbrev, label: f.label, at, length,
          json: () => {
            if (secret) this.write(`o = secretPair(sink, o, bytes, ${s}, ${e}, ${t}, clear, ${secret}); ${RELOAD}`, undefined);
            else this.write(`o = textPair(sink, buf, o, bytes, ${s}, ${e}, ${t}); ${RELOAD}`, `(${e} - ${s}) * 12 + 12`);
          },
          show: { lit: '' },
        }, depth);
      } else if (writes) {
        const text = secret
          ? (): void => this.write(`o = secretShown(sink, o, bytes, ${s}, ${e}, text, clear, ${secret}); ${RELOAD}`, undefined)
          : (): void => this.write(`o = shown(sink, buf, o, bytes, ${s}, ${e}, text); ${RELOAD}`, `(${e} - ${s}) * 4`);
        this.#node({ abbrev: f.abbrev, label: f.label, at, length, json: () => {}, show: { text, json: () => {}, maybeEmpty: true } }, depth);
      }
    }
    if ('fixed' in size) this.advance(size.fixed);
    else this.moved();
  }

  /** `expr` in a local, for a write queued until later. */
  #held(expr: string): string {
    const l = this.name('l');
    this.emit(`const ${l} = ${expr};`);
    return l;
  }

  /** The node of a decimal count read into `n` (a string's length prefix, a list's count). */
  #count(abbrev: string, label: string, at: () => string, width: number, n: string, depth: number): void {
    this.#node({
      abbrev, label, at, length: String(width),
      json: () => {
        this.number(n);
        this.lit(',"show":"');
        this.number(n);
        this.lit('"');
      },
      show: { text: () => this.number(n), json: () => {}, maybeEmpty: false },
    }, depth);
  }

  #list(f: ListField, fields: readonly Field[], i: number, depth: number): void {
    if (f.count) {
      const c = f.count;
      const width = intSize[c.type];
      this.need(width, fields, i);
      const p = this.pos();
      const offset = this.#writes(c.abbrev) && this.mode.kind === 'json' ? this.offset() : undefined;
      const n = this.name('n');
      this.emit(`const ${n} = ${readers[c.type](p)};`);
      this.#count(c.abbrev, c.label, () => offset!, width, n, depth);
      this.advance(width);
      this.settle();
      this.flush();
      const j = this.name('j');
      this.emit(`for (let ${j} = 0; ${j} < ${n}; ${j}++) {`);
      // Fewer entries than counted: a warning where tolerated (the tree is the same), else an error.
      this.emit(`if (at >= len) ${f.tolerateShort ? 'break;' : DECLINE}`);
      this.#entry(f, depth);
      this.emit('}');
    } else {
      this.settle();
      this.flush();
      const until = f.until!;
      this.emit('for (;;) {');
      this.emit(`if (at >= len) ${DECLINE}`);
      this.emit('if (bytes[at] === 0) {');
      this.moved();
      this.#node({
        abbrev: until.abbrev, label: until.label, at: () => 'at', length: '1',
        json: () => this.lit('0,"show":"0"'), show: { lit: '0' },
      }, depth);
      this.flush();
      this.emit('at++;');
      this.emit('break;');
      this.emit('}');
      this.#entry(f, depth);
      this.emit('}');
    }
    this.moved();
  }

  /** One entry of a list, inside its loop. */
  #entry(f: ListField, depth: number): void {
    const entry = f.entry;
    this.moved();
    const start = this.offset();
    const leaves = new Map<string, Leaf>();
    const read = (kidDepth: number) => (): void => {
      this.fields(entry.fields, kidDepth, leaves);
      this.settle();
      // An entry that read nothing would repeat forever on a huge count: not the fast path's business.
      this.emit(`if (at === ${start}) ${DECLINE}`);
    };
    // A flat entry is its single field: no subtree of its own.
    if (f.flat) read(depth)();
    else {
      const summary = entry.summary ? this.#summary(entry, leaves) : { lit: '' };
      this.#subtree(entry, entry.fields, depth, read(depth + 1), summary, start);
    }
    this.flush();
  }

  /**
   * A subtree node (a group, a list entry) and its children. Its head is written first when
   * it is known before them; else (an entry's summary; in JSON, the length) after reading
   * them: children that are plain fields are read into locals and written after the head,
   * children holding a list or group are written first, then the head behind them, and the
   * two are swapped in place.
   */
  #subtree(meta: { readonly abbrev: string; readonly label: string }, fields: readonly Field[], depth: number, children: () => void, show: Show, startAt?: string): void {
    if (!this.#writes(meta.abbrev)) {
      children();
      return;
    }
    const start = startAt ?? (this.mode.kind === 'json' ? this.offset() : '0');
    const later = this.mode.kind === 'json' || !('lit' in show);
    let length = '0';
    const writeHead = (): void => this.#node({
      abbrev: meta.abbrev, label: meta.label, at: () => start, length,
      json: () => {
        this.lit('null,"show":');
        if ('lit' in show) this.lit(jsonText(show.lit));
        else {
          this.lit('"');
          show.json();
          this.lit('"');
        }
      },
      show,
    }, depth);
    const measure = (): void => {
      if (this.mode.kind !== 'json') return;
      if (this.fixed !== undefined && /^\d+$/.test(start)) length = String(this.fixed - Number(start));
      else length = this.#held(`${this.pos()} - ${start}`);
    };
    if (!later) {
      writeHead();
      children();
      return;
    }
    if (fields.every((x) => x.kind !== 'list' && x.kind !== 'group')) {
      const pending = this.ops;
      this.ops = [];
      children();
      const kids = this.ops;
      this.ops = pending;
      measure();
      writeHead();
      this.ops.push(...kids);
      return;
    }
    this.flush();
    const g = this.name('g');
    this.emit(`const ${g} = o;`);
    children();
    measure();
    this.flush();
    const h = this.name('h');
    this.emit(`const ${h} = o;`);
    writeHead();
    this.flush();
    this.emit(`{ const n = o - ${h}; if (o + n > buf.length) { sink.at = o; sink.reserve(n); buf = sink.buf; dv = viewOf(buf); }`);
    this.emit(`  buf.copyWithin(o, ${h}, o); buf.copyWithin(${g} + n, ${g}, ${h}); buf.copyWithin(${g}, o, o + n); }`);
  }

  /** An entry's summary: its template, with the parts it names written from the locals that hold them, as `fillTemplate` shows them. */
  #summary(entry: Entry, leaves: Map<string, Leaf>): Show {
    const parts = entry.summary!.split(/\{(\w+)\}/);
    const declared = valueNames(entry.fields);
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i]!;
      // A list shows as its items joined, a name an object has of its own (`constructor`) as that: left to the interpreter.
      if (declared.get(name) === 'list' || (!declared.has(name) && name in {})) throw new Unsupported(`${entry.abbrev}: summary names ${name}`);
    }
    // Literal text in it: never empty.
    const maybeEmpty = parts.every((part, i) => i % 2 === 1 || part === '');
    const write = (json: boolean) => (): void => {
      parts.forEach((part, i) => {
        if (i % 2 === 0) {
          if (part !== '') this.lit(json ? jsonText(part).slice(1, -1) : part);
          return;
        }
        const leaf = leaves.get(part);
        if (!leaf) {
          this.lit('undefined'); // not in the entry's value
          return;
        }
        switch (leaf.kind) {
          case 'int': this.number(leaf.local, leaf.signed); return;
          case 'bool': this.write(`o = asciiText(buf, o, ${leaf.local} !== 0 ? 'true' : 'false');`, 5); return;
          case 'text':
            if (json) this.write(`o = shownInner(sink, buf, o, bytes, ${leaf.s}, ${leaf.e}, text.decode(bytes, ${leaf.s}, ${leaf.e})); ${RELOAD}`, `(${leaf.e} - ${leaf.s}) * 6 + 2`);
            else this.write(`o = shown(sink, buf, o, bytes, ${leaf.s}, ${leaf.e}, text); ${RELOAD}`, `(${leaf.e} - ${leaf.s}) * 4`);
            return;
          case 'decimal': this.write(`o = decimalValue(buf, o, bytes, ${leaf.s}, ${leaf.e}, ${leaf.d});`, 11); return;
          case 'bytes': this.write(`o = byteList(buf, o, bytes, ${leaf.at}, ${leaf.at} + ${leaf.length});`, 4 * leaf.length); return;
          case 'ipv4': this.write(`o = dotted(buf, o, bytes, ${leaf.at});`, 15); return;
        }
      });
    };
    return { text: write(false), json: write(true), maybeEmpty };
  }

  /** The whole layout: the emitter's source and the values it refers to. */
  compile(fields: readonly Field[]): { source: string; consts: unknown[] } {
    this.fields(fields, 0, undefined);
    this.settle();
    this.flush();
    this.emit('sink.at = o;');
    this.emit('return at;');
    const body = [
      'const len = bytes.length, from = sink.at;',
      'let at = 0, o = from, buf = sink.buf, dv = viewOf(buf);',
      ...this.lines,
    ].join('\n');
    return { source: body, consts: this.consts };
  }
}

/** The names an entry's value has, and what kind of field gives each (a group's fields are the entry's). */
function valueNames(fields: readonly Field[], into = new Map<string, Field['kind']>()): Map<string, Field['kind']> {
  for (const f of fields) {
    if (f.kind === 'group') valueNames(f.fields, into);
    else if ('name' in f) into.set(f.name, f.kind);
  }
  return into;
}

/** A flag byte's shown text, `Yes (n)` or `No (0)`, and its JSON value and shown text, by byte. */
const FLAG_TEXT = Array.from({ length: 256 }, (_, b) => encoder.encode(b === 0 ? 'No (0)' : `Yes (${b})`));
const FLAG_JSON = Array.from({ length: 256 }, (_, b) => encoder.encode(b === 0 ? 'false,"show":"No (0)"' : `true,"show":"Yes (${b})"`));

/** Declines every message: for a layout the compiler does not handle. */
const declines: TextEmitter = () => undefined;

/** Compiles a layout's fields to a text emitter of `mode`. */
export function compileText(fields: readonly Field[], mode: TextMode): TextEmitter {
  let compiled: { source: string; consts: unknown[] };
  try {
    compiled = new TextCompiler(mode).compile(fields);
  } catch (e) {
    if (e instanceof Unsupported) return declines;
    throw e;
  }
  const { source, consts } = compiled;
  const names = Object.keys(runtime);
  const factory = new Function(
    'rt', 'K',
    `const { ${names.join(', ')} } = rt;\n`
    + consts.map((_, i) => `const K${i} = K[${i}];\n`).join('')
    + `return function emitText(bytes, text, sink, clear) {\n${source}\n};`,
  ) as (rt: typeof runtime, k: unknown[]) => TextEmitter;
  return factory(runtime, consts);
}

/** The generated source of a layout's text emitter, for reading and for profiles. */
export const textEmitterSource = (fields: readonly Field[], mode: TextMode): string => new TextCompiler(mode).compile(fields).source;
