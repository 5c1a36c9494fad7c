/**
 * Golden files: what the declarations generate, committed under `expected/` so that a review
 * shows what a change to a declaration (or to a generator) does to each artifact.
 *
 *  - `wireshark/gamequery.lua`: the whole Wireshark plugin, every protocol, exactly as
 *    `gamequery export wireshark` writes it (`exportWireshark()` with its defaults);
 *  - `kaitai/*.ksy`: every Kaitai Struct file `gamequery export kaitai -o DIR` writes;
 *  - `emitters/samp.info.response.json-emitter.js.txt`: the JavaScript the codec compiles for
 *    the SA:MP info response's JSON emitter, as `emitterSource` gives it (the dissector's text
 *    emitter has its own in packages/dissect/test/golden). `.txt` so that no linter or
 *    formatter takes it for a module (it is a function body, not a program).
 *
 * Each file is compared byte for byte. On a difference the test fails with the first lines
 * that differ; if the change is meant, `pnpm golden` (GAMEQUERY_UPDATE_GOLDEN=1 for this file)
 * rewrites every golden file, removes those no longer generated, and the diff goes in the commit.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layoutFor } from '@gamequery/codec';
import { emitterSource } from '@gamequery/codec/internal';
import { exportKaitai, exportWireshark } from '@gamequery/codec/export';
import { goldenFile, updatingGolden as update } from './diff.ts';

const expected = new URL('./expected/', import.meta.url).pathname;
const HOW =
  'if the change is meant, run `pnpm golden` (GAMEQUERY_UPDATE_GOLDEN=1 pnpm vitest run packages/codec/test/golden) and commit the result';

/** Compares `text` with the golden file `path` (relative to expected/), or writes it when updating. */
const golden = (path: string, text: string): void => goldenFile(expected, path, text, HOW);

/** The golden files of one folder no generator writes any more: an error, or removed when updating. */
function stale(folder: string, written: ReadonlySet<string>): string[] {
  const dir = `${expected}${folder}`;
  if (!existsSync(dir)) return [];
  const left = readdirSync(dir).filter((name) => !written.has(name));
  if (update) for (const name of left) rmSync(`${dir}/${name}`);
  return update ? [] : left;
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

  it('the compiled JSON emitter of the SA:MP info response', () => {
    const { fields } = layoutFor('samp', 'info', 'response');
    golden('emitters/samp.info.response.json-emitter.js.txt', `${emitterSource(fields)}\n`);
    const written = new Set(['samp.info.response.json-emitter.js.txt']);
    expect(stale('emitters', written), `golden emitter files no test writes; ${HOW}`).toEqual([]);
  });
});
