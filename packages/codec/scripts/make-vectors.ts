/**
 * Writes test-vectors/ from the case lists of every protocol: scripts/vectors/samp/ (a file
 * per message group, listed in its index.ts), vectors/vcmp.ts and vectors/minecraft.ts, with
 * the case shape and the byte builder `B` in vectors/builder.ts.
 *
 * Each case's bytes are either copied from the examples in a protocol's notes
 * (src/protocols/<protocol>/README.md: exchanges quoted from wiki.vg, or constructed
 * examples) or built with `B`, which knows nothing of our layouts; each
 * value is written by hand. A vector is only written when our codec decodes the bytes to
 * exactly that value and encodes the value back to the bytes (or to `canonical` where the
 * input is deliberately not canonical), and when its protocol is the one whose list holds
 * it; the field offsets in the vector are then taken from the annotating decode and checked
 * by the codec tests from then on. Run: `pnpm vectors` (add `--check` to only compare).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { layoutFor, toHex, fromHex, valueToJson, type FieldNode, type Protocol, type QueryLayout } from '@gamequery/codec';
import { nodeValueToJson } from '../src/grammar/tree-json.ts';
import type { Case } from './vectors/builder.ts';
import { minecraftCases } from './vectors/minecraft.ts';
import { sampCases } from './vectors/samp/index.ts';
import { vcmpCases } from './vectors/vcmp.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../test-vectors');

/** Each protocol's cases, from its own file (or folder) under vectors/. */
const byProtocol: Record<Protocol, Case[]> = { samp: sampCases, vcmp: vcmpCases, mcquery: minecraftCases };
const cases = Object.values(byProtocol).flat();

/* ---------------- write ---------------- */

const nodeJson = (n: FieldNode): Record<string, unknown> => ({
  abbrev: n.abbrev,
  offset: n.offset,
  length: n.length,
  value: nodeValueToJson(n.value),
  ...(n.children ? { children: n.children.map(nodeJson) } : {}),
});

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
  const layout: QueryLayout = layoutFor(c.protocol, c.message, c.direction);
  const bytes = fromHex(c.hex);
  const opts = c.charset ? { charset: c.charset } : {};
  const ann = layout.annotate(bytes, opts);
  const id = `${c.protocol}/${c.message}-${c.direction}.${c.name}`;
  if (written.has(id)) fail(c, 'duplicate id');
  written.add(id);
  const vector: Record<string, unknown> = {
    id,
    protocol: c.protocol,
    message: c.message,
    direction: c.direction,
    layout: layout.id,
    description: c.description,
    ...(c.charset ? { charset: c.charset } : {}),
    hex: c.hex,
  };
  if (c.error) {
    if (!ann.error) {
      fail(c, 'expected an error, decoded fine');
      continue;
    }
    const e = ann.error;
    if (e.name !== c.error.type || e.info.offset !== c.error.offset || e.info.field !== c.error.field) {
      fail(
        c,
        `expected ${c.error.type} at ${c.error.offset} in ${c.error.field}, got ${e.name} at ${e.info.offset} in ${e.info.field}: ${e.message}`,
      );
      continue;
    }
    vector.error = { type: e.name, offset: e.info.offset, field: e.info.field, message: e.message };
  } else {
    if (ann.error) {
      fail(c, `unexpected ${ann.error.message}`);
      continue;
    }
    const want = c.value!;
    if (!isDeepStrictEqual(ann.value, want)) {
      fail(c, `value differs:\n got ${JSON.stringify(valueToJson(layout, ann.value!))}`);
      continue;
    }
    const encoded = toHex(layout.encode(want, opts));
    const canonical = c.canonical ?? c.hex;
    if (encoded !== canonical) {
      fail(c, `encode gives ${encoded}`);
      continue;
    }
    vector.value = valueToJson(layout, want);
    if (c.canonical) vector.canonicalHex = c.canonical;
    if (ann.warnings.length) vector.warnings = ann.warnings.map((w) => ({ code: w.code, field: w.field, offset: w.offset }));
  }
  vector.fields = ann.fields.map(nodeJson);
  vector.source = c.source;
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
