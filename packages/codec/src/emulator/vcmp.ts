/**
 * VC:MP 0.4 query server (VCWIKI, VCB). Requests start `VCMP`,
 * replies `MP04` followed by the request's bytes 4–10.
 *
 * Unconfirmed by any capture, so chosen and stated here: `i` and
 * `c` are answered at any length ≥ 11 (the SA-MP lineage), `p` only at exactly 15 with
 * its 4 nonce bytes echoed behind the `MP04` header, and `c` is withheld above 100
 * players like SA:MP's (what OGSQ and gamedig assume).
 */
import { vcmpInfoRequest, vcmpInfoResponse } from '../protocols/vcmp/info.ts';
import { vcmpClientsRequest, vcmpClientsResponse } from '../protocols/vcmp/clients.ts';
import { vcmpPingRequest, vcmpPingResponse } from '../protocols/vcmp/ping.ts';
import type { ResolvedVcmp } from './state.ts';
import { BYTES, wireText } from './text.ts';
import { MAX_LISTED_PLAYERS } from './samp.ts';
import { atLeast, exactly, respondByOpcode, type AnyRequest, type Opcode, type QueryHeader, type Responder } from './responder.ts';

function info(s: ResolvedVcmp, _request: AnyRequest, header: QueryHeader): Uint8Array[] {
  return [
    vcmpInfoResponse.encode(
      {
        ...header,
        version: s.version,
        password: s.password,
        players: s.players.length,
        maxPlayers: s.maxPlayers,
        hostname: wireText(s.hostname, s.charset),
        gamemode: wireText(s.gamemode, s.charset),
        map: wireText(s.map, s.charset),
      },
      BYTES,
    ),
  ];
}

function clients(s: ResolvedVcmp, _request: AnyRequest, header: QueryHeader): Uint8Array[] {
  if (s.players.length > MAX_LISTED_PLAYERS) return [];
  // Names only: "scores are no longer included" (VCWIKI).
  return [vcmpClientsResponse.encode({ ...header, clients: s.players.map((p) => ({ name: wireText(p.name, s.charset) })) }, BYTES)];
}

function ping(_s: ResolvedVcmp, request: AnyRequest, header: QueryHeader): Uint8Array[] {
  return [vcmpPingResponse.encode({ ...header, nonce: (request.value as { nonce: number }).nonce }, BYTES)];
}

/** The opcodes a VC:MP 0.4 server answers (`i`, `c`, `p`): each one's request layout, accepted lengths and reply. */
export const vcmpOpcodes: Readonly<Record<string, Opcode<ResolvedVcmp>>> = {
  i: { request: vcmpInfoRequest, accepts: atLeast(11), reply: info },
  c: { request: vcmpClientsRequest, accepts: atLeast(11), reply: clients },
  p: { request: vcmpPingRequest, accepts: exactly(15), reply: ping },
};

/** A VC:MP 0.4 server answering from `state`. */
export function vcmpResponder(state: ResolvedVcmp): Responder {
  return {
    respond: (datagram) => respondByOpcode('vcmp', vcmpOpcodes, state, datagram, () => false),
    close() {},
  };
}
