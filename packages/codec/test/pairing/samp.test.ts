import { describe, expect, it } from 'vitest';
import { toHex, samp } from '@gamequery/codec';
import {
  pairLive,
  captureVerdicts,
  answer,
  ask,
  client,
  only,
  otherClient,
  pairAll,
  pairSummaries,
  sampServer as server,
  summary,
  vector,
  sampAt,
  sampInfo,
} from './helpers.ts';

const at = sampAt;
const info = sampInfo;
const ping = (nonce: number) => samp.pingRequest.encode({ ...at, nonce });

describe('SA:MP pairing', () => {
  it.each([
    ['info', samp.infoRequest.encode(at), info],
    ['rules', samp.rulesRequest.encode(at), samp.rulesResponse.encode({ ...at, rules: [{ name: 'lagcomp', value: 'On' }] })],
    ['clients', samp.clientsRequest.encode(at), samp.clientsResponse.encode({ ...at, clients: [{ name: 'Tommy', score: -3 }] })],
    [
      'players',
      samp.playersRequest.encode(at),
      samp.playersResponse.encode({ ...at, players: [{ id: 1, name: 'Tommy', score: 5, ping: 40 }] }),
    ],
    [
      'omp',
      samp.ompRequest.encode(at),
      samp.ompResponse.encode({ ...at, discord: 'discord.gg/x', bannerLight: '', bannerDark: '', logo: '' }),
    ],
    ['ping', ping(0x12345678), ping(0x12345678)],
    ['rcon', samp.rconRequest.encode({ ...at, password: 'pw', command: 'echo hi' }), samp.rconResponse.encode({ ...at, output: 'hi' })],
  ])('pairs a %s request with its reply, rtt from the datagram times', (message, request, response) => {
    const events = pairAll([ask('q', request, server, 0), answer('r', response, server, 42.5)]);
    const exchange = only(events, 'exchange');
    expect(events).toHaveLength(1);
    expect(exchange.rtt).toBe(42_500_000n);
    expect(exchange.request).toMatchObject({ protocol: 'samp', direction: 'request', message });
    expect(exchange.responses[0]).toMatchObject({ protocol: 'samp', direction: 'response', message });
    expect(exchange.responses[0]!.packet.direction).toBe('response');
  });

  it('pairs pings by nonce, whatever order the replies come in', () => {
    expect(
      pairSummaries([
        ask('q1', ping(1), server, 0),
        ask('q2', ping(2), server, 1),
        answer('r2', ping(2), server, 5),
        answer('r1', ping(1), server, 6),
      ]),
    ).toEqual(['exchange q2>r2', 'exchange q1>r1']);
  });

  it('reads a ping as a request when no ping with its nonce is pending the other way', () => {
    const events = pairAll([ask('q1', ping(1), server, 0), answer('x', ping(7), server, 5)]);
    // The server "pinging" the client is a request too: both wait, then time out at the end.
    expect(events.map((e) => e.kind)).toEqual(['unanswered', 'unanswered']);
    expect(events.map((e) => e.kind === 'unanswered' && e.request.direction)).toEqual(['request', 'request']);
  });

  it('pairs two identical pending requests first in, first out', () => {
    expect(
      pairSummaries([
        ask('q1', samp.infoRequest.encode(at), server, 0),
        ask('q2', samp.infoRequest.encode(at), server, 10),
        answer('r1', info, server, 20),
        answer('r2', info, server, 30),
      ]),
    ).toEqual(['exchange q1>r1', 'exchange q2>r2']);
  });

  it('pairs reordered replies to different opcodes', () => {
    const rules = samp.rulesResponse.encode({ ...at, rules: [] });
    expect(
      pairSummaries([
        ask('qi', samp.infoRequest.encode(at), server, 0),
        ask('qr', samp.rulesRequest.encode(at), server, 1),
        answer('rr', rules, server, 10),
        answer('ri', info, server, 11),
      ]),
    ).toEqual(['exchange qr>rr', 'exchange qi>ri']);
  });

  it('keeps conversations of different clients apart', () => {
    expect(
      pairSummaries([
        ask('a', samp.infoRequest.encode(at), server, 0, client),
        ask('b', samp.infoRequest.encode(at), server, 0, otherClient),
        answer('rb', info, server, 5, otherClient),
        answer('ra', info, server, 6, client),
      ]),
    ).toEqual(['exchange b>rb', 'exchange a>ra']);
  });

  it('does not pair a reply from another address than the request went to', () => {
    const elsewhere = { address: '127.0.0.2', port: 7777 };
    const events = pairAll([ask('q', samp.infoRequest.encode(at), server, 0), answer('r', info, elsewhere, 5)]);
    expect(events.map((e) => e.kind)).toEqual(['unmatched', 'unanswered']);
    const unmatched = only(events, 'unmatched');
    expect(unmatched.reason).toBe('reply from 127.0.0.2:7777, but the request went to 127.0.0.1:7777');
    expect(unmatched.request?.datagram.meta).toBe('q');
    expect(unmatched.decoded?.message).toBe('info');
  });

  it('reports a byte-identical second reply as a duplicate of the first', () => {
    const events = pairAll([ask('q', samp.infoRequest.encode(at), server, 0), answer('r', info, server, 5), answer('r2', info, server, 6)]);
    expect(events.map((e) => e.kind)).toEqual(['exchange', 'duplicate']);
    const dup = only(events, 'duplicate');
    expect([dup.of.datagram.meta, dup.original.datagram.meta, dup.response.message]).toEqual(['q', 'r', 'info']);
  });

  it('reports a different second reply as unmatched, naming the request it followed', () => {
    const other = samp.infoResponse.encode({
      ...at,
      password: false,
      players: 4,
      maxPlayers: 50,
      hostname: 'Test',
      gamemode: 'DM',
      language: 'EN',
    });
    const events = pairAll([
      ask('q', samp.infoRequest.encode(at), server, 0),
      answer('r', info, server, 5),
      answer('r2', other, server, 6),
    ]);
    expect(only(events, 'unmatched')).toMatchObject({
      reason: 'another, different reply to a request already answered',
      cause: 'extra',
      request: { message: 'info' },
    });
  });

  it('reports a reply before any request as unmatched', () => {
    const events = pairAll([answer('r', info, server, 0), ask('q', samp.infoRequest.encode(at), server, 1)]);
    expect(events.map((e) => e.kind)).toEqual(['unmatched', 'unanswered']);
    expect(only(events, 'unmatched')).toMatchObject({ reason: 'no pending request for this reply', decoded: { message: 'info' } });
  });

  it('explains a silent client list request with the >100 players rule', () => {
    const events = pairAll([ask('q', samp.clientsRequest.encode(at), server, 0), ask('next', samp.infoRequest.encode(at), server, 1500)]);
    expect(events[0]).toMatchObject({ kind: 'unanswered', reason: 'no reply (>100 players, open.mp `d`, or throttled)' });
    expect(
      pairAll([ask('q', samp.playersRequest.encode(at), server, 0), ask('next', samp.infoRequest.encode(at), server, 1500)])[0],
    ).toMatchObject({
      reason: 'no reply (>100 players, open.mp `d`, or throttled)',
    });
    // Input that ends before the timeout proves nothing about the server.
    expect(pairAll([ask('q', samp.playersRequest.encode(at), server, 0)])[0]).toMatchObject({ reason: 'no reply before the input ended' });
  });

  it('gives a generic reason for other silent requests', () => {
    const events = pairAll([
      ask('q', samp.infoRequest.encode(at), server, 0),
      ask('q2', samp.infoRequest.encode(at), server, 1001),
      ask('q3', samp.rulesRequest.encode(at), server, 1002),
    ]);
    expect(events.map((e) => e.kind === 'unanswered' && e.reason)).toEqual([
      'no reply within 1000 ms',
      'no reply before the input ended',
      'no reply before the input ended',
    ]);
  });

  it('reports a reply after the timeout as unanswered, then a late unmatched reply', () => {
    const events = pairAll([ask('q', samp.infoRequest.encode(at), server, 0), answer('r', info, server, 1200)]);
    expect(events.map((e) => e.kind)).toEqual(['unanswered', 'unmatched']);
    expect(only(events, 'unmatched')).toMatchObject({
      reason: 'late reply, 1200 ms after the request (timeout 1000 ms)',
      cause: 'late',
      request: { message: 'info' },
    });
  });

  it('accepts a reply exactly at the deadline', () => {
    expect(pairSummaries([ask('q', samp.infoRequest.encode(at), server, 0), answer('r', info, server, 1000)])).toEqual(['exchange q>r']);
  });

  it('reads a late ping reply as a late reply, not as a new request', () => {
    const events = pairAll([ask('q', ping(9), server, 0), answer('r', ping(9), server, 1500)]);
    expect(events.map((e) => e.kind)).toEqual(['unanswered', 'unmatched']);
    expect(only(events, 'unmatched').decoded?.direction).toBe('response');
  });
});

describe('SA:MP identical requests', () => {
  const reply = (players: number) =>
    samp.infoResponse.encode({ ...at, password: false, players, maxPlayers: 10, hostname: 'h', gamemode: 'g', language: 'l' });

  it('marks two identical requests from one socket, pending at once, as ambiguous, and pairs them first come, first served', () => {
    const events = pairAll([
      ask('q1', samp.infoRequest.encode(at), server, 0),
      ask('q2', samp.infoRequest.encode(at), server, 1),
      answer('r1', reply(1), server, 2),
      answer('r2', reply(2), server, 3),
    ]);
    expect(events.map(summary)).toEqual(['exchange q1>r1', 'exchange q2>r2']);
    expect(events.map((e) => e.kind === 'exchange' && e.ambiguous)).toEqual([true, true]);
  });

  it('does not mark the same request from two sockets, or one sent after the first was answered', () => {
    const events = pairAll([
      ask('mine', samp.infoRequest.encode(at), server, 0),
      ask('theirs', samp.infoRequest.encode(at), server, 1, otherClient),
      answer('r1', reply(1), server, 2),
      answer('r2', reply(2), server, 3, otherClient),
      ask('again', samp.infoRequest.encode(at), server, 4),
      answer('r3', reply(3), server, 5),
    ]);
    expect(events.map(summary)).toEqual(['exchange mine>r1', 'exchange theirs>r2', 'exchange again>r3']);
    expect(events.some((e) => e.kind === 'exchange' && e.ambiguous)).toBe(false);
  });

  it('marks the one left unanswered too', () => {
    const events = pairAll([
      ask('q1', samp.infoRequest.encode(at), server, 0),
      ask('q2', samp.infoRequest.encode(at), server, 1),
      answer('r1', reply(1), server, 2),
    ]);
    expect(events.map(summary)).toEqual(['exchange q1>r1', 'unanswered q2']);
    expect(events.map((e) => (e.kind === 'exchange' || e.kind === 'unanswered') && e.ambiguous)).toEqual([true, true]);
  });
});

describe('SA:MP RCON', () => {
  const command = samp.rconRequest.encode({ ...at, password: 'secret', command: 'players' });
  const line = (text: string) => samp.rconResponse.encode({ ...at, output: text });

  it('collects every line until the quiet period, then reports one exchange', () => {
    const events = pairAll([
      ask('q', command, server, 0),
      answer('l1', line('ID Name Ping IP'), server, 30),
      answer('l2', line('0 Tommy 40 1.2.3.4'), server, 31),
      answer('l3', line('1 Lance 55 5.6.7.8'), server, 400),
      ask('later', samp.infoRequest.encode(at), server, 901),
    ]);
    expect(events[0]).toMatchObject({ kind: 'exchange', rtt: 30_000_000n });
    expect(events.map((e) => (e.kind === 'exchange' ? e.responses.map((r) => r.value['output']) : e.kind))[0]).toEqual([
      'ID Name Ping IP',
      '0 Tommy 40 1.2.3.4',
      '1 Lance 55 5.6.7.8',
    ]);
  });

  it('keeps collecting while a line arrives exactly at the end of the quiet period', () => {
    expect(
      pairSummaries([
        ask('q', command, server, 0),
        answer('l1', line('a'), server, 10),
        answer('l2', line('b'), server, 510),
        ask('later', samp.infoRequest.encode(at), server, 1011),
      ]),
    ).toEqual(['exchange q>l1+l2', 'unanswered later']);
  });

  it('reports a line after the quiet period as unmatched', () => {
    const events = pairAll([ask('q', command, server, 0), answer('l1', line('a'), server, 10), answer('l2', line('b'), server, 600)]);
    expect(events.map((e) => e.kind)).toEqual(['exchange', 'unmatched']);
    expect(only(events, 'unmatched')).toMatchObject({
      reason: 'RCON line after the exchange closed (500 ms of silence)',
      cause: 'rcon-closed',
    });
  });

  it('reports the single "Invalid RCON password." line (real bytes) when the input ends', () => {
    const events = pairAll([
      ask('q', vector('samp/rcon-request.basic'), server, 0),
      answer('l', vector('samp/rcon-response.invalid-password'), server, 2),
    ]);
    const exchange = only(events, 'exchange');
    expect(exchange.responses.map((r) => r.value['output'])).toEqual(['Invalid RCON password.']);
    expect(exchange.request.value).toMatchObject({ password: 'wrong', command: 'players' });
  });

  it('follows rconQuietMs', () => {
    expect(
      pairSummaries([ask('q', command, server, 0), answer('l1', line('a'), server, 10), answer('l2', line('b'), server, 200)], {
        rconQuietMs: 100,
      }),
    ).toEqual(['exchange q>l1', 'unmatched l2']);
  });

  it('gives the lines after a newer command from the same socket to that command, not to the one before', () => {
    // An admin tool: `players`, its lines, then `kick 3` 2 ms later, well inside the quiet period.
    const kick = samp.rconRequest.encode({ ...at, password: 'secret', command: 'kick 3' });
    expect(
      pairSummaries([
        ask('players', command, server, 0),
        answer('p1', line('ID Name'), server, 1),
        answer('p2', line('0 Tommy'), server, 1.2),
        ask('kick', kick, server, 3.2),
        answer('k1', line('Tommy has been kicked.'), server, 3.6),
        ask('again', command, server, 4),
        answer('a1', line('ID Name'), server, 4.5),
      ]),
    ).toEqual(['exchange players>p1+p2', 'exchange kick>k1', 'exchange again>a1']);
  });

  it('gives the lines after a newer command to it even when the older has none yet (the newest first)', () => {
    // `gmx` prints nothing; the admin tool sends `players` 0.1 ms later: a line names no command,
    // and the ones that follow a newer command from the same socket are the newer one's.
    const gmx = samp.rconRequest.encode({ ...at, password: 'secret', command: 'gmx' });
    const events = pairAll([
      ask('gmx', gmx, server, 0),
      ask('players', command, server, 0.1),
      answer('p1', line('ID Name'), server, 0.6),
      answer('p2', line('0 Tommy'), server, 0.7),
    ]);
    expect(events.map(summary)).toEqual(['unanswered gmx', 'exchange players>p1+p2']);
    expect(only(events, 'unanswered').reason).toBe(
      "no reply before the next command from the same client (the lines that follow are the newer command's)",
    );
  });

  it('does not give a later command on a reused port the lines of one superseded before it', () => {
    // The 0.1 ms interleaving, then the same command from the same port 2.3 s later: its
    // reply is its own (RTT 0.4 ms), not a 2.3 s "reply" to the command superseded before.
    const events = pairAll([
      ask('gmx', samp.rconRequest.encode({ ...at, password: 'secret', command: 'gmx' }), server, 0),
      ask('players', command, server, 0.1),
      answer('p1', line('ID Name'), server, 0.6),
      ask('players again', command, server, 2300),
      answer('q1', line('ID Name'), server, 2300.4),
    ]);
    expect(events.map(summary)).toEqual(['unanswered gmx', 'exchange players>p1', 'exchange players again>q1']);
    expect(events.filter((e) => e.kind === 'exchange').map((e) => e.kind === 'exchange' && e.rtt)).toEqual([500_000n, 400_000n]);
  });

  it('keeps the commands of other sockets apart', () => {
    expect(
      pairSummaries([
        ask('mine', command, server, 0),
        ask('theirs', command, server, 0.5, otherClient),
        answer('m1', line('a'), server, 1),
        answer('t1', line('b'), server, 1.1, otherClient),
        answer('m2', line('c'), server, 1.2),
      ]),
    ).toEqual(['exchange mine>m1+m2', 'exchange theirs>t1']);
  });

  it('reports a silent RCON request with the reasons RCON stays silent', () => {
    expect(pairAll([ask('q', command, server, 0), ask('next', samp.infoRequest.encode(at), server, 1500)])[0]).toMatchObject({
      kind: 'unanswered',
      reason: 'no reply (RCON or query disabled, or a malformed request)',
    });
  });
});

describe('SA:MP undecodable datagrams', () => {
  it('reports junk with the codec error as JSON', () => {
    const events = pairAll([ask('j', new Uint8Array([0xde, 0xad, 0xbe, 0xef]), server, 0)]);
    expect(only(events, 'undecodable').error).toEqual({
      type: 'UnrecognizedPacketError',
      message: 'no SA:MP, VC:MP or Minecraft query signature (starts de ad be ef)',
      layout: '',
      field: '',
      offset: 0,
    });
  });

  it('reports a SA:MP reply that does not decode; a capture pairs it with the request its header names', () => {
    const truncated = info.subarray(0, 22);
    const datagrams = [ask('q', samp.infoRequest.encode(at), server, 0), answer('r', truncated, server, 1)];
    const events = pairLive(datagrams);
    expect(events.map((e) => e.kind)).toEqual(['undecodable', 'unanswered']);
    expect(only(events, 'undecodable').error).toMatchObject({ type: 'TruncatedError', field: 'samp.info.hostname', offset: 20 });
    expect(toHex(only(events, 'undecodable').datagram.bytes)).toBe(toHex(truncated));
    // The operator has no value to give for it; a dissector shows it as the request's answer, malformed.
    expect(captureVerdicts(datagrams)).toEqual(['exchange q>r']);
    // Not one its header does not name: a reply to another server's request stays undecodable.
    const elsewhere = [ask('q', samp.infoRequest.encode(at), server, 0), answer('r', truncated, { ...server, port: 7778 }, 1)];
    expect(captureVerdicts(elsewhere)).toEqual(['unanswered q (no reply before the input ended)', 'undecodable r']);
  });
});
