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

/** @deprecated Use `samp.infoRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const infoRequest: typeof info.infoRequest = info.infoRequest;
/** @deprecated Use `samp.infoResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const infoResponse: typeof info.infoResponse = info.infoResponse;
/** @deprecated Use `samp.rulesRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const rulesRequest: typeof rules.rulesRequest = rules.rulesRequest;
/** @deprecated Use `samp.rulesResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const rulesResponse: typeof rules.rulesResponse = rules.rulesResponse;
/** @deprecated Use `samp.clientsRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const clientsRequest: typeof clients.clientsRequest = clients.clientsRequest;
/** @deprecated Use `samp.clientsResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const clientsResponse: typeof clients.clientsResponse = clients.clientsResponse;
/** @deprecated Use `samp.playersRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const playersRequest: typeof players.playersRequest = players.playersRequest;
/** @deprecated Use `samp.playersResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const playersResponse: typeof players.playersResponse = players.playersResponse;
/** @deprecated Use `samp.pingRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const pingRequest: typeof ping.pingRequest = ping.pingRequest;
/** @deprecated Use `samp.pingResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const pingResponse: typeof ping.pingResponse = ping.pingResponse;
/** @deprecated Use `samp.rconRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const rconRequest: typeof rcon.rconRequest = rcon.rconRequest;
/** @deprecated Use `samp.rconResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const rconResponse: typeof rcon.rconResponse = rcon.rconResponse;
/** @deprecated Use `samp.ompRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const ompRequest: typeof omp.ompRequest = omp.ompRequest;
/** @deprecated Use `samp.ompResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const ompResponse: typeof omp.ompResponse = omp.ompResponse;

export { sampHeader, sampOpcodes, queryHeader } from './header.ts';
export { sampMessages, sampOlderForms } from './messages.ts';
export { ompForms, ompFormOf, ompVersionOf, OMP_LOGO_CUT, ompExperts, ompLogoCut, type OmpForm, type OmpFormFacts } from './omp.ts';
export { rconSecrets, maskSecrets, SETS_PASSWORD, INVALID_RCON_PASSWORD } from './rcon.ts';
