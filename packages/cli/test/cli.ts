/**
 * Runs the CLI as a user does: a child process of the built command (packages/cli/bin, bundled
 * from packages/cli/dist and brought up to date by the tests' global setup,
 * scripts/test-setup.mjs), killed after a bounded time. Every test that spawns `gamequery` and waits for it to end uses this.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Node's arguments for `gamequery ARGS…` (the built command), with `root` as the working directory. */
export const cliArgs = (args: readonly string[]): string[] => ['packages/cli/bin/gamequery.js', ...args];

/** Runs `gamequery ARGS…` to its end (tests of quick commands). */
export const runSync = (...args: string[]) => spawnSync(process.execPath, cliArgs(args), { cwd: root, encoding: 'utf8' });

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  readonly stdin?: string;
  readonly env?: Record<string, string>;
  /** SIGKILL after this long. Default 30 000 ms. */
  readonly ms?: number;
  /** Called with all of stdout so far whenever more comes, and a way to send SIGINT. */
  readonly watch?: (stdout: string, interrupt: () => void) => void;
}

/** Runs `gamequery ARGS…`; `GAMEQUERY_RCON_PASSWORD` is cleared unless `env` sets it. */
export function gamequery(args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  const child = spawn(process.execPath, cliArgs(args), {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, GAMEQUERY_RCON_PASSWORD: '', ...options.env },
  });
  const r: Ran = { code: null, stdout: '', stderr: '' };
  let interrupted = false;
  const interrupt = (): void => {
    if (interrupted || child.exitCode !== null) return;
    interrupted = true;
    child.kill('SIGINT');
  };
  child.stdout.on('data', (d: Buffer) => {
    r.stdout += d.toString();
    options.watch?.(r.stdout, interrupt);
  });
  child.stderr.on('data', (d: Buffer) => (r.stderr += d.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.ms ?? 30_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      r.code = code;
      resolve(r);
    });
  });
}

/** A command started in the background: its process and its exit code once it closes. */
export interface Started {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
}

/** Whether it has neither exited nor been killed. */
export const running = (r: Started): boolean => r.child.exitCode === null && r.child.signalCode === null;

/** Resolves when `test` holds, or false after `ms` (checked every `every` ms). */
export async function waitFor(test: () => boolean, ms: number, every = 10): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (test()) return true;
    await new Promise((resolve) => setTimeout(resolve, every));
  }
  return test();
}

/** The exit code, or SIGKILL and null after `ms`. */
export async function exitWithin(r: Started, ms: number): Promise<number | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const code = await Promise.race([r.exited, new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)))]);
  clearTimeout(timer);
  if (code !== 'late') return code;
  r.child.kill('SIGKILL');
  await r.exited;
  return null;
}
