/**
 * The base of the text emitter's compiler (`TextFields`; emit-text.ts's `TextCompiler`
 * extends it): the writes of a node as tree line, `-e` text or `-e` JSON, and the code for
 * every field that is not a list (magic, constants, numbers, flags, strings and their length
 * prefixes). A list, and a group's subtree, are the subclass's (`list`, `textSubtree`).
 * Compile time only; the golden test holds the generated source byte for byte.
 */
import { showInt, showText } from './display.ts';
import type { Field, StringField } from './fields.ts';
import { lengthMeta } from './fields.ts';
import { numbers } from './numbers.ts';
import { DECLINE, EmitterCode, RELOAD, checkedSize, head, jsonText, type CodeShow } from './emit-code.ts';
import { FLAG_JSON, FLAG_TEXT } from './emit-text-runtime.ts';
import type { ListField } from './fields.ts';
import { numericRange, toHex } from './wire.ts';

/** What to compile: the whole tree from `indent`, or the nodes of the abbreviations in `pick` as text or JSON. */
export type TextMode =
  { readonly kind: 'tree'; readonly indent: number } | { readonly kind: 'text' | 'json'; readonly pick: ReadonlySet<string> };

/** A layout the compiler does not handle (a summary naming a list): its emitter always declines. */
export class Unsupported extends Error {}

/** Where a field's decoded parts are, for an entry summary that names it. */
export type Leaf =
  | { readonly kind: 'int'; readonly local: string; readonly signed: boolean }
  | { readonly kind: 'value'; readonly local: string }
  | { readonly kind: 'bool'; readonly local: string }
  | { readonly kind: 'text'; readonly s: string; readonly e: string }
  | { readonly kind: 'decimal'; readonly s: string; readonly e: string; readonly d: string }
  | { readonly kind: 'bytes'; readonly at: string; readonly length: number }
  | { readonly kind: 'ipv4'; readonly at: string };

/** The shown text of a node: fixed, or written by code (`text` and `json` forms) and possibly empty. */
export type Show = { readonly lit: string } | CodeShow;

/** A leaf node: where it is, its JSON value and shown text (`value,"show":show`, for `json`), and its text. */
export interface Node {
  readonly abbrev: string;
  readonly label: string;
  readonly at: () => string;
  readonly length: string;
  /** Writes `value,"show":"shown"`. */
  readonly json: () => void;
  readonly show: Show;
}

/** A text compiler's node writes and its fields other than lists. */
export abstract class TextFields extends EmitterCode {
  constructor(readonly mode: TextMode) {
    super();
  }

  /** Whether the node of `abbrev` is written. */
  protected writes(abbrev: string): boolean {
    return this.mode.kind === 'tree' || this.mode.pick.has(abbrev);
  }

  protected indent(depth: number): string {
    return ' '.repeat(4 * ((this.mode.kind === 'tree' ? this.mode.indent : 0) + depth));
  }

  /** Queues the writes of a leaf node at `depth`, if it is written. */
  protected node(n: Node, depth: number): void {
    if (!this.writes(n.abbrev)) return;
    const show = n.show;
    switch (this.mode.kind) {
      case 'tree':
        if ('lit' in show) this.lit(`${this.indent(depth)}${n.label}${show.lit === '' ? '' : `: ${show.lit}`}\n`);
        else this.maybeEmpty(`${this.indent(depth)}${n.label}`, show);
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
  protected maybeEmpty(prefix: string, show: CodeShow): void {
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
    for (let i = 0; i < fields.length; i++) this.field(fields, i, depth, leaves);
  }

  protected field(fields: readonly Field[], i: number, depth: number, leaves: Map<string, Leaf> | undefined): void {
    const f = fields[i]!;
    if (f.kind === 'list') {
      this.list(f, fields, i, depth);
      return;
    }
    if (f.kind === 'group') {
      this.textSubtree(f, f.fields, depth, () => this.fields(f.fields, depth + 1, leaves), { lit: '' });
      return;
    }
    if (f.kind === 'string') {
      this.string(f, fields, i, depth, leaves);
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
      this.node({ abbrev: f.abbrev, label: f.label, at, length: String(size), json, show }, depth);
    const writes = this.writes(f.abbrev);
    switch (f.kind) {
      case 'magic': {
        const expected = f.bytes;
        if (expected.length) this.emit(`if (${[...expected].map((b, j) => `bytes[${p} + ${j}] !== ${b}`).join(' || ')}) ${DECLINE}`);
        const text = f.display === 'text' ? showText(String.fromCharCode(...expected)) : toHex(expected);
        node(() => this.lit(`${jsonText(text)},"show":${jsonText(text)}`), { lit: text });
        break;
      }
      case 'const': {
        this.emit(`if (${numbers[f.type].code(p)} !== ${f.value}) ${DECLINE}`);
        const text = showInt(f.value, f.type, f.base, f.values);
        node(() => this.lit(`${f.value},"show":${jsonText(text)}`), { lit: text });
        break;
      }
      case 'int': {
        const n = this.name('n');
        const { is, signed } = numbers[f.type];
        if (writes || leaves) this.emit(`const ${n} = ${numbers[f.type].code(p)};`);
        leaves?.set(f.name, is === 'int' ? { kind: 'int', local: n, signed } : { kind: 'value', local: n });
        if (!writes) break;
        const shown = this.numberShow(f, n);
        node(() => {
          this.numberValue(f.type, n);
          this.lit(',"show":');
          shown.json();
        }, shown);
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
          text: () => this.write(`o = put(buf, o, ${text}[${b}]);`, 9),
          json: () => {},
          maybeEmpty: false,
        });
        break;
      }
      case 'ipv4': {
        if (!writes && !leaves) break;
        const a = at();
        leaves?.set(f.name, { kind: 'ipv4', at: a });
        const dotted = (): void => this.write(`o = dotted(buf, o, bytes, ${a});`, 15);
        node(
          () => {
            this.lit('"');
            dotted();
            this.lit('","show":"');
            dotted();
            this.lit('"');
          },
          { text: dotted, json: () => {}, maybeEmpty: false },
        );
        break;
      }
      case 'bytes': {
        if (!writes && !leaves) break;
        const a = at();
        leaves?.set(f.name, { kind: 'bytes', at: a, length: f.length });
        const hex = (): void => this.write(`o = hexBytes(buf, o, bytes, ${a}, ${a} + ${f.length});`, 2 * f.length);
        node(
          () => {
            this.lit('"');
            hex();
            this.lit('","show":"');
            hex();
            this.lit('"');
          },
          { text: hex, json: () => {}, maybeEmpty: f.length === 0 },
        );
        break;
      }
    }
    this.advance(size);
  }

  protected string(
    f: StringField<string, string | number>,
    fields: readonly Field[],
    i: number,
    depth: number,
    leaves: Map<string, Leaf> | undefined,
  ): void {
    const size = f.size;
    const s = this.name('s');
    const e = this.name('e');
    // The string's own offset, when no variable-length field precedes it.
    const fixedStart = this.fixed === undefined ? undefined : this.fixed + ('prefix' in size ? numbers[size.prefix].size : 0);
    let wire: string;
    if ('prefix' in size) {
      const width = numbers[size.prefix].size;
      this.need(width, fields, i);
      const p = this.pos();
      let offset: string | undefined;
      const len = lengthMeta(f);
      const n = this.name('n');
      const writesLength = this.writes(len.abbrev);
      if (writesLength && this.mode.kind === 'json') offset = this.offset();
      this.emit(`const ${n} = ${numbers[size.prefix].code(p)}, ${s} = ${this.pos(this.k + width)}, ${e} = ${s} + ${n};`);
      this.emit(`if (${e} > len) ${DECLINE}`);
      this.count(len.abbrev, len.label, () => offset!, width, n, depth);
      this.emit(`at = ${e};`);
      this.moved();
      wire = n;
    } else {
      wire = this.unprefixedString(size, fields, i, s, e);
    }
    const writes = this.writes(f.abbrev);
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
        this.node(
          {
            abbrev: f.abbrev,
            label: f.label,
            at,
            length,
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
          },
          depth,
        );
      } else if (writes) {
        const text = secret
          ? (): void => this.write(`o = secretShown(sink, o, bytes, ${s}, ${e}, text, clear, ${secret}); ${RELOAD}`, undefined)
          : (): void => this.write(`o = decimalShown(buf, o, bytes, ${s}, ${e}, ${d});`, 11);
        this.node(
          { abbrev: f.abbrev, label: f.label, at, length, json: () => {}, show: { text, json: () => {}, maybeEmpty: false } },
          depth,
        );
      }
    } else {
      leaves?.set(f.name, { kind: 'text', s, e });
      if (json) {
        const t = this.name('t');
        this.emit(`const ${t} = text.decode(bytes, ${s}, ${e});`);
        this.node(
          {
            abbrev: f.abbrev,
            label: f.label,
            at,
            length,
            json: () => {
              if (secret) this.write(`o = secretPair(sink, o, bytes, ${s}, ${e}, ${t}, clear, ${secret}); ${RELOAD}`, undefined);
              else this.write(`o = textPair(sink, buf, o, bytes, ${s}, ${e}, ${t}); ${RELOAD}`, `(${e} - ${s}) * 12 + 12`);
            },
            show: { lit: '' },
          },
          depth,
        );
      } else if (writes) {
        const text = secret
          ? (): void => this.write(`o = secretShown(sink, o, bytes, ${s}, ${e}, text, clear, ${secret}); ${RELOAD}`, undefined)
          : (): void => this.write(`o = shown(sink, buf, o, bytes, ${s}, ${e}, text); ${RELOAD}`, `(${e} - ${s}) * 4`);
        this.node(
          { abbrev: f.abbrev, label: f.label, at, length, json: () => {}, show: { text, json: () => {}, maybeEmpty: true } },
          depth,
        );
      }
    }
    if ('fixed' in size) this.advance(size.fixed);
    else this.moved();
  }

  /** `expr` in a local, for a write queued until later. */
  protected held(expr: string): string {
    const l = this.name('l');
    this.emit(`const ${l} = ${expr};`);
    return l;
  }

  /** The node of a decimal count read into `n` (a string's length prefix, a list's count). */
  protected count(abbrev: string, label: string, at: () => string, width: number, n: string, depth: number): void {
    this.node(
      {
        abbrev,
        label,
        at,
        length: String(width),
        json: () => {
          this.number(n);
          this.lit(',"show":"');
          this.number(n);
          this.lit('"');
        },
        show: { text: () => this.number(n), json: () => {}, maybeEmpty: false },
      },
      depth,
    );
  }

  /** A list and its entries, inside their loop. */
  protected abstract list(f: ListField, fields: readonly Field[], i: number, depth: number): void;

  /** A subtree node (a group, a list entry) and its children. */
  protected abstract textSubtree(
    meta: { readonly abbrev: string; readonly label: string },
    fields: readonly Field[],
    depth: number,
    children: () => void,
    show: Show,
    startAt?: string,
  ): void;
}
