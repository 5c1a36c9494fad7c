/**
 * The codec's fuzz targets, a bounded run with fixed seeds (`pnpm fuzz` runs them for as long as
 * asked). A failure prints the command that replays it.
 */
import { describe, expect, it } from 'vitest';
import { codecTargets } from '../fuzz/codec.ts';
import { describeFailure } from '../fuzz/harness.ts';

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
