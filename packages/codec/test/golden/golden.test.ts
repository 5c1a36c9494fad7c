/**
 * Golden files: what the declarations generate, committed under `expected/` so that a review
 * shows what a change to a declaration (or to a generator) does to each artifact.
 *
 *  - `wireshark/gamequery.lua`: the whole Wireshark plugin, every protocol, exactly as
 *    `gamequery export wireshark` writes it (`exportWireshark()` with its defaults);
 *  - `kaitai/*.ksy`: every Kaitai Struct file `gamequery export kaitai -o DIR` writes;
 *  - `emitters/samp.info.response.*.js.txt`: the JavaScript the codec compiles for the SA:MP
 *    info response's JSON emitter and its text-tree emitter (indent 0), the function bodies
 *    as `new Function` receives them. `.txt` so that no linter or formatter takes them for
 *    modules (they are function bodies, not programs).
 *
 * Each file is compared byte for byte. On a difference the test fails with the first lines
 * that differ; if the change is meant, `pnpm golden` (GAMEQUERY_UPDATE_GOLDEN=1 for this file)
 * rewrites every golden file, removes those no longer generated, and the diff goes in the commit.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ByteSink, fromHex, layoutFor, setCodeGeneration } from '@gamequery/codec';
import { exportKaitai, exportWireshark } from '@gamequery/codec/export';
import { vectorRoot } from '../helpers/vectors.ts';
import { firstDifference } from './diff.ts';

const expected = new URL('./expected/', import.meta.url).pathname;
const update = process.env.GAMEQUERY_UPDATE_GOLDEN === '1';
const HOW = 'if the change is meant, run `pnpm golden` (GAMEQUERY_UPDATE_GOLDEN=1 pnpm vitest run packages/codec/test/golden) and commit the result';

/** Compares `text` with the golden file `path` (relative to expected/), or writes it when updating. */
function golden(path: string, text: string): void {
  const file = `${expected}${path}`;
  const want = existsSync(file) ? readFileSync(file) : undefined;
  const got = Buffer.from(text, 'utf8');
  if (want?.equals(got)) return;
  if (update) {
    mkdirSync(file.slice(0, file.lastIndexOf('/')), { recursive: true });
    writeFileSync(file, got);
    return;
  }
  const why = want === undefined ? `missing golden file ${path}` : `${path} differs from what the declarations generate:\n${firstDifference(want.toString('utf8'), text)}`;
  expect.fail(`${why}\n${HOW}`);
}

/** The golden files of one folder no generator writes any more: an error, or removed when updating. */
function stale(folder: string, written: ReadonlySet<string>): string[] {
  const dir = `${expected}${folder}`;
  if (!existsSync(dir)) return [];
  const left = readdirSync(dir).filter((name) => !written.has(name));
  if (update) for (const name of left) rmSync(`${dir}/${name}`);
  return update ? [] : left;
}

/**
 * The function bodies passed to `new Function` while `run` executes: the codec compiles its
 * emitters that way, so this is the exact source it runs.
 */
function compiled(run: () => void): string[] {
  const original = globalThis.Function;
  const bodies: string[] = [];
  globalThis.Function = new Proxy(original, {
    construct(target, args: unknown[], newTarget) {
      bodies.push(String(args.at(-1)));
      return Reflect.construct(target, args, newTarget) as object;
    },
  });
  try {
    run();
  } finally {
    globalThis.Function = original;
  }
  return bodies;
}

/** The emitter's own source, without the prelude that binds the runtime and constants. */
function emitterBody(bodies: readonly string[], name: string): string {
  const head = `return function ${name}(`;
  const found = bodies.filter((b) => b.includes(head));
  if (found.length !== 1) throw new Error(`expected one compiled ${name}, saw ${found.length} among ${bodies.length} compilations`);
  const body = found[0]!;
  const start = body.indexOf('{\n', body.indexOf(head));
  if (start < 0 || !body.endsWith('\n};')) throw new Error(`${name}: the compiled function no longer has the shape this test reads`);
  return `${body.slice(start + 2, -3)}\n`;
}

describe('golden files of the generated artifacts', () => {
  it('the Wireshark plugin (all protocols)', () => {
    golden('wireshark/gamequery.lua', exportWireshark());
    expect(stale('wireshark', new Set(['gamequery.lua'])), `golden files no test writes; ${HOW}`).toEqual([]);
  });

  it('the Kaitai Struct files, one per layout', () => {
    const files = exportKaitai();
    expect(files.size).toBeGreaterThan(0);
    for (const [name, text] of files) golden(`kaitai/${name}`, text);
    expect(stale('kaitai', new Set(files.keys())), `golden .ksy files no layout generates; ${HOW}`).toEqual([]);
  });

  it('the compiled JSON and text-tree emitters of the SA:MP info response', () => {
    setCodeGeneration(true);
    const layout = layoutFor('samp', 'info', 'response');
    const { hex } = JSON.parse(readFileSync(`${vectorRoot}samp/info-response.basic.json`, 'utf8')) as { hex: string };
    const bytes = fromHex(hex);
    const sink = new ByteSink();
    const bodies = compiled(() => {
      expect(layout.emitJson(bytes, sink)).toBeDefined();
      expect(layout.emitText(bytes, new ByteSink(), { indent: 0 })).toBeDefined();
    });
    golden('emitters/samp.info.response.json-emitter.js.txt', emitterBody(bodies, 'emitJson'));
    golden('emitters/samp.info.response.text-emitter.js.txt', emitterBody(bodies, 'emitText'));
    const written = new Set(['samp.info.response.json-emitter.js.txt', 'samp.info.response.text-emitter.js.txt']);
    expect(stale('emitters', written), `golden emitter files no test writes; ${HOW}`).toEqual([]);
  });
});
