/**
 * Type tests of the pairing layer's protocol names, checked by `tsc -p test/types`
 * (types.test.ts): a pairer given a protocol declared outside the codec types its events with
 * that protocol's name, and one given none keeps the built-in names as literals, so that a
 * packet still narrows on protocol, message and direction.
 */
import { expectTypeOf } from 'vitest';
import { builtInProtocols, type AnyDecodedPacket, type DecodedPacket } from '@gamequery/codec';
import { defineLayout, defineProtocol, magic, u8 } from '@gamequery/codec/define';
import type { OperatorFunction } from 'rxjs';
import { QueryPairer, type Datagram, type DecodedDatagram, type PairingEvent } from '@gamequery/codec/pairing';
import { pairQueries } from '@gamequery/codec/rx';

declare const datagram: Datagram;

// A protocol of one's own: one message, its reply the same header and a byte.
const header = [magic('ACME', { abbrev: 'acme.magic', label: 'Magic' })] as const;
const pingRequest = defineLayout({
  protocol: 'acme',
  protocolName: 'ACME',
  message: 'ping',
  direction: 'request',
  title: 'Ping',
  fields: header,
});
const pingResponse = defineLayout({
  protocol: 'acme',
  protocolName: 'ACME',
  message: 'ping',
  direction: 'response',
  title: 'Ping',
  fields: [...header, u8('load', { abbrev: 'acme.ping.load', label: 'Load' })],
});
const acme = defineProtocol({
  name: 'acme',
  title: 'ACME Query Protocol',
  shortTitle: 'ACME',
  defaultPort: 4999,
  endian: 'le',
  messages: { ping: { request: pingRequest, response: pingResponse } },
  recognize: (bytes, hint) =>
    (hint.direction ?? (bytes.length === 4 ? 'request' : 'response')) === 'request'
      ? { protocol: 'acme', direction: 'request', message: 'ping', layout: pingRequest }
      : { protocol: 'acme', direction: 'response', message: 'ping', layout: pingResponse },
  pairing: { kind: 'echo', from: 4, to: 4, opcodeAt: 4, longer: { to: 4, messages: [] } },
});

// The built-in protocols by default: their names as literals, and the packets narrow as decodePacket's do.
const builtIn = new QueryPairer();
for (const e of builtIn.receive(datagram)) {
  if (e.kind !== 'exchange') continue;
  expectTypeOf(e.request.protocol).toEqualTypeOf<'samp' | 'vcmp' | 'mcquery'>();
  expectTypeOf(e.request.packet).toEqualTypeOf<DecodedPacket>();
  // @ts-expect-error -- the built-in pairer pairs no `acme`.
  if (e.request.protocol === 'acme') e.request;
  const reply = e.responses[0]!.packet;
  if (reply.protocol === 'samp' && reply.message === 'info' && reply.direction === 'response')
    expectTypeOf(reply.value.hostname).toBeString();
}

// Given a protocol of one's own beside the built-in ones: its name is among the events' names.
const mine = new QueryPairer({ protocols: [...builtInProtocols, acme] });
expectTypeOf(mine).toEqualTypeOf<QueryPairer<unknown, 'samp' | 'vcmp' | 'mcquery' | 'acme'>>();
for (const e of mine.receive(datagram)) {
  expectTypeOf(e).toEqualTypeOf<PairingEvent<unknown, 'samp' | 'vcmp' | 'mcquery' | 'acme'>>();
  if (e.kind !== 'exchange') continue;
  const { request } = e;
  expectTypeOf(request).toEqualTypeOf<DecodedDatagram<unknown, 'samp' | 'vcmp' | 'mcquery' | 'acme'>>();
  expectTypeOf(request.protocol).toEqualTypeOf<'samp' | 'vcmp' | 'mcquery' | 'acme'>();
  expectTypeOf(request.packet).toEqualTypeOf<DecodedPacket | AnyDecodedPacket<'acme'>>();
  const p = request.packet;
  if (p.protocol === 'acme') {
    // Its packet is one of its own, its value untyped (the declaration's types are per layout).
    expectTypeOf(p).toEqualTypeOf<AnyDecodedPacket<'acme'>>();
    expectTypeOf(p.layout.protocol).toEqualTypeOf<'acme'>();
    expectTypeOf(p.value).toEqualTypeOf<Record<string, unknown>>();
  } else {
    // A built-in one's packets still narrow.
    if (p.protocol === 'mcquery' && p.message === 'handshake' && p.direction === 'response') expectTypeOf(p.value.token).toBeNumber();
  }
}

// Only one's own: only its name.
const only = new QueryPairer({ protocols: [acme] });
for (const e of only.flush()) {
  if (e.kind === 'unanswered') expectTypeOf(e.request.protocol).toEqualTypeOf<'acme'>();
  // @ts-expect-error -- a pairer of acme alone has no samp request.
  if (e.kind === 'unanswered' && e.request.protocol === 'samp') e;
}

// The RxJS operator infers the same.
expectTypeOf(pairQueries({ protocols: [...builtInProtocols, acme] })).toEqualTypeOf<
  OperatorFunction<Datagram, PairingEvent<unknown, 'samp' | 'vcmp' | 'mcquery' | 'acme'>>
>();
expectTypeOf(pairQueries()).toEqualTypeOf<OperatorFunction<Datagram, PairingEvent>>();
