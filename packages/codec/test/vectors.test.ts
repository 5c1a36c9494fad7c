import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { CodecError, decodePacket, fromHex, layoutFor, layouts, toHex, valueFromJson, type FieldNode } from '@gamequery/codec';
import { nodeValueToJson } from '../src/grammar/tree-json.ts';
import { loadVectors, vectorRoot, type VectorNode } from './helpers/vectors.ts';
import { mcqueryCases } from '../scripts/vectors/mcquery.ts';
import { sampCases } from '../scripts/vectors/samp/index.ts';
import { vcmpCases } from '../scripts/vectors/vcmp.ts';
import { vectorId, vectorOf } from '../scripts/vectors/vector.ts';

const vectors = loadVectors();
const schema = JSON.parse(readFileSync(`${vectorRoot}schema.json`, 'utf8'));
const validate = new Ajv2020({ allErrors: true }).compile(schema);

const nodeJson = (n: FieldNode): VectorNode => ({
  abbrev: n.abbrev,
  offset: n.offset,
  length: n.length,
  value: nodeValueToJson(n.value),
  ...(n.children ? { children: n.children.map(nodeJson) } : {}),
});

describe('test-vectors/', () => {
  it('are what the per-protocol case lists write (pnpm vectors --check: every file up to date)', () => {
    const repo = new URL('../../../', import.meta.url).pathname;
    const script = new URL('../scripts/make-vectors.ts', import.meta.url).pathname;
    const r = spawnSync(process.execPath, ['--conditions=@gamequery/source', '--import', 'tsx', script, '--check'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(r.stdout).toMatch(/^\d+ cases, 0 failures$/m);
    expect(r.status).toBe(0);
  });

  it("expects what the byte builder wrote and the cases state, never the codec's own output", () => {
    // The cases, the builder and vectorOf import no code of the codec (its types only), so that
    // no offset, error or warning of a vector can be copied from annotate.
    const dir = new URL('../scripts/vectors/', import.meta.url).pathname;
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('vector.ts');
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text, `${file} loads a module at run time`).not.toMatch(/\bimport\(|\brequire\(/);
      // The second group always takes part in a match; the first may not.
      const imports = text.matchAll(/^import\s+(type\s+)?[^;]*?\sfrom\s+'([^']+)'/gm) as Iterable<[string, string | undefined, string]>;
      for (const [, typeOnly, from] of imports) {
        const inside = from.startsWith('.') && join(dir, dirname(file), from).startsWith(dir);
        expect(inside || from.startsWith('node:') || !!typeOnly, `${file} imports ${from}`).toBe(true);
      }
    }
    // Every vector file is what vectorOf makes of its case, here without the codec.
    const byId = new Map(vectors.map((v) => [v.id, v]));
    const cases = [...sampCases, ...vcmpCases, ...mcqueryCases];
    expect(cases.length).toBe(vectors.length);
    for (const c of cases) expect(vectorOf(c), vectorId(c)).toEqual(byId.get(vectorId(c)));
    // And the generator writes that vector as it is: it checks the codec against it, and changes nothing in it.
    const generator = readFileSync(new URL('../scripts/make-vectors.ts', import.meta.url), 'utf8');
    expect(generator).toMatch(/const vector = vectorOf\(c\);/);
    expect(generator).not.toMatch(/\bvector(\.\w+|\[[^\]]*\])\s*=[^=]/);
  });

  it('has at least three cases per layout: a normal, an edge and a bad one', () => {
    for (const layout of layouts) {
      const mine = vectors.filter((v) => v.layout === layout.id);
      expect(mine.length, layout.id).toBeGreaterThanOrEqual(3);
      expect(
        mine.some((v) => v.error),
        `${layout.id} has an error case`,
      ).toBe(true);
      expect(mine.filter((v) => v.value).length, `${layout.id} has two valid cases`).toBeGreaterThanOrEqual(2);
    }
  });

  it.each(vectors.map((v) => [v.id, v] as const))('%s matches the schema and its file name', (_, v) => {
    expect(validate(v), JSON.stringify(validate.errors)).toBe(true);
    expect(v.layout).toBe(`${v.protocol}.${v.message}.${v.direction}`);
  });

  it.each(vectors.map((v) => [v.id, v] as const))('%s decodes, encodes and annotates as recorded', (_, v) => {
    const layout = layoutFor(v.protocol, v.message, v.direction);
    const bytes = fromHex(v.hex);
    const opts = v.charset ? { charset: v.charset } : {};
    const ann = layout.annotate(bytes, opts);
    expect(ann.fields.map(nodeJson)).toEqual(v.fields);
    if (v.error) {
      expect(() => layout.decode(bytes, opts)).toThrow(CodecError);
      try {
        layout.decode(bytes, opts);
      } catch (e) {
        const err = e as CodecError;
        expect({ type: err.name, offset: err.info.offset, field: err.info.field, message: err.message }).toEqual(v.error);
      }
      expect(ann.error?.name).toBe(v.error.type);
      return;
    }
    const value = valueFromJson(layout, v.value!);
    const decoded = layout.decode(bytes, opts);
    expect(decoded.value).toEqual(value);
    expect(decoded.warnings.map(({ code, field, offset }) => ({ code, field, offset }))).toEqual(v.warnings ?? []);
    expect(toHex(layout.encode(value, opts))).toBe(v.canonicalHex ?? v.hex);
    expect(ann.value).toEqual(value);
  });

  it.each(vectors.map((v) => [v.id, v] as const))('%s is recognised by decodePacket given protocol and direction', (_, v) => {
    const bytes = fromHex(v.hex);
    const hint = { protocol: v.protocol, direction: v.direction, ...(v.protocol === 'mcquery' ? { message: v.message } : {}) };
    const opts = v.charset ? { charset: v.charset } : {};
    if (v.error) {
      expect(() => decodePacket(bytes, hint, opts)).toThrow(CodecError);
    } else {
      const p = decodePacket(bytes, hint, opts);
      expect(p.layout.id).toBe(v.layout);
    }
  });

  it('every prefix of every valid vector gives a typed error or a partial tree, never an untyped exception', () => {
    let prefixes = 0;
    for (const v of vectors.filter((x) => x.value)) {
      const layout = layoutFor(v.protocol, v.message, v.direction);
      const bytes = fromHex(v.hex);
      for (let n = 0; n < bytes.length; n++) {
        const cut = bytes.subarray(0, n);
        prefixes++;
        const ann = layout.annotate(cut);
        try {
          const r = layout.decode(cut);
          // A tolerated prefix (a list cut between entries) must say so.
          expect(ann.error).toBeUndefined();
          expect(r.bytesRead).toBeLessThanOrEqual(n);
        } catch (e) {
          expect(e).toBeInstanceOf(CodecError);
          expect(ann.error).toBeInstanceOf(CodecError);
          expect(ann.error!.message).toBe((e as Error).message);
          const last = ann.fields.at(-1)!;
          expect(last.abbrev).toBe(`${v.protocol}.malformed`);
          expect(last.offset).toBe(ann.error!.info.offset);
          expect(last.offset).toBeLessThanOrEqual(n);
        }
      }
    }
    expect(prefixes).toBeGreaterThan(2000);
  });
});
