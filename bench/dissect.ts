/**
 * End to end: a generated capture → the dissector → NDJSON, in packets per second; tshark
 * reading the same file in the same run as the reference; and peak RSS on a capture of
 * 500 MB generated on the fly (flat memory).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ByteSink } from '@gamequery/codec';
import { Dissector, dissectCaptureBatches, writePacketLine } from '@gamequery/dissect';
import { exportWireshark } from '@gamequery/codec/export';
import { generateCapture } from './capture-gen.ts';
import { formatRate } from './harness.ts';

/**
 * What `gamequery dissect -F ndjson` does, in process: batches of packets per chunk, each
 * line written as bytes into one buffer, handed on in blocks of 64 KiB, here to
 * /dev/null with a real write(2) per block.
 */
async function ndjson(chunks: Iterable<Uint8Array>): Promise<{ packets: number; bytesOut: number; seconds: number }> {
  const dissector = new Dissector();
  const sink = new ByteSink(1 << 17);
  const devNull = openSync('/dev/null', 'w');
  const start = process.hrtime.bigint();
  let packets = 0;
  let bytesOut = 0;
  const flush = (): void => {
    bytesOut += writeSync(devNull, sink.buf, 0, sink.at);
    sink.at = 0;
  };
  try {
    for await (const batch of dissectCaptureBatches(chunks, {}, dissector)) {
      if (batch.error) throw new Error(batch.error.message);
      for (const p of batch.packets) {
        writePacketLine(p, sink);
        sink.ascii('\n');
        if (sink.at >= 1 << 16) flush();
      }
      packets += batch.packets.length;
    }
    flush();
  } finally {
    closeSync(devNull);
  }
  return { packets, bytesOut, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

/** What the issue asks of the end-to-end figure. */
const FLOOR = 300_000;

/**
 * The built command on the file, as a user runs it (`tsc -b` first, incremental): wall
 * time from spawn to exit, startup and the workers' start included; best of 3.
 */
function cli(file: string, jobs: number, tries = 3, extra: readonly string[] = []): { seconds: number; status: number | null } {
  const main = fileURLToPath(new URL('../packages/cli/dist/main.js', import.meta.url));
  let best = { seconds: Infinity, status: null as number | null };
  for (let i = 0; i < tries; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [main, 'dissect', file, '-F', 'ndjson', '-j', String(jobs), ...extra], { stdio: ['ignore', 'ignore', 'inherit'] });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) return { seconds, status: r.status };
    if (seconds < best.seconds) best = { seconds, status: r.status };
  }
  return best;
}

/** Builds the packages (incremental) so that the CLI figures are of what a user runs. */
function build(): boolean {
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const root = fileURLToPath(new URL('..', import.meta.url));
  return spawnSync(process.execPath, [tsc, '-b', 'packages/codec', 'packages/dissect', 'packages/cli'], { cwd: root, stdio: 'inherit' }).status === 0;
}

export async function benchDissect(options: { packets: number; bigBytes: number; parallelPackets: number }): Promise<void> {
  console.log(`\nDissector end to end: generated capture → NDJSON (${options.packets} packets, all three protocols)`);
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-bench-'));
  try {
    const chunks = [...generateCapture({ packets: options.packets })];
    const file = join(dir, 'bench.pcap');
    writeFileSync(file, Buffer.concat(chunks));
    await ndjson(chunks); // warm-up: the figures below are of compiled code, as in a long run
    const runs = [await ndjson(chunks), await ndjson(chunks), await ndjson(chunks)];
    const ours = runs.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
    const rates = runs.map((r) => formatRate(r.packets / r.seconds)).join(', ');
    console.log(`  dissector → NDJSON bytes → /dev/null (in process) ${formatRate(ours.packets / ours.seconds).padStart(9)} packets/s   best of 3 (${rates}); ${ours.packets} packets, ${(ours.bytesOut / ours.packets).toFixed(0)} B/line`);
    const cpus = availableParallelism();
    let fastest = ours.packets / ours.seconds;
    if (build()) {
      /**
       * Runs the CLI on `file` and prints its rate under `label`; the fastest with the
       * default options (no `extra`) is what the floor is judged by.
       */
      const report = (label: string, file: string, packets: number, jobs: number, tries: number, extra: readonly string[] = []): void => {
        const real = cli(file, jobs, tries, extra);
        if (real.status !== 0) {
          console.log(`  ${label}: failed (exit ${real.status})`);
          return;
        }
        if (extra.length === 0) fastest = Math.max(fastest, packets / real.seconds);
        const how = tries > 1 ? `best of ${tries} (${real.seconds.toFixed(2)} s wall: built CLI, startup included)` : `(${real.seconds.toFixed(2)} s wall)`;
        console.log(`  ${label.padEnd(47)} ${formatRate(packets / real.seconds).padStart(9)} packets/s   ${how}`);
      };
      for (const jobs of cpus > 1 ? [1, cpus] : [1]) report(`gamequery dissect -F ndjson -j ${jobs} > /dev/null`, file, ours.packets, jobs, 3);
      if (cpus > 1 && options.parallelPackets > 0) {
        // Workers start cold (module load, JIT warm-up): the CLI starts them only from 64 MiB, so they are measured on such a file.
        const large = join(dir, 'large.pcap');
        const fd = openSync(large, 'w');
        const chunks = generateCapture({ packets: options.parallelPackets });
        let packets = 0;
        for (let c = chunks.next(); ; c = chunks.next()) {
          if (c.done) {
            packets = c.value;
            break;
          }
          writeSync(fd, c.value);
        }
        closeSync(fd);
        const mib = (statSync(large).size / 2 ** 20).toFixed(0);
        for (const jobs of [1, cpus]) report(`the same on ${mib} MiB (${packets} packets), -j ${jobs}`, large, packets, jobs, 1);
        // What the duplicate window costs: the same output here (the generated capture repeats no reply), less kept in memory.
        for (const jobs of [1, cpus]) report(`  … -j ${jobs} --duplicate-window 0 (not the default)`, large, packets, jobs, 1, ['--duplicate-window', '0']);
        rmSync(large);
      }
    } else {
      console.log('  the build failed: no figure for the CLI');
    }
    console.log(`  floor (issue 4) ≥ ${formatRate(FLOOR)} packets/s end to end: ${fastest >= FLOOR ? 'met' : 'NOT met'} on this machine (best ${formatRate(fastest)}, ${cpus} CPU${cpus === 1 ? '' : 's'})`);
    const tshark = spawnSync('tshark', ['--version'], { encoding: 'utf8' });
    if (tshark.status === 0) {
      const plugin = join(dir, 'gamequery.lua');
      writeFileSync(plugin, exportWireshark());
      const runs: [string, string[]][] = [
        ['tshark, no plugin (summary lines)', ['-r', file]],
        ['tshark, no plugin, -T json', ['-r', file, '-T', 'json']],
        ['tshark + our Lua plugin (summary lines)', ['-X', `lua_script:${plugin}`, '-r', file]],
        ['tshark + our Lua plugin, -T json', ['-X', `lua_script:${plugin}`, '-r', file, '-T', 'json']],
      ];
      for (const [name, args] of runs) {
        const t0 = process.hrtime.bigint();
        const r = spawnSync('tshark', args, { stdio: ['ignore', 'ignore', 'ignore'] });
        const s = Number(process.hrtime.bigint() - t0) / 1e9;
        if (r.status !== 0) { console.log(`  ${name} failed (exit ${r.status})`); continue; }
        const rate = ours.packets / s;
        console.log(`  ${name.padEnd(44)} ${formatRate(rate).padStart(12)} packets/s   ours is ${(ours.packets / ours.seconds / rate).toFixed(2)}× this`);
      }
    } else {
      console.log('  tshark not installed: no reference figure');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
  const big = await ndjson(generateCapture({ bytes: options.bigBytes }));
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`  ${(options.bigBytes / 2 ** 20).toFixed(0)} MiB capture generated on the fly: ${big.packets} packets, ${formatRate(big.packets / big.seconds)} packets/s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB (${(rssBefore / 2 ** 20).toFixed(0)} MiB before)`);
}
