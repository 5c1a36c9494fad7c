/** Minecraft query messages. Responses carry no magic: see `decodePacket`. */
import { handshakeRequest, handshakeResponse } from './handshake.ts';
import { basicRequest, basicResponse } from './basic.ts';
import { fullRequest, fullResponse } from './full.ts';

/** Minecraft query's layouts by message name, each with its request and response. */
export const mcqueryMessages = {
  handshake: { request: handshakeRequest, response: handshakeResponse },
  basic: { request: basicRequest, response: basicResponse },
  full: { request: fullRequest, response: fullResponse },
} as const;
