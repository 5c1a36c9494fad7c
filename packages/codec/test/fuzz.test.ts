/**
 * The codec's fuzz targets, a bounded run with fixed seeds (`pnpm fuzz` runs them for as long as
 * asked). A failure prints the command that replays it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codecTargets } from '../fuzz/codec.ts';
import { describeFailure, propertyTarget } from '../fuzz/harness.ts';

const BUDGET = 400;

describe('fuzz targets', () => {
  it.each(codecTargets.map((t) => [t.name, t] as const))('%s finds nothing in a bounded run', async (_, target) => {
    for (const seed of [1, 2]) {
      const totals = await target.run(seed, BUDGET);
      expect(totals.failures.map(describeFailure)).toEqual([]);
      expect(totals.inputs).toBe(BUDGET);
    }
  });
});

describe('the harness', () => {
  const spin = (ms: number): void => {
    const end = process.cpuUsage().user / 1000 + ms;
    while (process.cpuUsage().user / 1000 < end);
  };

  it('fails an input that spends more CPU than its target allows, twice in a row', async () => {
    const target = propertyTarget(
      'spin',
      'burns CPU',
      fc.constant(0),
      () => spin(60),
      () => 20,
    );
    const totals = await target.run(1, 1);
    expect(totals.failures.map((f) => f.error)).toEqual([expect.stringMatching(/took \d+ ms of CPU, more than the 20 ms allowed/)]);
  });

  it('lets an input through that waits (a busy machine stretches wall time, not CPU time)', async () => {
    const target = propertyTarget(
      'wait',
      'sleeps',
      fc.constant(0),
      () => new Promise<void>((done) => setTimeout(done, 300)),
      // The process's CPU time counts V8's own threads too (a collection of an earlier test's
      // garbage, the compiler), which spent 20 ms of 60 on a loaded machine: wide margins.
      () => 100,
    );
    const totals = await target.run(1, 2);
    expect(totals.failures).toEqual([]);
    expect(totals.inputs).toBe(2);
  });
});
