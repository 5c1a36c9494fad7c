/**
 * The worker thread of `pnpm fuzz`: runs one round of one target per message and reports progress
 * while it does, so that the main thread can tell a hang from a slow round.
 */
import { parentPort } from 'node:worker_threads';
import { targets } from './targets.ts';

/** One round, as the main thread asks for it. */
export interface Job {
  readonly target: string;
  readonly seed: number;
  readonly budget: number;
  readonly path?: string;
}

/** What the worker says back. */
export type Report =
  | { readonly kind: 'progress' }
  | { readonly kind: 'done'; readonly totals: import('../packages/codec/fuzz/harness.ts').FuzzTotals }
  | { readonly kind: 'crash'; readonly error: string };

const PROGRESS_EVERY_MS = 200;

const port = parentPort!;
port.on('message', async (job: Job) => {
  const say = (report: Report): void => port.postMessage(report);
  const target = targets.find((t) => t.name === job.target)!;
  let last = 0;
  const onInput = (): void => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    say({ kind: 'progress' });
  };
  try {
    say({
      kind: 'done',
      totals: await target.run(job.seed, job.budget, { onInput, ...(job.path === undefined ? {} : { path: job.path }) }),
    });
  } catch (e) {
    say({ kind: 'crash', error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
