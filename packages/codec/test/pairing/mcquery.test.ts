import { describe, expect, it } from 'vitest';
import { valueFromJson, mcquery } from '@gamequery/codec';
import {
  answer,
  ask,
  captureVerdicts,
  mcServer as server,
  only,
  otherClient,
  pairAll,
  pairLive,
  pairSummaries,
  vector,
} from './helpers.ts';

const TOKEN = 9513307;
const hello = (sessionId: number) => mcquery.handshakeRequest.encode({ sessionId });
const token = (sessionId: number, t = TOKEN) => mcquery.handshakeResponse.encode({ sessionId, token: t });
const basic = (sessionId: number, t = TOKEN) => mcquery.basicRequest.encode({ sessionId, token: t });
const full = (sessionId: number, t = TOKEN) => mcquery.fullRequest.encode({ sessionId, token: t, padding: new Uint8Array(4) });
const basicReply = (sessionId: number) =>
  mcquery.basicResponse.encode({
    sessionId,
    motd: 'A Minecraft Server',
    gametype: 'SMP',
    map: 'world',
    numPlayers: 2,
    maxPlayers: 20,
    hostPort: 25565,
    hostIp: '127.0.0.1',
  });
const fullReply = (sessionId: number) =>
  mcquery.fullResponse.encode({
    ...valueFromJson(mcquery.fullResponse, {
      sessionId,
      splitnum: '73706c69746e756d008000',
      kv: [{ key: 'hostname', value: 'A Minecraft Server' }],
      players: ['Notch'],
    }),
  } as never);

describe('Minecraft query pairing', () => {
  it('pairs a handshake (real bytes) by type and session id', () => {
    const exchange = only(
      pairAll([
        ask('q', vector('mcquery/handshake-request.basic'), server, 0),
        answer('r', vector('mcquery/handshake-response.basic'), server, 7),
      ]),
      'exchange',
    );
    expect(exchange.responses[0]).toMatchObject({
      protocol: 'mcquery',
      direction: 'response',
      message: 'handshake',
      value: { token: TOKEN },
    });
  });

  it.each([
    ['basic', basic(1), basicReply(1)],
    ['full', full(1), fullReply(1)],
  ])('pairs a %s stat request with its reply, decoded as that message', (message, request, response) => {
    const exchange = only(pairAll([ask('q', request, server, 0), answer('r', response, server, 3)]), 'exchange');
    expect(exchange.responses[0]).toMatchObject({ message, direction: 'response' });
  });

  it('links a stat exchange to the handshake that issued its token', () => {
    const events = pairAll([
      ask('h', hello(1), server, 0),
      answer('t', token(1), server, 2),
      ask('s', full(1), server, 3),
      answer('f', fullReply(1), server, 6),
    ]);
    const [handshake, stat] = events;
    expect(stat).toMatchObject({ kind: 'exchange', request: { message: 'full' } });
    // The handshake is remembered as facts and its exchange rebuilt from them (its values
    // read again when asked for): the same datagrams and values, not the same objects.
    if (stat?.kind !== 'exchange' || handshake?.kind !== 'exchange') throw new Error('expected two exchanges');
    expect(stat.handshake).toMatchObject({
      kind: 'exchange',
      rtt: handshake.rtt,
      request: {
        message: 'handshake',
        direction: 'request',
        datagram: { meta: 'h', bytes: handshake.request.datagram.bytes },
        value: handshake.request.value,
      },
      responses: [
        {
          message: 'handshake',
          direction: 'response',
          datagram: { meta: 't', bytes: handshake.responses[0]!.datagram.bytes },
          value: handshake.responses[0]!.value,
        },
      ],
    });
    expect(handshake?.kind === 'exchange' && handshake.handshake).toBeUndefined();
  });

  it('does not link a token from another conversation, or one older than tokenLifetimeMs', () => {
    const other = pairAll([
      ask('h', hello(1), server, 0, otherClient),
      answer('t', token(1), server, 2, otherClient),
      ask('s', basic(1), server, 3),
      answer('b', basicReply(1), server, 4),
    ]);
    expect(other[1]).toMatchObject({ kind: 'exchange', request: { message: 'basic' } });
    expect(other[1]?.kind === 'exchange' && other[1].handshake).toBeUndefined();
    const stale = pairAll([
      ask('h', hello(1), server, 0),
      answer('t', token(1), server, 2),
      ask('s', basic(1), server, 31_000),
      answer('b', basicReply(1), server, 31_001),
    ]);
    expect(stale[1]?.kind === 'exchange' && stale[1].handshake).toBeUndefined();
  });

  it("accepts a vanilla stat reply that carries the handshake's session id", () => {
    const events = pairAll([
      ask('h', hello(0x01020304), server, 0),
      answer('t', token(0x01020304), server, 1),
      ask('s', basic(0x0a0b0c0d), server, 2),
      answer('b', basicReply(0x01020304), server, 3),
    ]);
    expect(events.map((e) => e.kind)).toEqual(['exchange', 'exchange']);
    expect(events[1]).toMatchObject({ request: { value: { sessionId: 0x0a0b0c0d } }, responses: [{ value: { sessionId: 0x01020304 } }] });
  });

  it("still accepts the stat request's own session id when a handshake is linked", () => {
    expect(
      pairSummaries([
        ask('h', hello(5), server, 0),
        answer('t', token(5), server, 1),
        ask('s', basic(6), server, 2),
        answer('b', basicReply(6), server, 3),
      ]),
    ).toEqual(['exchange h>t', 'exchange s>b']);
  });

  it("pairs Geyser's token and reports its second, full-stat reply to a handshake as unmatched (real bytes)", () => {
    const events = pairAll([
      ask('h', hello(1), server, 0),
      answer('t', token(1), server, 1),
      answer('extra', vector('mcquery/full-response.geyser-split-header'), server, 1),
    ]);
    expect(events.map((e) => e.kind)).toEqual(['exchange', 'unmatched']);
    expect(only(events, 'unmatched')).toMatchObject({
      reason: 'a stat reply (type 0x00) to a handshake request (Geyser answers a handshake with a token and then a full stat)',
      decoded: { message: 'full', value: { players: ['Bedrock Player'] } },
      request: { message: 'handshake' },
    });
  });

  it('reports a reply of the wrong type while the request is pending, and keeps waiting', () => {
    const events = pairAll([ask('h', hello(1), server, 0), answer('x', basicReply(1), server, 1), answer('t', token(1), server, 2)]);
    expect(events.map((e) => e.kind)).toEqual(['unmatched', 'exchange']);
    expect(only(events, 'unmatched').reason).toBe('a stat reply (type 0x00) to a handshake request');
  });

  it('pairs a full-stat body answering a basic request (Geyser sends no basic stat)', () => {
    const exchange = only(
      pairAll([ask('q', basic(1), server, 0), answer('r', vector('mcquery/full-response.geyser-split-header'), server, 2)]),
      'exchange',
    );
    expect(exchange.request.message).toBe('basic');
    expect(exchange.responses[0]?.message).toBe('full');
  });

  it('reports a clean Minecraft reply outside any conversation as unmatched, anything else as undecodable', () => {
    const events = pairAll([answer('r', basicReply(1), server, 0), answer('j', new Uint8Array([0, 1, 2, 3, 4, 0xff]), server, 1)]);
    expect(events.map((e) => e.kind)).toEqual(['unmatched', 'undecodable']);
    expect(only(events, 'unmatched')).toMatchObject({
      reason: 'no Minecraft query request pending in this conversation',
      cause: 'no-request',
      decoded: { message: 'basic' },
    });
    expect(only(events, 'undecodable').error).toMatchObject({ type: 'UnrecognizedPacketError' });
    expect(only(events, 'undecodable').error.message).toContain('carries no magic');
  });

  it('reports a reply that does not decode within its conversation as undecodable', () => {
    const events = pairAll([ask('h', hello(1), server, 0), answer('t', token(1).subarray(0, 7), server, 1)]);
    expect(events.map((e) => e.kind)).toEqual(['undecodable', 'unanswered']);
    expect(only(events, 'undecodable').error).toMatchObject({ type: 'TruncatedError', field: 'mcquery.handshake.token' });
  });

  it('gives a stat reply that does not decode to its request in a capture (the operator: undecodable)', () => {
    const cut = basicReply(1).subarray(0, 10);
    const datagrams = [ask('q', basic(1), server, 0), answer('r', cut, server, 1)];
    expect(pairLive(datagrams).map((e) => e.kind)).toEqual(['undecodable', 'unanswered']);
    expect(captureVerdicts(datagrams)).toEqual(['exchange q>r']);
    // Of another session: not its reply.
    const other = [ask('q', basic(1), server, 0), answer('r', basicReply(2).subarray(0, 10), server, 1)];
    expect(captureVerdicts(other)).toEqual(['unanswered q (no reply before the input ended)', 'undecodable r']);
  });

  it('reports a duplicated stat reply', () => {
    expect(
      pairSummaries([ask('q', basic(1), server, 0), answer('r', basicReply(1), server, 1), answer('r2', basicReply(1), server, 2)]),
    ).toEqual(['exchange q>r', 'duplicate r2=r@q']);
  });

  it('explains a stat request that timed out, but not one the input ended before', () => {
    expect(pairAll([ask('q', basic(1), server, 0), ask('later', hello(2), server, 1500)])[0]).toMatchObject({
      kind: 'unanswered',
      reason: 'no reply (wrong or expired challenge token)',
    });
    expect(pairAll([ask('q', basic(1), server, 0)])[0]).toMatchObject({ kind: 'unanswered', reason: 'no reply before the input ended' });
  });
});
