/**
 * `pnpm bench`: every benchmark, ratios against baselines measured in this process.
 * `pnpm bench codec`, `pnpm bench query`, `pnpm bench faults`, `pnpm bench dissect` or `pnpm bench startup` runs one part; GAMEQUERY_BENCH_PACKETS,
 * GAMEQUERY_BENCH_PARALLEL_PACKETS and GAMEQUERY_BENCH_BIG_MB size the dissector runs (defaults 200 000 packets; 1 000 000
 * packets for worker threads, 0 for none; 500 MiB); GAMEQUERY_BENCH_STARTUP_RUNS the start-up runs (default 20).
 */
import { benchCodec } from './codec.ts';
import { benchDissect } from './dissect.ts';
import { benchQuery } from './query.ts';
import { benchFaults } from './faults.ts';
import { benchStartup } from './startup.ts';

const only = process.argv[2];
console.log(`gamequery benchmarks — node ${process.version}, ${process.arch}`);
if (!only || only === 'codec') benchCodec();
if (!only || only === 'query') await benchQuery();
if (!only || only === 'faults') await benchFaults();
if (!only || only === 'dissect') {
  await benchDissect({
    packets: Number(process.env.GAMEQUERY_BENCH_PACKETS ?? 200_000),
    parallelPackets: Number(process.env.GAMEQUERY_BENCH_PARALLEL_PACKETS ?? 1_000_000),
    bigBytes: Number(process.env.GAMEQUERY_BENCH_BIG_MB ?? 500) * 2 ** 20,
  });
}
if (!only || only === 'startup') benchStartup({ runs: Number(process.env.GAMEQUERY_BENCH_STARTUP_RUNS ?? 20) });
