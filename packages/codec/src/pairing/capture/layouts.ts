/**
 * Layouts as small numbers, so that a frame's facts (facts.ts) name theirs in a byte: the
 * built-in protocols' layouts first, in declaration order, then any other layout the first
 * time it is asked for (a caller's own protocol). 0 is no layout.
 */
import type { InternalQueryLayout as QueryLayout } from '../../protocols/index.ts';
import { builtInProtocols } from '../../protocols/index.ts';

const byNumber: (QueryLayout | undefined)[] = [undefined];
const numbers = new Map<QueryLayout, number>();

/** The number of `layout`, 1–255. */
export function layoutNumber(layout: QueryLayout): number {
  let n = numbers.get(layout);
  if (n === undefined) {
    n = byNumber.length;
    if (n > 255) throw new RangeError(`more than 255 layouts: ${layout.id} has no number`);
    byNumber.push(layout);
    numbers.set(layout, n);
  }
  return n;
}

/** The layout numbered `n` (1–255). */
export function layoutAt(n: number): QueryLayout {
  const layout = byNumber[n];
  if (!layout) throw new RangeError(`no layout numbered ${n}`);
  return layout;
}

for (const p of builtInProtocols) for (const l of p.layouts) layoutNumber(l as QueryLayout);
