/**
 * Vitest's global setup: the compiled command is brought up to date once, before any test
 * file runs, since the CLI's tests run it (packages/cli/test/cli.ts): in process, or as a
 * child process as a user runs it. Starting the built JavaScript takes about a sixth of what
 * transpiling the sources with tsx on every spawn took.
 */
import { build, staleness } from './build.mjs';

export default function setup() {
  const stale = staleness();
  if (stale === undefined) return;
  process.stderr.write(`test setup: ${stale}: building (tsc -b)\n`);
  if (!build()) process.stderr.write('test setup: tsc reported the errors above; testing the JavaScript it wrote\n');
}
