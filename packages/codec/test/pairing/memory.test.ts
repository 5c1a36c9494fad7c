import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcquery, samp } from '@gamequery/codec';
import { ExchangeMemory, TokenMemory, copyOf, replyOf, requestOf, type Outcome, type Remembered } from '../../src/pairing/memory.ts';
import { keyRules, tokenKey } from '../../src/pairing/rules.ts';
import type { Datagram, Endpoint } from '../../src/pairing/types.ts';

const server: Endpoint = { address: '127.0.0.1', port: 7777 };
const clientAt = (port: number): Endpoint => ({ address: '192.0.2.10', port });
const at = { serverIp: '127.0.0.1', serverPort: 7777 };

/** An info request from client port `port` (its conversation), at `time`. */
const ask = (port: number, time: bigint, meta?: string): Datagram<string> => ({
  bytes: samp.infoRequest.encode(at),
  from: clientAt(port),
  to: server,
  time,
  ...(meta === undefined ? {} : { meta }),
});

/** An info reply to client port `port`, with a hostname of its own. */
const reply = (port: number, hostname: string, time = 0n, meta?: string): Datagram<string> => ({
  bytes: samp.infoResponse.encode({ ...at, password: false, players: 0, maxPlayers: 2, hostname, gamemode: '', language: '' }),
  from: server,
  to: clientAt(port),
  time,
  ...(meta === undefined ? {} : { meta }),
});

const remember = (
  memory: ExchangeMemory<string>,
  request: Datagram<string>,
  replies: Datagram<string>[],
  deadline: bigint,
  outcome: Outcome = 'answered',
): void =>
  memory.remember(
    { layout: samp.infoRequest, datagram: request, issuer: undefined, keys: keyRules.samp.request(request), outcome, collects: false },
    replies.map((datagram) => ({ datagram })),
    deadline,
  );

/** The remembered exchanges a reply in conversation `port` is looked up by, newest first. */
const found = (memory: ExchangeMemory<string>, port: number, side: 'exact' | 'loose' = 'exact'): Remembered<string>[] => {
  const r = reply(port, '');
  return [...memory.under('samp', keyRules.samp.response(r), side, r)];
};

describe('ExchangeMemory', () => {
  it('finds the exchanges a reply belongs to, newest first, and tells a copy of their replies from another', () => {
    const memory = new ExchangeMemory<string>();
    const [q1, q2, other] = [ask(1, 10n, 'q1'), ask(1, 20n, 'q2'), ask(2, 30n, 'other')];
    remember(memory, q1, [reply(1, 'first', 11n, 'r1')], 100n, 'answered');
    remember(memory, q2, [], 200n, 'unanswered');
    remember(memory, other, [reply(2, 'x', 31n)], 300n);
    expect(found(memory, 1).map((e) => e.datagram.meta)).toEqual(['q2', 'q1']);
    expect(found(memory, 1).map((e) => e.outcome)).toEqual(['unanswered', 'answered']);
    expect(memory.newest('samp', keyRules.samp.response(reply(2, '')), 'exact', reply(2, ''))?.datagram).toBe(other);
    expect(found(memory, 3)).toEqual([]);

    const e = found(memory, 1)[1]!;
    const copy = reply(1, 'first', 50n, 'copy');
    expect(copyOf(e, copy.bytes)).toBe(0);
    expect(copyOf(e, reply(1, 'fir5t').bytes)).toBe(-1); // same length, other bytes
    expect(copyOf(e, reply(1, 'firsts').bytes)).toBe(-1);
    // The first copy: the repeat's bytes and endpoints, the original's time and meta.
    expect(replyOf(e, 0, copy.bytes, copy.from, copy.to)).toEqual({
      bytes: copy.bytes,
      from: server,
      to: clientAt(1),
      time: 11n,
      meta: 'r1',
    });
  });

  it('hands out its request as a copy, with its meta if it had one', () => {
    const memory = new ExchangeMemory<string>();
    const q = ask(1, 10n, 'q');
    remember(memory, q, [], 100n);
    const out = requestOf(found(memory, 1)[0]!);
    expect(out).toEqual(q);
    out.bytes.fill(0);
    expect(found(memory, 1)[0]!.datagram.bytes).toEqual(ask(1, 0n).bytes);
    remember(memory, ask(2, 10n), [], 100n);
    expect('meta' in requestOf(found(memory, 2)[0]!)).toBe(false);
  });

  it('lets go from the oldest when its deadline passes (at it, unless strictly), or on demand', () => {
    const memory = new ExchangeMemory<string>();
    remember(memory, ask(1, 0n, 'a'), [], 100n);
    remember(memory, ask(1, 0n, 'b'), [], 50n); // due first, but let go only after the one before it
    remember(memory, ask(1, 0n, 'c'), [], 200n);
    expect(memory.nextDeadline).toBe(100n);
    memory.forget(100n, true);
    expect(memory.size).toBe(3);
    memory.forget(100n, false);
    expect(found(memory, 1).map((e) => e.datagram.meta)).toEqual(['c']);
    expect(memory.nextDeadline).toBe(200n);
    memory.forgetOldest();
    expect([memory.size, memory.nextDeadline, found(memory, 1)]).toEqual([0, undefined, []]);
    remember(memory, ask(1, 0n), [], 10n);
    memory.clear();
    expect([memory.size, found(memory, 1)]).toEqual([0, []]);
  });

  it('agrees with a queue let go from the front, through remembering, deadlines and forgetting', () => {
    type Op =
      { kind: 'remember'; port: number; deadline: number } | { kind: 'forget'; now: number; strictly: boolean } | { kind: 'oldest' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('remember' as const), port: fc.nat(3), deadline: fc.nat(60) }),
      fc.record({ kind: fc.constant('forget' as const), now: fc.nat(60), strictly: fc.boolean() }),
      fc.constant({ kind: 'oldest' as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 100 }), (ops) => {
        const memory = new ExchangeMemory<string>();
        let model: { port: number; deadline: bigint; name: string }[] = [];
        ops.forEach((o, i) => {
          if (o.kind === 'remember') {
            const x = { port: o.port, deadline: BigInt(o.deadline), name: `x${i}` };
            remember(memory, ask(x.port, 0n, x.name), [], x.deadline);
            model.push(x);
          } else if (o.kind === 'forget') {
            const now = BigInt(o.now);
            while (model.length && (model[0]!.deadline < now || (!o.strictly && model[0]!.deadline === now))) model.shift();
            memory.forget(now, o.strictly);
          } else {
            model = model.slice(1);
            memory.forgetOldest();
          }
          expect(memory.size).toBe(model.length);
          expect(memory.nextDeadline).toBe(model[0]?.deadline);
          for (let port = 0; port <= 3; port++) {
            const names = model.filter((x) => x.port === port).map((x) => x.name);
            expect(found(memory, port).map((e) => e.datagram.meta)).toEqual(names.reverse());
            expect(found(memory, port, 'loose').length).toBe(names.length);
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('TokenMemory', () => {
  const hello = (port: number, sessionId: number, time = 0n): Datagram<string> => ({
    bytes: mcquery.handshakeRequest.encode({ sessionId }),
    from: clientAt(port),
    to: server,
    time,
    meta: `hello${port}`,
  });
  const token = (request: Datagram<string>, value: number): Datagram<string> => ({
    bytes: mcquery.handshakeResponse.encode({ sessionId: 1, token: value }),
    from: { ...request.to },
    to: { ...request.from },
    time: request.time + 5n,
    meta: 'token',
  });
  const keep = (memory: TokenMemory<string>, request: Datagram<string>, value: number, deadline: bigint): void =>
    memory.keep(
      {
        key: tokenKey(request, value),
        token: value,
        layouts: [mcquery.handshakeRequest, mcquery.handshakeResponse],
        request,
        reply: token(request, value),
      },
      deadline,
    );

  it('finds the newest live token of a conversation, until a newer handshake replaces it or it is let go', () => {
    const memory = new TokenMemory<string>();
    const [h1, h2] = [hello(1, 1), hello(2, 1)];
    keep(memory, h1, 42, 100n);
    keep(memory, h2, 42, 100n);
    const t = memory.find(tokenKey(h1, 42), 42, h1)!;
    expect(t.request).toBe(h1);
    expect(memory.find(tokenKey(h1, 43), 43, h1)).toBeUndefined();
    expect(memory.find(tokenKey(h1, 42), 42, hello(3, 1))).toBeUndefined();
    t.live = false;
    expect(memory.find(tokenKey(h1, 42), 42, h1)).toBeUndefined();
    const again = hello(1, 2, 10n);
    keep(memory, again, 42, 110n);
    expect(memory.find(tokenKey(h1, 42), 42, h1)?.request).toBe(again);
    memory.forget(100n, false);
    expect([t.kept, memory.size, memory.nextDeadline]).toEqual([false, 1, 110n]);
    memory.clear();
    expect(memory.find(tokenKey(h1, 42), 42, h1)).toBeUndefined();
  });

  it('hands out the handshake exchange as copies, its reply between the request endpoints turned round', () => {
    const memory = new TokenMemory<string>();
    const h = hello(1, 1);
    const r = token(h, 42);
    keep(memory, h, 42, 100n);
    r.bytes.fill(0); // the caller's buffer, reused
    const [request, reply] = memory.exchange(memory.find(tokenKey(h, 42), 42, h)!);
    expect(request).toEqual(h);
    expect(request.bytes).not.toBe(h.bytes);
    expect(reply).toEqual({ bytes: token(h, 42).bytes, from: server, to: clientAt(1), time: 5n, meta: 'token' });
    expect(reply.from).toBe(h.to);
  });
});
