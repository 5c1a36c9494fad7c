/**
 * A message layout: one declaration, and everything derived from it.
 */
import type { Charset } from './charset.ts';
import { textCodec, type TextCodec } from './charset.ts';
import { namingOf } from './naming.ts';
import type { Field, ValueOf } from './fields.ts';
import { secretFields } from './kinds/index.ts';
import type { DecodeWarning, FieldNode } from './annotate.ts';
import { interpret } from './annotate.ts';
import { TRAILING_BYTES, warning } from './expert.ts';
import { compile, type FastDecoder } from './compile.ts';
import { compileJson, emitWith, type JsonEmitter } from './emit.ts';
import { compileMeasure, type Measurer } from './measure.ts';
import { measure, writeInto } from './encode.ts';
import { hexOf, redacted, shownValue, templateParts } from './display.ts';
import { ByteSink } from './sink.ts';
import { codeGeneration, interpretedDecoder, interpretedJson, interpretedMeasurer } from './interpreted.ts';
import type { CodecError } from '../errors.ts';
import { withoutStacks } from './stacks.ts';
import type {
  AnyLayout,
  CodecOptions,
  Decoded,
  Described,
  Direction,
  EmitOptions,
  InternalAnyLayout,
  InternalLayout,
  Layout,
  LayoutSpec,
} from './layout-types.ts';

export type {
  Direction,
  CodecOptions,
  EmitOptions,
  Decoded,
  Described,
  Annotation,
  LayoutSpec,
  Layout,
  AnyLayout,
  InternalLayout,
  InternalAnyLayout,
} from './layout-types.ts';

/** The charset of a layout (and a protocol) that names none. */
export const DEFAULT_CHARSET: Charset = 'windows-1252';

const NO_WARNINGS: readonly DecodeWarning[] = Object.freeze([]);

/** Where `annotateJson` writes before it makes a string of it; reused by every layout. */
const scratch = new ByteSink();

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
  const layout: Layout<Record<string, unknown>, string> = build(spec, false);
  return layout as Layout<ValueOf<F>, P, M, D>;
}

/**
 * A copy of `layout` that never generates code: what every layout becomes where
 * {@link codeGeneration} is false (a strict Content-Security-Policy). For tests and measurements.
 */
export function interpretedLayout<V, P extends string, M extends string, D extends Direction>(
  layout: Layout<V, P, M, D>,
): InternalLayout<V, P, M, D> {
  const spec = specs.get(layout);
  if (!spec) throw new TypeError(`${layout.id}: not a layout made by defineLayout`);
  return build(spec, true) as unknown as InternalLayout<V, P, M, D>;
}

type Spec = LayoutSpec<readonly Field[], string, string, Direction>;

/**
 * Not API: `layout` with its machinery in its type (the emitters, the measurer, `describe`):
 * every layout `defineLayout` builds has it. The layout itself, not a copy or a wrapper.
 */
export function internals<V, P extends string, M extends string, D extends Direction>(
  layout: Layout<V, P, M, D>,
): InternalLayout<V, P, M, D>;
export function internals<P extends string>(layout: Layout<any, P>): InternalLayout<any, P>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a layout of any message of protocol P
export function internals(layout: AnyLayout): InternalAnyLayout;
export function internals(layout: AnyLayout): InternalAnyLayout {
  return layout as InternalAnyLayout;
}

function build(spec: Spec, interpreted: boolean): InternalLayout<Record<string, unknown>, string> {
  type V = Record<string, unknown>;
  type P = string;
  type M = string;
  type D = Direction;
  const id = `${spec.protocol}.${spec.message}.${spec.direction}`;
  const declared = namingOf(spec.protocol);
  const defaultCharset: Charset = spec.charset ?? declared?.charset ?? DEFAULT_CHARSET;
  const protocolName = spec.protocolName ?? declared?.shortTitle ?? spec.protocol;
  // Settled at the first compilation, once per layout: no call asks again.
  let generate: boolean | undefined;
  const compiles = (): boolean => (generate ??= !interpreted && codeGeneration());
  const fast = new Map<Charset, FastDecoder>();
  const secrets = secretFields(spec.fields);
  // Compiled on first use: most programs use a few of the layouts.
  let emitter: JsonEmitter | undefined;
  let infoEmitter: JsonEmitter | undefined;
  let summarizer: JsonEmitter | undefined;
  let measurer: Measurer | undefined;
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

  // An emitter run past warnings, trailing bytes added to them.
  const emitDecoded = (e: JsonEmitter, bytes: Uint8Array, sink: ByteSink, options?: EmitOptions): Decoded<unknown> | undefined => {
    const r = emitWith(e, bytes, codecFor(options, bytes), sink, options?.showSecrets === true);
    if (!r) return undefined;
    const warnings =
      r.bytesRead < bytes.length ? [...(r.warnings ?? []), trailing(r.bytesRead, bytes.length)] : (r.warnings ?? NO_WARNINGS);
    return { value: r.value, bytesRead: r.bytesRead, warnings };
  };

  // What the summary names: all a summary's reader decodes.
  const infoNames = new Set(infoFields.map((f) => f.key));
  const described = (r: Decoded<unknown> | undefined): Described | undefined =>
    r && { info: layout.describe(r.value as Partial<V>), bytesRead: r.bytesRead, warnings: r.warnings };

  const layout: InternalLayout<V, P, M, D> = {
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
      // The error of a malformed message is part of its tree, returned and never thrown: no stack trace is taken for it.
      const r = withoutStacks(() => interpret(id, spec.fields, bytes, codecFor(options, bytes)));
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

    emitJsonWithWarnings(bytes, sink, options) {
      emitter ??= compiles() ? compileJson(spec.fields) : interpretedJson(id, spec.fields);
      return emitDecoded(emitter, bytes, sink, options) as Decoded<V> | undefined;
    },

    emitJsonInfo(bytes, sink, options) {
      infoEmitter ??= compiles() ? compileJson(spec.fields, infoNames) : interpretedJson(id, spec.fields);
      return described(emitDecoded(infoEmitter, bytes, sink, options));
    },

    summarize(bytes, options) {
      // Writes nothing: the sink is only what the emitter's signature asks for.
      summarizer ??= compiles() ? compileJson(spec.fields, infoNames, true) : interpretedJson(id, spec.fields);
      scratch.at = 0;
      return described(emitDecoded(summarizer, bytes, scratch, options));
    },

    measure(bytes, options) {
      measurer ??= compiles() ? compileMeasure(spec.fields) : interpretedMeasurer(id, spec.fields);
      return measurer(bytes, options?.charset ?? defaultCharset);
    },

    generatesCode() {
      return compiles();
    },

    textCodec(options, message) {
      return codecFor(options, message);
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
              : hex && (typeof v === 'number' || typeof v === 'bigint')
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
