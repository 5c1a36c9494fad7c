/**
 * A worker thread that runs the built program (packages/cli/bin/program.js) in process, one run
 * at a time, for packages/cli/test/cli.ts: it answers on the port it is given, then wakes the
 * test's thread, which waits on the shared flag (see `runSync` there); each answer carries its run's `id`. Plain JavaScript: the
 * worker has no TypeScript loader.
 *
 * A run's stdout and stderr are what it writes (copied: the command reuses its buffers), its
 * status `process.exitCode` when its promise settles (0 when unset). Its stdin is empty, as
 * spawnSync gives a child without input; `env` is set for the run alone.
 */
import { workerData } from 'node:worker_threads';

const { program, port, flag } = workerData;
const done = new Int32Array(flag);
/** The program, or why it could not be loaded (said by every run). */
const loaded = await import(program).catch((e) => e);

/** What the current run wrote. */
const out = [];
const err = [];
const capture = (into) =>
  function write(chunk, encoding, callback) {
    into.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
    const cb = typeof encoding === 'function' ? encoding : callback;
    if (cb) queueMicrotask(() => cb());
    return true;
  };
process.stdout.write = capture(out);
process.stderr.write = capture(err);
// An exception nothing caught, or a rejection nothing handled, would end the command with
// exit 1 and its stack on stderr: so it ends the run it came in, or if it came between runs, the next.
let uncaught = '';
const late = (e) => (uncaught += `uncaught in process: ${e instanceof Error ? e.stack : String(e)}\n`);
process.on('uncaughtException', late);
process.on('unhandledRejection', late);

port.on('message', async ({ id, args, env }) => {
  out.length = 0;
  err.length = 0;
  process.exitCode = undefined;
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  if (loaded instanceof Error) err.push(Buffer.from(`cannot load ${program}: ${loaded.stack}\n`));
  else {
    try {
      await loaded.runProgram(['node', 'gamequery', ...args]);
    } catch (e) {
      loaded.failed(e);
    }
  }
  let status = loaded instanceof Error ? -1 : Number(process.exitCode ?? 0);
  if (uncaught) {
    err.push(Buffer.from(uncaught));
    uncaught = '';
    if (status === 0) status = 1;
  }
  for (const [k, v] of Object.entries(before)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  process.exitCode = undefined;
  port.postMessage({ id, status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
});
