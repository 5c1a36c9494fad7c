export { mcqueryTypes, mcqueryRequestHeader, mcqueryResponseHeader, HANDSHAKE, STAT } from './header.ts';
export { handshakeRequest, handshakeResponse } from './handshake.ts';
export { basicRequest, basicResponse, statToken } from './basic.ts';
export { fullRequest, fullResponse } from './full.ts';
export { mcqueryMessages } from './messages.ts';
