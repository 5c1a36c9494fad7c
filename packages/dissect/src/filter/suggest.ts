/**
 * "Did you mean": the known names nearest to an unknown one, for display filters here and for the
 * command's arguments (`-e`, protocol names) in the CLI.
 */
import type { ProtocolDeclaration } from '@gamequery/codec';
import { editDistance } from '@gamequery/codec/internal';

/** Edit distance (Levenshtein), for suggesting the names nearest to an unknown one: the codec's, which its state files' misspellings use too. */
export { editDistance };
import { filterFields } from './fields.ts';

/** Up to three known names nearest to `name` (among those of `protocols`): close in spelling, or sharing its last part. */
export function nearestFields(name: string, protocols?: readonly ProtocolDeclaration[]): string[] {
  const names = [...filterFields(protocols).keys()];
  const last = name.split('.').at(-1)!;
  const scored = names.map((n) => {
    let d = editDistance(name, n);
    if (n.split('.').at(-1) === last) d = Math.min(d, 2 + Math.abs(n.length - name.length) / 8);
    return [n, d] as const;
  });
  const limit = Math.max(2, Math.ceil(name.length / 3));
  // A name that is only the start of others (`samp.info`): its first few children.
  const children = names.filter((n) => n.startsWith(`${name}.`)).slice(0, 3);
  if (children.length) return children;
  return scored
    .filter(([, d]) => d <= limit)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([n]) => n);
}
