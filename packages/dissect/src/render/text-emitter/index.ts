/**
 * Each layout's compiled text emitters (compile.ts), made on first use and kept beside the
 * layout: its tree as `-V` text at each indent, and its selected nodes as `-e` text or JSON.
 * Undefined where the layout does not generate code (a CSP without `'unsafe-eval'`, or an
 * interpreting copy): the caller renders the annotated tree, which writes the same bytes.
 */
import type { ByteSink, EmitOptions, InternalAnyLayout } from '@gamequery/codec/internal';
import { compileText, type TextEmitter } from './compile.ts';

export { textEmitterSource, type TextMode } from './compile.ts';

/** How the text emitter writes the tree: secrets as {@link EmitOptions} says, each line indented by four spaces `indent` times more. */
export interface TextEmitOptions extends EmitOptions {
  readonly indent?: number;
}

interface Emitters {
  /** The tree's, by indent. */
  readonly trees: Map<number, TextEmitter>;
  /** A selection's, by mode and abbreviations (at most 64: a run uses one or two). */
  readonly picks: Map<string, TextEmitter>;
  /** The selection asked for last, by its array: a run asks with the same one each packet. */
  last: { readonly abbrevs: readonly string[]; readonly as: 'text' | 'json'; readonly emitter: TextEmitter } | undefined;
}

const byLayout = new WeakMap<InternalAnyLayout, Emitters | null>();

function emittersOf(layout: InternalAnyLayout): Emitters | null {
  let e = byLayout.get(layout);
  if (e === undefined) byLayout.set(layout, (e = layout.generatesCode() ? { trees: new Map(), picks: new Map(), last: undefined } : null));
  return e;
}

/**
 * The annotated tree as text lines, written as UTF-8 into `sink` at `sink.at`: per node,
 * four spaces per level (plus `indent`), its label, and `: ` and its `show` unless that is
 * empty, then a newline — secrets masked (`********`, or the redacted text) unless
 * `showSecrets` — as `renderTree` shows `annotate`'s tree. Returns the bytes the message
 * took; warnings leave the tree as it is and do not stop it. Undefined, with `sink.at` where
 * it was, where `decode` would throw or no code is generated.
 */
export function emitText(layout: InternalAnyLayout, bytes: Uint8Array, sink: ByteSink, options?: TextEmitOptions): number | undefined {
  const e = emittersOf(layout);
  if (!e) return undefined;
  const indent = options?.indent ?? 0;
  let emitter = e.trees.get(indent);
  if (!emitter) e.trees.set(indent, (emitter = compileText(layout.fields, { kind: 'tree', indent })));
  return emitter(bytes, layout.textCodec(options, bytes), sink, options?.showSecrets === true);
}

/**
 * Only the nodes of the abbreviations in `abbrevs`, in tree order, written as {@link emitText}
 * writes the tree: `as` text, a line `    abbrev: show` each (secrets masked unless
 * `showSecrets`); `as` json, each node's `nodeJson` without its children, followed by a
 * comma. Compiled once per selection (the same array, or the same abbreviations).
 */
export function emitFields(
  layout: InternalAnyLayout,
  bytes: Uint8Array,
  sink: ByteSink,
  abbrevs: readonly string[],
  as: 'text' | 'json',
  options?: EmitOptions,
): number | undefined {
  const e = emittersOf(layout);
  if (!e) return undefined;
  let emitter: TextEmitter;
  if (e.last?.abbrevs === abbrevs && e.last.as === as) emitter = e.last.emitter;
  else {
    const key = `${as}\n${abbrevs.join('\n')}`;
    emitter = e.picks.get(key) ?? compileText(layout.fields, { kind: as, pick: new Set(abbrevs) });
    if (e.picks.size >= 64) e.picks.clear();
    e.picks.set(key, emitter);
    e.last = { abbrevs, as, emitter };
  }
  return emitter(bytes, layout.textCodec(options, bytes), sink, options?.showSecrets === true);
}
