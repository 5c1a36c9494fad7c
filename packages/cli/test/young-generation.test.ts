/**
 * The command keeps V8's young generation at its starting size (src/young-generation.ts): a
 * child process that keeps many objects alive for a while (what makes V8 grow it) ends with
 * a young generation as small as it began, where one that does not call it ends with it
 * grown. Run on this Node's V8, so a V8 that ignored the flag would fail it.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { root } from './cli.ts';

const MIB = 2 ** 20;

/** The young generation's size at the start and at the end of a child that allocates, keeping 50 000 objects live. */
function youngGeneration(keep: boolean): { start: number; end: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    if (${keep}) (await import('./packages/cli/dist/young-generation.js')).keepYoungGenerationSmall();
    const size = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    const start = size();
    const live = new Array(50000);
    for (let i = 0; i < 2e6; i++) live[i % 50000] = { i, s: 'x' + i };
    process.stdout.write(JSON.stringify({ start, end: size() }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { start: number; end: number };
}

describe('the young generation', () => {
  it('stays at its starting size in the command, where it grows to many times that without', () => {
    const kept = youngGeneration(true);
    const grown = youngGeneration(false);
    expect(kept.end).toBeLessThanOrEqual(Math.max(kept.start * 2, 2 * MIB));
    expect(grown.end).toBeGreaterThanOrEqual(8 * kept.end);
  });
});
