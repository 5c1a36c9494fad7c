/**
 * `pnpm bench dissect`: the built command on captures that look like real traffic
 * (bench/traffic.ts: TRAFFIC.md's mix and rate and what real captures add), as a user runs it:
 * `gamequery dissect FILE -F … > /dev/null`, wall time from spawn to exit and the process's peak
 * RSS, per output format, at 1 M and 5 M frames and at twice the capture rate; tshark on the same
 * files in the same run (a frame walk, and with our generated Lua plugin) as the reference, since
 * shared machines are noisy and only ratios within one run mean much.
 *
 * `pnpm bench dissect --check`: the built command's NDJSON on the 1 M capture, every frame's
 * links compared with the generator's ground truth; exit code 1 on any mismatch.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { exportWireshark } from '@gamequery/codec/export';
import { build, main, root } from '../scripts/build.mjs';
import { formatRate } from './harness.ts';
import { LinkChecker, Truth, formatLinkReport, generateTraffic, type TrafficSummary } from './traffic.ts';

export interface DissectBenchOptions {
  /** Frames of the main capture (the floors are judged on it). */
  readonly frames: number;
  /** Frames of the large capture (0: none). */
  readonly bigFrames: number;
  /** Frames of the capture at twice the rate (0: none). */
  readonly doubleRateFrames: number;
  /** Output formats to run, of `ndjson`, `json`, `text`, `fields`. */
  readonly formats: readonly Format[];
  /** `-j` for every run; undefined: none, the command's own choice. */
  readonly jobs: number | undefined;
  /** Whether to run tshark when it is installed. */
  readonly tshark: boolean;
  readonly seed: number;
  /**
   * Another build's `packages/cli/dist/main.js` (a worktree of an older commit): each format runs it
   * right before this checkout's, on the same capture, and prints the ratio. Undefined: none.
   */
  readonly baselineCli?: string | undefined;
}

export type Format = 'ndjson' | 'json' | 'text' | 'fields';
export const formats: readonly Format[] = ['ndjson', 'json', 'text', 'fields'];

/** Two fields common in the mix for `-e`: an info reply's hostname and player count (a fifth of the exchanges). */
const FIELDS = ['samp.info.hostname', 'samp.info.players'] as const;

const formatArgs: Record<Format, readonly string[]> = {
  ndjson: ['-F', 'ndjson'],
  json: ['-F', 'json'],
  text: ['-F', 'text'],
  fields: ['-F', 'text', ...FIELDS.flatMap((f) => ['-e', f])],
};

/** What the issue asks, in packets (frames of the capture) per second end to end, on the 1 M capture. */
const FLOORS: Record<Format, number> = { ndjson: 300_000, json: 250_000, text: 200_000, fields: 200_000 };
/** Peak RSS at most, in bytes (200 MB), at every size and at twice the rate; and within 10 % between 1 M and 5 M. */
const RSS_FLOOR = 200e6;
const RSS_SPREAD = 0.1;

interface Capture {
  readonly label: string;
  readonly file: string;
  readonly summary: TrafficSummary;
}

/** Writes a generated capture to `file`, a chunk at a time (flat memory), filling `truth` when given. */
function writeCapture(file: string, frames: number, rate: number, seed: number, truth?: Truth): TrafficSummary {
  const fd = openSync(file, 'w');
  try {
    const chunks = generateTraffic({ frames, rate, seed, ...(truth ? { truth } : {}) });
    for (;;) {
      const r = chunks.next();
      if (r.done) return r.value;
      writeSync(fd, r.value);
    }
  } finally {
    closeSync(fd);
  }
}

function makeCapture(dir: string, label: string, frames: number, rate: number, seed: number, truth?: Truth): Capture {
  const file = join(dir, `${label.replace(/[^a-z0-9]+/gi, '-')}.pcap`);
  const t0 = performance.now();
  const summary = writeCapture(file, frames, rate, seed, truth);
  const took = (performance.now() - t0) / 1000;
  const exchanges = Object.values(summary.requests).reduce((a, b) => a + b, 0);
  console.log(
    `  ${label.padEnd(24)} ${summary.frames} frames, ${mib(statSync(file).size)} MiB, ${summary.seconds.toFixed(1)} s of capture ` +
      `(${formatRate(summary.frames / summary.seconds)} packets/s), ${exchanges} requests, ${summary.clientEndpoints} client endpoints, ` +
      `${summary.servers} servers; generated in ${took.toFixed(1)} s`,
  );
  return { label, file, summary };
}

const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

/** `/usr/bin/time` if it can be run: it reports the child's peak RSS exactly, from the kernel. */
const TIME = ((): string | undefined => {
  try {
    accessSync('/usr/bin/time', constants.X_OK);
    return '/usr/bin/time';
  } catch {
    return undefined;
  }
})();

interface Run {
  readonly seconds: number;
  readonly status: number | null;
  /** Peak resident set in bytes, or undefined if it could not be read. */
  readonly peak: number | undefined;
  readonly stderr: string;
}

/**
 * Runs a command with its output to /dev/null: wall time from spawn to exit and peak RSS, by
 * `/usr/bin/time -f %M` when installed, else by reading the child's VmHWM (its own high-water
 * mark, so the last value read before it exits is at most a poll interval short of the peak).
 */
async function measure(command: string, args: readonly string[]): Promise<Run> {
  const devNull = openSync('/dev/null', 'w');
  const report = TIME ? join(tmpdir(), `gamequery-bench-time-${process.pid}-${Date.now()}`) : undefined;
  try {
    const t0 = process.hrtime.bigint();
    const child = TIME
      ? spawn(TIME, ['-f', '%M', '-o', report!, command, ...args], { cwd: root, stdio: ['ignore', devNull, 'pipe'] })
      : spawn(command, args, { cwd: root, stdio: ['ignore', devNull, 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      if (stderr.length < 4096) stderr += s;
    });
    let hwm: number | undefined;
    const poll = TIME
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) hwm = Number(m[1]) * 1024;
          } catch {
            /* it has exited */
          }
        }, 20);
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (poll) clearInterval(poll);
    let peak = hwm;
    if (report) {
      try {
        const kib = Number(readFileSync(report, 'utf8').trim().split('\n').pop());
        if (kib > 0) peak = kib * 1024;
      } catch {
        /* no report: the command could not be run */
      }
    }
    return { seconds, status, peak, stderr };
  } finally {
    closeSync(devNull);
    if (report) rmSync(report, { force: true });
  }
}

interface Figure {
  readonly rate: number;
  readonly peak: number | undefined;
}

const showPeak = (peak: number | undefined): string => (peak === undefined ? '?' : `${mib(peak)} MiB`);

/** The built command on `capture` in `format`; prints and returns its figure (undefined if it failed). */
async function ours(capture: Capture, format: Format, jobs: number | undefined, baselineCli?: string): Promise<Figure | undefined> {
  const flags = [...formatArgs[format], ...(jobs === undefined ? [] : ['-j', String(jobs)])];
  const label = `gamequery dissect ${formatArgs[format].join(' ')}`;
  const before = baselineCli === undefined ? undefined : await oursWith(capture, flags, `baseline: ${label}`, baselineCli);
  const now = await oursWith(capture, flags, label);
  if (before && now) {
    const peaks = before.peak && now.peak ? `, peak RSS ${(now.peak / before.peak).toFixed(2)}×` : '';
    console.log(`    ${(now.rate / before.rate).toFixed(2)}× the baseline's packets/s${peaks}`);
  }
  return now;
}

/**
 * Display filters that pass nothing on the generated traffic (no such address, host name or
 * player count): a capture field, a wire field read from the decoded value, and two wire
 * fields of two protocols. Each should run at least as fast as the same output unfiltered.
 */
const FILTERS = [
  'ip.src == 192.0.2.1',
  'samp.info.hostname contains "no such server"',
  'samp.info.players > 100000 || mcquery.basic.num_players > 100000',
];

/** The built command on `capture` with `flags`; prints and returns its figure (undefined if it failed). */
async function oursWith(capture: Capture, flags: readonly string[], label: string, cli = main): Promise<Figure | undefined> {
  const args = [cli, 'dissect', capture.file, ...flags];
  const r = await measure(process.execPath, args);
  if (r.status !== 0) {
    console.log(`  ${label}: failed (exit ${r.status}) ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return undefined;
  }
  const rate = capture.summary.frames / r.seconds;
  console.log(
    `  ${label.padEnd(72)} ${formatRate(rate).padStart(9)} packets/s  ${r.seconds.toFixed(2).padStart(7)} s  peak RSS ${showPeak(r.peak).padStart(8)}`,
  );
  return { rate, peak: r.peak };
}

/** tshark on `capture` with `args` after `-r FILE`; prints and returns its figure. */
async function tshark(capture: Capture, label: string, before: readonly string[], after: readonly string[]): Promise<Figure | undefined> {
  const r = await measure('tshark', [...before, '-r', capture.file, ...after]);
  if (r.status !== 0) {
    console.log(`  ${label}: failed (exit ${r.status}) ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
    return undefined;
  }
  const rate = capture.summary.frames / r.seconds;
  console.log(
    `  ${label.padEnd(72)} ${formatRate(rate).padStart(9)} packets/s  ${r.seconds.toFixed(2).padStart(7)} s  peak RSS ${showPeak(r.peak).padStart(8)}`,
  );
  return { rate, peak: r.peak };
}

const hasTshark = (): boolean => spawnSync('tshark', ['--version'], { stdio: 'ignore' }).status === 0;
const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');

export async function benchDissect(options: DissectBenchOptions): Promise<void> {
  const jobs = options.jobs === undefined ? 'its own choice of threads (no -j)' : `-j ${options.jobs}`;
  console.log(
    `\nDissector end to end on traffic that looks real (bench/traffic.ts, seed ${options.seed}): the built CLI, ${jobs}, output to /dev/null`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-bench-'));
  try {
    const main1 = makeCapture(dir, `${options.frames} frames`, options.frames, 1, options.seed);
    const big = options.bigFrames > 0 ? makeCapture(dir, `${options.bigFrames} frames`, options.bigFrames, 1, options.seed) : undefined;
    const double =
      options.doubleRateFrames > 0
        ? makeCapture(dir, `${options.doubleRateFrames} frames, 2× rate`, options.doubleRateFrames, 2, options.seed)
        : undefined;
    if (!build()) console.log('  tsc reported errors (above): the figures are of the JavaScript it wrote');
    const results = new Map<Capture, Map<Format | 'tshark' | 'tshark+plugin', Figure | undefined>>();
    for (const capture of [main1, big, double]) {
      if (!capture) continue;
      console.log(` ${capture.label}:`);
      const row = new Map<Format | 'tshark' | 'tshark+plugin', Figure | undefined>();
      results.set(capture, row);
      // At twice the rate what counts is memory: one format does.
      for (const format of capture === double ? (['ndjson'] as const) : options.formats)
        row.set(format, await ours(capture, format, options.jobs, options.baselineCli));
    }
    const unfiltered = results.get(main1)!.get('ndjson');
    if (unfiltered) {
      console.log(
        ` -Y, filters that pass nothing, ${main1.label} (against -F ndjson unfiltered, ${formatRate(unfiltered.rate)} packets/s):`,
      );
      for (const filter of FILTERS) {
        const f = await oursWith(main1, ['-F', 'ndjson', '-Y', filter], `gamequery dissect -F ndjson -Y '${filter}'`);
        if (f) console.log(`    ${(f.rate / unfiltered.rate).toFixed(2)}× unfiltered`);
      }
    }
    if (options.tshark && hasTshark()) {
      console.log(' tshark on the same files:');
      const plugin = join(dir, 'gamequery.lua');
      writeFileSync(plugin, exportWireshark());
      for (const capture of [main1, big]) {
        if (!capture) continue;
        results
          .get(capture)!
          .set(
            'tshark',
            await tshark(
              capture,
              `tshark -T fields -e frame.number, ${capture.label} (frame walk)`,
              [],
              ['-T', 'fields', '-e', 'frame.number'],
            ),
          );
      }
      // Our plugin in Lua is some 25× slower than tshark alone: the 1 M capture only.
      results
        .get(main1)!
        .set(
          'tshark+plugin',
          await tshark(
            main1,
            `tshark + our Lua plugin -T fields -e ${FIELDS.join(' -e ')}, ${main1.label}`,
            ['-X', `lua_script:${plugin}`],
            ['-T', 'fields', ...FIELDS.flatMap((f) => ['-e', f])],
          ),
        );
    } else {
      console.log(options.tshark ? '  tshark not installed: no reference figure' : '  tshark left out (GAMEQUERY_BENCH_TSHARK=0)');
    }

    console.log(' ours ÷ tshark (packets/s):');
    for (const capture of [main1, big]) {
      const row = capture && results.get(capture);
      if (!row) continue;
      const walk = row.get('tshark');
      const plugin = row.get('tshark+plugin');
      for (const format of options.formats) {
        const f = row.get(format);
        if (!f) continue;
        const parts = [
          walk ? `${(f.rate / walk.rate).toFixed(2)}× the frame walk` : undefined,
          plugin ? `${(f.rate / plugin.rate).toFixed(1)}× tshark with our plugin` : undefined,
        ].filter(Boolean);
        if (parts.length) console.log(`  ${capture.label.padEnd(16)} ${format.padEnd(7)} ${parts.join(', ')}`);
      }
    }

    console.log(' floors (issue), on this machine:');
    const one = results.get(main1)!;
    for (const format of options.formats) {
      const f = one.get(format);
      const label = format === 'fields' ? `text -e ${FIELDS.join(' -e ')}` : format;
      console.log(
        `  ${label.padEnd(46)} ≥ ${formatRate(FLOORS[format]).padStart(5)} packets/s on ${main1.label}: ${f ? `${met(f.rate >= FLOORS[format])} (${formatRate(f.rate)})` : 'no figure'}`,
      );
    }
    const bigRow = big ? results.get(big) : undefined;
    for (const format of options.formats) {
      const a = one.get(format)?.peak;
      const b = bigRow?.get(format)?.peak;
      const under = [a, b].filter((x): x is number => x !== undefined).every((x) => x <= RSS_FLOOR);
      const spread = a !== undefined && b !== undefined ? Math.abs(b - a) / Math.min(a, b) : undefined;
      console.log(
        `  peak RSS ${format.padEnd(7)} ≤ 200 MB on ${main1.label}${big ? ` and ${big.label}` : ''}: ${a === undefined ? 'no figure' : `${met(under)} (${showPeak(a)}${b === undefined ? '' : `, ${showPeak(b)}`})`}` +
          (spread === undefined ? '' : `; within 10 % of each other: ${met(spread <= RSS_SPREAD)} (${(100 * spread).toFixed(0)} %)`),
      );
    }
    if (double) {
      const d = results.get(double)!.get('ndjson');
      const a = one.get('ndjson')?.peak;
      const spread = d?.peak !== undefined && a !== undefined ? Math.abs(d.peak - a) / Math.min(a, d.peak) : undefined;
      console.log(
        `  peak RSS ndjson  ≤ 200 MB at twice the rate (${double.label}): ${d?.peak === undefined ? 'no figure' : `${met(d.peak <= RSS_FLOOR)} (${showPeak(d.peak)})`}` +
          (spread === undefined ? '' : `; within 10 % of the 1× rate: ${met(spread <= RSS_SPREAD)} (${(100 * spread).toFixed(0)} %)`),
      );
    }
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
