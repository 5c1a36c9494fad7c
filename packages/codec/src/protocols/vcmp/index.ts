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

/** @deprecated Use `vcmp.infoRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const vcmpInfoRequest: typeof info.vcmpInfoRequest = info.vcmpInfoRequest;
/** @deprecated Use `vcmp.infoResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const vcmpInfoResponse: typeof info.vcmpInfoResponse = info.vcmpInfoResponse;
/** @deprecated Use `vcmp.clientsRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const vcmpClientsRequest: typeof clients.vcmpClientsRequest = clients.vcmpClientsRequest;
/** @deprecated Use `vcmp.clientsResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const vcmpClientsResponse: typeof clients.vcmpClientsResponse = clients.vcmpClientsResponse;
/** @deprecated Use `vcmp.pingRequest` (one naming scheme for every protocol); this name goes in the next release. */
export const vcmpPingRequest: typeof ping.vcmpPingRequest = ping.vcmpPingRequest;
/** @deprecated Use `vcmp.pingResponse` (one naming scheme for every protocol); this name goes in the next release. */
export const vcmpPingResponse: typeof ping.vcmpPingResponse = ping.vcmpPingResponse;

export { vcmpOpcodes, vcmpRequestHeader, vcmpResponseHeader } from './header.ts';
export { vcmpMessages } from './messages.ts';
