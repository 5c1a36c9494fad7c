/**
 * A protocol declared outside the codec pairs like a built-in one: TinyQ (the fixture of
 * test/protocols/fixture-protocol.test.ts) declares an echo key (its replies echo the opcode,
 * `bye`'s the token too), and the live pairer and the capture pairer, given it among the
 * protocols they know, pair its requests with their replies by that declaration alone.
 */
import { describe, expect, it } from 'vitest';
import { firstValueFrom, from, toArray } from 'rxjs';
import { QueryPairer, type Datagram, type PairingEvent } from '@gamequery/codec/pairing';
import { pairQueries } from '@gamequery/codec/rx';
import { builtInProtocols, fromHex } from '@gamequery/codec';
import { CapturePairer, DECODED, Endpoints, RESPONSE, Why, kindOf, layoutAt, layoutOf, whyOf } from '@gamequery/codec/internal';
import { tinyqMessages, tinyqProtocol } from '../fixtures/protocols/tinyq/protocol.ts';

const protocols = [...builtInProtocols, tinyqProtocol];

// `bye` with token 42, and its reply "server closed" (fixture-protocol.test.ts).
const bye = fromHex('544e5951622a000000');
const byeReply = fromHex('544e5951622a0000000d73657276657220636c6f736564');
// The reply to a `bye` with token 43.
const otherReply = fromHex('544e5951622b0000000d73657276657220636c6f736564');
// `status`, and its reply "home", 3 players.
const status = fromHex('544e595173');
const statusReply = fromHex('544e59517304686f6d650300');
// A SA:MP `i` request and its reply (test-vectors: samp info), to show the built-in ones pair as before.
const sampInfo = fromHex('53414d507f0000016111' + '69');

const client = { address: '192.0.2.1', port: 50000 };
const server = { address: '192.0.2.2', port: 4999 };
const ms = (n: number): bigint => BigInt(n) * 1_000_000n;
const ask = (bytes: Uint8Array, at: number): Datagram => ({ bytes, from: client, to: server, time: ms(at) });
const answer = (bytes: Uint8Array, at: number): Datagram => ({ bytes, from: server, to: client, time: ms(at) });

const run = <P extends string>(pairer: QueryPairer<unknown, P>, datagrams: readonly Datagram[]): PairingEvent<unknown, P>[] => [
  ...datagrams.flatMap((d) => pairer.receive(d)),
  ...pairer.flush(),
];

describe('a declared protocol, paired live (QueryPairer)', () => {
  it('pairs a request with the reply that echoes it, by its declared key', () => {
    const events = run(new QueryPairer({ protocols }), [ask(bye, 0), answer(otherReply, 1), answer(byeReply, 2)]);
    expect(events.map((e) => e.kind)).toEqual(['unmatched', 'exchange']);
    const [unmatched, exchange] = events;
    expect(unmatched).toMatchObject({ kind: 'unmatched', cause: 'no-request', decoded: { protocol: 'tinyq', message: 'bye' } });
    expect(exchange).toMatchObject({
      kind: 'exchange',
      rtt: ms(2),
      request: { protocol: 'tinyq', direction: 'request', message: 'bye', value: { token: 42 } },
      responses: [{ protocol: 'tinyq', direction: 'response', message: 'bye', value: { token: 42, reason: 'server closed' } }],
    });
    expect(exchange!.kind === 'exchange' && exchange!.responses[0]!.packet.layout).toBe(tinyqMessages.bye.response);
  });

  it('pairs each message by its own echo, and leaves a request its reply never came for unanswered', () => {
    const events = run(new QueryPairer({ protocols, timeoutMs: 100 }), [ask(status, 0), ask(bye, 1), answer(statusReply, 2)]);
    expect(events.map((e) => [e.kind, 'request' in e ? e.request?.message : undefined])).toEqual([
      ['exchange', 'status'],
      ['unanswered', 'bye'],
    ]);
  });

  it('pairs the built-in protocols beside it as before', () => {
    const sampServer = { address: '127.0.0.1', port: 7777 };
    const d = { bytes: sampInfo, from: client, to: sampServer, time: 0n };
    expect(run(new QueryPairer({ protocols }), [d]).map((e) => [e.kind, 'request' in e ? e.request?.protocol : undefined])).toEqual(
      run(new QueryPairer(), [d]).map((e) => [e.kind, 'request' in e ? e.request?.protocol : undefined]),
    );
  });

  it('pairs through the RxJS operator given it among its protocols', async () => {
    const events = await firstValueFrom(from([ask(bye, 0), answer(byeReply, 2)]).pipe(pairQueries({ protocols }), toArray()));
    expect(events.map((e) => [e.kind, 'request' in e ? e.request?.protocol : undefined])).toEqual([['exchange', 'tinyq']]);
  });

  it('is no query message to a pairer that does not know it (the default: the built-in protocols)', () => {
    const events = run(new QueryPairer(), [ask(bye, 0), answer(byeReply, 1)]);
    expect(events.map((e) => e.kind)).toEqual(['undecodable', 'undecodable']);
    expect(events[0]!.kind === 'undecodable' && events[0]!.error.message).toMatch(/^no SA:MP, VC:MP or Minecraft query signature/);
  });
});

describe('a declared protocol, paired in a capture (CapturePairer)', () => {
  const endpoints = (from: typeof client, to: typeof client): Endpoints => {
    const e = new Endpoints();
    const word = (a: string) => a.split('.').reduce((w, b) => w * 256 + Number(b), 0);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, word(from.address));
    new DataView(bytes.buffer).setUint32(4, word(to.address));
    e.read(bytes, false, 0, 4, from.port, to.port);
    return e;
  };

  it('links a request and the reply that echoes it, and tells a reply to another request from it', () => {
    const pairer = new CapturePairer({ timeoutMs: 1000 }, undefined, protocols);
    const up = endpoints(client, server);
    const down = endpoints(server, client);
    pairer.datagram(1, 0, true, bye, false, up);
    pairer.datagram(2, 1e6, true, otherReply, false, down);
    pairer.datagram(3, 2e6, true, byeReply, false, down);
    pairer.flush();
    const facts = pairer.facts;
    const frame = (f: number) => {
      const info = facts.info(f);
      return {
        decoded: kindOf(info) === DECODED,
        layout: layoutAt(layoutOf(info)).id,
        response: (info & RESPONSE) !== 0,
        link: facts.link(f),
        why: whyOf(info),
      };
    };
    expect(frame(1)).toEqual({ decoded: true, layout: 'tinyq.bye.request', response: false, link: 3, why: Why.none });
    expect(frame(2)).toEqual({ decoded: true, layout: 'tinyq.bye.response', response: true, link: 0, why: Why.noRequest });
    expect(frame(3)).toEqual({ decoded: true, layout: 'tinyq.bye.response', response: true, link: 1, why: Why.none });
    expect(pairer.counts).toEqual({ exchanges: 1, unanswered: 0, unmatched: 1, duplicates: 0 });
  });
});
