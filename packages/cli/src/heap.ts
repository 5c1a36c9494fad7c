/**
 * Bounds V8's heap to what the commands that read captures (`dissect`, `stats`) hold: what a capture keeps is in typed arrays (the
 * pairer's tables, the frames' facts), and what a frame allocates dies with the frame, so
 * V8's default growth buys nothing past a point and costs peak RSS.
 *
 * - **The young generation is held at 4 MiB a semi-space** ({@link YOUNG_SEMI_SPACE}). By
 *   default V8 grows it as the run goes on, to 16 MiB a semi-space (Node 20), and once grown
 *   it stays committed. Its largest size is fixed when the heap is made
 *   (`--max-semi-space-size` works only on node's own command line, which the `gamequery`
 *   command cannot set), but how fast it grows is read each time it grows: it is grown to
 *   its size as the command starts (about 7 ms, which the other commands do not pay), then
 *   its growth factor set to 1. Smaller costs speed
 *   (at its starting size, `-F text` took 18 % longer; at 2 MiB, 10 %), 4 MiB about none.
 * - **The old generation grows at most {@link OLD_GROWTH_PERCENT} % past what a full
 *   collection left alive.** By default V8 lets it grow further while the program runs
 *   undisturbed, to four times what is alive: on 5 M frames of the real mix, 56 MB of
 *   garbage piled up over 15 s between two collections.
 * - **The young generation is collected by the main thread alone** (`--no-parallel-scavenge`)
 *   while the heap holds little ({@link heapTick}). Such a run's scavenges are small (4 MiB,
 *   nearly all of it dead), and on two cores the other one is mostly V8's optimizing compiler:
 *   helpers handed a share of each scavenge cost more than they did. On 1 M frames of the mix,
 *   alternating runs (medians of five): `stats` 2.73 → 2.62 s, `-T fields` 3.59 → 3.43 s, less
 *   CPU time in each; NDJSON the same. Where the heap holds much (statistics on a scan of
 *   150 000 servers: 324 MB after a collection, against 22 MB or less for every format on the mix
 *   and the flood), every scavenge has survivors to move, and helpers pay: helped again past
 *   {@link HELPED_PAST}. V8 reads this flag at each scavenge, so setting it as the run goes is
 *   safe; the flags of the marking collector are not (setting `--no-concurrent-marking` once the
 *   heap exists aborts V8 at its next full collection).
 *
 * Measured with `gamequery` on this project's benchmark inputs (docs/performance.md). V8
 * writes an error for a flag it does not know, so this is done only on the V8 versions that
 * have the flags and were measured: Node 20 to 24 (V8 11 to 13).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';

/** How far past what is alive the old generation may grow before a full collection. */
export const OLD_GROWTH_PERCENT = 50;

/** The young generation's semi-space, in bytes, once grown (V8 reports the young space as two of them). */
export const YOUNG_SEMI_SPACE = 4 * 2 ** 20;

const V8_MAJOR = Number(process.versions.v8.split('.')[0]);

/** The young generation's size, both semi-spaces; undefined where V8 reports no such space. */
export const youngSpace = (): number | undefined => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size;

/** The JavaScript heap in use past which scavenges are helped by other threads again (see the module comment). */
export const HELPED_PAST = 40 * 2 ** 20;

/** Whether the heap was bounded (then scavenges are helped only while {@link heapTick} says), and whether they are helped now. */
let bounded = false;
let helped = true;
let ticks = 0;

/**
 * Called as a capture is read (each chunk or batch): every sixteenth call, scavenges are
 * helped by other threads or not by how much the heap holds ({@link HELPED_PAST}). Nothing
 * without {@link boundHeap}.
 */
export function heapTick(): void {
  if (!bounded || (++ticks & 15) !== 0) return;
  const want = getHeapStatistics().used_heap_size > HELPED_PAST;
  if (want === helped) return;
  helped = want;
  setFlagsFromString(want ? '--parallel-scavenge' : '--no-parallel-scavenge');
}

/** Sets both bounds, on the V8 versions known to have their flags; before anything else is allocated. */
export function boundHeap(): void {
  if (V8_MAJOR < 11 || V8_MAJOR > 13) return;
  setFlagsFromString(`--heap-growing-percent=${OLD_GROWTH_PERCENT}`);
  setFlagsFromString('--no-parallel-scavenge');
  bounded = true;
  helped = false;
  // V8 grows the young generation after a scavenge that has seen as much survive, since it
  // last grew, as it holds: arrays kept alive until it reaches its size make it grow (each
  // step 64 arrays of 8 KiB; it takes about 7), then they are let go. Held only once grown (where
  // V8 reports no young space, not at all): at its starting size it costs more time than it saves.
  const kept: number[][] = [];
  for (let step = 0; step < 64 && (youngSpace() ?? Infinity) < 2 * YOUNG_SEMI_SPACE; step++)
    for (let i = 0; i < 64; i++) kept.push(new Array<number>(1024).fill(step));
  if ((youngSpace() ?? 0) >= 2 * YOUNG_SEMI_SPACE) setFlagsFromString('--semi-space-growth-factor=1');
}

/** Files read whole below this size leave the heap as V8 sets it: they hold too little for the bound to matter. */
export const SMALL_INPUT = 16 * 2 ** 20;

/**
 * Whether a `dissect` or `stats` run may read enough for {@link boundHeap} to pay for itself
 * (growing the young generation took some 35 ms of a 250 ms run of a one-packet capture, most
 * of the suite's hundreds of runs of the command): a pipe (`-`, or no file named while stdin is
 * not a terminal), a live capture (`-i`), or a file named among the arguments that is not a
 * regular file or is {@link SMALL_INPUT} or larger (a gzipped one of a sixteenth of that: it
 * may hold ten times its size). Told from the arguments as they stand,
 * before the command's options are parsed: an argument that names no file counts for nothing.
 */
export function largeInput(args: readonly string[], stdinTty = process.stdin.isTTY === true): boolean {
  let files = 0;
  for (const a of args) {
    if (a === '-' || a === '-i' || a.startsWith('--interface') || (a.startsWith('-i') && !a.startsWith('--'))) return true;
    let size: number;
    try {
      const s = statSync(a);
      if (!s.isFile()) return !s.isDirectory();
      size = s.size;
    } catch {
      continue;
    }
    if (size >= SMALL_INPUT || (size >= SMALL_INPUT / 16 && gzipped(a))) return true;
    files++;
  }
  return files === 0 && !stdinTty;
}

/** Whether the file starts as gzip does (1f 8b); false where it cannot be read. */
function gzipped(path: string): boolean {
  try {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(2);
      return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
