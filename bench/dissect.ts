/**
 * `pnpm bench dissect`: the built command on captures that look like real traffic (bench/traffic.ts:
 * the mix and rate of docs/traffic.md and what real captures add) and on a query flood (bench/flood.ts: the
 * attacked server's capture), as a user runs it: `gamequery dissect FILE -F … > /dev/null` and
 * `gamequery stats FILE`, wall time from spawn to exit and the process's peak RSS, at 1 M and 5 M
 * frames of the mix, at twice its rate, and on the flood (there also `stats -` and `dissect -F ndjson -` fed
 * through a pipe).
 * tshark reads the same files in the same run (a frame walk, and with our generated Lua plugin) as
 * the reference, since shared machines are noisy and only ratios within one run mean much; the
 * floors are judged by rate or by that ratio (bench/floors.ts), and the flood's counts by
 * `gamequery stats -F json` against the generator's truth.
 *
 * Environment (bench/run.ts reads it): GAMEQUERY_BENCH_FRAMES, GAMEQUERY_BENCH_BIG_FRAMES,
 * GAMEQUERY_BENCH_DOUBLE_FRAMES, GAMEQUERY_BENCH_FLOOD, GAMEQUERY_BENCH_FORMATS, GAMEQUERY_BENCH_JOBS,
 * GAMEQUERY_BENCH_TSHARK, GAMEQUERY_BENCH_SEED, GAMEQUERY_BENCH_BASELINE_CLI.
 *
 * `pnpm bench dissect --check`: the built command's NDJSON on the 1 M capture, every frame's
 * links compared with the generator's ground truth; exit code 1 on any mismatch.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { exportWireshark } from '@gamequery/codec/export';
import { build, main, root } from '../scripts/build.mjs';
import {
  FLOOD_FLOORS,
  PIPE_RSS,
  FLOOD_RSS,
  MIX_FLOORS,
  attackCounts,
  truthCounts,
  type CountsTruth,
  judgePeak,
  judgeRate,
  met,
  type Mode,
} from './floors.ts';
import { writeFlood, type FloodSummary } from './flood.ts';
import { writeScan, type ScanSummary } from './scan.ts';
import { formatRate } from './harness.ts';
import { mib, showPeak, timed, type Figure } from './measure.ts';
import { LinkChecker, Truth, formatLinkReport, generateTraffic, writeChunks, type TrafficSummary } from './traffic.ts';

export interface DissectBenchOptions {
  /** Frames of the main capture of the real mix. */
  readonly frames: number;
  /** Frames of the large capture (0: none). */
  readonly bigFrames: number;
  /** Frames of the capture at twice the rate (0: none). */
  readonly doubleRateFrames: number;
  /** Flood requests of the flood capture (0: none). */
  readonly floodRequests: number;
  /** Flood requests of the flood with an IP fragment flood beside it, a fragment a request (0: none). */
  readonly fragmentFloodRequests?: number;
  /** Servers of the server-list scan (bench/scan.ts), which `stats` and NDJSON read (0: none). */
  readonly scanServers?: number;
  /** Output formats to run, of {@link formats}. */
  readonly formats: readonly Format[];
  /** `-j` for every run; undefined: none, the command's own choice. */
  readonly jobs: number | undefined;
  /** Whether to run tshark when it is installed. */
  readonly tshark: boolean;
  /** Whether tshark also runs with our Lua plugin (the frame walks run whenever tshark does). */
  readonly plugin?: boolean;
  readonly seed: number;
  /**
   * Another build's command (`packages/cli/bin/gamequery.js`; `dist/main.js` before the bundle), a worktree of an older commit: each format runs it
   * right before this checkout's, on the same capture, and prints the ratio. Undefined: none.
   */
  readonly baselineCli?: string | undefined;
  /**
   * Each format on each capture runs this many times, the baseline's run (if any) right before
   * each of this build's; the median rate of each build is what is compared and judged, the
   * highest peak what the peak floors see (default 1). On a shared 2-core machine one run's rate
   * swings by a quarter from minutes to minutes (the same code's text 0.78× and 1.26× the
   * baseline in two runs of 28 November): one round's ratio is a guess.
   */
  readonly rounds?: number;
}

/** `stats` is `gamequery stats FILE` (the table); the others are `gamequery dissect FILE` in that format. */
export type Format = 'ndjson' | 'json' | 'text' | 'fields' | 'stats';
export const formats: readonly Format[] = ['ndjson', 'json', 'text', 'fields', 'stats'];

/** Two fields common in the mix for `-e`: an info reply's hostname and player count (a fifth of the exchanges). */
const FIELDS = ['samp.info.hostname', 'samp.info.players'] as const;
/** The two and the frame's own fields as a tshark user names them first: every frame's line has values. */
const FRAMED_FIELDS = ['frame.number', 'ip.src', ...FIELDS];

/** Each run's arguments after `main.js`, given the capture's path. */
const commandOf: Record<Mode, (file: string) => string[]> = {
  ndjson: (file) => ['dissect', file, '-F', 'ndjson'],
  json: (file) => ['dissect', file, '-F', 'json'],
  text: (file) => ['dissect', file, '-F', 'text'],
  fields: (file) => ['dissect', file, '-T', 'fields', ...FIELDS.flatMap((f) => ['-e', f])],
  stats: (file) => ['stats', file],
  'stats-pipe': () => ['stats', '-'],
  'ndjson-pipe': () => ['dissect', '-', '-F', 'ndjson'],
};

const labelOf: Record<Mode, string> = {
  ndjson: 'gamequery dissect -F ndjson',
  json: 'gamequery dissect -F json',
  text: 'gamequery dissect -F text',
  fields: `gamequery dissect -T fields -e ${FIELDS.join(' -e ')}`,
  stats: 'gamequery stats',
  'stats-pipe': 'cat FILE | gamequery stats -',
  'ndjson-pipe': 'cat FILE | gamequery dissect -F ndjson -',
};

interface Capture {
  readonly label: string;
  readonly file: string;
  readonly frames: number;
}

/** Writes a generated capture to `file`, a chunk at a time (flat memory), filling `truth` when given. */
const writeCapture = (file: string, frames: number, rate: number, seed: number, truth?: Truth): TrafficSummary =>
  writeChunks(file, generateTraffic({ frames, rate, seed, ...(truth ? { truth } : {}) }));

const fileFor = (dir: string, label: string): string => join(dir, `${label.replace(/[^a-z0-9]+/gi, '-')}.pcap`);

function makeCapture(dir: string, label: string, frames: number, rate: number, seed: number, truth?: Truth): Capture {
  const file = fileFor(dir, label);
  const t0 = performance.now();
  const summary = writeCapture(file, frames, rate, seed, truth);
  const took = (performance.now() - t0) / 1000;
  const exchanges = Object.values(summary.requests).reduce((a, b) => a + b, 0);
  console.log(
    `  ${label.padEnd(24)} ${summary.frames} frames, ${mib(statSync(file).size)} MiB, ${summary.seconds.toFixed(1)} s of capture ` +
      `(${formatRate(summary.frames / summary.seconds)} packets/s), ${exchanges} requests, ${summary.clientEndpoints} client endpoints, ` +
      `${summary.servers} servers; generated in ${took.toFixed(1)} s`,
  );
  return { label, file, frames: summary.frames };
}

function makeFlood(
  dir: string,
  requests: number,
  seed: number,
  fragments = false,
): { readonly capture: Capture; readonly truth: FloodSummary } {
  const label = fragments ? `flood + fragments, ${requests}` : `flood, ${requests} requests`;
  const file = fileFor(dir, label);
  const t0 = performance.now();
  const truth = writeFlood(file, { requests, seed, fragments });
  const took = (performance.now() - t0) / 1000;
  const heavy = truth.heavyHosts.map((h) => h.requests).join(' / ');
  console.log(
    `  ${label.padEnd(24)} ${truth.frames} frames, ${mib(truth.bytes)} MiB, ${truth.seconds.toFixed(2)} s of capture ` +
      `(${formatRate(truth.requestsPerSecond)} requests/s) to ${truth.server}, ${truth.spoofed} spoofed sources, ` +
      `${truth.answered} requests answered, ${truth.unanswered} not; heavy hosts ${truth.heavyHosts[0]?.address ?? ''}–5 ${heavy}, ` +
      `${truth.guesser.guesses} RCON guesses from ${truth.guesser.address}, ${truth.visitors.exchanges} visitors' exchanges` +
      `${fragments ? `, ${truth.fragments} first fragments that never complete` : ''}; generated in ${took.toFixed(1)} s`,
  );
  return { capture: { label, file, frames: truth.frames }, truth };
}

function makeScan(dir: string, servers: number, seed: number): { readonly capture: Capture; readonly truth: ScanSummary } {
  const label = `scan, ${servers} servers`;
  const file = fileFor(dir, label);
  const t0 = performance.now();
  const truth = writeScan(file, { servers, seed });
  const took = (performance.now() - t0) / 1000;
  const requests = Object.entries(truth.requests)
    .map(([m, n]) => `${n} ${m}`)
    .join(', ');
  console.log(
    `  ${label.padEnd(24)} ${truth.frames} frames, ${mib(truth.bytes)} MiB, ${truth.seconds.toFixed(2)} s of capture from ${truth.client}: ` +
      `${requests} requests, ${truth.answered} answered, ${truth.silent} servers silent; generated in ${took.toFixed(1)} s`,
  );
  return { capture: { label, file, frames: truth.frames }, truth };
}

/**
 * `gamequery stats FILE -F json` (with `args`) on a generated capture, its counts against the
 * generator's truth (`heading` says whose); prints what differs. Undefined if the command failed.
 */
async function checkCounts(
  heading: string,
  capture: Capture,
  truth: CountsTruth,
  out: string,
  args: readonly string[] = [],
): Promise<boolean | undefined> {
  console.log(` ${heading}, gamequery stats -F json against the generator's truth:`);
  const f = await timed('gamequery stats -F json', capture.frames, process.execPath, [main, 'stats', capture.file, '-F', 'json', ...args], {
    stdout: out,
  });
  if (!f) return undefined;
  const counts = truthCounts(truth, readFileSync(out, 'utf8'));
  console.log(`  ${counts.exact ? 'every count exact' : 'NOT exact'}`);
  for (const line of counts.lines) console.log(`    ${line}`);
  if (!counts.exact && f.stderr.trim()) console.log(`    it said: ${f.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return counts.exact;
}

/**
 * The built command on `capture` in `mode`, `rounds` times (each after the baseline's, if any);
 * prints each run, and returns its median figure with the highest peak (undefined if a run failed).
 */
async function ours(capture: Capture, mode: Mode, jobs: number | undefined, baselineCli?: string, rounds = 1): Promise<Figure | undefined> {
  const args = [...commandOf[mode](capture.file), ...(jobs === undefined ? [] : ['-j', String(jobs)])];
  const io = mode === 'stats-pipe' || mode === 'ndjson-pipe' ? { stdin: capture.file } : {};
  const befores: Figure[] = [];
  const nows: Figure[] = [];
  for (let round = 0; round < rounds; round++) {
    if (baselineCli !== undefined) {
      const before = await timed(`baseline: ${labelOf[mode]}`, capture.frames, process.execPath, [baselineCli, ...args], io);
      if (!before) return undefined;
      befores.push(before);
    }
    const now = await timed(labelOf[mode], capture.frames, process.execPath, [main, ...args], io);
    if (!now) return undefined;
    nows.push(now);
  }
  const now = medianFigure(nows);
  const before = befores.length ? medianFigure(befores) : undefined;
  if (rounds > 1) {
    const spread = (fs: Figure[]): string =>
      `${formatRate(Math.min(...fs.map((f) => f.rate)))}–${formatRate(Math.max(...fs.map((f) => f.rate)))}`;
    const of = (f: Figure, fs: Figure[]): string => `${formatRate(f.rate)} packets/s (${spread(fs)}), peak RSS ${showPeak(f.peak)} at most`;
    if (before) console.log(`    baseline, median of ${rounds}: ${of(before, befores)}`);
    console.log(`    median of ${rounds}: ${of(now, nows)}`);
  }
  if (before) {
    const peaks = before.peak && now.peak ? `, peak RSS ${(now.peak / before.peak).toFixed(2)}×` : '';
    console.log(`    ${(now.rate / before.rate).toFixed(2)}× the baseline's packets/s${peaks}`);
  }
  return now;
}

/** The run of median rate (the lower middle one of an even number), with the highest peak of them all. */
function medianFigure(figures: readonly Figure[]): Figure {
  const sorted = [...figures].sort((a, b) => a.rate - b.rate);
  const middle = sorted[(sorted.length - 1) >> 1]!;
  const peaks = figures.map((f) => f.peak).filter((p): p is number => p !== undefined);
  return { ...middle, peak: peaks.length ? Math.max(...peaks) : undefined };
}

/**
 * Display filters on the generated traffic. Three pass nothing (no such address, host name or
 * player count): a capture field, a wire field read from the decoded value, and two wire
 * fields of two protocols. The last passes the SA:MP player lists, the largest records (an
 * opcode: a constant of the layout). Each should run at least as fast as the same output unfiltered.
 */
const FILTERS = [
  'ip.src == 192.0.2.1',
  'samp.info.hostname contains "no such server"',
  'samp.info.players > 60000 || mcquery.basic.num_players > 100000',
  "samp.opcode == 'c' || samp.opcode == 'd'",
];

/** tshark's frame walk on `capture`: every frame read, nothing dissected past what `-e frame.number` needs. */
const frameWalk = (capture: Capture): Promise<Figure | undefined> =>
  timed(`tshark -T fields -e frame.number, ${capture.label} (frame walk)`, capture.frames, 'tshark', [
    '-r',
    capture.file,
    '-T',
    'fields',
    '-e',
    'frame.number',
  ]);

const hasTshark = (): boolean => spawnSync('tshark', ['--version'], { stdio: 'ignore' }).status === 0;

type Row = Map<Mode | 'tshark' | 'tshark+plugin', Figure | undefined>;

export async function benchDissect(options: DissectBenchOptions): Promise<void> {
  const jobs = options.jobs === undefined ? 'its own choice of threads (no -j)' : `-j ${options.jobs}`;
  console.log(
    `\nDissector end to end on traffic that looks real (bench/traffic.ts) and on a query flood (bench/flood.ts), seed ${options.seed}: ` +
      `the built CLI, ${jobs}, output to /dev/null`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-bench-'));
  try {
    const main1 = makeCapture(dir, `${options.frames} frames`, options.frames, 1, options.seed);
    const big = options.bigFrames > 0 ? makeCapture(dir, `${options.bigFrames} frames`, options.bigFrames, 1, options.seed) : undefined;
    const double =
      options.doubleRateFrames > 0
        ? makeCapture(dir, `${options.doubleRateFrames} frames, 2× rate`, options.doubleRateFrames, 2, options.seed)
        : undefined;
    const flood = options.floodRequests > 0 ? makeFlood(dir, options.floodRequests, options.seed) : undefined;
    const fragmented =
      (options.fragmentFloodRequests ?? 0) > 0 ? makeFlood(dir, options.fragmentFloodRequests!, options.seed, true) : undefined;
    const scan = (options.scanServers ?? 0) > 0 ? makeScan(dir, options.scanServers!, options.seed) : undefined;
    if (!build()) console.log('  tsc reported errors (above): the figures are of the JavaScript it wrote');
    const results = new Map<Capture, Row>();
    const runs = (capture: Capture): readonly Mode[] =>
      // At twice the rate what counts is memory: one format does. The flood is also read from a pipe; beside a fragment flood, statistics and NDJSON.
      capture === double
        ? ['ndjson']
        : capture === flood?.capture && options.formats.includes('stats')
          ? [...options.formats, 'stats-pipe', ...(options.formats.includes('ndjson') ? (['ndjson-pipe'] as const) : [])]
          : capture === fragmented?.capture || capture === scan?.capture
            ? options.formats.filter((f) => f === 'stats' || f === 'ndjson')
            : options.formats;
    for (const capture of [main1, big, double, flood?.capture, fragmented?.capture, scan?.capture]) {
      if (!capture) continue;
      console.log(` ${capture.label}:`);
      const row: Row = new Map();
      results.set(capture, row);
      for (const mode of runs(capture)) row.set(mode, await ours(capture, mode, options.jobs, options.baselineCli, options.rounds));
    }
    const unfiltered = results.get(main1)!.get('ndjson');
    if (unfiltered) {
      console.log(` -Y, display filters, ${main1.label} (against -F ndjson unfiltered, ${formatRate(unfiltered.rate)} packets/s):`);
      for (const filter of FILTERS) {
        const args = [main, ...commandOf.ndjson(main1.file), '-Y', filter];
        const f = await timed(`gamequery dissect -F ndjson -Y '${filter}'`, main1.frames, process.execPath, args);
        if (f) console.log(`    ${(f.rate / unfiltered.rate).toFixed(2)}× unfiltered`);
      }
    }
    const fields = results.get(main1)!.get('fields');
    /** `-T fields` with the frame's fields beside the two (tshark's habit: `-e frame.number -e ip.src …`), judged by the same floor. */
    let framed: Figure | undefined;
    if (fields) {
      // The two fields alone are one message's: every other frame's line is blank and makes no record. With a
      // frame field beside them every frame's line has a value: the frames without an info reply come out as their
      // frame records, their layers read and no message (DissectOptions.unneeded).
      console.log(` -T fields with frame fields too, ${main1.label} (against the two fields alone, ${formatRate(fields.rate)} packets/s):`);
      const named = FRAMED_FIELDS;
      const args = [main, 'dissect', main1.file, '-T', 'fields', ...named.flatMap((f) => ['-e', f])];
      framed = await timed(`gamequery dissect -T fields -e ${named.join(' -e ')}`, main1.frames, process.execPath, args);
      if (framed) console.log(`    ${(framed.rate / fields.rate).toFixed(2)}× the two fields alone`);
    }
    let exact: boolean | undefined;
    /** Reading the attack (issue 29): its run, and whether its answers were right. */
    let attack: Figure | undefined;
    let attackExact: boolean | undefined;
    if (flood) {
      const jobs = options.jobs === undefined ? [] : ['-j', String(options.jobs)];
      exact = await checkCounts("the flood's counts", flood.capture, flood.truth, join(dir, 'flood-stats.json'), jobs);
    }
    const fragmentedExact =
      fragmented &&
      (await checkCounts('the counts beside a fragment flood', fragmented.capture, fragmented.truth, join(dir, 'fragmented-stats.json')));
    const scanExact = scan && (await checkCounts("the scan's counts", scan.capture, scan.truth, join(dir, 'scan-stats.json')));
    if (flood) {
      console.log(` reading the attack, gamequery stats --by source -z io,stat,1 -F json against the generator's truth:`);
      const out = join(dir, 'flood-attack.json');
      const args = [main, 'stats', flood.capture.file, '--by', 'source', '-z', 'io,stat,1', '-F', 'json'];
      const f = await timed('gamequery stats --by source -z io,stat,1', flood.capture.frames, process.execPath, args, { stdout: out });
      attack = f;
      if (f) {
        const counts = attackCounts(flood.truth, readFileSync(out, 'utf8'));
        attackExact = counts.exact;
        console.log(`  ${counts.exact ? 'the five hosts first and exact, the guesser exact, every request in the rows' : 'NOT exact'}`);
        for (const line of counts.lines) console.log(`    ${line}`);
      }
    }
    if (options.tshark && hasTshark()) {
      console.log(' tshark on the same files:');
      for (const capture of [main1, big, flood?.capture, fragmented?.capture])
        if (capture) results.get(capture)!.set('tshark', await frameWalk(capture));
      // Our plugin in Lua is some 25× slower than tshark alone: the 1 M capture only.
      const plugin = join(dir, 'gamequery.lua');
      if (options.plugin === false) console.log('  tshark with our Lua plugin left out (GAMEQUERY_BENCH_PLUGIN=0)');
      else {
        writeFileSync(plugin, exportWireshark());
        results
          .get(main1)!
          .set(
            'tshark+plugin',
            await timed(`tshark + our Lua plugin -T fields -e ${FIELDS.join(' -e ')}, ${main1.label}`, main1.frames, 'tshark', [
              '-X',
              `lua_script:${plugin}`,
              '-r',
              main1.file,
              '-T',
              'fields',
              ...FIELDS.flatMap((f) => ['-e', f]),
            ]),
          );
      }
    } else {
      console.log(options.tshark ? '  tshark not installed: no reference figure' : '  tshark left out (GAMEQUERY_BENCH_TSHARK=0)');
    }

    console.log(' ours ÷ tshark (packets/s):');
    for (const capture of [main1, big, flood?.capture, fragmented?.capture]) {
      const row = capture && results.get(capture);
      if (!row) continue;
      const walk = row.get('tshark');
      const plugin = row.get('tshark+plugin');
      for (const mode of runs(capture)) {
        const f = row.get(mode);
        if (!f) continue;
        const parts = [
          walk ? `${(f.rate / walk.rate).toFixed(2)}× the frame walk` : undefined,
          plugin ? `${(f.rate / plugin.rate).toFixed(1)}× tshark with our plugin` : undefined,
        ].filter(Boolean);
        if (parts.length) console.log(`  ${capture.label.padEnd(24)} ${mode.padEnd(10)} ${parts.join(', ')}`);
      }
    }

    console.log(" floors (issue), on this machine: a rate, or a multiple of tshark's frame walk on the same file:");
    for (const capture of [main1, big]) {
      const row = capture && results.get(capture);
      if (!row) continue;
      for (const format of options.formats) {
        const floor = MIX_FLOORS[format];
        if (floor) judgeRate(`${format}, ${capture.label}`, floor, row.get(format), row.get('tshark'));
      }
    }
    if (framed)
      judgeRate(`fields with frame.number and ip.src, ${main1.label}`, MIX_FLOORS.fields!, framed, results.get(main1)!.get('tshark'));
    const floodRow = flood && results.get(flood.capture);
    if (floodRow) {
      for (const [mode, floor] of Object.entries(FLOOD_FLOORS) as [Mode, (typeof FLOOD_FLOORS)[Mode]][])
        if (floor) judgeRate(`${mode}, ${flood!.capture.label}`, floor, floodRow.get(mode), floodRow.get('tshark'));
      // Reading the attack, every answer at once, as fast as `stats` must be.
      judgeRate('stats --by source -z io,stat,1, flood', FLOOD_FLOORS.stats!, attack, floodRow.get('tshark'));
    }
    const one = results.get(main1)!;
    const bigRow = big ? results.get(big) : undefined;
    for (const format of options.formats) {
      judgePeak(`${format}, ${main1.label}`, one.get(format));
      if (bigRow) judgePeak(`${format}, ${big!.label}`, bigRow.get(format), one.get(format));
    }
    if (floodRow) for (const mode of FLOOD_RSS) judgePeak(`${mode}, flood`, floodRow.get(mode));
    if (floodRow?.has('ndjson-pipe')) judgePeak('ndjson-pipe, flood', floodRow.get('ndjson-pipe'), undefined, PIPE_RSS);
    const fragmentedRow = fragmented && results.get(fragmented.capture);
    if (fragmentedRow) {
      // No rate floor of its own (the issue sets none): its peaks, and its counts, are the flood's.
      for (const mode of runs(fragmented!.capture)) judgePeak(`${mode}, ${fragmented!.capture.label}`, fragmentedRow.get(mode));
      console.log(`  the counts beside a fragment flood exact: ${fragmentedExact === undefined ? 'no figure' : met(fragmentedExact)}`);
    }
    if (flood) {
      judgePeak('stats --by source -z io,stat,1, flood', attack);
      console.log(`  the flood's counts exact: ${exact === undefined ? 'no figure' : met(exact)}`);
      console.log(`  the attack read right (hosts, guesser, rows): ${attackExact === undefined ? 'no figure' : met(attackExact)}`);
    }
    const scanRow = scan && results.get(scan.capture);
    if (scanRow) {
      // No floor (the issue sets none): what the statistics hold is a state a server, and the report a row each.
      for (const mode of runs(scan!.capture)) {
        const peak = scanRow.get(mode)?.peak;
        const each = mode === 'stats' && peak !== undefined ? `, ${Math.round(peak / scan!.truth.servers)} bytes a server` : '';
        if (peak !== undefined) console.log(`  (no floor) peak RSS ${mode}, ${scan!.capture.label}: ${showPeak(peak)}${each}`);
      }
      console.log(`  the scan's counts exact: ${scanExact === undefined ? 'no figure' : met(scanExact)}`);
    }
    const twice = double ? results.get(double)!.get('ndjson') : undefined;
    if (twice?.peak !== undefined)
      console.log(
        `  (no floor) peak RSS ndjson at twice the rate, ${double!.label}: ${showPeak(twice.peak)}, ${showPeak(one.get('ndjson')?.peak)} at 1×`,
      );
    console.log('  (MB = 10^6 bytes; 200 MB = 191 MiB)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The check: the built command's NDJSON on a generated capture, read line by line as it comes
 * (never the whole output in memory), every frame's links compared with the ground truth.
 * Returns whether everything but the debatable categories matched.
 */
export async function checkDissect(options: { frames: number; seed: number; jobs: number | undefined }): Promise<boolean> {
  console.log(
    `\nDissector links against the ground truth: the built CLI, -F ndjson${options.jobs === undefined ? '' : ` -j ${options.jobs}`}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-check-'));
  try {
    const truth = new Truth();
    const capture = makeCapture(dir, `${options.frames} frames`, options.frames, 1, options.seed, truth);
    if (!build()) console.log('  tsc reported errors (above): checking the JavaScript it wrote');
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [main, 'dissect', capture.file, '-F', 'ndjson', ...(options.jobs === undefined ? [] : ['-j', String(options.jobs)])],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const checker = new LinkChecker(truth);
    let lines = 0;
    let errors = 0;
    for await (const line of createInterface({ input: child.stdout!, crlfDelay: Infinity })) {
      if (!line) continue;
      lines++;
      const p = JSON.parse(line) as { frame?: number; error?: unknown };
      if (p.error !== undefined) {
        errors++;
        console.log(`  the command reported: ${JSON.stringify(p.error)}`);
        continue;
      }
      checker.add(p as { frame: number });
    }
    const status = await closed;
    const report = checker.finish();
    console.log(`  ${lines} lines in ${((performance.now() - t0) / 1000).toFixed(1)} s, exit ${status}`);
    console.log(formatLinkReport(report).replace(/^/gm, '  '));
    const ok = status === 0 && errors === 0 && report.failures === 0;
    console.log(
      `  ${ok ? 'every link as the truth says' : 'MISMATCHES'}${report.debatable ? ` (${report.debatable} in debatable categories, not counted)` : ''}`,
    );
    return ok;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
