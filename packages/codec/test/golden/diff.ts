import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

/**
 * A short report of where two texts part: the lines both share at the start and at the end are
 * left out, the rest shown as `-` (golden) and `+` (generated) with line numbers, a few lines
 * of each at most, and a couple of shared lines before for context. Not a full diff: enough to
 * see what changed; `git diff` after `pnpm golden` shows the whole of it.
 */
const CONTEXT = 2;
const SHOWN = 8;

export function firstDifference(want: string, got: string): string {
  const a = want.split('\n');
  const b = got.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  // Control characters as \xNN and trailing spaces as `·`, so that a difference in either shows.
  const show = (line: string): string =>
    Array.from(line, (c) => (c < ' ' || c === '\x7f' ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c))
      .join('')
      .replace(/ +$/, (spaces) => '·'.repeat(spaces.length));
  const out: string[] = [`@@ line ${head + 1}: ${removed.length} line(s) in the golden file, ${added.length} generated @@`];
  for (let i = Math.max(0, head - CONTEXT); i < head; i++) out.push(`  ${String(i + 1).padStart(5)} ${show(a[i]!)}`);
  const part = (lines: readonly string[], sign: string): void => {
    lines.slice(0, SHOWN).forEach((line, i) => out.push(`${sign} ${String(head + i + 1).padStart(5)} ${show(line)}`));
    if (lines.length > SHOWN) out.push(`${sign}       … ${lines.length - SHOWN} more`);
  };
  part(removed, '-');
  part(added, '+');
  return out.join('\n');
}

/** `pnpm golden`: the golden files are rewritten instead of compared. */
export const updatingGolden = process.env.GAMEQUERY_UPDATE_GOLDEN === '1';

/**
 * Compares `text` with the golden file `path` under `dir`, or writes it when
 * GAMEQUERY_UPDATE_GOLDEN=1 (`pnpm golden`); a difference fails with its first lines and `how`.
 */
export function goldenFile(dir: string, path: string, text: string, how: string): void {
  const file = `${dir}${path}`;
  const want = existsSync(file) ? readFileSync(file) : undefined;
  const got = Buffer.from(text, 'utf8');
  if (want?.equals(got)) return;
  if (updatingGolden) {
    mkdirSync(file.slice(0, file.lastIndexOf('/')), { recursive: true });
    writeFileSync(file, got);
    return;
  }
  const why =
    want === undefined
      ? `missing golden file ${path}`
      : `${path} differs from what the declarations generate:\n${firstDifference(want.toString('utf8'), text)}`;
  expect.fail(`${why}\n${how}`);
}
