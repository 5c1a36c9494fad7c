/**
 * The kept runs of tshark (helpers/tshark-run.ts): each is tshark's own output for its key, so a few
 * of them, a different few each day, are run again here and must come out the same. Those of the
 * tshark installed whose files are in the repository (a generated plugin's or a temporary capture's
 * bytes are known by their hash alone).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TSHARK_RUNS, tsharkVersion, type KeptRun } from './helpers/tshark-run.ts';
import { requireTshark } from './helpers/tshark.ts';

requireTshark();

const root = fileURLToPath(new URL('../../../', import.meta.url));
const runs = readdirSync(TSHARK_RUNS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(`${TSHARK_RUNS}${f}`, 'utf8')) as KeptRun);
const again = runs.filter(
  (r) =>
    r.tshark === tsharkVersion() &&
    !r.env.GAMEQUERY_TSHARK_FILTERS &&
    r.args.every((a) => !a.startsWith('/') && !a.startsWith('lua_script:')),
);
const day = Math.floor(Date.now() / 86_400_000);
const picked = [0, 1, 2, 3].map((k) => again[(day * 4 + k) % Math.max(again.length, 1)]!);

describe('the kept runs of tshark', () => {
  it('are there for the tshark installed, most with their files in the repository', () => {
    expect(runs.length).toBeGreaterThan(50);
    expect(again.length).toBeGreaterThan(20);
  });

  it.each(picked.map((r) => [r.args.join(' '), r]))('tshark %s: as kept', (_, r) => {
    const live = spawnSync('tshark', r.args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...r.env } });
    // stderr says whether it ran as root: not compared.
    expect([live.status, live.stdout]).toEqual([r.status, r.stdout]);
  });
});
