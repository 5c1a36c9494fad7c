/**
 * The built-in protocols, one declaration each (grammar/protocol.ts): what `decodePacket`,
 * the pairer, the client, the CLI and the exports know as "every protocol".
 */
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
