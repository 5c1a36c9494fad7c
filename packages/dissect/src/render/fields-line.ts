/**
 * `-T fields -e NAME …`, as tshark writes it: one line per packet, the fields' values in the
 * order named, separated by a tab (`-E separator=`); a field the packet lacks is empty, one it
 * holds several times gives all of them joined by `,` (`-E occurrence=`, `-E aggregator=`);
 * `-E header=y` names the fields on a first line, `-E quote=d|s` quotes each value.
 *
 * A field is any name a display filter takes (filter/fields.ts), so `-e` and `-Y` know the
 * same names: the frame, IP and UDP fields, every field of the grammars, the generated ones.
 * Values are written as tshark writes them: integers in decimal (a field whose display base
 * is hexadecimal as `0x` and its width in digits; a 64-bit one exactly), times to the nanosecond,
 * booleans `1`/`0`, a float as the tree shows it (the shortest decimal that reads back to it, where
 * tshark 4.0 writes six significant digits of a 32-bit float and fifteen of a double), an item
 * without a value of its own (a group, a list entry) `1`, a protocol its tree line
 * (`User Datagram Protocol, Src Port: …`; ours their names, as tshark shows a Lua protocol),
 * bytes as plain hex, an IPv4 address dotted; a string up to its first NUL (as tshark shows
 * one; JSON has it whole), its control characters escaped (`\t`, `\n`, `\xNN`), so that a
 * value never breaks the line.
 */
import { builtInProtocols, registryOf, type FieldType, type ProtocolDeclaration } from '@gamequery/codec';
import { numbers, type ByteSink, type NumberKind } from '@gamequery/codec/internal';
import type { TimeFormat, Timestamp } from '../capture/timestamp.ts';
import { filterFields, type FilterContext, type FilterField, type FilterValue } from '../filter/fields.ts';
import { nearestFields } from '../filter/suggest.ts';
import type { DissectedRecord } from '../frame-record.ts';

/** tshark's `-E` options. */
export interface FieldsOptions {
  /** Between fields (`-E separator=`; `/t` tab, `/s` space). Default a tab. */
  readonly separator?: string;
  /** Which occurrences of a repeated field: f first, l last, a all (default). */
  readonly occurrence?: 'f' | 'l' | 'a';
  /** Between occurrences (`-E aggregator=`; `/s` space). Default `,`. */
  readonly aggregator?: string;
  /** Quote each value: d double, s single, n none (default). */
  readonly quote?: 'd' | 's' | 'n';
  /** Secrets (RCON passwords) in clear; else as the output shows them, masked. */
  readonly showSecrets?: boolean;
  /** The protocols whose fields may be named: the dissector's `protocols` (default: the built-in ones). */
  readonly protocols?: readonly ProtocolDeclaration[];
  /** How `_ws.col.Time` is written (tshark's `-t`); default seconds since the first frame. */
  readonly timeFormat?: TimeFormat;
}

/** `-e` named a field no display filter knows: the message names the nearest ones. */
export class UnknownFieldError extends Error {
  override readonly name = 'UnknownFieldError';
  readonly code = 'unknown-field';
  constructor(
    readonly field: string,
    readonly suggestions: readonly string[],
  ) {
    super(`unknown field '${field}'${suggestions.length ? ` (did you mean ${suggestions.join(', ')}?)` : ''}`);
  }
}

/** The numbers' kinds (wire types) by Wireshark type: how many hex digits one takes, how a float is shown. */
const KINDS: ReadonlyMap<FieldType, NumberKind> = new Map(Object.values(numbers).map((k) => [k.ft, k]));

/** How one named field is written. */
interface Column {
  readonly field: FilterField;
  /** Digits of a hexadecimal field (tshark's `0x0069`), else 0. */
  readonly hex: number;
  /** A float field's kind: its value shown as the tree shows it, the shortest decimal that reads back to it. */
  readonly float?: NumberKind;
}

/** Writes packets as `-T fields` lines (see the module comment). */
export class FieldsLine {
  readonly names: readonly string[];
  /**
   * The line of a packet that holds none of the fields: the separators alone (an absent
   * field writes nothing, quotes included).
   */
  readonly blank: string;
  readonly #columns: readonly Column[];
  readonly #separator: string;
  readonly #aggregator: string;
  readonly #occurrence: 'f' | 'l' | 'a';
  readonly #quote: string;
  #context: FilterContext;
  /** `-t`: the time column's format and, for `dd`, the time of the packet whose line was written last. */
  readonly #time: { format: TimeFormat; shownBefore: Timestamp | null } | undefined;

  /** Throws {@link UnknownFieldError} for a name no display filter takes. */
  constructor(names: readonly string[], options: FieldsOptions = {}) {
    const catalog = filterFields(options.protocols);
    const bases = new Map(registryOf(options.protocols ?? builtInProtocols).map((f) => [f.abbrev, f]));
    this.names = names;
    this.#columns = names.map((name) => {
      const field = catalog.get(name);
      if (!field) throw new UnknownFieldError(name, nearestFields(name, options.protocols));
      const registered = bases.get(name);
      const kind = registered && KINDS.get(registered.type);
      const hex = kind && registered.base !== 'dec' && registered.base !== 'none' ? kind.size * 2 : 0;
      return kind?.is === 'float' ? { field, hex, float: kind } : { field, hex };
    });
    this.#separator = fieldsSeparator(options.separator ?? '\t');
    this.#aggregator = fieldsSeparator(options.aggregator ?? ',');
    this.#occurrence = options.occurrence ?? 'a';
    this.#quote = options.quote === 'd' ? '"' : options.quote === 's' ? "'" : '';
    this.#time = options.timeFormat && options.timeFormat !== 'r' ? { format: options.timeFormat, shownBefore: null } : undefined;
    this.#context = { start: undefined, showSecrets: !!options.showSecrets, ...(this.#time ? { time: this.#time } : {}) };
    this.blank = this.#separator.repeat(Math.max(0, names.length - 1));
    const codec = this.#columns.filter(({ field }) => !field.layer);
    this.#layers = codec.length < this.#columns.length;
    this.#declaring = codec.every(({ field }) => field.layouts) ? new Set(codec.flatMap(({ field }) => [...field.layouts!])) : undefined;
  }

  /** The header line (`-E header=y`): the names, separated as the values are (never quoted, as tshark writes it). */
  header(): string {
    return this.names.join(this.#separator);
  }

  /**
   * Whether a packet read as layout `layout` (a layout id; undefined: a frame without a query
   * message) needs its record: always, unless every field named is a codec field, read from
   * the packet's own message, or a field of the frame's layers (frame, IP, UDP), and the
   * layout declares none of the codec fields. The dissector's `needs`: such a frame's line is
   * {@link blank}, or with layer fields its frame record's ({@link unneeded}), which reads no
   * message.
   */
  needs(layout: string | undefined): boolean {
    const declaring = this.#declaring;
    return declaring === undefined || (layout === undefined ? this.#layers : declaring.has(layout));
  }

  /** What a frame whose record is not needed comes out as (the dissector's `unneeded`): its frame record where a layer field is named. */
  get unneeded(): 'blank' | 'layers' {
    return this.#layers ? 'layers' : 'blank';
  }

  /**
   * Whether every field named is a codec field, read from a packet's own message, or a field
   * of the frame's layers: its lines read no link, response time or verdict (the dissector's
   * `links: false`).
   */
  get linkless(): boolean {
    return this.#declaring !== undefined;
  }

  /**
   * Whether every field named is a codec field, read from a packet's own message (no field of
   * the frame's layers either). Kept as it was named before {@link linkless}, which the
   * dissector's `links: false` now follows.
   */
  get payloadOnly(): boolean {
    return this.#declaring !== undefined && !this.#layers;
  }

  /** Whether every field named is a field of the frame's layers: no datagram's message is read. */
  get layersOnly(): boolean {
    return this.#declaring !== undefined && this.#declaring.size === 0 && this.#layers;
  }

  /**
   * The layouts that declare a codec field named, when every field named is a codec or layer
   * field; else undefined (any packet may have a line).
   */
  readonly #declaring: ReadonlySet<string> | undefined;
  /** Whether a field of the frame's layers is named. */
  readonly #layers: boolean;

  /**
   * {@link line} and a newline, written into `sink` as UTF-8 (the command's millions of lines):
   * a column of one value is written as it is, not joined into the line's text first, and a whole
   * number without making its text.
   */
  write(p: DissectedRecord, sink: ByteSink, start?: Timestamp | null): void {
    const ctx = this.#begin(start);
    const quote = this.#quote;
    for (let i = 0; i < this.#columns.length; i++) {
      const { field, hex, float } = this.#columns[i]!;
      if (i > 0) sink.raw(this.#separator);
      const values = field.text ? undefined : field.values(p, ctx);
      const texts = field.text ? field.text(p, ctx) : undefined;
      if ((values ?? texts)!.length !== 1) {
        sink.raw(this.#column(i, p, ctx, values, texts));
        continue;
      }
      if (quote) sink.raw(quote);
      const v = values?.[0];
      // A whole number in decimal (valueText's String(v)) without making its text; anything else as the line has it.
      if (typeof v === 'number' && field.type === 'number' && !hex && !float && Number.isSafeInteger(v)) sink.number(v);
      else writeEscaped(sink, texts ? texts[0]! : columnText(v!, field, hex, float));
      if (quote) sink.raw(quote);
    }
    this.#end(p);
    sink.ascii('\n');
  }

  /** One packet's line, without its newline; `start` is the capture's first frame's time (`frame.time_relative`). */
  line(p: DissectedRecord, start?: Timestamp | null): string {
    const ctx = this.#begin(start);
    let out = '';
    for (let i = 0; i < this.#columns.length; i++) {
      if (i > 0) out += this.#separator;
      out += this.#column(i, p, ctx);
    }
    this.#end(p);
    return out;
  }

  /** The context a packet's line is written in, its capture's first frame's time `start`. */
  #begin(start: Timestamp | null | undefined): FilterContext {
    if (start !== this.#context.start) this.#context = { ...this.#context, start };
    return this.#context;
  }

  /** A packet's line is written: `-t dd` counts the next one's time from its. */
  #end(p: DissectedRecord): void {
    if (this.#time && 'timestamp' in p && p.timestamp) this.#time.shownBefore = p.timestamp as Timestamp;
  }

  /** Column `i`'s text in a packet's line, quoted and escaped; `values` or `given` (texts), its field's where the caller has them. */
  #column(i: number, p: DissectedRecord, ctx: FilterContext, values?: readonly FilterValue[], given?: readonly string[]): string {
    const { field, hex, float } = this.#columns[i]!;
    let texts: readonly string[];
    if (field.text) texts = given ?? field.text(p, ctx);
    else {
      values ??= field.values(p, ctx);
      // The common case, without the arrays of several occurrences.
      if (values.length === 1) return this.#quote + escapeText(columnText(values[0]!, field, hex, float)) + this.#quote;
      texts = values.map((v) => columnText(v, field, hex, float));
    }
    if (texts.length === 0) return '';
    const picked = this.#occurrence === 'f' ? [texts[0]!] : this.#occurrence === 'l' ? [texts.at(-1)!] : texts;
    return this.#quote + picked.map(escapeText).join(this.#aggregator) + this.#quote;
  }
}

/**
 * Writes `text` into `sink` as UTF-8 with {@link escapeText}'s escapes: the same bytes as
 * `sink.raw(escapeText(text))`, without the copy where nothing is escaped (nearly always).
 */
function writeEscaped(sink: ByteSink, text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c) {
      sink.raw(escapeText(text));
      return;
    }
  }
  sink.raw(text);
}

/** tshark's separator spellings: `/t` a tab, `/s` a space, anything else itself. */
function fieldsSeparator(s: string): string {
  return s === '/t' ? '\t' : s === '/s' ? ' ' : s;
}

/** A value as its column shows it: a float as the tree shows it, anything else by type. */
function columnText(v: FilterValue, field: FilterField, hex: number, float: NumberKind | undefined): string {
  return float && typeof v === 'number' ? float.show(v, 'dec') : valueText(v, field, hex);
}

function valueText(v: FilterValue, field: FilterField, hex: number): string {
  // An item without a value of its own (a list entry, a group): tshark writes 1 for each.
  if (field.type === 'none') return '1';
  if (v === null) return '';
  switch (typeof v) {
    case 'boolean':
      return v ? '1' : '0';
    case 'bigint':
      return hex && v >= 0n ? `0x${v.toString(16).padStart(hex, '0')}` : String(v);
    case 'string': {
      // As tshark shows a string: up to its first NUL.
      const nul = v.indexOf('\0');
      return nul < 0 ? v : v.slice(0, nul);
    }
    case 'number':
      if (field.type === 'ipv4') return `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
      if (hex && Number.isInteger(v) && v >= 0) return `0x${v.toString(16).padStart(hex, '0')}`;
      return String(v);
    default:
      return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');
  }
}

/** Control characters as C escapes, so that a value never breaks its line or column. */
function escapeText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f\\]/.test(s) ? s.replace(/[\u0000-\u001f\u007f\\]/g, escapeChar) : s;
}

function escapeChar(c: string): string {
  switch (c) {
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\\':
      return '\\\\';
    default:
      return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  }
}

/** The generated items a packet's tree shows (packet.ts generatedNodes), in its order: `-V -e` takes them from the tree. */
export const TREE_GENERATED = ['response_in', 'response_to', 'time'] as const;

/** Per list of picks: the ones no tree node holds, each as a one-column line. */
const outerColumns = new WeakMap<readonly string[], readonly { readonly name: string; readonly line: FieldsLine }[]>();

/**
 * `-V -e`'s lines for the picked fields that are no node of a packet's message tree: the frame's,
 * IP's and UDP's (`frame.number`, `ip.src`, `udp.port`), and the pairing outcomes
 * (`samp.unanswered`): `    name: value`, the value as `-T fields` writes it, in the order
 * picked; none for an absent field. The message's own fields, and its links and response time,
 * come from its tree (and so do its secrets: none of these is one).
 */
export function outerPickLines(p: DissectedRecord, picks: readonly string[], start: Timestamp | null | undefined): string[] {
  let columns = outerColumns.get(picks);
  if (!columns) {
    const catalog = filterFields();
    columns = picks
      .filter((name) => {
        const f = catalog.get(name);
        return f !== undefined && !f.fromTree && f.type !== 'protocol' && !TREE_GENERATED.some((g) => name.endsWith(`.${g}`));
      })
      .map((name) => ({ name, line: new FieldsLine([name]) }));
    outerColumns.set(picks, columns);
  }
  const out: string[] = [];
  for (const { name, line } of columns) {
    const text = line.line(p, start);
    if (text !== '') out.push(`    ${name}: ${text}`);
  }
  return out;
}
