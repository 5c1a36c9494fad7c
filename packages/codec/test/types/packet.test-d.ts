/**
 * Type tests, checked by `tsc -p test/types` (types.test.ts runs it): `decodePacket`'s result
 * narrows on protocol, direction and message to the layout's own value type, without a cast,
 * and the lines marked @ts-expect-error must stay errors (tsc fails on one that compiles).
 */
import { expectTypeOf } from 'vitest';
import { decodePacket, samp, type DecodedPacket, type Layout } from '@gamequery/codec';
import { countedList, defineLayout, f32le, f64le, i16be, magic, prefixedString, u16le, u64be, u64le, u8 } from '@gamequery/codec/define';
import type { Field, ValueOf } from '@gamequery/codec/define';
import type { ExchangeEvent } from '@gamequery/codec/pairing';

declare const bytes: Uint8Array;
const p = decodePacket(bytes);
expectTypeOf(p).toEqualTypeOf<DecodedPacket>();
expectTypeOf(p.protocol).toEqualTypeOf<'samp' | 'vcmp' | 'mcquery'>();

// @ts-expect-error -- the union has no common `hostname`: only a narrowed packet does.
p.value.hostname;

if (p.protocol === 'samp' && p.message === 'info' && p.direction === 'response') {
  expectTypeOf(p.value).toEqualTypeOf<ReturnType<typeof samp.infoResponse.decode>['value']>();
  expectTypeOf(p.value.hostname).toBeString();
  expectTypeOf(p.value.players).toBeNumber();
  expectTypeOf(p.layout).toEqualTypeOf<typeof samp.infoResponse>();
}

if (p.protocol === 'samp' && p.message === 'info' && p.direction === 'request') {
  expectTypeOf(p.value).toEqualTypeOf<{ serverIp: string; serverPort: number }>();
  // @ts-expect-error -- a request carries no hostname.
  p.value.hostname;
}

if (p.protocol === 'samp' && p.message === 'players' && p.direction === 'response') {
  expectTypeOf(p.value).toEqualTypeOf<ReturnType<typeof samp.playersResponse.decode>['value']>();
  expectTypeOf(p.value.players[0]!.score).toBeNumber();
}

if (p.protocol === 'vcmp' && p.message === 'info' && p.direction === 'response') {
  expectTypeOf(p.value.hostname).toBeString();
}

if (p.protocol === 'mcquery' && p.direction === 'response') {
  if (p.message === 'full') {
    expectTypeOf(p.value.players).toEqualTypeOf<string[]>();
    expectTypeOf(p.value.kv).toEqualTypeOf<{ key: string; value: string }[]>();
  } else if (p.message === 'basic') {
    expectTypeOf(p.value.numPlayers).toBeNumber();
  } else {
    expectTypeOf(p.message).toEqualTypeOf<'handshake'>();
    expectTypeOf(p.value.token).toBeNumber();
  }
  // @ts-expect-error -- Minecraft has no `info` message.
  if (p.message === 'info') p;
}

// A ping decoded without a direction is `either`, SA:MP's or VC:MP's, and so is open.mp's echo form of `o`.
if (p.direction === 'either') {
  expectTypeOf(p.message).toEqualTypeOf<'ping' | 'ompecho'>();
  if (p.message === 'ompecho') expectTypeOf(p.value.nonce).toBeNumber();
  expectTypeOf(p.protocol).toEqualTypeOf<'samp' | 'vcmp'>();
}

// switch narrows as well.
switch (p.message) {
  case 'rules':
    if (p.direction === 'response') expectTypeOf(p.value.rules).toEqualTypeOf<{ name: string; value: string }[]>();
    break;
  case 'rcon':
    if (p.direction === 'request') expectTypeOf(p.value.password).toBeString();
    break;
}

// The pairing layer's events carry the same union.
declare const exchange: ExchangeEvent;
const reply = exchange.responses[0]!.packet;
if (reply.protocol === 'samp' && reply.message === 'clients' && reply.direction === 'response') {
  expectTypeOf(reply.value.clients).toEqualTypeOf<{ name: string; score: number }[]>();
}

// A layout of one's own keeps its literal names and its value type.
const hello = defineLayout({
  protocol: 'acme',
  message: 'hello',
  direction: 'request',
  title: 'Hello',
  fields: [magic('ACME', { abbrev: 'acme.magic', label: 'Magic' }), u8('version', { abbrev: 'acme.hello.version', label: 'Version' })],
});
expectTypeOf(hello).toEqualTypeOf<Layout<{ version: number }, 'acme', 'hello', 'request'>>();
// @ts-expect-error -- the encoder wants every value of the declaration.
hello.encode({});
// @ts-expect-error -- and of the declared type.
hello.encode({ version: 'one' });

// A counted list of entries and a length-prefixed string: the count and the lengths are not in the value.
const status = defineLayout({
  protocol: 'acme',
  message: 'status',
  direction: 'response',
  title: 'Status',
  fields: [
    magic('ACME', { abbrev: 'acme.magic', label: 'Magic' }),
    countedList(
      'players',
      { type: 'u8', abbrev: 'acme.status.num_players', label: 'Players' },
      {
        abbrev: 'acme.status.player',
        label: 'Player',
        fields: [
          prefixedString('name', 'u8', { abbrev: 'acme.status.player.name', label: 'Name' }),
          u16le('score', { abbrev: 'acme.status.player.score', label: 'Score' }),
        ],
      },
    ),
    prefixedString('motd', 'u8', { abbrev: 'acme.status.motd', label: 'Message of the day' }),
  ],
});
expectTypeOf(status.decode(bytes).value).toEqualTypeOf<{ players: { name: string; score: number }[]; motd: string }>();
expectTypeOf(status.protocol).toEqualTypeOf<'acme'>();

// 64-bit integers are bigints in the value, floats and 16-bit integers numbers.
const times = defineLayout({
  protocol: 'acme',
  message: 'times',
  direction: 'response',
  title: 'Times',
  fields: [
    u64le('steamId', { abbrev: 'acme.times.steam_id', label: 'Steam ID' }),
    u64be('gameId', { abbrev: 'acme.times.game_id', label: 'Game ID', base: 'hex' }),
    f32le('duration', { abbrev: 'acme.times.duration', label: 'Duration' }),
    f64le('precise', { abbrev: 'acme.times.precise', label: 'Precise' }),
    i16be('delta', { abbrev: 'acme.times.delta', label: 'Delta' }),
  ],
});
expectTypeOf(times.decode(bytes).value).toEqualTypeOf<{
  steamId: bigint;
  gameId: bigint;
  duration: number;
  precise: number;
  delta: number;
}>();
// @ts-expect-error -- a float has no display base or value table: it shows as the shortest decimal that reads back to it.
f32le('ratio', { abbrev: 'acme.ratio', label: 'Ratio', base: 'hex' });
// @ts-expect-error -- nor a 64-bit integer a value table (its values are bigints).
u64le('id', { abbrev: 'acme.id', label: 'ID', values: { 1: 'one' } });

// A layout's public methods are what a user calls: decode, annotate, encode, encodingLength.
type Methods<L> = { [K in keyof L]-?: L[K] extends (...args: never[]) => unknown ? K : never }[keyof L];
expectTypeOf<Methods<typeof samp.infoResponse>>().toEqualTypeOf<'decode' | 'annotate' | 'encode' | 'encodingLength'>();
// @ts-expect-error -- the emitters the dissector writes with are internal (`internals(layout)`, @gamequery/codec/internal).
samp.infoResponse.emitJson;

// A list of fields the types do not know one by one (another layout's `fields`): a value of unknown properties,
// and a layout of it can be declared (its value type once nested groups without end: TS2589).
declare const someFields: readonly Field[];
expectTypeOf<ValueOf<typeof someFields>>().toEqualTypeOf<Record<string, unknown>>();
expectTypeOf(
  defineLayout({ protocol: 'x', protocolName: 'X', message: 'm', direction: 'request', title: 'M', fields: someFields }).decode,
).returns.toHaveProperty('value');
expectTypeOf<ValueOf<readonly [ReturnType<typeof u8<'n'>>]>>().toEqualTypeOf<{ n: number }>();
