/** SA:MP / open.mp: the layouts by message, the header and the opcode table. */
import * as info from './info.ts';
import * as rules from './rules.ts';
import * as clients from './clients.ts';
import * as players from './players.ts';
import * as ping from './ping.ts';
import * as rcon from './rcon.ts';
import * as omp from './omp.ts';

/**
 * Every SA:MP layout, named `<message><Direction>`: `samp.infoResponse`. The same scheme in every
 * protocol (`samp.infoResponse`, `vcmp.infoResponse`, `mcquery.fullResponse`); the id of each is `samp.<message>.<direction>`.
 */
export const samp = {
  infoRequest: info.infoRequest,
  infoResponse: info.infoResponse,
  rulesRequest: rules.rulesRequest,
  rulesResponse: rules.rulesResponse,
  clientsRequest: clients.clientsRequest,
  clientsResponse: clients.clientsResponse,
  playersRequest: players.playersRequest,
  playersResponse: players.playersResponse,
  pingRequest: ping.pingRequest,
  pingResponse: ping.pingResponse,
  rconRequest: rcon.rconRequest,
  rconResponse: rcon.rconResponse,
  ompRequest: omp.ompRequest,
  ompResponse: omp.ompResponse,
  ompbannersResponse: omp.ompbannersResponse,
  ompechoRequest: omp.ompechoRequest,
  ompechoResponse: omp.ompechoResponse,
} as const;

export { sampHeader, sampOpcodes, queryHeader } from './header.ts';
export { sampMessages, sampOlderForms } from './messages.ts';
export { ompForms, ompFormOf, ompVersionOf, OMP_LOGO_CUT, ompExperts, ompLogoCut, type OmpForm, type OmpFormFacts } from './omp.ts';
export { rconSecrets, maskSecrets, SETS_PASSWORD, INVALID_RCON_PASSWORD } from './rcon.ts';
