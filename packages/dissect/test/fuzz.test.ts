/**
 * The dissector's fuzz targets (capture reader, IP reassembly, hex-dump parser), a bounded run with
 * fixed seeds (`pnpm fuzz` runs them for as long as asked). A failure prints the command that replays it.
 */
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../codec/fuzz/harness.ts';
import { dissectTargets } from '../fuzz/targets.ts';

const BUDGET: Record<string, number> = { capture: 300, reassembly: 100, hex: 100 };

describe('fuzz targets', () => {
  it.each(dissectTargets.map((t) => [t.name, t] as const))('%s finds nothing in a bounded run', async (_, target) => {
    const budget = BUDGET[target.name] ?? 100;
    const totals = await target.run(1, budget);
    expect(totals.failures.map(describeFailure)).toEqual([]);
    expect(totals.inputs).toBe(budget);
  });
});
