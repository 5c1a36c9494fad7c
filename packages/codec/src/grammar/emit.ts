/**
 * The annotated tree as JSON, compiled from the declaration and written as UTF-8 into a
 * {@link ByteSink}: the dissector's fast path for captures of hundreds of thousands of
 * packets.
 *
 * Building a `FieldNode` per field, mapping it to its JSON form and stringifying the lot
 * costs several times more than the decode itself, and most of that text is fixed by the
 * declaration (abbreviation, label, the length of an integer, a magic's value, an offset
 * that no variable-length field precedes). So each layout is compiled once, like
 * binary-parser compiles its decoders, into one straight-line JavaScript function
 * (`new Function`) that reads the fields, checks them, and writes the fixed parts as
 * pre-encoded bytes and the rest (offsets, numbers, text) as it goes.
 *
 * The reads of a run of fields come first and their writes after, so one capacity check
 * covers the run and neighbouring constants merge into one copy. A subtree node (a list
 * entry, a group) is written head first (`offset`, `length`, `show`, then `children`),
 * but its length and summary are only known once its children are read: an entry whose
 * fields are all plain fields reads them into locals and writes head and children after;
 * a subtree holding a list writes its children, then its head behind them, and swaps the
 * two in the buffer.
 *
 * Measured on a 100-player SA:MP `d` response: the same design with a closure per field
 * writing through the sink's methods was 3 to 4 times slower, and moving every entry's
 * children behind its head (instead of reading them into locals first) 15% slower.
 *
 * Like the binary-parser decoder, the fast path only has to be right for messages that
 * decode: it gives up (returns undefined) wherever decoding would fail — a short read, a
 * wrong constant, bad decimal text — and the caller takes the interpreter (`annotate.ts`),
 * which says what is wrong. Warnings (a flag byte above 1, a list shorter than its count,
 * trailing bytes) make it give up too unless it is given an {@link EmitState} to report
 * them in, as the interpreter would. Secrets (`secret`, `redact`) are written masked as
 * `nodeJson` masks them, or in clear, as the caller asks. The tests hold the two to the
 * same output byte for byte, through `nodeJson` (json.ts).
 *
 * The code-writing machinery is in `emit-code.ts`, the helpers the generated code calls
 * in `emit-runtime.ts`.
 */
import type { Field, ListField, StringField } from './fields.ts';
import { hasValue } from './fields.ts';
import { numbers } from './numbers.ts';
import { leafKind } from './kinds/index.ts';
import { flagJson } from './kinds/bool.ts';
import { numericRange } from './kinds/string.ts';
import { DECLINE, EmitterCode, RELOAD, checkedSize, compiled, encoder, head } from './emit-code.ts';
import { runtime, type JsonEmitter } from './emit-runtime.ts';

export { emitWith, type EmitState, type JsonEmitter } from './emit-runtime.ts';

/**
 * Where a field's value goes: a property of the value in scope, held in a local until the
 * scope ends; `keep` says which fields the value is wanted for (a summary-only emitter
 * builds the few its summary names, and decodes no other text).
 */
interface Scope {
  readonly props: [name: string, local: string][];
  readonly keep: (name: string) => boolean;
}

const ALL = (): boolean => true;
const NONE = (): boolean => false;

/** Where a leaf field's decoded parts are, for an entry summary that names it. */
interface Leaf {
  readonly kind: 'int' | 'text';
  readonly local: string;
  readonly signed?: boolean;
  readonly s?: string;
  readonly e?: string;
}

class Compiler extends EmitterCode {
  /**
   * @param wanted the top-level fields the value is built of (all when undefined).
   * @param silent nothing is written (a summary's reader: see {@link compileJson}).
   */
  constructor(
    private readonly wanted?: ReadonlySet<string>,
    silent = false,
  ) {
    super();
    this.silent = silent;
  }

  /** Code for `fields` (reads now, writes pending); `leaves` collects what an entry summary may name. */
  fields(fields: readonly Field[], scope: Scope, leaves: Map<string, Leaf>): void {
    for (let i = 0; i < fields.length; i++) this.#field(fields, i, scope, leaves);
  }

  #field(fields: readonly Field[], i: number, scope: Scope, leaves: Map<string, Leaf>): void {
    const f = fields[i]!;
    if (f.kind === 'list') {
      this.#list(f, fields, i, scope);
      return;
    }
    if (f.kind === 'group') {
      const children = (): void => this.fields(f.fields, scope, leaves);
      this.subtree(head(f.abbrev, f.label), this.offset(), f.fields, children, () => this.lit('""'));
      return;
    }
    if (f.kind === 'string') {
      this.#string(f, fields, i, scope, leaves);
      return;
    }
    const size = checkedSize(f)!;
    this.need(size, fields, i);
    const p = this.pos();
    const at = this.offset();
    this.lit(head(f.abbrev, f.label));
    this.numberOrLit(at);
    this.lit(`,"length":${size},"value":`);
    switch (f.kind) {
      case 'magic':
      case 'const':
        this.check(f, p);
        this.lit(`${leafKind(f).fixed!(f).json}},`);
        break;
      case 'int': {
        const n = this.name('n');
        const { is, signed, code } = numbers[f.type];
        this.emit(`const ${n} = ${code(p)};`);
        if (scope.keep(f.name)) scope.props.push([f.name, n]);
        if (is === 'int') leaves.set(f.name, { kind: 'int', local: n, signed });
        this.numberValue(f.type, n);
        this.lit(',"show":');
        this.numberShow(f, n).json();
        this.lit('},');
        break;
      }
      case 'bool': {
        const b = this.name('b');
        this.emit(`const ${b} = bytes[${p}];`);
        // A flag byte above 1 is a warning (the flag reads true): reported, or the interpreter's to report.
        this.emit(`if (${b} > 1) { if (st === null) ${DECLINE} warnFlag(st, ${JSON.stringify(f.abbrev)}, ${at}, ${b}); }`);
        if (scope.keep(f.name)) scope.props.push([f.name, `${b} !== 0`]);
        const [yes, no] = [1, 0].map((n) => this.constRef(encoder.encode(`${flagJson(n)}},`)));
        this.write(`o = put(buf, o, ${b} === 1 ? ${yes} : ${b} === 0 ? ${no} : flagTail(${b}));`, 25);
        break;
      }
      case 'ipv4':
      case 'bytes': {
        // Its value is its shown text: written once, then copied.
        const k = leafKind(f);
        if (scope.keep(f.name)) {
          const v = this.name('v');
          this.emit(`const ${v} = ${k.value!(f, p, at)};`);
          scope.props.push([f.name, v]);
        }
        this.quotedPair(...k.shown!(f, at));
        this.lit('},');
        break;
      }
    }
    this.advance(size);
  }

  #string(f: StringField<string, string | number>, fields: readonly Field[], i: number, scope: Scope, leaves: Map<string, Leaf>): void {
    const { s, e, start, wire, secret } = this.stringField(
      f,
      fields,
      i,
      (len, n, width, at) => this.countNode(len.abbrev, len.label, at!, width, n),
      () => () => this.offset(),
    );
    this.lit(head(f.abbrev, f.label));
    this.numberOrLit(start);
    this.lit(',"length":');
    this.numberOrLit(wire);
    this.lit(',"value":');
    const t = this.name('t');
    // Text nobody reads (not kept, not a number, not a secret) stays bytes where they can be copied as they are.
    const eager = scope.keep(f.name) || f.numeric || secret;
    if (eager) this.emit(`const ${t} = text.decode(bytes, ${s}, ${e});`);
    // Not even looked at when nothing is written; noted as read, for `auto`'s reading of the strings after it.
    else if (this.silent) this.emit(`const ${t} = null; if (text.skipped) text.skipped(bytes, ${s});`);
    else this.emit(`const ${t} = lazyText(text, bytes, ${s}, ${e});`);
    if (f.numeric) {
      const [min, max] = numericRange[f.numeric];
      const v = this.name('v');
      this.emit(`const ${v} = Number(${t});`);
      this.emit(`if (!DECIMAL.test(${t}) || ${v} < ${min} || ${v} > ${max}) ${DECLINE}`);
      if (scope.keep(f.name)) scope.props.push([f.name, v]);
      leaves.set(f.name, { kind: 'int', local: v, signed: true });
      if (secret) {
        this.write(`o = secretNumber(sink, o, ${v}, ${t}, clear, ${secret}); ${RELOAD}`, undefined);
        this.lit('},');
      } else {
        this.number(v, true);
        // Decimal text is at most 11 ASCII characters, shown as it is. (Not the bytes: a
        // UTF-8 decoder drops a byte order mark.)
        this.lit(',"show":"');
        this.write(`o = ascii(buf, o, ${t});`, 11);
        this.lit('"},');
      }
    } else {
      if (scope.keep(f.name)) scope.props.push([f.name, t]);
      leaves.set(f.name, { kind: 'text', local: t, s, e });
      if (secret) this.write(`o = secretPair(sink, o, bytes, ${s}, ${e}, ${t}, clear, ${secret}); ${RELOAD}`, undefined);
      else this.write(`o = textPair(sink, buf, o, bytes, ${s}, ${e}, ${t}); ${RELOAD}`, `(${e} - ${s}) * 12 + 12`);
      this.lit('},');
    }
    if ('fixed' in f.size) this.advance(f.size.fixed);
    else this.moved();
  }

  #list(f: ListField, fields: readonly Field[], i: number, scope: Scope): void {
    // Undefined: the list's value is not wanted, and its entries are not gathered.
    const items = scope.keep(f.name) ? this.name('items') : undefined;
    const c = f.count;
    this.listLoop(f, fields, i, {
      at: () => this.offset(),
      count: (n, width, at) => this.countNode(c!.abbrev, c!.label, at!, width, n),
      start: () => {
        if (items === undefined) return;
        this.emit(`const ${items} = [];`);
        scope.props.push([f.name, items]);
      },
      // Fewer entries than counted: a warning where tolerated (reported, or the interpreter's to report), else an error.
      short: (n, j) =>
        f.tolerateShort ? `{ if (st === null) ${DECLINE} warnShort(st, ${JSON.stringify(c!.abbrev)}, at, ${n}, ${j}); break; }` : DECLINE,
      until: () => {
        this.lit(head(f.until!.abbrev, f.until!.label));
        this.number('at');
        this.lit(',"length":1,"value":0,"show":"0"},');
      },
      entry: () => this.#entry(f, items),
    });
  }

  /** One entry of a list, inside its loop; pushes its value to `items` (where gathered). */
  #entry(f: ListField, items: string | undefined): void {
    const entry = f.entry;
    const start = this.offset();
    // An entry's values are wanted for the list's value, or for a summary only `fillTemplate` can write.
    const scope: Scope = { props: [], keep: items !== undefined || templated(entry.summary, entry.fields) ? ALL : NONE };
    const leaves = new Map<string, Leaf>();
    const only = f.flat ? entry.fields.find(hasValue)!.name : undefined;
    const read = (): void => {
      this.fields(entry.fields, scope, leaves);
      this.settle();
      // An entry that read nothing would repeat forever on a huge count: not the fast path's business.
      this.emit(`if (at === ${start}) ${DECLINE}`);
      if (items !== undefined) {
        const v = only === undefined ? objectLiteral(scope) : scope.props.find(([name]) => name === only)![1];
        this.emit(`${items}.push(${v});`);
      }
    };
    // A flat entry is its single field: no subtree of its own.
    if (only !== undefined) read();
    else this.subtree(head(entry.abbrev, entry.label), start, entry.fields, read, () => this.#summary(entry.summary, scope, leaves));
    this.flush();
  }

  /** An entry's `show`: its summary template, with the parts it names written from the locals that hold them. */
  #summary(summary: string | undefined, scope: Scope, leaves: Map<string, Leaf>): void {
    if (!summary) {
      this.lit('""');
      return;
    }
    const parts = summary.split(/\{(\w+)\}/);
    if (templated(summary, undefined, leaves)) {
      // Anything else (a list, bytes, a flag, a name not declared) as fillTemplate has it.
      const v = this.constRef(summary);
      this.write(`sink.at = o; sink.string(fillTemplate(${v}, ${objectLiteral(scope)})); o = sink.at; ${RELOAD}`, undefined);
      return;
    }
    this.lit('"');
    parts.forEach((part, i) => {
      if (i % 2 === 0) {
        this.lit(JSON.stringify(part).slice(1, -1));
        return;
      }
      const leaf = leaves.get(part)!;
      if (leaf.kind === 'text') {
        this.write(
          `o = shownInner(sink, buf, o, bytes, ${leaf.s}, ${leaf.e}, ${leaf.local}); ${RELOAD}`,
          `(${leaf.e} - ${leaf.s}) * 6 + 2`,
        );
      } else {
        this.number(leaf.local, leaf.signed);
      }
    });
    this.lit('"');
  }

  /** The whole layout: the emitter's source and the values it refers to. */
  compile(fields: readonly Field[]): { source: string; consts: unknown[] } {
    const wanted = this.wanted;
    const scope: Scope = { props: [], keep: wanted ? (name) => wanted.has(name) : ALL };
    this.lit('[');
    this.fields(fields, scope, new Map());
    this.closeArray(fields.length === 0);
    this.settle();
    // Trailing bytes are a warning, with no node of their own: the caller reports them.
    this.emit(`if (st === null) { if (at !== len) ${DECLINE} } else st.bytesRead = at;`);
    this.flush();
    this.emit('sink.at = o;');
    this.emit(`return ${objectLiteral(scope)};`);
    return { source: this.body(), consts: this.consts };
  }
}

/**
 * Whether an entry summary names something other than an integer or a string of the
 * entry (read from `leaves` once compiled, else from the declaration): then it is written
 * by `fillTemplate` from the entry's whole value.
 */
function templated(summary: string | undefined, fields: readonly Field[] | undefined, leaves?: ReadonlyMap<string, Leaf>): boolean {
  if (!summary) return false;
  const named = summary.split(/\{(\w+)\}/).filter((_, i) => i % 2 === 1);
  const leaf = leaves ? (name: string) => leaves.has(name) : (name: string) => leafNames(fields!).has(name);
  return !named.every(leaf);
}

/** The names of an entry's integer (number-valued) and string fields, groups included: what its compiled summary can write. */
function leafNames(fields: readonly Field[], out = new Set<string>()): Set<string> {
  for (const f of fields) {
    if (f.kind === 'group') leafNames(f.fields, out);
    else if ((f.kind === 'int' && numbers[f.type].is === 'int') || f.kind === 'string') out.add(f.name);
  }
  return out;
}

/** The value of a scope as an object literal, in declaration order. */
const objectLiteral = (scope: Scope): string =>
  `{ ${scope.props.map(([name, local]) => `${name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name)}: ${local}`).join(', ')} }`;

/**
 * Compiles a layout's fields to a JSON emitter: its value holds every field, or only the
 * top-level fields `wanted` (a summary's), and then text no value holds is not decoded.
 * A `silent` one writes nothing: it reads and checks the message as the emitter does
 * (declining, and reporting warnings, where it would) and builds the value, for a summary
 * without a tree.
 */
export function compileJson(fields: readonly Field[], wanted?: ReadonlySet<string>, silent = false): JsonEmitter {
  const { source, consts } = new Compiler(wanted, silent).compile(fields);
  return compiled('emitJson', 'bytes, text, sink, clear, st', source, consts, runtime);
}

/** The generated source of a layout's emitter, for reading and for profiles. */
export const emitterSource = (fields: readonly Field[], wanted?: ReadonlySet<string>, silent = false): string =>
  new Compiler(wanted, silent).compile(fields).source;
