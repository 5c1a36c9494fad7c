/**
 * The annotated tree as JSON text, compiled from the declaration: the dissector's fast
 * path for captures of hundreds of thousands of packets.
 *
 * Building a `FieldNode` per field, mapping it to its JSON form and stringifying the
 * lot costs several times more than the decode itself, and most of that text is fixed
 * by the declaration (abbreviation, label, the length of an integer, a magic's value).
 * So each field is compiled once into a step that writes its node's JSON directly,
 * with the fixed parts pre-rendered, and fills the decoded value on the way.
 *
 * Like the binary-parser decoder, the fast path only has to be right for well-formed
 * input: it gives up (returns undefined) on anything else — a short read, a wrong
 * constant, a warning, trailing bytes — and on layouts holding a secret, and the
 * caller takes the interpreter (`annotate.ts`), which says what is wrong. The tests
 * hold the two to the same output byte for byte, through `nodeJson` (json.ts).
 */
import type { TextCodec } from './charset.ts';
import { fillTemplate, showInt, showText } from './display.ts';
import type { Field, IntType, ListField, StringField } from './fields.ts';
import { hasValue, intSize, lengthMeta } from './fields.ts';
import { DECIMAL, intReaders, ipv4ToString, numericRange, toHex } from './wire.ts';

interface Cursor {
  readonly bytes: Uint8Array;
  readonly text: TextCodec;
  at: number;
}

type Obj = Record<string, unknown>;

/** Writes the JSON of one field's node(s) and stores its value; undefined leaves the fast path. */
type Step = (c: Cursor, value: Obj) => string | undefined;

export type JsonEmitter = (bytes: Uint8Array, text: TextCodec) => { value: Obj; json: string } | undefined;

/** `{"abbrev":…,"label":…,"offset":` — the part of a node that never changes. */
const head = (abbrev: string, label: string): string =>
  `{"abbrev":${JSON.stringify(abbrev)},"label":${JSON.stringify(label)},"offset":`;

/** Runs steps in order, joining their nodes with commas. */
function run(steps: readonly Step[], c: Cursor, value: Obj): string | undefined {
  let out = '';
  for (let i = 0; i < steps.length; i++) {
    const json = steps[i]!(c, value);
    if (json === undefined) return undefined;
    out = i === 0 ? json : `${out},${json}`;
  }
  return out;
}

/** `,"value":…,"show":…}` of an integer. Decimal integers without a table are shown as they are. */
function intTail(type: IntType, base: 'dec' | 'hex' | 'char', values: Readonly<Record<number, string>> | undefined): (n: number) => string {
  if (base === 'dec' && !values) return (n) => `,"value":${n},"show":"${n}"}`;
  // Few distinct values per field in practice (opcodes, types): keep the rendered text of each.
  const seen = new Map<number, string>();
  return (n) => {
    let tail = seen.get(n);
    if (tail === undefined) {
      tail = `,"value":${n},"show":${JSON.stringify(showInt(n, type, base, values))}}`;
      if (seen.size < 256) seen.set(n, tail);
    }
    return tail;
  };
}

function intStep(abbrev: string, label: string, type: IntType, tail: (n: number) => string, store?: string): Step {
  const size = intSize[type];
  const read = intReaders[type];
  const pre = head(abbrev, label);
  const mid = `,"length":${size}`;
  return (c, value) => {
    const at = c.at;
    if (at + size > c.bytes.length) return undefined;
    const n = read(c.bytes, at);
    if (store !== undefined) value[store] = n;
    c.at = at + size;
    return pre + at + mid + tail(n);
  };
}

function stringStep(f: StringField<string, string | number>): Step {
  const pre = head(f.abbrev, f.label);
  const size = f.size;
  const range = f.numeric ? numericRange[f.numeric] : undefined;
  const prefix = 'prefix' in size ? size.prefix : undefined;
  const prefixPre = prefix ? head(lengthMeta(f).abbrev, lengthMeta(f).label) : '';
  const prefixSize = prefix ? intSize[prefix] : 0;
  const readPrefix = prefix ? intReaders[prefix] : undefined;
  return (c, value) => {
    let lengthNode = '';
    let start = c.at;
    let end: number;
    let wire: number;
    if (prefix) {
      if (start + prefixSize > c.bytes.length) return undefined;
      wire = readPrefix!(c.bytes, start);
      lengthNode = `${prefixPre}${start},"length":${prefixSize},"value":${wire},"show":"${wire}"},`;
      start += prefixSize;
      end = start + wire;
      if (end > c.bytes.length) return undefined;
    } else if ('fixed' in size) {
      wire = size.fixed;
      if (start + wire > c.bytes.length) return undefined;
      const nul = c.bytes.subarray(start, start + wire).indexOf(0);
      end = nul < 0 ? start + wire : start + nul;
    } else {
      end = c.bytes.indexOf(0, start);
      if (end < 0) return undefined;
      wire = end - start + 1;
    }
    const text = c.text.decode(c.bytes.subarray(start, end));
    const show = showText(text);
    let valueJson: string;
    if (range) {
      const n = Number(text);
      if (!DECIMAL.test(text) || n < range[0] || n > range[1]) return undefined;
      value[f.name] = n;
      valueJson = String(n);
    } else {
      value[f.name] = text;
      valueJson = JSON.stringify(text);
    }
    c.at = start + wire;
    const showJson = show === text && !range ? valueJson : JSON.stringify(show);
    return `${lengthNode}${pre}${start},"length":${wire},"value":${valueJson},"show":${showJson}}`;
  };
}

/** A subtree node: its children first (they fix its length), then the node around them. */
const subtree = (pre: string, start: number, length: number, show: string, children: string): string =>
  `${pre}${start},"length":${length},"value":null,"show":${show},"children":[${children}]}`;

function listStep(f: ListField): Step {
  const entrySteps = steps(f.entry.fields);
  const entryPre = head(f.entry.abbrev, f.entry.label);
  const summary = f.entry.summary;
  const only = f.flat ? f.entry.fields.find(hasValue)!.name : undefined;
  /** One entry: its node(s), or undefined; `items` gets its value. */
  const entry = (c: Cursor, items: unknown[]): string | undefined => {
    const start = c.at;
    const o: Obj = {};
    const kids = run(entrySteps, c, o);
    // An entry that read nothing would repeat forever on a huge count: not the fast path's business.
    if (kids === undefined || c.at === start) return undefined;
    items.push(only === undefined ? o : o[only]);
    if (only !== undefined) return kids;
    return subtree(entryPre, start, c.at - start, summary ? JSON.stringify(fillTemplate(summary, o)) : '""', kids);
  };

  if (f.count) {
    const count = f.count;
    const countStep = intStep(count.abbrev, count.label, count.type, intTail(count.type, 'dec', undefined));
    const readCount = intReaders[count.type];
    return (c, value) => {
      const at = c.at;
      let out = countStep(c, value);
      if (out === undefined) return undefined;
      const n = readCount(c.bytes, at);
      const items: unknown[] = [];
      value[f.name] = items;
      for (let i = 0; i < n; i++) {
        // Fewer entries than counted is a warning (tolerateShort) or an error: either way, not here.
        if (c.at >= c.bytes.length) return undefined;
        const json = entry(c, items);
        if (json === undefined) return undefined;
        out = `${out},${json}`;
      }
      return out;
    };
  }
  const untilPre = head(f.until!.abbrev, f.until!.label);
  return (c, value) => {
    const items: unknown[] = [];
    value[f.name] = items;
    let out = '';
    for (;;) {
      const at = c.at;
      if (at >= c.bytes.length) return undefined;
      if (c.bytes[at] === 0) {
        c.at = at + 1;
        return `${out}${untilPre}${at},"length":1,"value":0,"show":"0"}`;
      }
      const json = entry(c, items);
      if (json === undefined) return undefined;
      out = `${out}${json},`;
    }
  };
}

function step(f: Field): Step {
  if (f.kind === 'list') return listStep(f);
  const pre = head(f.abbrev, f.label);
  switch (f.kind) {
    case 'magic': {
      const expected = f.bytes;
      const shown = JSON.stringify(f.display === 'text' ? showText(String.fromCharCode(...expected)) : toHex(expected));
      const tail = `,"length":${expected.length},"value":${shown},"show":${shown}}`;
      return (c) => {
        const at = c.at;
        if (at + expected.length > c.bytes.length) return undefined;
        for (let i = 0; i < expected.length; i++) if (c.bytes[at + i] !== expected[i]) return undefined;
        c.at = at + expected.length;
        return pre + at + tail;
      };
    }
    case 'const': {
      const tail = intTail(f.type, f.base, f.values);
      const size = intSize[f.type];
      const read = intReaders[f.type];
      return (c) => {
        const at = c.at;
        if (at + size > c.bytes.length || read(c.bytes, at) !== f.value) return undefined;
        c.at = at + size;
        return `${pre}${at},"length":${size}${tail(f.value)}`;
      };
    }
    case 'int':
      return intStep(f.abbrev, f.label, f.type, intTail(f.type, f.base, f.values), f.name);
    case 'bool':
      return (c, value) => {
        const at = c.at;
        const n = c.bytes[at];
        // A flag byte above 1 is a warning: the interpreter reports it.
        if (n === undefined || n > 1) return undefined;
        value[f.name] = n === 1;
        c.at = at + 1;
        return pre + at + (n === 1 ? ',"length":1,"value":true,"show":"Yes (1)"}' : ',"length":1,"value":false,"show":"No (0)"}');
      };
    case 'ipv4':
      return (c, value) => {
        const at = c.at;
        if (at + 4 > c.bytes.length) return undefined;
        const ip = ipv4ToString(intReaders.u32be(c.bytes, at));
        value[f.name] = ip;
        c.at = at + 4;
        return `${pre}${at},"length":4,"value":"${ip}","show":"${ip}"}`;
      };
    case 'bytes':
      return (c, value) => {
        const at = c.at;
        if (at + f.length > c.bytes.length) return undefined;
        const b = c.bytes.slice(at, at + f.length);
        value[f.name] = b;
        c.at = at + f.length;
        const hex = toHex(b);
        return `${pre}${at},"length":${f.length},"value":"${hex}","show":"${hex}"}`;
      };
    case 'string':
      return stringStep(f);
    case 'group': {
      const inner = steps(f.fields);
      return (c, value) => {
        const start = c.at;
        const kids = run(inner, c, value);
        return kids === undefined ? undefined : subtree(pre, start, c.at - start, '""', kids);
      };
    }
  }
}

/** Makes V8 lay a concatenated string out flat (ToNumber reads every character of it). */
const flatten = (text: string): void => {
  void Number(text);
};

const steps = (fields: readonly Field[]): Step[] => fields.map(step);

/**
 * Compiles a layout's fields to a JSON emitter. Not for a layout holding a secret
 * (`secretFields`): the renderer decides whether to mask it, so it takes the tree.
 */
export function compileJson(fields: readonly Field[]): JsonEmitter {
  const all = steps(fields);
  return (bytes, text) => {
    const c: Cursor = { bytes, text, at: 0 };
    const value: Obj = {};
    const json = run(all, c, value);
    // Trailing bytes are a warning, which the JSON carries: the interpreter's job.
    if (json === undefined || c.at !== bytes.length) return undefined;
    const tree = `[${json}]`;
    // The text is a rope of a hundred pieces; flattened now, it is one string to keep (and for the GC to move).
    flatten(tree);
    return { value, json: tree };
  };
}
