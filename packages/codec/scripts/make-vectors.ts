/**
 * Writes test-vectors/ from the case lists of every protocol: scripts/vectors/samp/ (a file
 * per message group, listed in its index.ts), vectors/vcmp.ts and vectors/mcquery.ts, with
 * the case shape and the byte builder `B` in vectors/builder.ts.
 *
 * Each case's bytes are either copied from the examples in a protocol's notes
 * (src/protocols/<protocol>/README.md: exchanges quoted from wiki.vg, or constructed
 * examples), rebuilt field by field with `B` and checked to be those bytes, or built with `B`
 * alone; each value is written by hand. `B` records each field's offset and length as it
 * writes it, and a damaged case says what it cut or broke: the vector's field tree, warnings
 * and error come from there (vectors/vector.ts), never from the codec. The codec is then
 * checked against them: a vector is only written when our codec decodes the bytes to exactly
 * that value, annotates exactly that tree, warns and fails exactly as stated, and encodes the
 * value back to the bytes (or to `canonical` where the input is deliberately not canonical),
 * and when its protocol is the one whose list holds it. A disagreement is a bug in the case,
 * the builder or the codec. Run: `pnpm vectors` (add `--check` to only compare).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { layoutFor, toHex, fromHex, valueToJson, type FieldNode, type Protocol } from '@gamequery/codec';
import { nodeValueToJson } from '../src/grammar/tree-json.ts';
import type { Case } from './vectors/builder.ts';
import { mcqueryCases } from './vectors/mcquery.ts';
import { sampCases } from './vectors/samp/index.ts';
import { vcmpCases } from './vectors/vcmp.ts';
import { vectorId, vectorOf } from './vectors/vector.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../test-vectors');

/** Each protocol's cases, from its own file (or folder) under vectors/. */
const byProtocol: Record<Protocol, Case[]> = { samp: sampCases, vcmp: vcmpCases, mcquery: mcqueryCases };
const cases = Object.values(byProtocol).flat();

/* ---------------- check against the codec, then write ---------------- */

const nodeJson = (n: FieldNode): Record<string, unknown> => ({
  abbrev: n.abbrev,
  offset: n.offset,
  length: n.length,
  value: nodeValueToJson(n.value),
  ...(n.children ? { children: n.children.map(nodeJson) } : {}),
});

/** Where the codec disagrees with a case's vector: nothing when it decodes, annotates and encodes as stated. */
function disagreements(c: Case, vector: Record<string, unknown>): string[] {
  const layout = layoutFor(c.protocol, c.message, c.direction);
  const bytes = fromHex(c.bytes.hexString);
  const opts = c.charset ? { charset: c.charset } : {};
  const ann = layout.annotate(bytes, opts);
  const out: string[] = [];
  const differs = (what: string, want: unknown, got: unknown) => {
    if (!isDeepStrictEqual(want, got)) out.push(`${what} differs:\n want ${JSON.stringify(want)}\n  got ${JSON.stringify(got)}`);
  };
  if (layout.id !== vector.layout) out.push(`layout ${layout.id}, not ${String(vector.layout)}`);
  if (vector.error) {
    if (!ann.error) return [...out, 'expected an error, decoded fine'];
    const e = ann.error;
    differs('error', vector.error, { type: e.name, offset: e.info.offset, field: e.info.field, message: e.message });
  } else {
    if (ann.error) return [...out, `unexpected ${ann.error.message}`];
    if (!isDeepStrictEqual(ann.value, c.value)) out.push(`value differs:\n got ${JSON.stringify(valueToJson(layout, ann.value!))}`);
    else differs('value JSON', vector.value, valueToJson(layout, c.value!));
    const encoded = toHex(layout.encode(c.value!, opts));
    if (encoded !== (c.canonical ?? c.bytes.hexString)) out.push(`encode gives ${encoded}`);
    differs(
      'warnings',
      vector.warnings ?? [],
      ann.warnings.map(({ code, field, offset }) => ({ code, field, offset })),
    );
  }
  differs('field tree', vector.fields, ann.fields.map(nodeJson));
  return out;
}

const check = process.argv.includes('--check');
let failures = 0;
const fail = (c: Case, why: string) => {
  failures++;
  console.error(`${c.protocol}/${c.message}-${c.direction}.${c.name}: ${why}`);
};
const written = new Set<string>();
for (const [protocol, list] of Object.entries(byProtocol)) {
  for (const c of list) if (c.protocol !== protocol) fail(c, `listed among the ${protocol} vectors`);
}

for (const c of cases) {
  const id = vectorId(c);
  if (written.has(id)) fail(c, 'duplicate id');
  written.add(id);
  if (c.bytes.expected().error ? c.value : !c.value) fail(c, 'a case has either a value or damage (cutAt, fault), not both');
  const vector = vectorOf(c);
  const problems = disagreements(c, vector);
  for (const why of problems) fail(c, why);
  if (problems.length) continue;
  const file = join(root, `${id}.json`);
  const text = JSON.stringify(vector, null, 2) + '\n';
  if (check) {
    let old = '';
    try {
      old = readFileSync(file, 'utf8');
    } catch {
      /* missing */
    }
    if (old !== text) fail(c, 'vector file is out of date (run pnpm vectors)');
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
console.log(`${cases.length} cases, ${failures} failures`);
process.exit(failures ? 1 : 0);
