/**
 * The base of the text emitter's compiler (`TextFields`; compile.ts's `TextCompiler`
 * extends it): the writes of a node as tree line, `-e` text or `-e` JSON, and the code for
 * every field that is not a list (magic, constants, numbers, flags, strings and their length
 * prefixes). A list, and a group's subtree, are the subclass's (`list`, `textSubtree`).
 * Compile time only; the golden test holds the generated source byte for byte.
 */
import {
  DECLINE,
  EmitterCode,
  RELOAD,
  checkedSize,
  head,
  leafKind,
  numbers,
  numericRange,
  type CodeShow,
  type Field,
  type ListField,
  type StringField,
} from '@gamequery/codec/internal';
import { FLAG_JSON, FLAG_TEXT } from './runtime.ts';

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
      case 'magic':
      case 'const': {
        this.check(f, p);
        const { shown, json } = leafKind(f).fixed!(f);
        node(() => this.lit(json), { lit: shown });
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
      case 'ipv4':
      case 'bytes': {
        if (!writes && !leaves) break;
        const a = at();
        leaves?.set(f.name, f.kind === 'ipv4' ? { kind: 'ipv4', at: a } : { kind: 'bytes', at: a, length: f.length });
        const shown = leafKind(f).shown!(f, a);
        node(() => this.quotedPair(...shown), {
          text: () => this.write(...shown),
          json: () => {},
          maybeEmpty: shown[1] === 0,
        });
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
    const {
      s,
      e,
      start,
      wire: length,
      secret,
    } = this.stringField(
      f,
      fields,
      i,
      (len, n, width, at) => this.count(len.abbrev, len.label, () => at!, width, n, depth),
      (len) => (this.writes(len.abbrev) && this.mode.kind === 'json' ? () => this.offset() : undefined),
    );
    const writes = this.writes(f.abbrev);
    const asJson = this.mode.kind === 'json' && writes;
    // JSON: the node's `value,"show":shown`; text: its shown text (a secret's through its helper, masked unless in clear).
    let json = (): void => {};
    let text = secret
      ? (): void => this.write(`o = secretShown(sink, o, bytes, ${s}, ${e}, text, clear, ${secret}); ${RELOAD}`, undefined)
      : (): void => this.write(`o = shown(sink, buf, o, bytes, ${s}, ${e}, text); ${RELOAD}`, `(${e} - ${s}) * 4`);
    const t = asJson ? this.name('t') : '';
    if (f.numeric) {
      const [min, max] = numericRange[f.numeric];
      const d = this.name('d');
      this.emit(`const ${d} = decimalText(bytes, ${s}, ${e}, ${min}, ${max}, text);`);
      this.emit(`if (${d} === undefined) ${DECLINE}`);
      leaves?.set(f.name, { kind: 'decimal', s, e, d });
      if (!secret) text = (): void => this.write(`o = decimalShown(buf, o, bytes, ${s}, ${e}, ${d});`, 11);
      if (asJson) {
        const v = this.name('v');
        this.emit(`const ${t} = ${d} ?? text.decode(bytes, ${s}, ${e}), ${v} = Number(${t});`);
        json = (): void => {
          if (secret) this.write(`o = secretNumber(sink, o, ${v}, ${t}, clear, ${secret}); ${RELOAD}`, undefined);
          else {
            this.number(v, true);
            this.lit(',"show":"');
            this.write(`o = ascii(buf, o, ${t});`, 11);
            this.lit('"');
          }
        };
      }
    } else {
      leaves?.set(f.name, { kind: 'text', s, e });
      if (asJson) {
        this.emit(`const ${t} = text.decode(bytes, ${s}, ${e});`);
        json = (): void => {
          if (secret) this.write(`o = secretPair(sink, o, bytes, ${s}, ${e}, ${t}, clear, ${secret}); ${RELOAD}`, undefined);
          else this.write(`o = textPair(sink, buf, o, bytes, ${s}, ${e}, ${t}); ${RELOAD}`, `(${e} - ${s}) * 12 + 12`);
        };
      }
    }
    const show = asJson ? { lit: '' } : { text, json: (): void => {}, maybeEmpty: !f.numeric };
    if (writes) this.node({ abbrev: f.abbrev, label: f.label, at: () => start, length, json, show }, depth);
    if ('fixed' in f.size) this.advance(f.size.fixed);
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
