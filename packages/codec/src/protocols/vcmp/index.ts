/** VC:MP 0.4: the layouts by message, the headers and the opcode table. */
import * as info from './info.ts';
import * as clients from './clients.ts';
import * as ping from './ping.ts';

/**
 * Every VC:MP layout, named `<message><Direction>`: `vcmp.infoResponse`. The same scheme in every
 * protocol (`samp.infoResponse`, `vcmp.infoResponse`, `mcquery.fullResponse`); the id of each is `vcmp.<message>.<direction>`.
 */
export const vcmp = {
  infoRequest: info.vcmpInfoRequest,
  infoResponse: info.vcmpInfoResponse,
  clientsRequest: clients.vcmpClientsRequest,
  clientsResponse: clients.vcmpClientsResponse,
  pingRequest: ping.vcmpPingRequest,
  pingResponse: ping.vcmpPingResponse,
} as const;

export { vcmpOpcodes, vcmpRequestHeader, vcmpResponseHeader } from './header.ts';
export { vcmpMessages } from './messages.ts';
