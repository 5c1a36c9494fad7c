/** SA:MP messages by opcode byte: the table a decoder dispatches on. */
import { infoRequest, infoResponse } from './info.ts';
import { rulesRequest, rulesResponse } from './rules.ts';
import { clientsRequest, clientsResponse } from './clients.ts';
import { playersRequest, playersResponse } from './players.ts';
import { pingRequest, pingResponse } from './ping.ts';
import { rconRequest, rconResponse } from './rcon.ts';
import { ompRequest, ompResponse, ompbannersResponse, ompechoRequest, ompechoResponse } from './omp.ts';

/** Request and response layouts of each current SA:MP message, keyed by opcode character. */
export const sampMessages = {
  i: { request: infoRequest, response: infoResponse },
  r: { request: rulesRequest, response: rulesResponse },
  c: { request: clientsRequest, response: clientsResponse },
  d: { request: playersRequest, response: playersResponse },
  // The reply is the request, byte for byte: only the conversation tells them apart.
  p: { request: pingRequest, response: pingResponse, symmetric: true },
  x: { request: rconRequest, response: rconResponse },
  o: { request: ompRequest, response: ompResponse },
} as const;

/**
 * Older forms of a message that share its opcode, told from it by which declaration the
 * lengths add up to (open.mp `o`: see omp.ts). Keyed by message name (the response's:
 * a form may share its request with the current one).
 */
export const sampOlderForms = {
  // v1.2 answers the same 11-byte request as today's servers.
  ompbanners: { request: ompRequest, response: ompbannersResponse },
  // Like `p`: the reply is the request, byte for byte.
  ompecho: { request: ompechoRequest, response: ompechoResponse, symmetric: true },
} as const;
