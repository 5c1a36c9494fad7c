/**
 * Fuzz targets of the codec, over every layout of every protocol:
 *
 * - `codec-roundtrip`: random valid values in every charset → encode → decode gives them back
 *   (the shared round-trip check), and so do `encodePacket` → `decodePacket`; `annotateJson` writes
 *   the same tree as `annotate`.
 * - `codec-bytes`: random bytes, and mutated messages (test vectors and encoded random values with
 *   bits flipped, cut, extended, spliced, or a length prefix or count set to 0, 255, 65535,
 *   0xFFFFFFFF or past the end) → `decode`, `annotate` and `decodePacket` either succeed or give a
 *   typed `CodecError` / a partial tree ending in a malformed node; decode, annotate and
 *   `annotateJson` agree; a decoded value encodes again; and no input takes long, however large a
 *   length it claims. Both targets also check `emitJson` against the same tree, written at an
 *   offset into a small `ByteSink`.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  CodecError,
  charsets,
  decodePacket,
  encodePacket,
  fromHex,
  layouts,
  nodeJson,
  type Charset,
  type CodecOptions,
  type FieldNode,
  type QueryLayout,
} from '@gamequery/codec';
import { ByteSink, internals } from '@gamequery/codec/internal';
import type { Field, IntType } from '../src/grammar/fields.ts';
import { lengthMeta } from '../src/grammar/kinds/string.ts';
import { numbers } from '../src/grammar/numbers.ts';
import { valueArb } from '../test/helpers/arbitrary.ts';
import { checkRoundTrip } from '../test/helpers/roundtrip.ts';
import { loadVectors } from '../test/helpers/vectors.ts';
import { invariant, propertyTarget, type FuzzTarget } from './harness.ts';
import { CLAIMED_LENGTHS, mutatedMany, setUint } from './mutate.ts';

type AnyLayout = QueryLayout;

const byId = new Map(layouts.map((l) => [l.id, l]));
const layoutOf = (id: string): AnyLayout => byId.get(id)!;
const optionsOf = (charset: Charset | undefined): CodecOptions => (charset === undefined ? {} : { charset });

/** The committed test vectors' bytes, by layout: seeds for mutation. */
const vectorBytes = new Map<string, Uint8Array[]>();
for (const v of loadVectors()) {
  const list = vectorBytes.get(v.layout) ?? [];
  list.push(fromHex(v.hex));
  vectorBytes.set(v.layout, list);
}

/** Abbreviation → wire type of every length prefix and list count a layout declares. */
function lengthFields(fields: readonly Field[], out = new Map<string, IntType>()): Map<string, IntType> {
  for (const f of fields) {
    if (f.kind === 'string' && 'prefix' in f.size) out.set(lengthMeta(f).abbrev, f.size.prefix);
    else if (f.kind === 'group') lengthFields(f.fields, out);
    else if (f.kind === 'list') {
      if (f.count) out.set(f.count.abbrev, f.count.type);
      lengthFields(f.entry.fields, out);
    }
  }
  return out;
}
const lengthsOf = new Map(layouts.map((l) => [l.id, lengthFields(l.fields)]));

interface Slot {
  readonly offset: number;
  readonly type: IntType;
}

/** Where the length prefixes and counts sit in `seed`, from its annotated tree. */
function lengthSlots(layout: AnyLayout, seed: Uint8Array): Slot[] {
  const types = lengthsOf.get(layout.id)!;
  const slots: Slot[] = [];
  const walk = (nodes: readonly FieldNode[]): void => {
    for (const n of nodes) {
      const type = types.get(n.abbrev);
      if (type !== undefined) slots.push({ offset: n.offset, type });
      if (n.children) walk(n.children);
    }
  };
  walk(layout.annotate(seed).fields);
  return slots;
}

/** The seed with one of its length prefixes or counts claiming 0, 255, 65535, 0xFFFFFFFF, one past the end, or anything. */
function claimedLength(layout: AnyLayout, seed: Uint8Array): fc.Arbitrary<Uint8Array> | undefined {
  const slots = lengthSlots(layout, seed);
  if (slots.length === 0) return undefined;
  return fc
    .tuple(fc.constantFrom(...slots), fc.oneof(fc.constantFrom(...CLAIMED_LENGTHS, seed.length + 1), fc.nat()))
    .map(([slot, value]) => {
      const b = seed.slice();
      setUint(b, slot.offset, numbers[slot.type].size as 1 | 2 | 4, value, numbers[slot.type].endian === 'le');
      return b;
    });
}

/** Hostile bytes for `layout`: random, or a real message damaged. */
export function hostileBytes(layout: AnyLayout): fc.Arbitrary<Uint8Array> {
  const vectors = vectorBytes.get(layout.id) ?? [];
  const seeds =
    vectors.length > 0
      ? fc.oneof(
          fc.constantFrom(...vectors),
          valueArb(layout).map((v) => layout.encode(v)),
        )
      : valueArb(layout).map((v) => layout.encode(v));
  const damaged = seeds.chain((seed) => {
    const claimed = claimedLength(layout, seed);
    return claimed === undefined ? mutatedMany(seed) : fc.oneof(claimed, mutatedMany(seed));
  });
  return fc.oneof({ arbitrary: fc.uint8Array({ maxLength: 64 }), weight: 1 }, { arbitrary: damaged, weight: 6 });
}

/** Every wire node lies inside the message, and every child inside its parent. */
function checkTree(nodes: readonly FieldNode[], from: number, to: number): void {
  for (const n of nodes) {
    if (n.generated) continue;
    invariant(
      Number.isInteger(n.offset) && Number.isInteger(n.length) && n.length >= 0,
      () => `${n.abbrev}: offset ${n.offset}, length ${n.length}`,
    );
    invariant(n.offset >= from && n.offset + n.length <= to, () => `${n.abbrev} at ${n.offset}+${n.length} lies outside ${from}..${to}`);
    if (n.children) checkTree(n.children, n.offset, n.offset + n.length);
  }
}

/** Calls `f`; a CodecError counts as an answer (returned as undefined), any other exception is a bug. */
function typed<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof CodecError) return undefined;
    throw e;
  }
}

/** What the JSON fast path must write for `bytes`, from the interpreter: the tree's JSON, or nothing where annotate reports something. */
function expectedJson(layout: AnyLayout, bytes: Uint8Array, options: CodecOptions): { json: string; value: unknown } | undefined {
  const tree = layout.annotate(bytes, options);
  const clean =
    !tree.error &&
    tree.warnings.length === 0 &&
    !tree.fields.some(function secret(n): boolean {
      return !!n.secret || !!n.children?.some(secret);
    });
  return clean ? { json: JSON.stringify(tree.fields.map((n) => nodeJson(n, false))), value: tree.value } : undefined;
}

/** annotateJson must write exactly the annotated tree's JSON, or decline where annotate reports something. */
export function checkJson(layout: AnyLayout, bytes: Uint8Array, charset?: Charset): boolean {
  const options = optionsOf(charset);
  const fast = internals(layout).annotateJson(bytes, options);
  const expected = expectedJson(layout, bytes, options);
  if (!expected) {
    expect(fast).toBeUndefined();
    return false;
  }
  expect(fast).toBeDefined();
  expect(fast!.json).toBe(expected.json);
  expect(fast!.value).toEqual(expected.value);
  return true;
}

/** Decodes exactly: valid UTF-8 decoding to the same text is the same bytes. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * emitJson must write the same tree as UTF-8 at `offset` into a sink of 16 bytes (so that
 * it grows in the middle of a node), leaving the bytes before it alone; declining, it
 * leaves `sink.at` at `offset`.
 */
export function checkEmitJson(layout: AnyLayout, bytes: Uint8Array, charset: Charset | undefined, offset: number): boolean {
  const options = optionsOf(charset);
  const sink = new ByteSink(16);
  const before = Uint8Array.from({ length: offset }, (_, i) => (i * 37 + 11) & 0xff);
  sink.bytes(before);
  const value = internals(layout).emitJson(bytes, sink, options);
  const expected = expectedJson(layout, bytes, options);
  expect(sink.buf.subarray(0, offset)).toEqual(before);
  if (!expected) {
    expect(value).toBeUndefined();
    expect(sink.at).toBe(offset);
    return false;
  }
  expect(value).toEqual(expected.value);
  expect(strictUtf8.decode(sink.buf.subarray(offset, sink.at))).toBe(expected.json);
  return true;
}

/** What must hold for any bytes given to `layout` (see the module comment). */
export function checkHostileBytes(layout: AnyLayout, bytes: Uint8Array, options: CodecOptions = {}): void {
  const ann = layout.annotate(bytes, options);
  checkTree(ann.fields, 0, bytes.length);
  invariant(ann.bytesRead >= 0 && ann.bytesRead <= bytes.length, `annotate read ${ann.bytesRead} of ${bytes.length} bytes`);
  let decodeError: unknown;
  let decoded;
  try {
    decoded = layout.decode(bytes, options);
  } catch (e) {
    decodeError = e;
  }
  if (ann.error) {
    invariant(ann.error instanceof CodecError, `annotate gave an untyped error: ${String(ann.error)}`);
    const last = ann.fields.at(-1);
    invariant(last?.abbrev === `${layout.protocol}.malformed` && last.offset <= bytes.length, 'the tree does not end in a malformed node');
    if (!(decodeError instanceof CodecError))
      throw decodeError ?? new Error(`decode succeeded where annotate stopped: ${ann.error.message}`);
    expect(decodeError.message).toBe(ann.error.message);
  } else {
    if (decodeError !== undefined) throw decodeError;
    expect(decoded!.value).toEqual(ann.value);
    expect(decoded!.bytesRead).toBe(ann.bytesRead);
    // A decoded value encodes again (or is refused with a typed error), and that decodes to the same value.
    const again = typed(() => layout.encode(decoded!.value, options));
    if (again !== undefined) expect(layout.decode(again, options).value).toEqual(decoded!.value);
  }
  checkJson(layout, bytes, options.charset);
  checkEmitJson(layout, bytes, options.charset, bytes.length % 23);
  typed(() => decodePacket(bytes, {}, options));
  typed(() => decodePacket(bytes, { protocol: layout.protocol, direction: layout.direction, message: layout.message }, options));
}

/** A layout id with an optional charset, then what to feed it. */
const withLayout = <T>(make: (layout: AnyLayout, charset: Charset | undefined) => fc.Arbitrary<T>) =>
  fc
    .tuple(fc.constantFrom(...layouts.map((l) => l.id)), fc.option(fc.constantFrom(...charsets), { nil: undefined }))
    .chain(([id, charset]) => make(layoutOf(id), charset).map((input) => ({ layout: id, charset, input })));

export const codecRoundTrip: FuzzTarget = propertyTarget(
  'codec-roundtrip',
  'every layout: random valid values → encode → decode, by layout and by packet',
  withLayout((layout, charset) => valueArb(layout, charset ?? layout.defaultCharset)),
  ({ layout: id, charset, input: value }) => {
    const layout = layoutOf(id);
    const options = optionsOf(charset);
    const bytes = checkRoundTrip(layout, value, options);
    expect(checkJson(layout, bytes, charset)).toBe(layout.id !== 'samp.rcon.request'); // its password is a secret
    expect(checkEmitJson(layout, bytes, charset, bytes.length % 23)).toBe(layout.id !== 'samp.rcon.request');
    const packet = { protocol: layout.protocol, direction: layout.direction, message: layout.message, value };
    expect(encodePacket(packet, options)).toEqual(bytes);
    const hinted = decodePacket(bytes, { protocol: layout.protocol, direction: layout.direction, message: layout.message }, options);
    expect(hinted.layout.id).toBe(layout.id);
    expect(hinted.value).toEqual(value);
    // Without a hint the bytes may be ambiguous (an empty rcon reply, a Minecraft reply): a typed refusal or another layout is fine.
    const guessed = typed(() => decodePacket(bytes, {}, options));
    if (guessed?.layout.id === layout.id) expect(guessed.value).toEqual(value);
  },
  () => 500,
);

export const codecBytes: FuzzTarget = propertyTarget(
  'codec-bytes',
  'every layout: random and mutated bytes, hostile lengths and counts → typed error or partial tree, quickly',
  withLayout((layout) => hostileBytes(layout)),
  ({ layout, charset, input }) => checkHostileBytes(layoutOf(layout), input, optionsOf(charset)),
  () => 500,
);

export const codecTargets: readonly FuzzTarget[] = [codecRoundTrip, codecBytes];
