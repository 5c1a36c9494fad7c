/**
 * What a layout is, as types: the {@link Layout} every declaration becomes, its {@link LayoutSpec},
 * the options its decoders and emitters take, and what they return. `layout.ts` builds layouts
 * (`defineLayout`); this module only describes them.
 */
import type { Charset, TextCodec } from './charset.ts';
import type { Field } from './fields.ts';
import type { DecodeWarning, FieldNode } from './annotate.ts';
import type { ByteSink } from './sink.ts';
import type { CodecError } from '../errors.ts';

/** Who sends a message: the client (`request`) or the server (`response`). */
export type Direction = 'request' | 'response';

/** Options of a layout's decode, encode and annotate calls. */
export interface CodecOptions {
  /** Charset of the strings; defaults to the layout's (its declaration's, else windows-1252). */
  readonly charset?: Charset;
}

/** How the JSON emitter writes secrets (RCON passwords): masked (`********`, or the redacted text) unless `showSecrets`. */
export interface EmitOptions extends CodecOptions {
  readonly showSecrets?: boolean;
}

/** What a layout's `decode` returns: the value, the bytes it took and the warnings met on the way. */
export interface Decoded<V> {
  readonly value: V;
  /** Bytes the message took; fewer than the input when trailing bytes follow. */
  readonly bytesRead: number;
  /** Oddities that did not stop decoding (short lists, trailing bytes, odd flags). */
  readonly warnings: readonly DecodeWarning[];
}

/** What a layout's `emitJsonInfo` returns: the Info column, the bytes the message took and the warnings met on the way. */
export interface Described {
  readonly info: string;
  readonly bytesRead: number;
  readonly warnings: readonly DecodeWarning[];
}

/** The annotated tree of one message; on bad input, what was decoded plus why it stopped. */
export interface Annotation<V, P extends string = string> {
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
   * Protocol name, lowercase (`acme`): the first part of the layout's id,
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
  /**
   * The protocol's short title (`ACME`, the `shortTitle` of its declaration, which checks the two
   * agree); defaults to that of the protocol declared under `protocol` before this layout, else
   * to `protocol`.
   */
  readonly protocolName?: string;
  /**
   * Charset of the strings when the caller names none (its declaration's `charset`); defaults to
   * that of the protocol declared under `protocol` before this layout, else to windows-1252.
   */
  readonly charset?: Charset;
}

/**
 * A message layout: its declaration and what a user calls on it (decode, annotate, encode,
 * encodingLength). `V` is the decoded value's type (inferred from the fields), `P`, `M` and
 * `D` the protocol, message and direction as literal types, so that a union of layouts'
 * packets narrows on them.
 */
export interface Layout<
  V = Record<string, unknown>,
  P extends string = string,
  M extends string = string,
  D extends Direction = Direction,
> {
  /** `<protocol>.<message>.<direction>`, e.g. `acme.status.response`. */
  readonly id: string;
  readonly protocol: P;
  /** The protocol's short title, e.g. `ACME` (see {@link LayoutSpec.protocolName}). */
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
  /** The message's bytes; throws a typed {@link CodecError} on a value the layout cannot hold. */
  encode(value: V, options?: CodecOptions): Uint8Array;
  /** How many bytes `encode` makes of `value`, without encoding it. */
  encodingLength(value: V, options?: CodecOptions): number;
}

/**
 * Not API (`@gamequery/codec/internal`, no semver promise): the rest of what every layout
 * `defineLayout` builds has, beside the {@link Layout} methods — the emitters, the measurer and
 * the Info column the dissector, the pairers and the exports run on. The same object: a
 * layout is an `InternalLayout` (`internals(layout)` says so to the type checker).
 */
export interface InternalLayout<
  V = Record<string, unknown>,
  P extends string = string,
  M extends string = string,
  D extends Direction = Direction,
> extends Layout<V, P, M, D> {
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
  emitJsonWithWarnings(bytes: Uint8Array, sink: ByteSink, options?: EmitOptions): Decoded<V> | undefined;
  /**
   * {@link emitJsonWithWarnings} for a reader of the tree and its summary only: the same JSON, and
   * the Info column (`describe`) instead of the value, which is never built (text the
   * summary does not name is copied as bytes where it can be, not decoded). What the
   * dissector writes a capture's records with.
   */
  emitJsonInfo(bytes: Uint8Array, sink: ByteSink, options?: EmitOptions): Described | undefined;
  /**
   * What {@link emitJsonInfo} returns, without writing anything: the message read and
   * checked as the emitter reads it (undefined where `decode` would throw), and only the
   * text its summary names decoded. For a summary line, or a record whose tree is written
   * later by other means.
   */
  summarize(bytes: Uint8Array, options?: CodecOptions): Described | undefined;
  /**
   * The bytes `decode` would read, or -1 where it would throw, without decoding text or
   * building a value: for telling cheaply whether, and how much of, a datagram decodes.
   */
  measure(bytes: Uint8Array, options?: CodecOptions): number;
  /**
   * Whether this layout's walkers are compiled to functions (false under a CSP without
   * `'unsafe-eval'`, and for an interpreting copy): what a caller compiling its own walker
   * of the declaration (the dissector's text output) follows.
   */
  generatesCode(): boolean;
  /** The text codec the layout reads strings with, given the options (charset) and, for `auto`, the message. */
  textCodec(options?: CodecOptions, message?: Uint8Array): TextCodec;
  /** Writes into `target` at `offset`; returns the bytes written. */
  encodeInto(value: V, target: Uint8Array, offset?: number, options?: CodecOptions): number;
  /** Info-column text for a decoded value. */
  describe(value: Partial<V>): string;
}

/** A layout of any value, protocol, message and direction: what exporters and registries take. */
export type AnyLayout = Layout<any, string>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any message's value: Layout is invariant in it, so unknown will not do
/** Not API: {@link AnyLayout} with the machinery of an {@link InternalLayout}. */
export type InternalAnyLayout = InternalLayout<any, string>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as AnyLayout
