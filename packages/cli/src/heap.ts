/**
 * Bounds V8's heap to what the command holds: what a capture keeps is in typed arrays (the
 * pairer's tables, the frames' facts), and what a frame allocates dies with the frame, so
 * neither of V8's default growth rules buys anything here, and both cost peak RSS.
 *
 * - **The young generation stays at its starting size.** By default V8 grows it as the run
 *   goes on (to 16 MiB a semi-space, three times that in all, on Node 20), and once grown it
 *   stays committed. Its largest size is fixed when the heap is made (`--max-semi-space-size`
 *   works only on node's own command line, which the `gamequery` command cannot set), but how
 *   fast it grows is read each time it grows: a growth factor of 1 holds it where it began.
 * - **The old generation grows at most {@link OLD_GROWTH_PERCENT} % past what a full
 *   collection left alive.** By default V8 lets it grow further while the program runs
 *   undisturbed, to four times what is alive: on 5 M frames of the real mix, 56 MB of
 *   garbage piled up over 15 s between two collections.
 *
 * Measured with `gamequery` on this project's benchmark inputs (docs/performance.md). V8
 * writes an error for a flag it does not know, so the flags are set only on the V8 versions
 * that have them and were measured: Node 20 to 24 (V8 11 to 13).
 */
import { setFlagsFromString } from 'node:v8';

/** How far past what is alive the old generation may grow before a full collection. */
export const OLD_GROWTH_PERCENT = 50;

const V8_MAJOR = Number(process.versions.v8.split('.')[0]);

/** Sets both bounds, on the V8 versions known to have their flags; before anything is allocated. */
export function boundHeap(): void {
  if (V8_MAJOR < 11 || V8_MAJOR > 13) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString(`--heap-growing-percent=${OLD_GROWTH_PERCENT}`);
}
