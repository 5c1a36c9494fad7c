import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { QueryPairer, type Endpoint } from '@gamequery/codec/rx';
import { answer, ask, ns, sampServer as server, summary } from './helpers.ts';

const at = { serverIp: '127.0.0.1', serverPort: 7777 };
const info = samp.infoRequest.encode(at);
const infoReply = samp.infoResponse.encode({ ...at, password: true, players: 0, maxPlayers: 2, hostname: '', gamemode: '', language: '' });

describe('QueryPairer', () => {
  it('runs without RxJS: receive, then expire at the deadline it announces', () => {
    const core = new QueryPairer<string>();
    expect(core.receive(ask('q', info, server, 10))).toEqual([]);
    expect(core.pending).toBe(1);
    expect(core.nextDeadline()).toBe(ns(1010));
    expect(core.expire(ns(1010) - 1n)).toEqual([]);
    expect(core.expire(ns(1010)).map(summary)).toEqual(['unanswered q']);
    expect(core.pending).toBe(0);
  });

  it('takes deadlines from the `now` it is given, rtt from the datagrams', () => {
    const core = new QueryPairer<string>({ timeoutMs: 100 });
    core.receive(ask('q', info, server, 0), ns(5000));
    expect(core.nextDeadline()).toBe(ns(5100));
    const [exchange] = core.receive(answer('r', infoReply, server, 30), ns(5090));
    expect(exchange).toMatchObject({ kind: 'exchange', rtt: ns(30) });
  });

  it('keeps what `retain` gives it of a request, and pairs on that after the caller reuses its buffer', () => {
    const kept: string[] = [];
    const core = new QueryPairer<string>({
      retain: (d) => {
        kept.push(d.meta!);
        return { ...d, bytes: d.bytes.slice() };
      },
    });
    const buffer = info.slice();
    core.receive(ask('q', buffer, server, 0));
    buffer.fill(0); // the read buffer, reused for the next chunk
    const [exchange] = core.receive(answer('r', infoReply, server, 5));
    expect(exchange).toMatchObject({ kind: 'exchange', request: { datagram: { meta: 'q', bytes: info } } });
    expect(kept).toEqual(['q']); // a reply answered at once is not kept
  });

  it('forgets everything on flush', () => {
    const core = new QueryPairer<string>();
    core.receive(ask('q', info, server, 0));
    core.receive(answer('r', infoReply, server, 1));
    expect(core.flush()).toEqual([]);
    expect(core.nextDeadline()).toBeUndefined();
    expect(core.receive(answer('r2', infoReply, server, 2)).map(summary)).toEqual(['unmatched r2']);
  });

  it('pairs over IPv6 and writes its endpoints in brackets', () => {
    const core = new QueryPairer<string>();
    const v6 = (address: string): Endpoint => ({ address, port: 7777 });
    const me = v6('2001:db8::1');
    const events = [
      ...core.receive(ask('q', info, v6('2001:db8::2'), 0, me)),
      ...core.receive(answer('r', infoReply, v6('2001:db8::3'), 1, me)),
      ...core.receive(answer('r2', infoReply, v6('2001:db8::2'), 2, me)),
    ];
    expect(events.map(summary)).toEqual(['unmatched r', 'exchange q>r2']);
    expect(events[0]).toMatchObject({
      reason: 'reply from [2001:db8::3]:7777, but the request went to [2001:db8::2]:7777',
      cause: 'near-miss',
    });
  });
});
