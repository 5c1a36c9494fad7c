/**
 * A message layout: one declaration, and everything derived from it.
 */
import type { Charset } from './charset.ts';
import { textCodec, type TextCodec } from './charset.ts';
import type { Field, ValueOf } from './fields.ts';
import { secretFields } from './fields.ts';
import type { DecodeWarning, FieldNode } from './annotate.ts';
import { interpret } from './annotate.ts';
import { TRAILING_BYTES, warning } from './expert.ts';
import { compile, type FastDecoder } from './compile.ts';
import { compileJson, emitWith, type JsonEmitter } from './emit.ts';
import { compileMeasure, type Measurer } from './measure.ts';
import { compileText, type TextEmitter } from './emit-text.ts';
import { measure, writeInto } from './encode.ts';
import { hexOf, redacted, shownValue, templateParts } from './display.ts';
import { ByteSink } from './sink.ts';
import { codeGeneration, interpretedDecoder, interpretedJson, interpretedMeasurer, interpretedText } from './interpreted.ts';
import type { CodecError } from '../errors.ts';

/** The protocols built in. A layout declared with {@link defineLayout} may name any other. */
export type Protocol = 'samp' | 'vcmp' | 'mcquery';
/** Who sends a message: the client (`request`) or the server (`response`). */
export type Direction = 'request' | 'response';

/** Options of a layout's decode, encode and annotate calls. */
export interface CodecOptions {
  /** Charset of the strings; defaults to the protocol's (windows-1252, or latin1 for Minecraft). */
  readonly charset?: Charset;
}

/** How the JSON emitter writes secrets (RCON passwords): masked (`********`, or the redacted text) unless `showSecrets`. */
export interface EmitOptions extends CodecOptions {
  readonly showSecrets?: boolean;
}

/** How the text emitter writes the tree: secrets as {@link EmitOptions} says, each line indented by four spaces `indent` times more. */
export interface TextEmitOptions extends EmitOptions {
  readonly indent?: number;
}

/** What a layout's `decode` returns: the value, the bytes it took and the warnings met on the way. */
export interface Decoded<V> {
  readonly value: V;
  /** Bytes the message took; fewer than the input when trailing bytes follow. */
  readonly bytesRead: number;
  /** Oddities that did not stop decoding (short lists, trailing bytes, odd flags). */
  readonly warnings: readonly DecodeWarning[];
}

/** The annotated tree of one message; on bad input, what was decoded plus why it stopped. */
export interface Annotation<V, P extends string = Protocol> {
  readonly layout: Layout<V, P>;
  /** Tree nodes in wire order; ends with a `<protocol>.malformed` node when `error` is set. */
  readonly fields: FieldNode[];
  /** The value when decoding completed. */
  readonly value?: V;
  /** Whatever was decoded, complete or not. */
  readonly partial: Partial<V>;
  readonly bytesRead: number;
  readonly warnings: readonly DecodeWarning[];
  readonly error?: CodecError;
  /** One-line description (Wireshark's Info column), e.g. `"Server" 13/250`. */
  readonly info: string;
}

/** What {@link defineLayout} takes: a message's name, its fields in wire order, and how to show it. */
export interface LayoutSpec<
  F extends readonly Field[],
  P extends string = string,
  M extends string = string,
  D extends Direction = Direction,
> {
  /**
   * Protocol name, lowercase (`samp`, or your own: `acme`): the first part of the layout's id,
   * of its field abbreviations (a test of yours should hold them to it) and of the exports' names.
   */
  readonly protocol: P;
  /** Message name, e.g. `info`; with the direction it names the layout. */
  readonly message: M;
  readonly direction: D;
  /** Short human title, e.g. "Server information". */
  readonly title: string;
  readonly fields: F;
  /** Info-column template with `{field}` placeholders, e.g. `"{hostname}" {players}/{maxPlayers}`. */
  readonly info?: string;
  readonly doc?: string;
  /** The protocol's display name (`SA:MP`); defaults to the built-in protocol's, else to `protocol`. */
  readonly protocolName?: string;
  /** Charset of the strings when the caller names none; defaults to windows-1252 (latin1 for `mcquery`). */
  readonly charset?: Charset;
}

/**
 * A message layout: its declaration and everything derived from it. `V` is the decoded value's
 * type (inferred from the fields), `P`, `M` and `D` the protocol, message and direction as
 * literal types, so that a union of layouts' packets narrows on them.
 */
export interface Layout<
  V = Record<string, unknown>,
  P extends string = Protocol,
  M extends string = string,
  D extends Direction = Direction,
> {
  /** `<protocol>.<message>.<direction>`, e.g. `samp.info.response`. */
  readonly id: string;
  readonly protocol: P;
  /** The protocol's display name, e.g. `SA:MP` (see {@link LayoutSpec.protocolName}). */
  readonly protocolName: string;
  readonly message: M;
  readonly direction: D;
  readonly title: string;
  readonly fields: readonly Field[];
  readonly doc?: string;
  readonly defaultCharset: Charset;
  /** Decodes one message; throws a typed {@link CodecError} on bad input. */
  decode(bytes: Uint8Array, options?: CodecOptions): Decoded<V>;
  /** Decodes with offsets for every field; never throws on bad input. */
  annotate(bytes: Uint8Array, options?: CodecOptions): Annotation<V, P>;
  /**
   * The annotated tree's fields as JSON text (`nodeJson` of each node), with the value,
   * several times faster than `annotate` + `JSON.stringify`. Only for a message that
   * decodes cleanly — no error, no warning — in a layout without secrets (or with
   * `showSecrets` given: `nodeJson(node, showSecrets)`); undefined otherwise, and
   * `annotate` tells why.
   */
  annotateJson(bytes: Uint8Array, options?: EmitOptions): { readonly value: V; readonly json: string } | undefined;
  /**
   * The same JSON text as {@link annotateJson}, written as UTF-8 into `sink` at `sink.at`
   * (which it moves past the text) without making a string: what the dissector writes its
   * NDJSON lines with. Returns the value. Undefined wherever `annotateJson` is (anything
   * `annotate` reports; a layout with secrets unless `showSecrets` is given), and then
   * `sink.at` is where it was, the bytes past it possibly changed.
   */
  emitJson(bytes: Uint8Array, sink: ByteSink, options?: EmitOptions): V | undefined;
  /**
   * {@link emitJson} for every message that decodes: warnings (trailing bytes, a flag byte
   * above 1, a list shorter than its count) do not stop it but are returned, as `annotate`
   * gives them (the tree has no node for trailing bytes), and secrets are written masked
   * (`********`, or the redacted text) unless `showSecrets`. Undefined, with `sink.at`
   * where it was, where `decode` would throw.
   */
  emitJsonWith(bytes: Uint8Array, sink: ByteSink, options?: EmitOptions): Decoded<V> | undefined;
  /**
   * The bytes `decode` would read, or -1 where it would throw, without decoding text or
   * building a value: for telling cheaply whether, and how much of, a datagram decodes.
   */
  measure(bytes: Uint8Array, options?: CodecOptions): number;
  /**
   * The annotated tree as text lines, written as UTF-8 into `sink` at `sink.at`: per node,
   * four spaces per level (plus `indent`), its label, and `: ` and its `show` unless that
   * is empty, then a newline — secrets masked (`********`, or the redacted text) unless
   * `showSecrets` — as the dissector's text output shows `annotate`'s tree. Returns the
   * bytes the message took; warnings leave the tree as it is and do not stop it. Undefined,
   * with `sink.at` where it was, where `decode` would throw.
   */
  emitText(bytes: Uint8Array, sink: ByteSink, options?: TextEmitOptions): number | undefined;
  /**
   * Only the nodes of the abbreviations in `abbrevs`, in tree order, written as {@link emitText}
   * writes the tree: `as` text, a line `    abbrev: show` each (secrets masked unless
   * `showSecrets`); `as` json, each node's `nodeJson` without its children, followed by a
   * comma. Compiled once per selection (the same array, or the same abbreviations).
   */
  emitFields(bytes: Uint8Array, sink: ByteSink, abbrevs: readonly string[], as: 'text' | 'json', options?: EmitOptions): number | undefined;
  encode(value: V, options?: CodecOptions): Uint8Array;
  /** Writes into `target` at `offset`; returns the bytes written. */
  encodeInto(value: V, target: Uint8Array, offset?: number, options?: CodecOptions): number;
  encodingLength(value: V, options?: CodecOptions): number;
  /** Info-column text for a decoded value. */
  describe(value: Partial<V>): string;
}

/** Display names of the built-in protocols. */
export const protocolNames: Record<Protocol, string> = { samp: 'SA:MP', vcmp: 'VC:MP', mcquery: 'Minecraft query' };

/** Protocol names as a tree's top item, like Wireshark's protocol titles. */
export const protocolTitles: Record<Protocol, string> = {
  samp: 'SA:MP Query Protocol',
  vcmp: 'VC:MP Query Protocol',
  mcquery: 'Minecraft Query Protocol (GameSpy4)',
};

const NO_WARNINGS: readonly DecodeWarning[] = Object.freeze([]);

/** Where `annotateJson` writes before it makes a string of it; reused by every layout. */
const scratch = new ByteSink();

/** A layout of one of the protocols, its value type left open: what code that handles every message holds. */
export type QueryLayout = Layout<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any message's value: Layout is invariant in it, so unknown will not do
/** A layout of any value, protocol, message and direction: what exporters and registries take. */
export type AnyLayout = Layout<any, string>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as QueryLayout, for any protocol name

/** Each layout's declaration, for {@link interpretedLayout}. */
const specs = new WeakMap<object, Spec>();

/**
 * Declares a message layout: the same declaration the built-in protocols use. From its fields
 * (the builders `magic`, `u8`…`i32be`, `bool`, `ipv4`, `bytes`, `prefixedString`, `fixedString`,
 * `cstring`, `decimalCstring`, `constant`, `countedList`, `terminatedList`, `group`) it derives
 * the decoder, the annotated tree, the JSON and text emitters, the encoder and the exports,
 * and the value's TypeScript type.
 *
 * Length prefixes and counts are fields of the layout but not of the value: the encoder
 * computes them. A declaration the compiler cannot handle throws on first use, naming the field.
 *
 * @example
 * const status = defineLayout({
 *   protocol: 'acme', message: 'status', direction: 'response', title: 'Server status',
 *   fields: [
 *     magic('ACME', { abbrev: 'acme.magic', label: 'Magic' }),
 *     u16le('players', { abbrev: 'acme.status.players', label: 'Players' }),
 *     prefixedString('motd', 'u8', { abbrev: 'acme.status.motd', label: 'Message of the day' }),
 *   ],
 * });
 * status.decode(bytes).value; // { players: number; motd: string }
 */
export function defineLayout<const F extends readonly Field[], const P extends string, const M extends string, const D extends Direction>(
  spec: LayoutSpec<F, P, M, D>,
): Layout<ValueOf<F>, P, M, D> {
  return build(spec, false) as Layout<ValueOf<F>, P, M, D>;
}

/**
 * A copy of `layout` that never generates code: what every layout becomes where
 * {@link codeGeneration} is false (a strict Content-Security-Policy). For tests and measurements.
 */
export function interpretedLayout<L extends AnyLayout>(layout: L): L {
  const spec = specs.get(layout);
  if (!spec) throw new TypeError(`${layout.id}: not a layout made by defineLayout`);
  return build(spec, true) as unknown as L;
}

type Spec = LayoutSpec<readonly Field[], string, string, Direction>;

function build(spec: Spec, interpreted: boolean): Layout<Record<string, unknown>, string> {
  type V = Record<string, unknown>;
  type P = string;
  type M = string;
  type D = Direction;
  const id = `${spec.protocol}.${spec.message}.${spec.direction}`;
  const defaultCharset: Charset = spec.charset ?? (spec.protocol === 'mcquery' ? 'latin1' : 'windows-1252');
  const protocolName = spec.protocolName ?? (protocolNames as Partial<Record<string, string>>)[spec.protocol] ?? spec.protocol;
  // Settled at the first compilation, once per layout: no call asks again.
  let generate: boolean | undefined;
  const compiles = (): boolean => (generate ??= !interpreted && codeGeneration());
  const fast = new Map<Charset, FastDecoder>();
  const secrets = secretFields(spec.fields);
  // Compiled on first use: most programs use a few of the layouts.
  let emitter: JsonEmitter | undefined;
  let measurer: Measurer | undefined;
  const textEmitters = new Map<number, TextEmitter>();
  const fieldEmitters = new Map<string, TextEmitter>();
  let lastPick: { readonly abbrevs: readonly string[]; readonly as: 'text' | 'json'; readonly emitter: TextEmitter } | undefined;
  const codecFor = (o?: CodecOptions, message?: Uint8Array) => {
    const text = textCodec(o?.charset ?? defaultCharset);
    // `auto` reads each string in the light of its message.
    if (message && text.begin) text.begin(message);
    return text;
  };
  // The Info column, resolved once: its constant head, and per placeholder the declaration it names and the text after it.
  const head = `${protocolName} ${spec.message} ${spec.direction}`;
  const infoParts = spec.info ? templateParts(spec.info) : undefined;
  const lead = infoParts ? `${head}: ${infoParts[0]}` : head;
  const infoFields = (infoParts ?? []).flatMap((key, i) => {
    if (i % 2 === 0) return [];
    const f = spec.fields.find((x) => 'name' in x && x.name === key);
    return [
      {
        key,
        after: infoParts![i + 1]!,
        hex: f?.kind === 'int' && f.base === 'hex' ? f.type : undefined,
        redact: f?.kind === 'string' ? f.redact : undefined,
      },
    ];
  });

  const layout: Layout<V, P, M, D> = {
    id,
    protocol: spec.protocol,
    protocolName,
    message: spec.message,
    direction: spec.direction,
    title: spec.title,
    fields: spec.fields,
    ...(spec.doc === undefined ? {} : { doc: spec.doc }),
    defaultCharset,

    decode(bytes, options) {
      const text = codecFor(options, bytes);
      let decoder = fast.get(text.charset);
      if (!decoder) fast.set(text.charset, (decoder = compiles() ? compileOrInterpret(spec.fields, text) : interpretedDecoder));
      const hit = decoder(bytes);
      if (hit) {
        const warnings = hit.bytesRead < bytes.length ? [trailing(hit.bytesRead, bytes.length)] : NO_WARNINGS;
        return { value: hit.value as V, bytesRead: hit.bytesRead, warnings };
      }
      const r = interpret(id, spec.fields, bytes, text);
      if (r.error) throw r.error;
      const warnings = r.bytesRead < bytes.length ? [...r.warnings, trailing(r.bytesRead, bytes.length)] : r.warnings;
      return { value: r.value as V, bytesRead: r.bytesRead, warnings };
    },

    annotate(bytes, options) {
      const r = interpret(id, spec.fields, bytes, codecFor(options, bytes));
      const warnings = !r.error && r.bytesRead < bytes.length ? [...r.warnings, trailing(r.bytesRead, bytes.length)] : r.warnings;
      const fields = r.fields;
      if (r.error) fields.push(malformedNode(spec.protocol, bytes, r.error, secrets.get(r.error.info.field) === 'whole'));
      return {
        layout,
        fields,
        partial: r.value as Partial<V>,
        bytesRead: r.bytesRead,
        warnings,
        info: layout.describe(r.value as Partial<V>),
        ...(r.error ? { error: r.error } : { value: r.value as V }),
      };
    },

    annotateJson(bytes, options) {
      scratch.at = 0;
      const value = layout.emitJson(bytes, scratch, options);
      return value === undefined ? undefined : { value, json: scratch.text(0) };
    },

    emitJson(bytes, sink, options) {
      // Secrets only when told how to write them: a caller that renders later decides then, from the tree.
      if (secrets.size && options?.showSecrets === undefined) return undefined;
      emitter ??= compiles() ? compileJson(spec.fields) : interpretedJson(id, spec.fields);
      return emitter(bytes, codecFor(options, bytes), sink, options?.showSecrets === true, null) as V | undefined;
    },

    emitJsonWith(bytes, sink, options) {
      emitter ??= compiles() ? compileJson(spec.fields) : interpretedJson(id, spec.fields);
      const r = emitWith(emitter, bytes, codecFor(options, bytes), sink, options?.showSecrets === true);
      if (!r) return undefined;
      const warnings =
        r.bytesRead < bytes.length ? [...(r.warnings ?? []), trailing(r.bytesRead, bytes.length)] : (r.warnings ?? NO_WARNINGS);
      return { value: r.value as V, bytesRead: r.bytesRead, warnings };
    },

    measure(bytes, options) {
      measurer ??= compiles() ? compileMeasure(spec.fields) : interpretedMeasurer(id, spec.fields);
      return measurer(bytes, options?.charset ?? defaultCharset);
    },

    emitText(bytes, sink, options) {
      const indent = options?.indent ?? 0;
      let emitter = textEmitters.get(indent);
      if (!emitter) {
        const mode = { kind: 'tree', indent } as const;
        textEmitters.set(indent, (emitter = compiles() ? compileText(spec.fields, mode) : interpretedText(id, spec.fields, mode)));
      }
      return emitter(bytes, codecFor(options, bytes), sink, options?.showSecrets === true);
    },

    emitFields(bytes, sink, abbrevs, as, options) {
      let emitter: TextEmitter;
      if (lastPick?.abbrevs === abbrevs && lastPick.as === as) emitter = lastPick.emitter;
      else {
        const key = `${as}\n${abbrevs.join('\n')}`;
        const mode = { kind: as, pick: new Set(abbrevs) };
        emitter = fieldEmitters.get(key) ?? (compiles() ? compileText(spec.fields, mode) : interpretedText(id, spec.fields, mode));
        if (fieldEmitters.size >= 64) fieldEmitters.clear();
        fieldEmitters.set(key, emitter);
        lastPick = { abbrevs, as, emitter };
      }
      return emitter(bytes, codecFor(options, bytes), sink, options?.showSecrets === true);
    },

    encode(value, options) {
      const text = codecFor(options);
      const length = measure(id, spec.fields, value as Record<string, unknown>, text);
      const out = new Uint8Array(length);
      writeInto(id, spec.fields, value as Record<string, unknown>, text, out, 0, length);
      return out;
    },

    encodeInto(value, target, offset = 0, options) {
      return writeInto(id, spec.fields, value as Record<string, unknown>, codecFor(options), target, offset);
    },

    encodingLength(value, options) {
      return measure(id, spec.fields, value as Record<string, unknown>, codecFor(options));
    },

    describe(value) {
      // Runs once per packet of a capture: one concatenation, no object of shown values.
      let out = lead;
      for (let i = 0; i < infoFields.length; i++) {
        const { key, after, hex, redact } = infoFields[i]!;
        const v = (value as Record<string, unknown>)[key];
        // Integers declared hexadecimal read as such; a partial value shows '?' for what is missing.
        // The Info column is not a place for secrets, even with --show-secrets: the tree has them.
        out +=
          shownValue(
            v === undefined
              ? '?'
              : hex && typeof v === 'number'
                ? hexOf(v, hex)
                : redact && typeof v === 'string'
                  ? (redacted(v, redact) ?? v)
                  : v,
          ) + after;
      }
      return out;
    },
  };
  specs.set(layout, spec);
  return layout;
}

/**
 * The generated `<protocol>.malformed` item: where decoding stopped, why, and the bytes
 * left. When decoding stopped inside a secret (a password cut short), those bytes are the
 * secret's first ones, so the item is a secret too.
 */
export function malformedNode(protocol: string, bytes: Uint8Array, error: CodecError, secret = false): FieldNode {
  const at = Math.min(error.info.offset, bytes.length);
  return {
    abbrev: `${protocol}.malformed`,
    label: 'Malformed Packet',
    offset: at,
    length: bytes.length - at,
    value: error.name,
    show: error.message,
    generated: true,
    ...(secret ? { secret: true } : {}),
  };
}

/**
 * The binary-parser decoder of `fields`, or the interpreter where that compiler declines the
 * declaration (a group of several values, a constant inside a list entry: shapes a layout of
 * one's own may have that the built-in ones do not), which `decode` then takes every time.
 */
function compileOrInterpret(fields: readonly Field[], text: TextCodec): FastDecoder {
  try {
    return compile(fields, text);
  } catch {
    return interpretedDecoder;
  }
}

function trailing(bytesRead: number, length: number): DecodeWarning {
  return warning(TRAILING_BYTES, 'trailing', bytesRead, { count: length - bytesRead, offset: bytesRead });
}
