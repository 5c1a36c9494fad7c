export { sampHeader, sampOpcodes, queryHeader } from './header.ts';
export { infoRequest, infoResponse } from './info.ts';
export { rulesRequest, rulesResponse } from './rules.ts';
export { clientsRequest, clientsResponse } from './clients.ts';
export { playersRequest, playersResponse } from './players.ts';
export { pingRequest, pingResponse } from './ping.ts';
export { rconRequest, rconResponse } from './rcon.ts';
export { ompRequest, ompResponse } from './omp.ts';
export { sampMessages } from './messages.ts';
