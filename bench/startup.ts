/**
 * Start-up of the built command: wall time from spawn to exit of `gamequery --version` and of
 * `gamequery dissect` on a one-packet capture, next to `node -e ''` (Node's own start-up) in the
 * same run, all interleaved; best and median of N. Then, fewer times, the same dissect through
 * `pnpm gamequery` (pnpm's `run` included) and from the TypeScript sources (`pnpm gamequery:dev`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, main, root, staleness } from '../scripts/build.mjs';

/** What the issue asks of `gamequery dissect` on a one-packet file, in ms. */
const TARGET_MS = 150;

/**
 * The first frame of a committed capture as a capture of its own: the file's 24-byte header and
 * its first record (a SA:MP `i` request over IPv4, 53 bytes).
 */
function onePacketCapture(): Uint8Array {
  const pcap = readFileSync(join(root, 'packages/dissect/test/fixtures/captures/lo-us.pcap'));
  const included = pcap.readUInt32LE(24 + 8); // little-endian µs pcap: the record header's incl_len
  return pcap.subarray(0, 24 + 16 + included);
}

interface Case {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
}

/** Wall times in ms of `runs` rounds, the cases interleaved within each round; undefined for a case that failed. */
function time(cases: readonly Case[], runs: number): (number[] | undefined)[] {
  const times: (number[] | undefined)[] = cases.map(() => []);
  for (let r = 0; r < runs; r++) {
    cases.forEach((c, i) => {
      const t0 = process.hrtime.bigint();
      const run = spawnSync(c.command, c.args, { cwd: root, stdio: 'ignore' });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (run.status !== 0) times[i] = undefined;
      else times[i]?.push(ms);
    });
  }
  return times;
}

const best = (xs: readonly number[]): number => Math.min(...xs);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function benchStartup(options: { runs: number }): void {
  console.log(`\nStart-up: wall time from spawn to exit, best (median) of ${options.runs}, interleaved with Node's own`);
  const stale = staleness();
  if (stale !== undefined) {
    console.log(`  ${stale}: building (tsc -b)`);
    if (!build()) console.log('  tsc reported errors: the figures are of what it wrote');
  }
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-startup-'));
  try {
    const file = join(dir, 'one-packet.pcap');
    writeFileSync(file, onePacketCapture());
    const node = process.execPath;
    const cases: Case[] = [
      { label: "node -e ''", command: node, args: ['-e', ''] },
      { label: 'gamequery --version (built)', command: node, args: [main, '--version'] },
      { label: 'gamequery dissect one-packet.pcap (built)', command: node, args: [main, 'dissect', file, '-F', 'text'] },
      {
        label: '… through scripts/gamequery.mjs (freshness check)',
        command: node,
        args: ['scripts/gamequery.mjs', 'dissect', file, '-F', 'text'],
      },
    ];
    const times = time(cases, options.runs);
    const base = best(times[0]!);
    cases.forEach((c, i) => {
      const t = times[i];
      const figures = t ? `${best(t).toFixed(0).padStart(5)} ms (${median(t).toFixed(0)})` : 'failed';
      const extra = t && i > 0 ? `   +${(best(t) - base).toFixed(0)} ms over Node` : '';
      console.log(`  ${c.label.padEnd(52)} ${figures}${extra}`);
    });
    const dissect = times[2];
    if (dissect) {
      const met = best(dissect) <= TARGET_MS;
      console.log(`  the issue's ${TARGET_MS} ms for a one-packet dissect: ${met ? 'met' : 'not met'} on this machine`);
    }
    // pnpm's own start-up (~0.4 s) dwarfs the rest: fewer runs, and skipped without pnpm on PATH.
    const slow: Case[] = [
      { label: 'pnpm gamequery dissect one-packet.pcap', command: 'pnpm', args: ['-s', 'gamequery', 'dissect', file, '-F', 'text'] },
      { label: 'pnpm gamequery:dev … (tsx, the sources)', command: 'pnpm', args: ['-s', 'gamequery:dev', 'dissect', file, '-F', 'text'] },
    ];
    const slowTimes = time(slow, 3);
    slow.forEach((c, i) => {
      const t = slowTimes[i];
      console.log(`  ${c.label.padEnd(52)} ${t ? `${best(t).toFixed(0).padStart(5)} ms (best of 3)` : 'failed (pnpm on PATH?)'}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
