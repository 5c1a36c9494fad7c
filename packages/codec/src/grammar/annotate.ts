/**
 * The annotating decode: an interpreter over a layout's declaration that returns,
 * for every field, its abbreviation, label, offset, length, value and display text,
 * nested for repeated groups — and on truncated or inconsistent input everything
 * decoded up to the exact place and reason it stopped.
 *
 * It is also the reference semantics: the compiled binary-parser decoder falls back
 * to it whenever it cannot take the fast path, so every error comes from here.
 */
import type { AutoCodec, TextCodec } from './charset.ts';
import { showText, fillTemplate, redacted } from './display.ts';
import type { Field, IntType, ListField, Meta, StringField } from './fields.ts';
import { hasValue } from './fields.ts';
import { numbers } from './numbers.ts';
import type { DecodeWarning } from './expert.ts';
import { leafKind } from './kinds/index.ts';
import type { NodeValue } from './kinds/kind.ts';
import { decimalOf, lengthMeta } from './kinds/string.ts';
import { shortListWarning } from './kinds/nested.ts';
import { CodecError, InvalidValueError, TruncatedError } from '../errors.ts';

/** One item of the annotated tree, as in Wireshark's proto_tree. */
export interface FieldNode {
  readonly abbrev: string;
  readonly label: string;
  readonly offset: number;
  length: number;
  /** The decoded value: number (a bigint for a 64-bit integer), text, boolean, bytes, or null for subtrees. */
  readonly value: NodeValue;
  /** Display text of the value (`i (Information) (0x69)`), without the label. */
  show: string;
  children?: FieldNode[];
  /** Not on the wire (links, response time, malformed item). */
  readonly generated?: boolean;
  /** Holds a secret (RCON password): renderers mask it unless asked not to. */
  readonly secret?: boolean;
  /** What a secret node shows instead when only part of it is secret (default: the mask alone). */
  readonly masked?: string;
  /** `charset: 'auto'`, a string with a byte ≥ 0x80: the charset chosen for it (detect.ts). */
  readonly charset?: string;
  /** With `charset`: how sure the choice is, 0.5…1. */
  readonly confidence?: number;
}

export type { DecodeWarning } from './expert.ts';

interface Walk {
  readonly layout: string;
  readonly bytes: Uint8Array;
  readonly text: TextCodec;
  offset: number;
  readonly warnings: DecodeWarning[];
}

type Obj = Record<string, unknown>;

function need(w: Walk, field: string, n: number): void {
  const available = w.bytes.length - w.offset;
  if (n > available) throw new TruncatedError({ layout: w.layout, field, offset: w.offset, needed: n, available });
}

/** Walks `fields`, filling `value` and `nodes`; throws a CodecError where it must stop. */
export function walkFields(fields: readonly Field[], w: Walk, value: Obj, nodes: FieldNode[]): void {
  for (const f of fields) walkField(f, w, value, nodes);
}

function walkField(f: Field, w: Walk, value: Obj, nodes: FieldNode[]): void {
  const start = w.offset;
  switch (f.kind) {
    case 'string':
      value[f.name] = walkString(f, w, nodes);
      return;
    case 'list':
      // Assigned before walking so a partial value holds the entries decoded so far.
      walkList(f, w, nodes, (value[f.name] = []));
      return;
    case 'group':
      walkSubtree(f, f.fields, w, value, nodes);
      return;
  }
  const k = leafKind(f);
  const size = k.size(f);
  need(w, f.abbrev, size);
  const { value: v, show } = k.read(f, w.bytes, start, w.layout, w.warnings);
  if (hasValue(f)) value[f.name] = v;
  nodes.push({ abbrev: f.abbrev, label: f.label, offset: start, length: size, value: v, show });
  w.offset += size;
}

/** A subtree node (a group, a list entry) over `fields`, its length set once they are walked, however that ends. */
function walkSubtree(meta: Meta, fields: readonly Field[], w: Walk, value: Obj, nodes: FieldNode[]): FieldNode {
  const start = w.offset;
  const node: FieldNode = { abbrev: meta.abbrev, label: meta.label, offset: start, length: 0, value: null, show: '', children: [] };
  nodes.push(node);
  try {
    walkFields(fields, w, value, node.children!);
  } finally {
    node.length = w.offset - start;
  }
  return node;
}

/** A length prefix or a count (`meta`) of `type`: its node, and its value. */
function walkLength(w: Walk, meta: Meta, type: IntType, nodes: FieldNode[]): number {
  const k = numbers[type];
  need(w, meta.abbrev, k.size);
  const n = k.read(w.bytes, w.offset) as number;
  nodes.push({ abbrev: meta.abbrev, label: meta.label, offset: w.offset, length: k.size, value: n, show: String(n) });
  w.offset += k.size;
  return n;
}

function walkString(f: StringField<string, string | number>, w: Walk, nodes: FieldNode[]): string | number {
  const size = f.size;
  let start = w.offset;
  let raw: Uint8Array;
  let wireLength: number;
  if ('prefix' in size) {
    const n = walkLength(w, lengthMeta(f), size.prefix, nodes);
    start = w.offset;
    need(w, f.abbrev, n);
    raw = w.bytes.subarray(start, start + n);
    wireLength = n;
  } else if ('fixed' in size) {
    need(w, f.abbrev, size.fixed);
    const all = w.bytes.subarray(start, start + size.fixed);
    const nul = all.indexOf(0);
    raw = nul < 0 ? all : all.subarray(0, nul);
    wireLength = size.fixed;
  } else {
    const nul = w.bytes.indexOf(0, start);
    if (nul < 0) {
      throw new TruncatedError(
        { layout: w.layout, field: f.abbrev, offset: start, needed: w.bytes.length - start + 1, available: w.bytes.length - start },
        'NUL terminator',
      );
    }
    raw = w.bytes.subarray(start, nul);
    wireLength = raw.length + 1;
  }
  const text = w.text.decode(raw);
  // `auto` says what it chose for a string that is not all ASCII.
  const detected = w.text.charset === 'auto' ? (w.text as AutoCodec).last?.detection : undefined;
  let decoded: string | number = text;
  if (f.numeric) {
    const n = decimalOf(text, f.numeric);
    if (n === undefined) {
      throw new InvalidValueError(
        { layout: w.layout, field: f.abbrev, offset: start, actual: text },
        `${JSON.stringify(text)} is not a decimal ${f.numeric === 'i32' ? 'signed' : 'unsigned'} 32-bit integer`,
      );
    }
    decoded = n;
  }
  const masked = f.redact ? redacted(text, f.redact) : undefined;
  nodes.push({
    abbrev: f.abbrev,
    label: f.label,
    offset: start,
    length: wireLength,
    value: decoded,
    show: showText(text),
    ...(f.secret || masked !== undefined ? { secret: true } : {}),
    ...(masked !== undefined ? { masked: showText(masked) } : {}),
    ...(detected && !f.numeric && !f.secret && masked === undefined ? { charset: detected.charset, confidence: detected.confidence } : {}),
  });
  w.offset = start + wireLength;
  return decoded;
}

function walkList(f: ListField, w: Walk, nodes: FieldNode[], items: unknown[]): void {
  const walkEntry = (): void => {
    const o: Obj = {};
    if (f.flat) {
      // A flat entry is its single field: no subtree of its own.
      walkFields(f.entry.fields, w, o, nodes);
    } else {
      const node = walkSubtree(f.entry, f.entry.fields, w, o, nodes);
      node.show = f.entry.summary ? fillTemplate(f.entry.summary, o) : '';
    }
    items.push(f.flat ? Object.values(o)[0] : o);
  };

  if (f.count) {
    const c = f.count;
    const n = walkLength(w, c, c.type, nodes);
    for (let i = 0; i < n; i++) {
      if (f.tolerateShort && w.offset === w.bytes.length) {
        w.warnings.push(shortListWarning(c.abbrev, w.offset, n, i));
        break;
      }
      walkEntry();
    }
    return;
  }
  // Terminated list: the entry's first field is a NUL-terminated string; empty ends it.
  const until = f.until!;
  for (;;) {
    if (w.offset < w.bytes.length && w.bytes[w.offset] === 0) {
      walkLength(w, until, 'u8', nodes);
      return;
    }
    if (w.offset >= w.bytes.length) {
      throw new TruncatedError({ layout: w.layout, field: until.abbrev, offset: w.offset, needed: 1, available: 0 });
    }
    walkEntry();
  }
}

/** Runs the interpreter over a whole message. */
export function interpret(
  layout: string,
  fields: readonly Field[],
  bytes: Uint8Array,
  text: TextCodec,
): { value: Obj; fields: FieldNode[]; bytesRead: number; warnings: DecodeWarning[]; error?: CodecError } {
  const w: Walk = { layout, bytes, text, offset: 0, warnings: [] };
  const value: Obj = {};
  const nodes: FieldNode[] = [];
  try {
    walkFields(fields, w, value, nodes);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return { value, fields: nodes, bytesRead: w.offset, warnings: w.warnings, error: e };
  }
  return { value, fields: nodes, bytesRead: w.offset, warnings: w.warnings };
}
