/**
 * The built-in protocols, one declaration each (grammar/protocol.ts): what `decodePacket`,
 * the pairer, the client, the CLI and the exports know as "every protocol", and the types
 * and tables over them (their names, the layouts of any of their messages, their titles).
 */
import type { InternalLayout, Layout } from '../grammar/layout.ts';
import { sampProtocol } from './samp/protocol.ts';
import { vcmpProtocol } from './vcmp/protocol.ts';
import { mcqueryProtocol } from './minecraft/protocol.ts';

export { sampProtocol, vcmpProtocol, mcqueryProtocol };

/** The built-in protocol declarations, in the order recognition tries their signatures. */
export const builtInProtocols: readonly [typeof sampProtocol, typeof vcmpProtocol, typeof mcqueryProtocol] = [
  sampProtocol,
  vcmpProtocol,
  mcqueryProtocol,
];

/** The names of the built-in protocols. A layout declared with `defineLayout` may name any other. */
export type BuiltInProtocol = (typeof builtInProtocols)[number]['name'];

/** A layout of one of the built-in protocols, its value type left open: what code that handles every message holds. */
export type QueryLayout = Layout<any, BuiltInProtocol>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any message's value: Layout is invariant in it, so unknown will not do
/** Not API: {@link QueryLayout} with the machinery of an `InternalLayout`. */
export type InternalQueryLayout = InternalLayout<any, BuiltInProtocol>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as QueryLayout

const byName = <T>(value: (p: (typeof builtInProtocols)[number]) => T): Record<BuiltInProtocol, T> =>
  Object.fromEntries(builtInProtocols.map((p) => [p.name, value(p)])) as Record<BuiltInProtocol, T>;

/** Display names of the built-in protocols (each declaration's `title`). */
export const protocolNames: Record<BuiltInProtocol, string> = byName((p) => p.title);

/** The built-in protocols as a tree's top item, like Wireshark's protocol titles (each declaration's `treeTitle`). */
export const protocolTitles: Record<BuiltInProtocol, string> = byName((p) => p.treeTitle);
