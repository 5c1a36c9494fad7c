/**
 * Runs the CLI as a user does: a child process of the compiled command (packages/cli/dist,
 * brought up to date by the tests' global setup, scripts/test-setup.mjs), killed after a
 * bounded time. Every test that spawns `gamequery` and waits for it to end uses this.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Node's arguments for `gamequery ARGS…` (the compiled command), with `root` as the working directory. */
export const cliArgs = (args: readonly string[]): string[] => ['packages/cli/dist/main.js', ...args];

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
