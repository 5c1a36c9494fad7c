/**
 * The built command (each package's `dist/`, from `tsc -b`, and the command line bundled from
 * them into `packages/cli/bin/`) and whether it is older than its sources: shared by `pnpm install`
 * (the root `prepare` script runs this file), `pnpm gamequery`, the start-up benchmark and the
 * built CLI's tests.
 *
 * Plain JavaScript, so that it runs before anything is compiled.
 */
import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** What `gamequery` runs: the command line, bundled (see {@link bundle}). */
export const main = `${root}packages/cli/bin/gamequery.js`;
/** Where the bundle is made from: the command line as tsc compiled it. */
const compiled = `${root}packages/cli/dist/main.js`;

/**
 * The packages, in build order. Each is its own `tsc -b` project: its JavaScript is made from its
 * own `src/` alone (another package's sources are only read for their types).
 */
const packages = ['codec', 'dissect', 'cli'];

/** The `tsc -b` that builds them (incremental: only what changed). */
export const buildArgs = [`${root}node_modules/typescript/bin/tsc`, '-b', ...packages.map((name) => `packages/${name}`)];

const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

/** The newest modification time of `dir` and of everything under it (a directory's changes when a file comes or goes). */
function newestUnder(dir) {
  let newest = mtime(dir) ?? 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    newest = Math.max(newest, mtime(`${entry.parentPath ?? entry.path}/${entry.name}`) ?? 0);
  }
  return newest;
}

/**
 * Why the build is older than its sources, or undefined when it is current: `tsc -b`'s own test
 * (a package's `tsconfig.tsbuildinfo` older than its sources, their directories or its
 * configuration), by modification time. About 2 ms (one `stat` per source file and directory),
 * where `tsc -b` takes about 200 ms to find that it has nothing to do.
 */
export function staleness() {
  if (!existsSync(compiled)) return 'packages/cli/dist/main.js is missing';
  const base = mtime(`${root}tsconfig.base.json`) ?? 0;
  for (const name of packages) {
    const dir = `${root}packages/${name}/`;
    const built = mtime(`${dir}tsconfig.tsbuildinfo`);
    if (built === undefined) return `packages/${name} was never built`;
    const newest = Math.max(base, newestUnder(`${dir}src`), mtime(`${dir}tsconfig.json`) ?? 0);
    if (newest > built) return `the sources of packages/${name} changed since its build`;
  }
  if ((mtime(main) ?? 0) < (mtime(`${root}packages/cli/tsconfig.tsbuildinfo`) ?? 0)) return 'packages/cli/bin is older than its build';
  return undefined;
}

/**
 * Builds the three packages. tsc's report goes to stderr, so that it never mixes with the
 * output of the command that asked for the build. True when tsc reported no error (it writes
 * the JavaScript even when it reports type errors).
 */
export function build() {
  const ok = spawnSync(process.execPath, buildArgs, { cwd: root, stdio: ['ignore', 2, 2] }).status === 0;
  pruneStale();
  bundle();
  return ok;
}

/**
 * The command line as one program: `packages/cli/dist/main.js` and everything it imports (the
 * codec, the dissector, commander) bundled by esbuild into `packages/cli/bin/gamequery.js`, each
 * subcommand in its own chunk, loaded when it runs, as `program.ts` imports it. Node then resolves,
 * reads and links a handful of files instead of some 150 modules: a one-packet dissect starts in
 * about 140 ms instead of 205 (docs/performance.md). The package ships this, with no runtime
 * dependency. rxjs stays outside, as the codec's optional peer: the command never imports it.
 */
export function bundle() {
  // Loaded here, not with this file: `pnpm gamequery`'s freshness check would pay for it on every run.
  const esbuild = createRequire(import.meta.url)('esbuild');
  rmSync(`${root}packages/cli/bin`, { recursive: true, force: true });
  esbuild.buildSync({
    // program.js: the program without the process around it, which the CLI's tests run in process.
    entryPoints: { gamequery: compiled, program: `${root}packages/cli/dist/program.js` },
    outdir: `${root}packages/cli/bin`,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['rxjs'],
    // commander is CommonJS: its require() of Node's modules needs a require in an ES module.
    banner: { js: "import { createRequire as gamequeryRequire } from 'node:module';\nconst require = gamequeryRequire(import.meta.url);" },
    sourcemap: 'linked',
    // Without comments and blank space (names kept, for profiles and stack traces; the source map
    // has the lines): 1.1 MB of JavaScript becomes 0.75 MB, and Node reads, decodes and parses that
    // much less at every start. A one-packet dissect, 30 runs alternating (29 November, the 2-core
    // AMD machine): median 271.7 → 255.0 ms, best 251.4 → 239.5 ms (docs/performance.md).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
  chmodSync(main, 0o755);
}

/** What tsc writes for one source file `x.ts`: `x.js`, `x.d.ts` and their maps. */
const outputOf = /\.(?:d\.ts\.map|d\.ts|js\.map|js)$/;

/**
 * Removes from each package's `dist/` the files whose source is gone (a module renamed or
 * deleted): `tsc -b` never deletes its old output, and `pnpm pack` would ship it. The
 * removed paths, relative to the repository.
 */
export function pruneStale() {
  const removed = [];
  for (const name of packages) {
    const dist = `${root}packages/${name}/dist/`;
    if (!existsSync(dist)) continue;
    for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !outputOf.test(entry.name)) continue;
      const dir = (entry.parentPath ?? entry.path).slice(dist.length);
      const source = `${root}packages/${name}/src/${dir ? `${dir}/` : ''}${entry.name.replace(outputOf, '.ts')}`;
      if (existsSync(source)) continue;
      rmSync(`${dist}${dir ? `${dir}/` : ''}${entry.name}`);
      removed.push(`packages/${name}/dist/${dir ? `${dir}/` : ''}${entry.name}`);
    }
  }
  return removed;
}

// `node scripts/build.mjs` (what `pnpm install` runs): build, and let a type error fail neither
// the install nor the tests, which run from the sources; `pnpm build` and `pnpm typecheck` fail on it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === 'bundle') {
  // `pnpm build` in packages/cli: tsc -b, then this.
  bundle();
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  if (build()) {
    console.log(
      `gamequery: built packages/{codec,dissect,cli}/dist and packages/cli/bin in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } else {
    console.log('gamequery: tsc reported the errors above; the JavaScript was written anyway (`pnpm build` fails on them)');
  }
}
