/** VC:MP messages by opcode byte. */
import { vcmpInfoRequest, vcmpInfoResponse } from './info.ts';
import { vcmpClientsRequest, vcmpClientsResponse } from './clients.ts';
import { vcmpPingRequest, vcmpPingResponse } from './ping.ts';

/** VC:MP's layouts by opcode letter, each with its request and response. */
export const vcmpMessages = {
  i: { request: vcmpInfoRequest, response: vcmpInfoResponse },
  c: { request: vcmpClientsRequest, response: vcmpClientsResponse },
  p: { request: vcmpPingRequest, response: vcmpPingResponse },
} as const;
