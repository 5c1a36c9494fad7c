/**
 * The fallback for where JavaScript cannot be generated at run time: a page or extension
 * whose Content-Security-Policy has no `'unsafe-eval'` makes `new Function` throw
 * EvalError, and binary-parser, the JSON emitter and the measurer all compile that way
 * (the dissector's text emitter too: it renders the tree instead). Here every one of them is the interpreter (`annotate.ts`, the reference
 * semantics the compiled code is tested against) over the same declaration, and its tree
 * written out as the compiled code writes it: the same results, slower (each call builds
 * the annotated tree first; docs/performance.md has the figures).
 *
 * Whether code can be generated is asked once per process, at the first compilation
 * ({@link codeGeneration}); a layout then holds either the compiled functions or these, so
 * neither path looks at the other's per call.
 */
import type { TextCodec } from './charset.ts';
import type { Field } from './fields.ts';
import { interpret } from './annotate.ts';
import type { EmitState, JsonEmitter } from './emit-runtime.ts';
import type { Measurer } from './measure.ts';
import type { FastDecoder } from './compile.ts';
import type { ByteSink } from './sink.ts';
import { textCodec } from './charset.ts';
import { nodeJson } from './tree-json.ts';

const encoder = new TextEncoder();

/** Writes `text` as UTF-8 at `sink.at` (a lone surrogate as U+FFFD): encodeInto, several times faster here than the sink's own loop. */
function put(sink: ByteSink, text: string): void {
  sink.reserve(text.length * 3);
  sink.at += encoder.encodeInto(text, sink.buf.subarray(sink.at)).written;
}

let generated: boolean | undefined;
let forced: boolean | undefined;

/**
 * Whether this JavaScript engine lets the codec compile layouts to functions (`new Function`):
 * false under a Content-Security-Policy without `'unsafe-eval'`, where every layout uses the
 * interpreter instead. Probed once, by compiling a one-line function; under a CSP that probe
 * is one violation report. {@link setCodeGeneration} settles it without probing.
 */
export function codeGeneration(): boolean {
  if (forced !== undefined) return forced;
  if (generated === undefined) {
    try {
      generated = new Function('return 1')() === 1;
    } catch {
      generated = false;
    }
  }
  return generated;
}

/**
 * Settles {@link codeGeneration} for layouts not compiled yet: `false` makes them interpret
 * (a page that knows its CSP forbids eval, and wants no violation report from the probe),
 * `true` compiles without probing, `undefined` probes again. A layout compiled before keeps
 * what it has; {@link interpretedLayout} gives an interpreting copy of one at any time.
 */
export function setCodeGeneration(allowed: boolean | undefined): void {
  forced = allowed;
}

/** Decodes nothing itself: `decode` goes straight to the interpreter, which it falls back to anyway. */
export const interpretedDecoder: FastDecoder = () => undefined;

/** `Layout.measure` from the interpreter: the bytes it reads, or -1 where it stops on an error. */
export function interpretedMeasurer(layout: string, fields: readonly Field[]): Measurer {
  return (bytes, charset) => {
    const r = interpret(layout, fields, bytes, textCodec(charset));
    return r.error ? -1 : r.bytesRead;
  };
}

/**
 * The JSON emitter from the interpreter: the tree's nodes as `nodeJson` writes them. With `st`
 * null it declines any warning and trailing bytes, as the compiled emitter does; with an
 * {@link EmitState} it reports the warnings and bytes read there.
 */
export function interpretedJson(layout: string, fields: readonly Field[]): JsonEmitter {
  return (bytes: Uint8Array, text: TextCodec, sink: ByteSink, clear: boolean, st: EmitState | null) => {
    const r = interpret(layout, fields, bytes, text);
    if (r.error) return undefined;
    if (st === null) {
      if (r.warnings.length > 0 || r.bytesRead < bytes.length) return undefined;
    } else {
      st.warnings = r.warnings.length > 0 ? r.warnings : undefined;
      st.bytesRead = r.bytesRead;
    }
    put(sink, JSON.stringify(r.fields.map((n) => nodeJson(n, clear))));
    return r.value;
  };
}
