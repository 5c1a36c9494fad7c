/**
 * The fallback for where JavaScript cannot be generated at run time: a page or extension
 * whose Content-Security-Policy has no `'unsafe-eval'` makes `new Function` throw
 * EvalError, and binary-parser, the JSON and text emitters and the measurer all compile
 * that way. Here every one of them is the interpreter (`annotate.ts`, the reference
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
import { interpret, type FieldNode } from './annotate.ts';
import type { EmitState, JsonEmitter } from './emit-runtime.ts';
import type { TextEmitter, TextMode } from './emit-text.ts';
import type { Measurer } from './measure.ts';
import type { FastDecoder } from './compile.ts';
import type { ByteSink } from './sink.ts';
import { textCodec } from './charset.ts';
import { MASK } from './display.ts';
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

function* walk(nodes: readonly FieldNode[], depth: number): Generator<[FieldNode, number]> {
  for (const n of nodes) {
    yield [n, depth];
    if (n.children) yield* walk(n.children, depth + 1);
  }
}

const shownOf = (n: FieldNode, clear: boolean): string => (n.secret && !clear ? (n.masked ?? MASK) : n.show);

/**
 * The text emitter of `mode` from the interpreter: the tree's lines (four spaces a level,
 * `label: show`, or the label alone when it shows nothing), or the picked nodes as
 * `    abbrev: show` lines or as `nodeJson` without children, each followed by a comma.
 */
export function interpretedText(layout: string, fields: readonly Field[], mode: TextMode): TextEmitter {
  return (bytes, text, sink, clear) => {
    const r = interpret(layout, fields, bytes, text);
    if (r.error) return undefined;
    let out = '';
    if (mode.kind === 'tree') {
      for (const [n, depth] of walk(r.fields, mode.indent)) {
        const show = shownOf(n, clear);
        out += `${' '.repeat(depth * 4)}${show === '' ? n.label : `${n.label}: ${show}`}\n`;
      }
    } else {
      for (const [n] of walk(r.fields, 0)) {
        if (!mode.pick.has(n.abbrev)) continue;
        if (mode.kind === 'text') out += `    ${n.abbrev}: ${shownOf(n, clear)}\n`;
        else {
          const { children: _, ...node } = nodeJson(n, clear);
          out += `${JSON.stringify(node)},`;
        }
      }
    }
    put(sink, out);
    return r.bytesRead;
  };
}
