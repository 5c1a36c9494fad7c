import { describe, expect, it } from 'vitest';
import { vcmp } from '@gamequery/codec';
import { answer, ask, only, pairAll, pairSummaries, vcmpServer as server, vector } from './helpers.ts';

const at = { serverIp: '127.0.0.1', serverPort: 8192 };

describe('VC:MP pairing', () => {
  it.each([
    ['info', vector('vcmp/info-request.basic'), vector('vcmp/info-response.basic')],
    ['clients', vector('vcmp/clients-request.basic'), vector('vcmp/clients-response.basic')],
    ['ping', vector('vcmp/ping-request.basic'), vector('vcmp/ping-response.basic')],
  ])('pairs a %s request (VCMP) with its reply (MP04), real bytes', (message, request, response) => {
    const exchange = only(pairAll([ask('q', request, server, 0), answer('r', response, server, 3)]), 'exchange');
    expect(exchange.request).toMatchObject({ protocol: 'vcmp', direction: 'request', message });
    expect(exchange.responses[0]).toMatchObject({ protocol: 'vcmp', direction: 'response', message });
    expect(exchange.rtt).toBe(3_000_000n);
  });

  it('compares the echoed bytes 4–10, not the magic', () => {
    // Same address and port, different opcode: a clients reply does not answer an info request.
    const clients = vcmp.clientsResponse.encode({ ...at, clients: [] });
    expect(
      pairSummaries([
        ask('qi', vcmp.infoRequest.encode(at), server, 0),
        ask('qc', vcmp.clientsRequest.encode(at), server, 0),
        answer('rc', clients, server, 5),
      ]),
    ).toEqual(['exchange qc>rc', 'unanswered qi']);
  });

  it('pairs pings by nonce', () => {
    const req = (nonce: number) => vcmp.pingRequest.encode({ ...at, nonce });
    const res = (nonce: number) => vcmp.pingResponse.encode({ ...at, nonce });
    expect(
      pairSummaries([
        ask('q1', req(1), server, 0),
        ask('q2', req(2), server, 0),
        answer('r2', res(2), server, 4),
        answer('r1', res(1), server, 5),
      ]),
    ).toEqual(['exchange q2>r2', 'exchange q1>r1']);
  });

  it('does not pair a VC:MP reply with a SA:MP request of the same header', () => {
    const sampInfo = new Uint8Array([...new TextEncoder().encode('SAMP'), ...vector('vcmp/info-request.basic').subarray(4)]);
    const events = pairAll([ask('q', sampInfo, server, 0), answer('r', vector('vcmp/info-response.basic'), server, 1)]);
    expect(events.map((e) => e.kind)).toEqual(['unmatched', 'unanswered']);
  });
});
