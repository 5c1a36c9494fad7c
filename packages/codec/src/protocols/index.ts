/**
 * The built-in protocols, one declaration each (grammar/protocol.ts): what `decodePacket`,
 * the pairer, the client, the CLI and the exports know as "every protocol", and the types
 * over them (their names, the layouts of any of their messages).
 */
import type { InternalLayout, Layout } from '../grammar/layout.ts';
import { sampProtocol } from './samp/protocol.ts';
import { vcmpProtocol } from './vcmp/protocol.ts';
import { mcqueryProtocol } from './mcquery/protocol.ts';

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
