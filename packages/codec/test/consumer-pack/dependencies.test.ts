/**
 * Each package's declared dependencies against what its built files import (esbuild's
 * metafile over the module graph of every entry in `exports` and `bin`, from `dist/`, and the
 * cli's bin, `bin/`, a bundle of its `dist/`):
 *
 *  - every package a built file imports is a dependency or a peer dependency, and every
 *    dependency and peer is imported by some entry (no stale or missing declaration); the
 *    cli's bundle imports nothing but Node's own modules, and it declares no dependency;
 *  - a subpath of one of our packages that another imports is in that package's `exports`;
 *  - the optional peer rxjs is reached by `@gamequery/codec/rx` alone: not by the codec's
 *    root, not by `@gamequery/codec/pairing`, not by any entry of the dissector or the cli,
 *    following imports through our own packages.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build as bundle, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { build, root, staleness } from '../../../../scripts/build.mjs';

interface Manifest {
  name: string;
  exports: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const manifest = (name: string) => JSON.parse(readFileSync(`${root}packages/${name}/package.json`, 'utf8')) as Manifest;
const names = ['codec', 'dissect', 'cli'] as const;

/**
 * The JavaScript file of each entry (`exports`' default condition, JSON left out) and of each
 * bin; for the cli, also what its bin is bundled from (`compiled`, tsc's output), whose graph
 * runs through our packages.
 */
function entries(m: Manifest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, target] of Object.entries(m.exports)) {
    const file = typeof target === 'string' ? target : target.default;
    if (file?.endsWith('.js')) out[key] = file;
  }
  for (const [key, file] of Object.entries(m.bin ?? {})) out[`bin ${key}`] = file;
  if (m.name === '@gamequery/cli') out.compiled = 'dist/main.js';
  return out;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const builtin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier));

/**
 * The bare specifiers the module graph of `file` imports (statically or by `import()`), Node's
 * own left out. `through` says which packages' imports are followed rather than kept.
 */
async function importsOf(file: string, through: (specifier: string) => boolean): Promise<Set<string>> {
  const keep: Plugin = {
    name: 'keep',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => (through(args.path) ? undefined : { path: args.path, external: true }));
    },
  };
  const result = await bundle({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    conditions: [],
    plugins: [keep],
  });
  const found = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const i of input.imports) if (i.external && !builtin(i.path)) found.add(i.path);
  }
  return found;
}

const own = (specifier: string) => specifier.startsWith('@gamequery/');
const direct: Record<string, Record<string, Set<string>>> = {};
const transitive: Record<string, Record<string, Set<string>>> = {};

beforeAll(async () => {
  if (staleness() !== undefined) build();
  for (const name of names) {
    direct[name] = {};
    transitive[name] = {};
    for (const [entry, file] of Object.entries(entries(manifest(name)))) {
      const path = `${root}packages/${name}/${file}`;
      direct[name][entry] = await importsOf(path, () => false);
      transitive[name][entry] = await importsOf(path, own);
    }
  }
}, 60_000);

describe('declared dependencies match the imports of the built files', () => {
  it.each(['codec', 'dissect'] as const)('%s: everything imported is declared, everything declared is imported', (name) => {
    const m = manifest(name);
    const imported = new Set(Object.values(direct[name]!).flatMap((set) => [...set].map(packageOf)));
    const declared = new Set([...Object.keys(m.dependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})]);
    expect([...imported].sort()).toEqual([...declared].sort());
    expect(imported.size).toBeGreaterThan(0);
  });

  it("cli: the bin is a bundle that imports nothing but Node's modules, and the package declares no dependency", () => {
    const m = manifest('cli');
    expect(m.bin).toEqual({ gamequery: './bin/gamequery.js' });
    expect([...direct.cli!['bin gamequery']!]).toEqual([]);
    expect({ ...m.dependencies, ...m.peerDependencies }).toEqual({});
    // What it is bundled from imports our packages and commander, which the bundle holds.
    expect(new Set([...direct.cli!.compiled!].map(packageOf))).toEqual(new Set(['@gamequery/codec', '@gamequery/dissect', 'commander']));
  });

  it.each(names)('%s: a subpath of our own packages it imports is exported by that package', (name) => {
    for (const specifier of Object.values(direct[name]!).flatMap((set) => [...set].filter(own))) {
      const target = manifest(packageOf(specifier).slice('@gamequery/'.length));
      expect(Object.keys(target.exports), specifier).toContain(`.${specifier.slice(packageOf(specifier).length)}`);
    }
  });

  it('rxjs is an optional peer dependency of the codec, and of no other package', () => {
    expect(manifest('codec').peerDependenciesMeta?.rxjs?.optional).toBe(true);
    expect(manifest('codec').dependencies?.rxjs).toBeUndefined();
    for (const name of ['dissect', 'cli']) {
      const m = manifest(name);
      expect({ ...m.dependencies, ...m.peerDependencies }, name).not.toHaveProperty('rxjs');
    }
  });

  it('rxjs is reached by @gamequery/codec/rx alone, following imports through our packages', () => {
    const reaching = names.flatMap((name) =>
      Object.entries(transitive[name]!)
        .filter(([, set]) => [...set].some((s) => packageOf(s) === 'rxjs'))
        .map(([entry]) => `${name} ${entry}`),
    );
    expect(reaching).toEqual(['codec ./rx']);
    // The graphs followed are real ones: the dissector reaches binary-parser through the codec.
    expect([...transitive.dissect!['.']!].map(packageOf)).toContain('binary-parser');
    expect([...transitive.cli!.compiled!].map(packageOf)).toEqual(expect.arrayContaining(['binary-parser', 'commander']));
  });
});
