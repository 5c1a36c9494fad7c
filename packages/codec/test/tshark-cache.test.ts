/**
 * The kept runs of tshark (helpers/tshark-run.ts): each is tshark's own output for its key, so a few
 * of them, a different few each day, are run again here and must come out the same. Those of the
 * tshark installed whose files are still those bytes: a committed capture, or the generated plugin
 * as the grammars make it now (a temporary capture's bytes, or a tap's filters, are known by their
 * hash alone). A run again uses an empty configuration, as the tests' runs do.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exportWireshark } from '@gamequery/codec/export';
import { TSHARK_RUNS, started, tsharkSync, tsharkVersion, type KeptRun } from './helpers/tshark-run.ts';
import { requireTshark } from './helpers/tshark.ts';

requireTshark();

const root = fileURLToPath(new URL('../../../', import.meta.url));
const sha = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');
const plugin = exportWireshark();
const PLUGIN = 'lua_script:gamequery.lua';

const runs = readdirSync(TSHARK_RUNS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(`${TSHARK_RUNS}${f}`, 'utf8')) as KeptRun);
/** Whether a file argument holds today the bytes the run read. */
const same = (arg: string, hash: string): boolean =>
  arg === PLUGIN
    ? sha(plugin) === hash
    : !arg.startsWith('/') && existsSync(join(root, arg)) && sha(readFileSync(join(root, arg))) === hash;
const again = runs.filter(
  (r) => r.tshark === tsharkVersion() && !r.env.GAMEQUERY_TSHARK_FILTERS && Object.entries(r.files).every(([arg, hash]) => same(arg, hash)),
);
const day = Math.floor(Date.now() / 86_400_000);
const picked = again.length ? [0, 1, 2, 3].map((k) => again[(day * 4 + k) % again.length]!) : [];

const work = mkdtempSync(join(tmpdir(), 'gamequery-kept-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
writeFileSync(join(work, 'gamequery.lua'), plugin);
mkdirSync(join(work, 'config'));

describe('the kept runs of tshark', () => {
  it('were kept of one tshark, most of them of files as they are now', () => {
    expect(runs.length).toBeGreaterThan(100);
    expect(new Set(runs.map((r) => r.tshark)).size).toBe(1);
    const ours = runs.filter((r) => Object.entries(r.files).every(([arg, hash]) => same(arg, hash)));
    expect(ours.length).toBeGreaterThan(runs.length / 2);
    // Runs with the plugin among them: the slowest kind.
    expect(ours.filter((r) => r.args.includes(PLUGIN)).length).toBeGreaterThan(20);
  });

  it(`are run again, four a day, where the tshark installed is theirs (${tsharkVersion()}); else none answers`, () => {
    const kept = runs[0]!;
    if (kept.tshark !== tsharkVersion()) {
      // Another tshark (a newer Debian package): a run of theirs starts tshark, it is not answered from them.
      const before = started.runs;
      const r = runs.find((k) => !Object.keys(k.files).some((a) => a.startsWith('/') || a === PLUGIN) && !k.env.GAMEQUERY_TSHARK_FILTERS)!;
      tsharkSync(
        r.args.map((a) => (a in r.files ? join(root, a) : a)),
        { encoding: 'utf8', env: { ...process.env, ...r.env } },
      );
      expect(started.runs).toBe(before + 1);
      return;
    }
    expect(picked).toHaveLength(4);
    for (const r of picked) {
      const args = r.args.map((a) => (a === PLUGIN ? `lua_script:${join(work, 'gamequery.lua')}` : a));
      const env = { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), HOME: work, ...r.env };
      const live = spawnSync('tshark', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env });
      // stderr says whether it ran as root: not compared.
      expect([live.status, live.stdout], `tshark ${r.args.join(' ')}`).toEqual([r.status, r.stdout]);
    }
  });
});
