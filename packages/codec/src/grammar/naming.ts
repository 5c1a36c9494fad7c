/**
 * What a declared protocol tells the layouts declared after it under its name, and whoever
 * shows one of its messages: its title, its charset and its tree title. A protocol's own
 * layouts say the first two themselves (their declaration checks they agree); a layout of
 * yours for a protocol declared already (a variant of one of its messages) need not repeat
 * them. Filled by `defineProtocol` (the first declaration of a name counts), read by
 * `defineLayout` and by renderers.
 */
import type { Charset } from './charset.ts';

/** A protocol's title and charset, as its declaration has them. */
export interface Naming {
  readonly title: string;
  readonly charset: Charset;
  readonly treeTitle: string;
}

const declared = new Map<string, Naming>();

/** Records the naming of protocol `name`, unless a protocol of that name was declared before. */
export function declareNaming(name: string, naming: Naming): void {
  if (!declared.has(name)) declared.set(name, naming);
}

/** The title and charset of protocol `name`, if a protocol of that name has been declared. */
export const namingOf = (name: string): Naming | undefined => declared.get(name);

/** The top item of a tree of protocol `name`'s message (`ACME Query Protocol`): its declaration's `treeTitle`. */
export const treeTitleOf = (name: string): string => declared.get(name)?.treeTitle ?? `${name} Query Protocol`;
