/**
 * Runs the CLI: the built command (packages/cli/bin, bundled from packages/cli/dist and brought
 * up to date by the tests' global setup, scripts/test-setup.mjs). A quick command that reads
 * files runs in process ({@link runSync}: the bundle's program in a worker thread); the rest as a
 * user runs it, a child process killed after a bounded time. Every test that runs `gamequery`
 * and waits for it to end uses this.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Node's arguments for `gamequery ARGS…` (the built command), with `root` as the working directory. */
export const cliArgs = (args: readonly string[]): string[] => ['packages/cli/bin/gamequery.js', ...args];

/** A run's end: its exit code (null: killed by a signal) and what it wrote. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What {@link runSync} gives: spawnSync's fields. */
export interface RanSync {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Commands with a life of their own (sockets, signals, timers that outlast a run): always a process. */
const OWN_PROCESS = new Set(['serve', 'query', 'rcon', 'ping']);
/** Arguments that read this process's stdin or capture live: always a process. */
const STDIN = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', '-i', '--interface']);

/** Whether `gamequery ARGS…` can run in process: a command that reads files and writes its output, and ends. */
export function canRunInProcess(args: readonly string[]): boolean {
  const name = args.find((a) => !a.startsWith('-'));
  return !(name !== undefined && OWN_PROCESS.has(name)) && !args.some((a) => STDIN.has(a) || a.startsWith('--interface='));
}

/** Whether {@link runSync} runs it in process: where it can, unless GAMEQUERY_TEST_SPAWN=1 (every run a child process). */
const runsInProcess = (args: readonly string[]): boolean => process.env.GAMEQUERY_TEST_SPAWN !== '1' && canRunInProcess(args);

let program: { readonly port: MessagePort; readonly flag: Int32Array } | undefined;

/** The worker thread that runs the built program (helpers/program-worker.mjs), made at the first run. */
function programWorker(): { readonly port: MessagePort; readonly flag: Int32Array } {
  if (program) return program;
  const { port1, port2 } = new MessageChannel();
  const shared = new SharedArrayBuffer(4);
  const worker = new Worker(new URL('./helpers/program-worker.mjs', import.meta.url), {
    workerData: { program: pathToFileURL(`${root}packages/cli/bin/program.js`).href, port: port2, flag: shared },
    transferList: [port2],
    stdin: true,
  });
  worker.stdin!.end();
  worker.unref();
  port1.unref();
  return (program = { port: port1, flag: new Int32Array(shared) });
}

/**
 * Runs `gamequery ARGS…` to its end (tests of quick commands). The built program, in a worker
 * thread of this process, when {@link runsInProcess}: starting a process of node and loading
 * the command took about 0.25 s a run here, and under the suite's load up to a second, for
 * most of the suite's runs of it. Otherwise a child process, as `gamequery` runs.
 */
export function runSync(...args: string[]): RanSync {
  return runsInProcess(args) ? runInProcess(args) : spawnSync(process.execPath, cliArgs(args), { cwd: root, encoding: 'utf8' });
}

/** Runs sent to the worker, each answer named by its run's number. */
let runs = 0;
/** Never set: a 1 ms wait on it is a sleep. */
const nap = new Int32Array(new SharedArrayBuffer(4));

/** `gamequery ARGS…` in the worker, with `env` set for the run; this thread waits for its end. */
export function runInProcess(args: readonly string[], env: Record<string, string> = {}): RanSync {
  const { port, flag } = programWorker();
  const id = ++runs;
  Atomics.store(flag, 0, 0);
  port.postMessage({ id, args, env });
  const end = Date.now() + 120_000;
  for (;;) {
    const answer = receiveMessageOnPort(port)?.message as (RanSync & { readonly id: number }) | undefined;
    // An answer to an earlier run (one given up on) is passed over: each run reads its own.
    if (answer?.id === id) {
      if (answer.status === -1) throw new Error(`gamequery ${args.join(' ')} in process: ${answer.stderr}`);
      return { status: answer.status, stdout: answer.stdout, stderr: answer.stderr };
    }
    if (answer) continue;
    if (Date.now() > end) throw new Error(`gamequery ${args.join(' ')}: no end after 120 s in process`);
    // Woken is not answered: the worker raises the flag and then notifies, and a run that saw the flag raised can be
    // over before that notify comes, which then wakes the next run's wait with the flag still down (CI, 29 November:
    // a run read no answer, and every run after it its predecessor's). So: wait for the flag, then for the answer.
    if (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0, 1000);
    else Atomics.wait(nap, 0, 0, 1);
  }
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
  // Nothing to feed it, watch or kill: in process, as runSync.
  if (!options.stdin && !options.watch && options.ms === undefined && runsInProcess(args)) {
    return Promise.resolve().then(() => {
      const r = runInProcess(args, { GAMEQUERY_RCON_PASSWORD: '', ...options.env });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    });
  }
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
