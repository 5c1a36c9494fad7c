#!/usr/bin/env node
/**
 * `pnpm gamequery`: the compiled command line (packages/cli/dist), built first when a source
 * changed since the last build (`pnpm install` builds it; this catches an edit or a `git pull`).
 * `pnpm gamequery:dev` runs the TypeScript sources instead.
 */
import { build, main, staleness } from './build.mjs';
import { pathToFileURL } from 'node:url';

const stale = staleness();
if (stale !== undefined) {
  process.stderr.write(`gamequery: ${stale}: building (tsc -b)\n`);
  if (!build()) process.stderr.write('gamequery: tsc reported the errors above; running what it wrote\n');
}
await import(pathToFileURL(main).href);
