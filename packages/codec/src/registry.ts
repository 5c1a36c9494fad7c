/** The registry of every field of every layout (see grammar/registry.ts). */
import { buildRegistry, type RegisteredField } from './grammar/registry.ts';
import type { ProtocolDeclaration } from './grammar/protocol.ts';
import { perProtocols } from './grammar/protocol-set.ts';
import { builtInProtocols } from './protocols/index.ts';
import { layouts } from './packet.ts';

/** Every field of the built-in layouts, one entry per abbreviation (see {@link buildRegistry}). */
export const fieldRegistry: readonly RegisteredField[] = buildRegistry(layouts);

const registries = perProtocols((protocols) => buildRegistry(protocols.flatMap((p) => p.layouts)));

/**
 * Every field of the layouts of `protocols` (yours among them, declared with `defineProtocol`),
 * one entry per abbreviation: what {@link fieldRegistry} is for the built-in ones. Built once
 * per list of declarations.
 */
export function registryOf(protocols: readonly ProtocolDeclaration[]): readonly RegisteredField[] {
  return protocols === builtInProtocols ? fieldRegistry : registries(protocols);
}
