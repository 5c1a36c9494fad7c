/**
 * A case as its test-vector JSON (test-vectors/schema.json). Everything in it comes from the
 * case: the value written by hand, the field tree, warnings and error from what its byte
 * builder recorded and what the case says it broke. Nothing here imports the codec, so the
 * codec's own output cannot become its expectation (test/vectors.test.ts holds that).
 */
import type { Case, Node } from './builder.ts';

/** A decoded value as JSON: bytes as lowercase hex, the rest as is. */
const json = (v: unknown): unknown => {
  if (v instanceof Uint8Array) return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');
  if (Array.isArray(v)) return v.map(json);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, json(x)]));
  return v;
};

export const vectorId = (c: Case): string => `${c.protocol}/${c.message}-${c.direction}.${c.name}`;

export function vectorOf(c: Case): Record<string, unknown> {
  const expected = c.bytes.expected();
  const vector: Record<string, unknown> = {
    id: vectorId(c),
    protocol: c.protocol,
    message: c.message,
    direction: c.direction,
    layout: `${c.protocol}.${c.message}.${c.direction}`,
    description: c.description,
    ...(c.charset ? { charset: c.charset } : {}),
    hex: c.bytes.hexString,
  };
  let fields: Node[] = expected.fields;
  if (expected.error) {
    vector.error = expected.error;
    // Where decoding stopped, to the end of the datagram.
    const { offset, type } = expected.error;
    fields = [...fields, { abbrev: `${c.protocol}.malformed`, offset, length: c.bytes.out.length - offset, value: type }];
  } else {
    vector.value = json(c.value);
    if (c.canonical) vector.canonicalHex = c.canonical;
    if (expected.warnings.length) vector.warnings = expected.warnings;
  }
  vector.fields = fields;
  vector.source = c.source;
  return vector;
}
