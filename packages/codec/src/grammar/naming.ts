/**
 * What a declared protocol tells the layouts declared after it under its name, and whoever
 * shows one of its messages: its title, the title's short form and its charset. A protocol's
 * own layouts say the short title and charset themselves (their declaration checks they
 * agree); a layout of yours for a protocol declared already (a variant of one of its
 * messages) need not repeat them. Filled by `defineProtocol` (the first declaration of a
 * name counts), read by `defineLayout` and by renderers.
 */
import type { Charset } from './charset.ts';

/** A protocol's titles and charset, as its declaration has them. */
export interface Naming {
  /** The top item of a tree of its messages (`ACME Query Protocol`). */
  readonly title: string;
  /** The short form, before a message's name (`ACME status response`). */
  readonly shortTitle: string;
  readonly charset: Charset;
}

const declared = new Map<string, Naming>();

/** Records the naming of protocol `name`, unless a protocol of that name was declared before. */
export function declareNaming(name: string, naming: Naming): void {
  if (!declared.has(name)) declared.set(name, naming);
}

/** The titles and charset of protocol `name`, if a protocol of that name has been declared. */
export const namingOf = (name: string): Naming | undefined => declared.get(name);

/** The title of protocol `name`: its declaration's, else (layouts without a declaration) `<name> Query Protocol`. */
export const titleOf = (name: string): string => declared.get(name)?.title ?? `${name} Query Protocol`;

/** The short title of protocol `name`: its declaration's, else its name. */
export const shortTitleOf = (name: string): string => declared.get(name)?.shortTitle ?? name;

/** Edit distance (Levenshtein), for suggesting the names nearest to an unknown one (a field, a state file's key). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
