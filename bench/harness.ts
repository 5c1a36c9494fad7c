/**
 * A small benchmark harness: each case runs in timed batches, interleaved with the
 * other cases of its group over several rounds, and the median rate is reported with
 * its ratio to the group's baseline measured in the same process (these machines are
 * noisy; only ratios within one run mean much).
 */
export interface BenchCase {
  readonly name: string;
  /** Runs the operation once; returns something so the work is not optimised away. */
  readonly run: () => unknown;
  /** Units of work per run (e.g. packets), for the rate. */
  readonly units?: number;
}

export interface BenchResult {
  name: string;
  perSecond: number;
  ratio: number;
}

let sink: unknown;

function timeBatch(c: BenchCase, ms: number): number {
  let n = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(ms) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 256; i++) sink = c.run();
    n += 256;
    elapsed = process.hrtime.bigint() - start;
  }
  return (n * (c.units ?? 1)) / (Number(elapsed) / 1e9);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Benchmarks a group; the first case is the baseline. */
export function benchGroup(title: string, unit: string, cases: readonly BenchCase[], opts = { rounds: 5, ms: 200 }): BenchResult[] {
  for (const c of cases) timeBatch(c, 50); // warm up and let the JIT settle
  const rates = cases.map(() => [] as number[]);
  for (let r = 0; r < opts.rounds; r++) cases.forEach((c, i) => rates[i]!.push(timeBatch(c, opts.ms)));
  const medians = rates.map(median);
  const base = medians[0]!;
  const results = cases.map((c, i) => ({ name: c.name, perSecond: medians[i]!, ratio: medians[i]! / base }));
  console.log(`\n${title}`);
  for (const r of results) {
    console.log(`  ${r.name.padEnd(44)} ${formatRate(r.perSecond).padStart(12)} ${unit}/s   ${r.ratio.toFixed(2)}× baseline`);
  }
  void sink;
  return results;
}

export function formatRate(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return n.toFixed(0);
}
