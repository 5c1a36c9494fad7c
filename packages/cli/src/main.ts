#!/usr/bin/env node
/**
 * gamequery's entry: Node's on-disk cache of compiled code turned on (Node 22.1 and later; a
 * no-op before), then the command line (cli.ts) loaded. The cache keeps V8's compiled code of
 * the bundle's chunks between runs, in Node's own directory under the system's temporary one
 * (NODE_COMPILE_CACHE names another; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so that a run
 * does not parse them again: a one-packet dissect under Node 22.23, 30 runs alternating, best
 * 157 → 140 ms, median 168 → 150 (docs/performance.md). It must come before the chunks load
 * (static imports would all be loaded before this line ran), so the rest is imported after it,
 * as TypeScript's `tsc` does.
 */
import * as nodeModule from 'node:module';

try {
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
} catch {
  // A cache that cannot be made (a read-only temporary directory) only costs the time it would have saved.
}
await import('./cli.ts');
