/** The registry of every field of every layout (see grammar/registry.ts). */
import { buildRegistry, type RegisteredField } from './grammar/registry.ts';
import { layouts } from './packet.ts';

export const fieldRegistry: readonly RegisteredField[] = buildRegistry(layouts);
