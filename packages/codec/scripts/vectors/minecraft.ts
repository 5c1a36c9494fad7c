/**
 * Minecraft (GameSpy4 query, protocol `mcquery`) test vectors: handshake, basic and full stat.
 */
import { fromHex, toHex } from '@gamequery/codec';
import { B, CONSTRUCTED, caseList } from './builder.ts';

const [minecraftCases, add] = caseList();
export { minecraftCases };

/* ---------------- Minecraft ---------------- */
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'request',
  name: 'basic',
  description: 'session id 1',
  source: "the example of wiki.vg's Query page (real), quoted in packages/codec/src/protocols/minecraft/README.md",
  hex: 'fefd0900000001',
  value: { sessionId: 1 },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'request',
  name: 'masked-session',
  description: 'session id with every byte at 0x0F, the masked maximum',
  source: CONSTRUCTED,
  hex: 'fefd090f0f0f0f',
  value: { sessionId: 0x0f0f0f0f },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'request',
  name: 'truncated-session',
  description: 'only 2 of 4 session bytes',
  source: CONSTRUCTED,
  hex: 'fefd090000',
  error: { type: 'TruncatedError', offset: 3, field: 'mcquery.session_id' },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'basic',
  description: 'token 9513307',
  source: "the example of wiki.vg's Query page (real), quoted in packages/codec/src/protocols/minecraft/README.md",
  hex: '09000000013935313333303700',
  value: { sessionId: 1, token: 9513307 },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'negative-token',
  description: 'PocketMine/Geyser/Velocity send signed tokens',
  source: CONSTRUCTED,
  hex: new B().u8(9).u32be(2).cstr('-123456789').hexString,
  value: { sessionId: 2, token: -123456789 },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'max-token',
  description: 'the largest i32 token and a zero token is legal too',
  source: CONSTRUCTED,
  hex: new B().u8(9).u32be(3).cstr('2147483647').hexString,
  value: { sessionId: 3, token: 2147483647 },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'unterminated-token',
  description: 'no NUL after the token',
  source: "the handshake reply of wiki.vg's Query page, quoted in packages/codec/src/protocols/minecraft/README.md, cut by 1 byte",
  hex: '090000000139353133333037',
  error: { type: 'TruncatedError', offset: 5, field: 'mcquery.handshake.token' },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'token-not-a-number',
  description: 'a token that is not decimal',
  source: CONSTRUCTED,
  hex: new B().u8(9).u32be(1).cstr('12a').hexString,
  error: { type: 'InvalidValueError', offset: 5, field: 'mcquery.handshake.token' },
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'request',
  name: 'basic',
  description: 'token 9513307 as i32 BE 00 91 29 5B',
  source: "the token bytes of wiki.vg's Query page, quoted in packages/codec/src/protocols/minecraft/README.md",
  hex: 'fefd00000000010091295b',
  value: { sessionId: 1, token: 9513307 },
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'request',
  name: 'negative-token',
  description: "token -123456789 in two's complement",
  source: CONSTRUCTED,
  hex: new B().raw(0xfe, 0xfd, 0).u32be(0x01020304).i32be(-123456789).hexString,
  value: { sessionId: 0x01020304, token: -123456789 },
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'request',
  name: 'truncated-token',
  description: 'token cut (vanilla checks it against token 0)',
  source: CONSTRUCTED,
  hex: 'fefd00000000010091',
  error: { type: 'TruncatedError', offset: 7, field: 'mcquery.token' },
});
const basicHex =
  '00 00 00 00 01 41 20 4D 69 6E 65 63 72 61 66 74 20 53 65 72 76 65 72 00 53 4D 50 00 77 6F 72 6C 64 00 32 00 32 30 00 DD 63 31 32 37 2E 30 2E 30 2E 31 00';
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'response',
  name: 'basic',
  description: '"A Minecraft Server", 2/20, port 25565 little-endian',
  source: "the example of wiki.vg's Query page (real), quoted in packages/codec/src/protocols/minecraft/README.md",
  hex: toHex(fromHex(basicHex)),
  value: {
    sessionId: 1,
    motd: 'A Minecraft Server',
    gametype: 'SMP',
    map: 'world',
    numPlayers: 2,
    maxPlayers: 20,
    hostPort: 25565,
    hostIp: '127.0.0.1',
  },
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'response',
  name: 'latin1-motd',
  description: 'vanilla writes § as the single byte A7 and newlines as 0A',
  source: CONSTRUCTED,
  hex: new B()
    .u8(0)
    .u32be(5)
    .raw(0xa7)
    .ascii('aHello')
    .u8(0x0a)
    .ascii('World')
    .u8(0)
    .cstr('SMP')
    .cstr('world')
    .cstr('0')
    .cstr('0')
    .u16le(19132)
    .cstr('').hexString,
  value: { sessionId: 5, motd: '§aHello\nWorld', gametype: 'SMP', map: 'world', numPlayers: 0, maxPlayers: 0, hostPort: 19132, hostIp: '' },
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'response',
  name: 'truncated-hostport',
  description: 'ends inside hostport',
  source: "the basic reply of wiki.vg's Query page, quoted in packages/codec/src/protocols/minecraft/README.md, cut",
  hex: toHex(fromHex(basicHex).subarray(0, 40)),
  error: { type: 'TruncatedError', offset: 39, field: 'mcquery.basic.host_port' },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'request',
  name: 'basic',
  description: 'padding 00 00 00 00',
  source: CONSTRUCTED,
  hex: 'fefd00000000010091295b00000000',
  value: { sessionId: 1, token: 9513307, padding: new Uint8Array(4) },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'request',
  name: 'gamedig-padding',
  description: 'padding FF FF FF 01 as gamedig and UT3 send',
  source: 'the padding gamedig sends (packages/codec/src/protocols/minecraft/README.md)',
  hex: 'fefd000f0f0f0f0091295bffffff01',
  value: { sessionId: 0x0f0f0f0f, token: 9513307, padding: Uint8Array.of(0xff, 0xff, 0xff, 0x01) },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'request',
  name: 'truncated-padding',
  description: '14 bytes (vanilla would answer basic stat)',
  source: CONSTRUCTED,
  hex: 'fefd00000000010091295b000000',
  error: { type: 'TruncatedError', offset: 11, field: 'mcquery.padding' },
});

const split = (tag: string) => new B().ascii(tag).raw(0, 0x80, 0);
const fullBytes = (tag: string, kv: [string, string][], players: string[]) => {
  const b = new B()
    .u8(0)
    .u32be(1)
    .raw(...split(tag).out);
  for (const [k, v] of kv) b.cstr(k).cstr(v);
  b.u8(0).u8(1).cstr('player_').u8(0);
  for (const p of players) b.cstr(p);
  return b.u8(0);
};
const vanillaKv: [string, string][] = [
  ['hostname', 'A Minecraft Server'],
  ['gametype', 'SMP'],
  ['game_id', 'MINECRAFT'],
  ['version', '1.20.4'],
  ['plugins', ''],
  ['map', 'world'],
  ['numplayers', '2'],
  ['maxplayers', '20'],
  ['hostport', '25565'],
  ['hostip', '127.0.0.1'],
];
const splitValue = (tag: string) => Uint8Array.from(split(tag).out);
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'vanilla',
  description: 'vanilla key order, two players',
  source: CONSTRUCTED + ' (vanilla key order from packages/codec/src/protocols/minecraft/README.md)',
  hex: fullBytes('splitnum', vanillaKv, ['Notch', 'jeb_']).hexString,
  value: {
    sessionId: 1,
    splitnum: splitValue('splitnum'),
    kv: vanillaKv.map(([key, value]) => ({ key, value })),
    players: ['Notch', 'jeb_'],
  },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'zero-players',
  description: 'no players: the tail is 00 01 player_ 00 00 00',
  source: CONSTRUCTED,
  hex: fullBytes(
    'splitnum',
    [
      ['hostname', 'x'],
      ['numplayers', '0'],
    ],
    [],
  ).hexString,
  value: {
    sessionId: 1,
    splitnum: splitValue('splitnum'),
    kv: [
      { key: 'hostname', value: 'x' },
      { key: 'numplayers', value: '0' },
    ],
    players: [],
  },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'geyser-split-header',
  description: 'Geyser writes GeyserMC instead of splitnum; hash-map key order; a name with a space',
  source: CONSTRUCTED + ' (Geyser behaviour from packages/codec/src/protocols/minecraft/README.md)',
  hex: fullBytes(
    'GeyserMC',
    [
      ['numplayers', '1'],
      ['hostname', 'Geyser'],
      ['game_id', 'MINECRAFT'],
    ],
    ['Bedrock Player'],
  ).hexString,
  value: {
    sessionId: 1,
    splitnum: splitValue('GeyserMC'),
    kv: [
      { key: 'numplayers', value: '1' },
      { key: 'hostname', value: 'Geyser' },
      { key: 'game_id', value: 'MINECRAFT' },
    ],
    players: ['Bedrock Player'],
  },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'empty-kv',
  description: 'no key/value pairs at all',
  source: CONSTRUCTED,
  hex: fullBytes('splitnum', [], ['a']).hexString,
  value: { sessionId: 1, splitnum: splitValue('splitnum'), kv: [], players: ['a'] },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'truncated-players',
  description: 'the player list never ends',
  source: CONSTRUCTED,
  hex: fullBytes('splitnum', [['hostname', 'x']], ['Notch']).hexString.slice(0, -2),
  error: { type: 'TruncatedError', offset: 44, field: 'mcquery.full.players.end' },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'bad-section-key',
  description: 'the player section key is not "player_"',
  source: CONSTRUCTED,
  hex: new B()
    .u8(0)
    .u32be(1)
    .raw(...split('splitnum').out)
    .u8(0)
    .u8(1)
    .cstr('players')
    .u8(0)
    .u8(0).hexString,
  error: { type: 'BadMagicError', offset: 18, field: 'mcquery.full.players.key' },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'bad-start-index',
  description: 'the player section starts at index 1, not 00 (found by fuzzing: the compiled decoder let any index through)',
  source: CONSTRUCTED,
  hex: new B()
    .u8(0)
    .u32be(1)
    .raw(...split('splitnum').out)
    .u8(0)
    .u8(1)
    .cstr('player_')
    .u8(1)
    .cstr('Notch')
    .u8(0).hexString,
  error: { type: 'UnexpectedValueError', offset: 26, field: 'mcquery.full.players.index' },
});
