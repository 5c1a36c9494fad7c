/**
 * The annotated tree as text, compiled from the declaration like the codec's JSON emitter
 * (its `grammar/emit.ts`, whose code generation, `EmitterCode`, this extends) and written as UTF-8 into a {@link ByteSink}: what `gamequery dissect -F text`
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
 * (the layout's `annotate`), which ends with the malformed item. Warnings (a flag byte above 1, a list
 * shorter than its count, trailing bytes) leave the tree as it is and do not stop it. The
 * tests hold it to the interpreter's tree, rendered, byte for byte.
 *
 * In three files: this one (lists and their entries, subtrees, summaries, and compiling),
 * fields.ts (the modes, a node's writes, every field that is not a list) and runtime.ts
 * (what the generated code calls per message); index.ts holds each layout's emitters.
 * Where the engine cannot generate code (a CSP without `'unsafe-eval'`, or an interpreting
 * layout) there is no emitter: the caller renders the tree, which writes the same text.
 */
import {
  DECLINE,
  RELOAD,
  compiled,
  jsonText,
  type ByteSink,
  type Entry,
  type Field,
  type ListField,
  type TextCodec,
} from '@gamequery/codec/internal';
import { runtime } from './runtime.ts';
import { TextFields, Unsupported, type Leaf, type Show, type TextMode } from './fields.ts';

export type { TextMode } from './fields.ts';

/**
 * Writes a message's lines (or its selected nodes) at `sink.at` and returns the bytes the
 * message took (trailing bytes are not its), or undefined, with `sink.at` where it was,
 * where decoding would throw. Secrets are written in clear when `clear`.
 */
export type TextEmitter = (bytes: Uint8Array, text: TextCodec, sink: ByteSink, clear: boolean) => number | undefined;

/** The text compiler: lists, their entries and summaries, subtrees, and the whole layout. */
class TextCompiler extends TextFields {
  protected list(f: ListField, fields: readonly Field[], i: number, depth: number): void {
    const c = f.count;
    const until = f.until;
    this.listLoop(f, fields, i, {
      at: c && this.writes(c.abbrev) && this.mode.kind === 'json' ? () => this.offset() : undefined,
      count: (n, width, at) => this.count(c!.abbrev, c!.label, () => at!, width, n, depth),
      // Fewer entries than counted: a warning where tolerated (the tree is the same), else an error.
      short: () => (f.tolerateShort ? 'break;' : DECLINE),
      until: () =>
        this.node(
          {
            abbrev: until!.abbrev,
            label: until!.label,
            at: () => 'at',
            length: '1',
            json: () => this.lit('0,"show":"0"'),
            show: { lit: '0' },
          },
          depth,
        ),
      entry: () => this.entry(f, depth),
    });
  }

  /** One entry of a list, inside its loop. */
  protected entry(f: ListField, depth: number): void {
    const entry = f.entry;
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
      const summary = entry.summary ? this.summary(entry, leaves) : { lit: '' };
      this.textSubtree(entry, entry.fields, depth, read(depth + 1), summary, start);
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
  protected textSubtree(
    meta: { readonly abbrev: string; readonly label: string },
    fields: readonly Field[],
    depth: number,
    children: () => void,
    show: Show,
    startAt?: string,
  ): void {
    if (!this.writes(meta.abbrev)) {
      children();
      return;
    }
    const start = startAt ?? (this.mode.kind === 'json' ? this.offset() : '0');
    const later = this.mode.kind === 'json' || !('lit' in show);
    let length = '0';
    const writeHead = (): void =>
      this.node(
        {
          abbrev: meta.abbrev,
          label: meta.label,
          at: () => start,
          length,
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
        },
        depth,
      );
    const measure = (): void => {
      if (this.mode.kind !== 'json') return;
      if (this.fixed !== undefined && /^\d+$/.test(start)) length = String(this.fixed - Number(start));
      else length = this.held(`${this.pos()} - ${start}`);
    };
    if (!later) {
      writeHead();
      children();
      return;
    }
    this.headFirst(fields, children, { measure, head: writeHead });
  }

  /** An entry's summary: its template, with the parts it names written from the locals that hold them, as `fillTemplate` shows them. */
  protected summary(entry: Entry, leaves: Map<string, Leaf>): Show {
    const parts = entry.summary!.split(/\{(\w+)\}/);
    const declared = valueNames(entry.fields);
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i]!;
      // A list shows as its items joined, a name an object has of its own (`constructor`) as that: left to the interpreter.
      if (declared.get(name) === 'list' || (!declared.has(name) && name in {}))
        throw new Unsupported(`${entry.abbrev}: summary names ${name}`);
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
          case 'int':
            this.number(leaf.local, leaf.signed);
            return;
          case 'value':
            // A 64-bit integer or a float, as a template shows it: `String(value)`.
            this.write(`o = ascii(buf, o, String(${leaf.local}));`, 24);
            return;
          case 'bool':
            this.write(`o = ascii(buf, o, ${leaf.local} !== 0 ? 'true' : 'false');`, 5);
            return;
          case 'text':
            if (json)
              this.write(
                `o = shownInner(sink, buf, o, bytes, ${leaf.s}, ${leaf.e}, text.decode(bytes, ${leaf.s}, ${leaf.e})); ${RELOAD}`,
                `(${leaf.e} - ${leaf.s}) * 6 + 2`,
              );
            else this.write(`o = shown(sink, buf, o, bytes, ${leaf.s}, ${leaf.e}, text); ${RELOAD}`, `(${leaf.e} - ${leaf.s}) * 4`);
            return;
          case 'decimal':
            this.write(`o = decimalValue(buf, o, bytes, ${leaf.s}, ${leaf.e}, ${leaf.d});`, 11);
            return;
          case 'bytes':
            this.write(`o = byteList(buf, o, bytes, ${leaf.at}, ${leaf.at} + ${leaf.length});`, 4 * leaf.length);
            return;
          case 'ipv4':
            this.write(`o = dotted(buf, o, bytes, ${leaf.at});`, 15);
            return;
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
    return { source: this.body(), consts: this.consts };
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

/** Declines every message: for a layout the compiler does not handle. */
const declines: TextEmitter = () => undefined;

/** Compiles a layout's fields to a text emitter of `mode`. */
export function compileText(fields: readonly Field[], mode: TextMode): TextEmitter {
  let code: { source: string; consts: unknown[] };
  try {
    code = new TextCompiler(mode).compile(fields);
  } catch (e) {
    if (e instanceof Unsupported) return declines;
    throw e;
  }
  return compiled<TextEmitter>('emitText', 'bytes, text, sink, clear', code.source, code.consts, runtime);
}

/** The generated source of a layout's text emitter, for reading and for profiles. */
export const textEmitterSource = (fields: readonly Field[], mode: TextMode): string => new TextCompiler(mode).compile(fields).source;
