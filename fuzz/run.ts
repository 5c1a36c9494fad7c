/**
 * `pnpm fuzz`: runs every fuzz target (or those named) round-robin until the time is up, in a worker
 * thread watched for hangs, then prints the totals.
 *
 *   pnpm fuzz                              all targets for 3 minutes, from a fresh base seed
 *   pnpm fuzz --minutes 10 --target hex    one target (repeat --target for more) for 10 minutes
 *   pnpm fuzz --seed 1234                  round k of every target uses seed 1234 + k
 *   pnpm fuzz --target T --seed S --budget B --path P   replays one failure exactly (printed with it)
 *
 * Each target runs in a worker thread of its own (so its heap is its own), one round at a time: a
 * seed and a budget of inputs, sized so that a round takes about two seconds. A worker that reports
 * no progress for `--watchdog` seconds (default 10) is stopped and its round counted as a hang; one
 * that throws or runs out of memory, as a crash. Exits 1 on any failure, crash or hang.
 */
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { describeFailure, type FuzzFailure, type FuzzTotals } from '../packages/codec/fuzz/harness.ts';
import { targets } from './targets.ts';
import type { Job, Report } from './worker.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    target: { type: 'string', multiple: true },
    seed: { type: 'string' },
    budget: { type: 'string' },
    path: { type: 'string' },
    watchdog: { type: 'string', default: '10' },
  },
});

const chosen =
  args.target === undefined
    ? targets
    : args.target.map((name) => {
        const t = targets.find((x) => x.name === name);
        if (t === undefined) throw new Error(`no fuzz target ${name} (there are ${targets.map((x) => x.name).join(', ')})`);
        return t;
      });
if (args.path !== undefined && (chosen.length !== 1 || args.seed === undefined)) {
  throw new Error('--path replays one failure: give it with one --target and its --seed');
}
const baseSeed = args.seed === undefined ? (Date.now() ^ (Math.random() * 0x1_0000_0000)) >>> 0 : Number(args.seed) >>> 0;
const minutes = Number(args.minutes);
const watchdogMs = Number(args.watchdog) * 1000;
const fixedBudget = args.budget === undefined ? undefined : Number(args.budget);
const ROUND_MS = 2000;
const MEMORY_LIMIT_MB = 512;
const GIVE_UP_AFTER = 3;
const STARTUP_GRACE_MS = 60_000;

interface Row {
  inputs: number;
  rounds: number;
  failures: FuzzFailure[];
  crashes: string[];
  hangs: string[];
  peakRss: number;
  peakHeap: number;
  budget: number;
  ms: number;
  /** Crashes and hangs in a row; a target that keeps failing so is not run again. */
  streak: number;
}
const rows = new Map(
  chosen.map((t) => [
    t.name,
    {
      inputs: 0,
      rounds: 0,
      failures: [],
      crashes: [],
      hangs: [],
      peakRss: 0,
      peakHeap: 0,
      budget: fixedBudget ?? 50,
      ms: 0,
      streak: 0,
    } as Row,
  ]),
);

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

console.log(
  `gamequery fuzz — node ${process.version}, ${chosen.length} target${chosen.length === 1 ? '' : 's'}, ` +
    (args.path === undefined ? `${minutes} min, ` : '') +
    `base seed ${baseSeed} (round k uses seed ${baseSeed} + k)`,
);
for (const t of chosen) console.log(`  ${t.name.padEnd(16)} ${t.description}`);

// A worker does not inherit tsx's loader on Node 20: it registers it, then loads the TypeScript.
const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); });`;

const workers = new Map<string, Worker>();
/** The target's worker, and whether it was just started (loading the sources takes a while). */
function workerFor(target: string): [Worker, boolean] {
  const running = workers.get(target);
  if (running !== undefined) return [running, false];
  const w = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: MEMORY_LIMIT_MB } });
  workers.set(target, w);
  return [w, true];
}

type Outcome = { kind: 'done'; totals: FuzzTotals } | { kind: 'crash'; error: string } | { kind: 'hang' };

/** Runs one round in the worker, under the watchdog. */
function round(job: Job): Promise<Outcome> {
  const [w, fresh] = workerFor(job.target);
  return new Promise((resolve) => {
    let lastProgress = Date.now() + (fresh ? STARTUP_GRACE_MS : 0);
    const finish = (outcome: Outcome): void => {
      clearInterval(watchdog);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      if (outcome.kind !== 'done') {
        void w.terminate();
        workers.delete(job.target);
      }
      resolve(outcome);
    };
    const onMessage = (report: Report): void => {
      lastProgress = Date.now();
      if (report.kind === 'done') finish({ kind: 'done', totals: report.totals });
      else if (report.kind === 'crash') finish({ kind: 'crash', error: report.error });
    };
    const onError = (e: Error): void => finish({ kind: 'crash', error: `${(e as { code?: string }).code ?? e.name}: ${e.message}` });
    const onExit = (code: number): void => finish({ kind: 'crash', error: `worker exited with code ${code}` });
    const watchdog = setInterval(() => {
      if (Date.now() - lastProgress > watchdogMs) finish({ kind: 'hang' });
    }, 250);
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.postMessage(job);
  });
}

const started = Date.now();
let lastReport = started;
const replayOf = (job: Job): string => `pnpm fuzz --target ${job.target} --seed ${job.seed} --budget ${job.budget}`;

for (let k = 0; ; k++) {
  for (const t of chosen) {
    const row = rows.get(t.name)!;
    if (row.streak >= GIVE_UP_AFTER) continue;
    const job: Job = {
      target: t.name,
      seed: (baseSeed + k) >>> 0,
      budget: row.budget,
      ...(args.path === undefined ? {} : { path: args.path }),
    };
    const t0 = performance.now();
    const outcome = await round(job);
    const ms = performance.now() - t0;
    row.rounds++;
    row.ms += ms;
    row.streak = outcome.kind === 'done' ? 0 : row.streak + 1;
    if (outcome.kind === 'done') {
      const { totals } = outcome;
      row.inputs += totals.inputs;
      row.peakRss = Math.max(row.peakRss, totals.peakRss);
      row.peakHeap = Math.max(row.peakHeap, totals.peakHeap);
      for (const f of totals.failures) {
        row.failures.push(f);
        console.log(`\nFAIL ${describeFailure(f)}\n`);
      }
      // Size the next round to take about ROUND_MS.
      if (fixedBudget === undefined && totals.inputs > 0) {
        row.budget = Math.max(10, Math.min(50_000, Math.round((row.budget * ROUND_MS) / Math.max(ms, 1))));
      }
    } else if (outcome.kind === 'crash') {
      row.crashes.push(replayOf(job));
      console.log(`\nCRASH ${t.name} (seed ${job.seed}): ${outcome.error}\n  replay: ${replayOf(job)}\n`);
    } else {
      row.hangs.push(replayOf(job));
      console.log(`\nHANG ${t.name} (seed ${job.seed}): no progress for ${watchdogMs / 1000} s\n  replay: ${replayOf(job)}\n`);
    }
    if (row.streak === GIVE_UP_AFTER) console.log(`${t.name}: ${GIVE_UP_AFTER} crashes or hangs in a row, not run again`);
  }
  const now = Date.now();
  const allGivenUp = [...rows.values()].every((r) => r.streak >= GIVE_UP_AFTER);
  if (args.path !== undefined || allGivenUp || now - started >= minutes * 60_000) break;
  if (now - lastReport >= 60_000) {
    lastReport = now;
    console.log(`${((now - started) / 60_000).toFixed(1)} min: ${[...rows].map(([name, r]) => `${name} ${r.inputs}`).join(', ')}`);
  }
}
await Promise.all([...workers.values()].map((w) => w.terminate()));

const elapsed = (Date.now() - started) / 1000;
const header = ['target', 'inputs', 'inputs/s', 'failures', 'crashes', 'hangs', 'peak heap', 'peak RSS'];
const table = [...rows].map(([name, r]) => [
  name,
  String(r.inputs),
  (r.inputs / (r.ms / 1000 || 1)).toFixed(0),
  String(r.failures.length),
  String(r.crashes.length),
  String(r.hangs.length),
  mib(r.peakHeap),
  mib(r.peakRss),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: readonly string[]): string =>
  `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
console.log(`\nTotals after ${(elapsed / 60).toFixed(1)} min (base seed ${baseSeed}):\n`);
console.log(line(header));
console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
for (const row of table) console.log(line(row));
console.log(`\npeak heap: the target's own worker (V8 heap + ArrayBuffers); peak RSS: the whole process while it ran.`);
console.log(`process peak RSS (resourceUsage maxRSS): ${mib(process.resourceUsage().maxRSS * 1024)}`);

const bad = [...rows.values()].reduce((n, r) => n + r.failures.length + r.crashes.length + r.hangs.length, 0);
process.exit(bad === 0 ? 0 : 1);
