/**
 * `pnpm bench`: every benchmark, ratios against baselines measured in this process.
 * `pnpm bench codec`, `pnpm bench query`, `pnpm bench faults`, `pnpm bench dissect` or `pnpm bench startup` runs one part;
 * `pnpm bench stages` (not part of the whole run) times each stage of the dissector alone (bench/stages.ts);
 * GAMEQUERY_BENCH_STARTUP_RUNS sets the start-up runs (default 20).
 *
 * The dissector runs through the built CLI on generated traffic that looks real (bench/traffic.ts) and on a
 * generated query flood (bench/flood.ts):
 *   GAMEQUERY_BENCH_FRAMES         frames of the main capture of the real mix (default 1 000 000)
 *   GAMEQUERY_BENCH_BIG_FRAMES     frames of the large capture (default 5 000 000; 0 for none)
 *   GAMEQUERY_BENCH_DOUBLE_FRAMES  frames of a capture at twice the rate (default 1 000 000; 0 for none)
 *   GAMEQUERY_BENCH_FLOOD          flood requests of the flood capture (default 2 000 000; 0 for none)
 *   GAMEQUERY_BENCH_FRAGMENT_FLOOD flood requests of a flood with an IP fragment flood beside it, one first fragment that
 *                                  never completes a request (default 500 000; 0 for none): stats and NDJSON
 *   GAMEQUERY_BENCH_SCAN           servers of a server-list scan (bench/scan.ts: one client asking each, 15 % silent; default
 *                                  150 000; 0 for none): stats and NDJSON, their peaks a server, and the counts against the truth
 *   GAMEQUERY_BENCH_FORMATS        output formats, of ndjson,json,text,fields,stats (fields: -F text -e two fields;
 *                                  stats: gamequery stats FILE, and on the flood also stats - from a pipe; default all)
 *   GAMEQUERY_BENCH_JOBS           -j for every run (default: the command's own choice)
 *   GAMEQUERY_BENCH_TSHARK=0       no tshark (default: run it when installed)
 *   GAMEQUERY_BENCH_PLUGIN=0       tshark's frame walks only, not the run with our Lua plugin (some 6 minutes)
 *   GAMEQUERY_BENCH_SEED           the generator's seed (default 1)
 *   GAMEQUERY_BENCH_BASELINE_CLI   another build's command, packages/cli/bin/gamequery.js (dist/main.js before it was bundled; e.g. a worktree of an older commit): run
 *                                  before ours on each capture and format, with the ratio (before/after on one input)
 *   GAMEQUERY_BENCH_ROUNDS         runs of each format on each capture, alternating with the baseline's; medians compared
 *                                  and judged, the highest peak kept (default 1; 3 or more where the machine is noisy)
 * `pnpm bench dissect --check` (or GAMEQUERY_BENCH_CHECK=1) instead checks every request/response link of the built CLI's
 * NDJSON on GAMEQUERY_BENCH_FRAMES frames against the generator's ground truth; exit code 1 on a mismatch.
 */
import { benchCodec } from './codec.ts';
import { benchDissect, checkDissect, formats, type Format } from './dissect.ts';
import { benchQuery } from './query.ts';
import { benchFaults } from './faults.ts';
import { benchStartup } from './startup.ts';
import { benchStages } from './stages.ts';

const only = process.argv.slice(2).find((a) => !a.startsWith('--'));
console.log(`gamequery benchmarks — node ${process.version}, ${process.arch}`);
if (!only || only === 'codec') benchCodec();
if (!only || only === 'query') await benchQuery();
if (!only || only === 'faults') await benchFaults();
if (!only || only === 'dissect') {
  const env = process.env;
  const frames = Number(env.GAMEQUERY_BENCH_FRAMES ?? 1_000_000);
  const seed = Number(env.GAMEQUERY_BENCH_SEED ?? 1);
  const jobs = env.GAMEQUERY_BENCH_JOBS ? Number(env.GAMEQUERY_BENCH_JOBS) : undefined;
  if (process.argv.includes('--check') || env.GAMEQUERY_BENCH_CHECK === '1') {
    if (!(await checkDissect({ frames, seed, jobs }))) process.exitCode = 1;
  } else {
    const chosen = (env.GAMEQUERY_BENCH_FORMATS ?? formats.join(','))
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const unknown = chosen.filter((f) => !formats.includes(f as Format));
    if (unknown.length) throw new Error(`GAMEQUERY_BENCH_FORMATS: unknown ${unknown.join(', ')} (of ${formats.join(', ')})`);
    await benchDissect({
      frames,
      seed,
      jobs,
      formats: chosen as Format[],
      tshark: env.GAMEQUERY_BENCH_TSHARK !== '0',
      plugin: env.GAMEQUERY_BENCH_PLUGIN !== '0',
      bigFrames: Number(env.GAMEQUERY_BENCH_BIG_FRAMES ?? 5_000_000),
      doubleRateFrames: Number(env.GAMEQUERY_BENCH_DOUBLE_FRAMES ?? 1_000_000),
      floodRequests: Number(env.GAMEQUERY_BENCH_FLOOD ?? 2_000_000),
      fragmentFloodRequests: Number(env.GAMEQUERY_BENCH_FRAGMENT_FLOOD ?? 500_000),
      scanServers: Number(env.GAMEQUERY_BENCH_SCAN ?? 150_000),
      baselineCli: env.GAMEQUERY_BENCH_BASELINE_CLI || undefined,
      rounds: Math.max(1, Number(env.GAMEQUERY_BENCH_ROUNDS ?? 1)),
    });
  }
}
if (only === 'stages') {
  await benchStages({
    frames: Number(process.env.GAMEQUERY_BENCH_FRAMES ?? 1_000_000),
    seed: Number(process.env.GAMEQUERY_BENCH_SEED ?? 1),
    floor: 300_000,
  });
}
if (!only || only === 'startup') benchStartup({ runs: Number(process.env.GAMEQUERY_BENCH_STARTUP_RUNS ?? 20) });
