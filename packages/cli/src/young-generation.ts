/**
 * Keeps V8's young generation at its starting size for the whole run.
 *
 * What a capture holds is in typed arrays (the pairer's tables, the frames' facts), and what
 * a frame allocates dies with the frame. A larger young generation buys nothing here, yet
 * V8 grows it as the run goes on (to 16 MiB a semi-space, three times that in all, on
 * Node 20), and once grown it stays in the peak RSS. Measured with `gamequery` on this
 * project's benchmark inputs (docs/performance.md), peak RSS before → after, with user time:
 * - the query flood, `dissect -F ndjson`: 226 → 178 MiB, the same time;
 * - the query flood, `cat FILE | stats -`: 191–195 → 150 MiB, the same time;
 * - 1 M frames of the real mix, `dissect -F ndjson`: 180 → 133 MiB, 3–5 % more time;
 *   `stats`: 140 → 106 MiB, the same time.
 *
 * The young generation's largest size is fixed when the heap is made (`--max-semi-space-size`
 * only works on node's command line, which the `gamequery` command cannot set); how fast it
 * grows is read each time it grows, so a growth factor of 1 set at start-up keeps it where
 * it began. V8 writes an error for a flag it does not know, so this is done only on the V8
 * versions that have the flag and were measured: Node 20 to 24 (V8 11 to 13).
 */
import { setFlagsFromString } from 'node:v8';

const V8_MAJOR = Number(process.versions.v8.split('.')[0]);

/** Sets the young generation's growth factor to 1, on the V8 versions known to have it. */
export function keepYoungGenerationSmall(): void {
  if (V8_MAJOR >= 11 && V8_MAJOR <= 13) setFlagsFromString('--semi-space-growth-factor=1');
}
