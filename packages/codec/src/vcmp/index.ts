export { vcmpOpcodes, vcmpRequestHeader, vcmpResponseHeader } from './header.ts';
export { vcmpInfoRequest, vcmpInfoResponse } from './info.ts';
export { vcmpClientsRequest, vcmpClientsResponse } from './clients.ts';
export { vcmpPingRequest, vcmpPingResponse } from './ping.ts';
export { vcmpMessages } from './messages.ts';
