/**
 * Runs the type tests: `tsc -p test/types` over the `*.test-d.ts` files beside this one, which
 * hold `expectTypeOf` assertions and `@ts-expect-error` lines (a line marked so that compiles
 * is itself an error). Any diagnostic fails the test and is shown.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

describe('the public types', () => {
  it('narrow as the type tests say (tsc -p test/types: no diagnostic)', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', new URL('.', import.meta.url).pathname, '--pretty', 'false'], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60_000);
});
