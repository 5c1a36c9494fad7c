/**
 * Everything a layout answers about some bytes, as JSON: for comparing two ways of answering
 * (compiled, interpreted, in a browser). Browser-safe: no Node built-ins.
 */
import { CodecError, decodePacket, toHex, type AnyLayout, type Charset } from '@gamequery/codec';
import { ByteSink, internals } from '@gamequery/codec/internal';
import type { Field } from '../../src/grammar/fields.ts';
import { lengthMeta } from '../../src/grammar/kinds/string.ts';

/** What a call gave: its result, or the error it threw (type, message, info). */
function outcome(call: () => unknown): unknown {
  try {
    return { ok: call() };
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return { threw: e.name, message: e.message, info: e.info };
  }
}

/** What a call writing into a sink wrote and returned (into a small sink holding bytes already, so that it grows). */
function sunk(write: (sink: ByteSink) => unknown): unknown {
  const sink = new ByteSink(16);
  sink.bytes(Uint8Array.of(1, 2, 3));
  const got = write(sink);
  return { got, at: sink.at, text: new TextDecoder().decode(sink.buf.subarray(3, sink.at)) };
}

/** Every abbreviation a layout's tree can hold, for `emitFields`. */
export function abbrevsOf(fields: readonly Field[], out: string[] = []): string[] {
  for (const f of fields) {
    if (f.kind === 'string' && 'prefix' in f.size) out.push(lengthMeta(f).abbrev);
    if (f.kind === 'list') {
      if (f.count) out.push(f.count.abbrev);
      if (f.until) out.push(f.until.abbrev);
      if (!f.flat) out.push(f.entry.abbrev);
      abbrevsOf(f.entry.fields, out);
    } else {
      out.push(f.abbrev);
      if (f.kind === 'group') abbrevsOf(f.fields, out);
    }
  }
  return out;
}

/**
 * JSON of anything these answers hold, so that two processes' answers compare as text: bytes as
 * `hex:…`, a bigint as `bigint:…`, and the numbers JSON has no literal of (NaN, ±Infinity, -0) as `number:…`.
 */
const plain = (x: unknown): unknown =>
  JSON.parse(
    JSON.stringify(x, (_, v: unknown) =>
      v instanceof Uint8Array
        ? `hex:${toHex(v)}`
        : typeof v === 'bigint'
          ? `bigint:${v}`
          : typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))
            ? `number:${Object.is(v, -0) ? '-0' : v}`
            : v,
    ),
  );

/**
 * Every answer of `layout` about `bytes`: decode, decodePacket with the layout's own hint, annotate,
 * measure, and per secrets mode annotateJson, emitJson and emitJsonWithWarnings. Plain JSON.
 */
export function answersOf(layout: AnyLayout, bytes: Uint8Array, charset?: Charset): unknown {
  const codec = charset === undefined ? {} : { charset };
  const tree = layout.annotate(bytes, codec);
  const out: Record<string, unknown> = {
    decode: outcome(() => layout.decode(bytes, codec)),
    annotate: {
      ...tree,
      layout: tree.layout.id,
      error: tree.error && { name: tree.error.name, message: tree.error.message, info: tree.error.info },
    },
    measure: internals(layout).measure(bytes, codec),
  };
  if (['samp', 'vcmp', 'mcquery'].includes(layout.protocol)) {
    const hint = { protocol: layout.protocol as 'samp', direction: layout.direction, message: layout.message };
    out['decodePacket'] = outcome(() => ({ ...decodePacket(bytes, hint, codec), layout: layout.id }));
  }
  for (const showSecrets of [undefined, false, true]) {
    const o = { ...codec, ...(showSecrets === undefined ? {} : { showSecrets }) };
    const key = String(showSecrets);
    out[`annotateJson ${key}`] = internals(layout).annotateJson(bytes, o);
    out[`emitJson ${key}`] = sunk((sink) => internals(layout).emitJson(bytes, sink, o));
    out[`emitJsonWithWarnings ${key}`] = sunk((sink) => internals(layout).emitJsonWithWarnings(bytes, sink, o));
  }
  return plain(out);
}
