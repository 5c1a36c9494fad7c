/** SA:MP messages by opcode byte: the table a decoder dispatches on. */
import { infoRequest, infoResponse } from './info.ts';
import { rulesRequest, rulesResponse } from './rules.ts';
import { clientsRequest, clientsResponse } from './clients.ts';
import { playersRequest, playersResponse } from './players.ts';
import { pingRequest, pingResponse } from './ping.ts';
import { rconRequest, rconResponse } from './rcon.ts';
import { ompRequest, ompResponse } from './omp.ts';

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
