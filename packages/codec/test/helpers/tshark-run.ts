/**
 * tshark, run by the tests, its output kept for the same tshark and the same input: a run of
 * tshark costs some 0.7 s of CPU (half a second of it starting up), and the suite ran two
 * hundred of them, a quarter of its time.
 *
 * A run is known by its key: the tshark installed (Debian's version of the `tshark` package, else
 * its `--version` line), its arguments with every file they name (a capture, the generated Lua
 * plugin, a tap's list of filters) read as the SHA-256 of its bytes, and the environment it reads
 * (TZ). Where `fixtures/tshark/KEY.json` holds that key's run (what tshark wrote, and its exit
 * status), that is the answer; else tshark runs, and with `GAMEQUERY_TSHARK_RECORD=1` its run is
 * kept there (below {@link KEPT_BYTES}). So a changed capture, plugin, argument or tshark is run
 * again, never answered from an older run: the kept runs are tshark's own output for exactly
 * those bytes. `GAMEQUERY_TSHARK_LIVE=1` runs every one. tshark-cache.test.ts runs some of the
 * kept ones again each time and compares.
 *
 * Runs that write a file (`-w`), capture (`-i`, `-D`), read stdin or are not text are never kept.
 */
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative, resolve } from 'node:path';

/** Where the kept runs are, a file each. */
export const TSHARK_RUNS = fileURLToPath(new URL('../fixtures/tshark/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Runs larger than this (stdout and stderr) are not kept: the PDML of two thousand datagrams is tens of MB. */
export const KEPT_BYTES = 256 * 1024;

/** A run of tshark: its exit status and what it wrote. */
export interface TsharkRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A kept run: its key's parts, for whoever reads the file, and the run. */
export interface KeptRun extends TsharkRun {
  readonly tshark: string;
  /** The arguments as given, paths relative to the repository. */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The SHA-256 of each file an argument names, by the argument as {@link KeptRun.args} shows it. */
  readonly files: Readonly<Record<string, string>>;
}

let installed: string | undefined;

/** How many runs started tshark (not answered from a kept run), in this process. */
export const started = { runs: 0 };

/** The tshark installed: Debian's package version (a few ms), else the first line of `tshark --version` (GAMEQUERY_TSHARK_AS: another name). */
export function tsharkVersion(): string {
  if (installed !== undefined) return installed;
  // Another name for it: what a newer tshark's tests do (tshark-cache.test.ts), tried on this one.
  if (process.env.GAMEQUERY_TSHARK_AS) return (installed = process.env.GAMEQUERY_TSHARK_AS);
  const dpkg = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'tshark'], { encoding: 'utf8' });
  if (dpkg.status === 0 && dpkg.stdout) return (installed = `tshark ${dpkg.stdout.trim()} (Debian)`);
  return (installed = tsharkSync(['--version'], { encoding: 'utf8' }).stdout.split('\n')[0] ?? '');
}

const sha = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The environment a run reads: its time zone, and the file of filters a tap script is given (its bytes). */
function envOf(env: NodeJS.ProcessEnv | undefined): Record<string, string> {
  const e = env ?? process.env;
  const out: Record<string, string> = {};
  if (e.TZ) out.TZ = e.TZ;
  const filters = e.GAMEQUERY_TSHARK_FILTERS;
  if (filters) out.GAMEQUERY_TSHARK_FILTERS = isFile(filters) ? `sha256:${sha(readFileSync(filters))}` : filters;
  return out;
}

/** An argument as its key holds it: a file (or `lua_script:FILE`), from `cwd` if relative, by the SHA-256 of its bytes. */
function argOf(arg: string, cwd: string): string {
  const script = arg.startsWith('lua_script:') ? arg.slice('lua_script:'.length) : undefined;
  const path = resolve(cwd, script ?? arg);
  if (arg.startsWith('-') || !isFile(path)) return arg;
  return `${script !== undefined ? 'lua_script:' : ''}sha256:${sha(readFileSync(path))}`;
}

/** Whether a run may be kept: it writes nothing but its output, captures nothing and reads no stdin. */
const keepable = (args: readonly string[]): boolean => !args.some((a) => ['-w', '-i', '-D', '-', '-G'].includes(a));

/** The run's key, or undefined where it is never kept. */
function keyOf(args: readonly string[], env: NodeJS.ProcessEnv | undefined, cwd = process.cwd()): string | undefined {
  if (!keepable(args) || process.env.GAMEQUERY_TSHARK_LIVE === '1') return undefined;
  return sha(JSON.stringify({ tshark: tsharkVersion(), args: args.map((a) => argOf(a, cwd)), env: envOf(env) }));
}

function kept(key: string | undefined): TsharkRun | undefined {
  if (key === undefined) return undefined;
  const file = `${TSHARK_RUNS}${key}.json`;
  if (!existsSync(file)) return undefined;
  const run = JSON.parse(readFileSync(file, 'utf8')) as KeptRun;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function keep(key: string | undefined, args: readonly string[], env: NodeJS.ProcessEnv | undefined, run: TsharkRun, cwd: string): void {
  if (key === undefined || process.env.GAMEQUERY_TSHARK_RECORD !== '1') return;
  if (run.stdout.length + run.stderr.length > KEPT_BYTES) return;
  const shown = args.map((a) => (a.startsWith(ROOT) ? relative(ROOT, a) : a.replace(/^lua_script:\/.*\/([^/]+)$/, 'lua_script:$1')));
  const files: Record<string, string> = {};
  args.forEach((a, i) => {
    const hashed = argOf(a, cwd);
    if (hashed !== a) files[shown[i]!] = hashed.replace(/^(lua_script:)?sha256:/, '');
  });
  const entry: KeptRun = { tshark: tsharkVersion(), args: shown, env: envOf(env), files, ...run };
  mkdirSync(TSHARK_RUNS, { recursive: true });
  writeFileSync(`${TSHARK_RUNS}${key}.json`, `${JSON.stringify(entry, null, 1)}\n`);
}

/** `tshark ARGS…` to its end, as spawnSync runs it (text output), or its kept run (see the module comment). */
export function tsharkSync(args: readonly string[], options: SpawnSyncOptions = {}): TsharkRun {
  const text = options.encoding === 'utf8' && options.input === undefined && options.stdio === undefined;
  const cwd = options.cwd === undefined ? process.cwd() : String(options.cwd);
  const key = text ? keyOf(args, options.env, cwd) : undefined;
  const hit = kept(key);
  if (hit) return hit;
  started.runs++;
  const r = spawnSync('tshark', args, { maxBuffer: 1 << 30, ...options, encoding: 'utf8' });
  if (r.error) throw r.error;
  const run = { status: r.status, stdout: r.stdout, stderr: r.stderr };
  keep(key, args, options.env, run, cwd);
  return run;
}

/** {@link tsharkSync}, run beside other work (two runs at once, as the plugin's tree and columns are read). */
export function tsharkAsync(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<TsharkRun> {
  const key = keyOf(args, env);
  const hit = kept(key);
  if (hit) return Promise.resolve(hit);
  started.runs++;
  return new Promise((resolve, reject) => {
    const child = spawn('tshark', args, { env: env ?? process.env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (status) => {
      const run = { status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
      keep(key, args, env, run, process.cwd());
      resolve(run);
    });
  });
}
