/**
 * The command bounds V8's heap (src/heap.ts). Each check runs a child process twice, with
 * `boundHeap()` and without, on this Node's V8, so a V8 that ignored a flag would fail it:
 * - a child that keeps many objects alive for a while (what makes V8 grow the young
 *   generation) starts and ends with the young generation at its set size, where it grows
 *   further without;
 * - a child that keeps 30 MB alive while making objects that live long enough to reach the old
 *   generation peaks far lower with the bound than without (where garbage piles up in it);
 * - V8's own trace of each scavenge (`--trace-gc-nvp`) shows no time spent by helper threads
 *   with the bound, and some without.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from './cli.ts';
import { SMALL_INPUT, YOUNG_SEMI_SPACE, largeInput } from '../src/heap.ts';

/** Runs `body` (an ES module's code, with `size()` and `heap()` at hand) in a child, bounded or not; its JSON output. */
function child(bounded: boolean, body: string): { start: number; end: number; peak: number } {
  const script = `
    import { getHeapStatistics } from 'node:v8';
    import { boundHeap, youngSpace as size } from './packages/cli/dist/heap.js';
    if (${bounded}) boundHeap();
    const heap = () => getHeapStatistics().total_heap_size;
    ${body}`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { start: number; end: number; peak: number };
}

describe("the command's heap", () => {
  it('holds the young generation at its set size, where it grows to many times that without', () => {
    const body = `
      const start = size();
      const live = new Array(50000);
      for (let i = 0; i < 2e6; i++) live[i % 50000] = { i, s: 'x' + i };
      process.stdout.write(JSON.stringify({ start, end: size(), peak: 0 }));`;
    const held = child(true, body);
    const grown = child(false, body);
    // Grown to its size at start-up, and no further.
    expect(held.start).toBe(2 * YOUNG_SEMI_SPACE);
    expect(held.end).toBe(2 * YOUNG_SEMI_SPACE);
    expect(grown.end).toBeGreaterThanOrEqual(3 * held.end);
  });

  it('collects the old generation before it grows far past what is alive', () => {
    const body = `
      const ring = new Array(200000);
      let peak = 0;
      // 2 M objects through a ring of 200 000: 62 MB at most bounded, 179 MB not (6 M: the same, in 2.6 times as long).
      for (let i = 0; i < 2e6; i++) {
        ring[i % 200000] = { i, s: 'x' + i, a: [i, i + 1] };
        if ((i & 0xffff) === 0) peak = Math.max(peak, heap());
      }
      process.stdout.write(JSON.stringify({ start: 0, end: 0, peak }));`;
    const bounded = child(true, body);
    const unbounded = child(false, body);
    expect(unbounded.peak).toBeGreaterThanOrEqual(1.4 * bounded.peak);
  });
});

describe("the command's scavenges", () => {
  /**
   * The time helper threads spent in each scavenge of a child that makes 3 M short-lived
   * objects, as V8 traces it; `held` lists of 65 536 small objects (some 5 MB each) kept alive
   * first, told to the bound by heapTick.
   */
  const helpers = (bounded: boolean, held = 0): number[] => {
    const script = `
      import { boundHeap, heapTick } from './packages/cli/dist/heap.js';
      if (${bounded}) boundHeap();
      const kept = [];
      for (let i = 0; i < ${held}; i++) kept.push(Array.from({ length: 65536 }, (_, k) => ({ k, s: 'x' + k })));
      for (let i = 0; i < 16; i++) heapTick();
      process.stdout.write('\\n-- allocating --\\n');
      const live = new Array(50000);
      for (let i = 0; i < 3e6; i++) live[i % 50000] = { i, s: 'x' + i };`;
    const r = spawnSync(process.execPath, ['--trace-gc-nvp', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const after = r.stdout.slice(r.stdout.indexOf('-- allocating --'));
    return [...after.matchAll(/gc=s .*?background\.scavenge\.parallel=([\d.]+)/g)].map((m) => Number(m[1]));
  };

  it("are the main thread's alone with the bound, where helper threads take part without", () => {
    const bounded = helpers(true);
    const free = helpers(false);
    expect(bounded.length).toBeGreaterThan(10);
    expect(bounded.every((ms) => ms === 0)).toBe(true);
    expect(free.some((ms) => ms > 0)).toBe(true);
  });

  it("are helped again once the heap holds much (a scan's servers)", () => {
    // Some 80 MB on the heap, past HELPED_PAST (40 MiB): heapTick lets the helpers back.
    const held = helpers(true, 16);
    expect(held.length).toBeGreaterThan(10);
    expect(held.some((ms) => ms > 0)).toBe(true);
  });
});

describe('which runs bound the heap', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-heap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, bytes: number, head = new Uint8Array(0)): string => {
    const path = join(dir, name);
    writeFileSync(path, head);
    truncateSync(path, bytes);
    return path;
  };

  it('a small file named: no bound; a pipe, a live capture, a large file or a large gzipped one: the bound', () => {
    const small = file('small.pcap', 100_000);
    const large = file('large.pcap', SMALL_INPUT);
    const zipped = file('mid.pcap.gz', SMALL_INPUT / 8, new Uint8Array([0x1f, 0x8b, 8]));
    const plain = file('mid.pcap', SMALL_INPUT / 8);
    expect(largeInput(['dissect', small, '-F', 'json'], false)).toBe(false);
    expect(largeInput(['stats', small, '-Y', 'samp'], true)).toBe(false);
    expect(largeInput(['dissect', plain], false)).toBe(false);
    expect(largeInput(['dissect', large], false)).toBe(true);
    expect(largeInput(['dissect', zipped], false)).toBe(true);
    expect(largeInput(['dissect', '-'], true)).toBe(true);
    expect(largeInput(['dissect', '-i', 'lo'], true)).toBe(true);
    expect(largeInput(['dissect', '--interface=lo'], true)).toBe(true);
    expect(largeInput(['dissect', '-ilo'], true)).toBe(true);
    // No file named: stdin, unless it is a terminal (then the arguments are hex text).
    expect(largeInput(['dissect', '53414d50'], false)).toBe(true);
    expect(largeInput(['dissect', '53414d50'], true)).toBe(false);
    // A FIFO is a pipe, whatever its size says.
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(largeInput(['dissect', fifo], true)).toBe(true);
  });
});
