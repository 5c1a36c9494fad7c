/**
 * What a declared protocol tells the layouts declared after it under its name: its title
 * and its charset. A protocol's own layouts say both themselves (their declaration checks
 * they agree); a layout of yours for a protocol declared already (a variant of one of its
 * messages) need not repeat them. Filled by `defineProtocol`, read by `defineLayout`.
 */
import type { Charset } from './charset.ts';

/** A protocol's title and charset, as its declaration has them. */
export interface Naming {
  readonly title: string;
  readonly charset: Charset;
}

const declared = new Map<string, Naming>();

/** Records the title and charset of protocol `name` (its latest declaration's). */
export function declareNaming(name: string, naming: Naming): void {
  declared.set(name, naming);
}

/** The title and charset of protocol `name`, if a protocol of that name has been declared. */
export const namingOf = (name: string): Naming | undefined => declared.get(name);
