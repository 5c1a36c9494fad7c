/** Minecraft query (GameSpy4): the layouts by message, the headers and the packet types. */
import * as handshake from './handshake.ts';
import * as basic from './basic.ts';
import * as full from './full.ts';

/**
 * Every Minecraft query layout, named `<message><Direction>`: `mcquery.handshakeResponse`. The same scheme in every
 * protocol (`samp.infoResponse`, `vcmp.infoResponse`, `mcquery.fullResponse`); the id of each is `mcquery.<message>.<direction>`.
 */
export const mcquery = {
  handshakeRequest: handshake.handshakeRequest,
  handshakeResponse: handshake.handshakeResponse,
  basicRequest: basic.basicRequest,
  basicResponse: basic.basicResponse,
  fullRequest: full.fullRequest,
  fullResponse: full.fullResponse,
} as const;

export { mcqueryTypes, mcqueryRequestHeader, mcqueryResponseHeader, HANDSHAKE, STAT } from './header.ts';
export { statToken } from './basic.ts';
export { mcqueryMessages } from './messages.ts';
export { minecraftReplyShape, type MinecraftReplyShape } from './heuristic.ts';
export { MINECRAFT_REQUEST_NOT_SEEN, minecraftExperts, minecraftRequestNotSeen } from './expert.ts';
