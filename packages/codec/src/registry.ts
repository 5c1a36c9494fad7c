/** The registry of every field of every layout (see grammar/registry.ts). */
import { buildRegistry, type RegisteredField } from './grammar/registry.ts';
import { layouts } from './packet.ts';

/** Every field of the built-in layouts, one entry per abbreviation (see {@link buildRegistry}). */
export const fieldRegistry: readonly RegisteredField[] = buildRegistry(layouts);
