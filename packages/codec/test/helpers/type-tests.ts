/**
 * Runs a folder's type tests: `tsc -p DIR` over the `*.test-d.ts` files there, which hold
 * `expectTypeOf` assertions and `@ts-expect-error` lines (a line marked so that compiles is
 * itself an error). Any diagnostic fails the test and is shown.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Declares the test that type-checks the folder `dir` (a URL, usually `new URL('.', import.meta.url)`). */
export function typeTests(dir: URL): void {
  describe('the public types', () => {
    it('narrow as the type tests say (tsc -p: no diagnostic)', () => {
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      const r = spawnSync(process.execPath, [tsc, '-p', fileURLToPath(dir), '--pretty', 'false'], { encoding: 'utf8' });
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    }, 60_000);
  });
}
