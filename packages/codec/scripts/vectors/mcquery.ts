/**
 * Minecraft (GameSpy4 query, protocol `mcquery`) test vectors: handshake, basic and full stat.
 */
import { B, CONSTRUCTED, badMagic, caseList, notDecimal, unexpected } from './builder.ts';

/** A request: fe fd, the type, the session id. */
const request = (type: number, sessionId: number) =>
  new B().bytes([0xfe, 0xfd], 'mcquery.magic').u8(type, 'mcquery.type').u32be(sessionId, 'mcquery.session_id');
/** A reply: the type, the session id. */
const reply = (type: number, sessionId: number) => new B().u8(type, 'mcquery.type').u32be(sessionId, 'mcquery.session_id');
const handshakeReply = (sessionId: number, token: number) => reply(9, sessionId).decimal(token, 'mcquery.handshake.token');

const [mcqueryCases, add] = caseList();
export { mcqueryCases };

/* ---------------- Minecraft ---------------- */
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'request',
  name: 'basic',
  description: 'session id 1',
  source: "the example of wiki.vg's Query page (real), quoted in packages/codec/src/protocols/mcquery/README.md",
  bytes: request(9, 1).is('fefd0900000001'),
  value: { sessionId: 1 },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'request',
  name: 'masked-session',
  description: 'session id with every byte at 0x0F, the masked maximum',
  source: CONSTRUCTED,
  bytes: request(9, 0x0f0f0f0f),
  value: { sessionId: 0x0f0f0f0f },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'request',
  name: 'truncated-session',
  description: 'only 2 of 4 session bytes',
  source: CONSTRUCTED,
  bytes: request(9, 0).cutAt(5, 'mcquery.session_id'),
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'basic',
  description: 'token 9513307',
  source: "the example of wiki.vg's Query page (real), quoted in packages/codec/src/protocols/mcquery/README.md",
  bytes: handshakeReply(1, 9513307).is('09000000013935313333303700'),
  value: { sessionId: 1, token: 9513307 },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'negative-token',
  description: 'PocketMine/Geyser/Velocity send signed tokens',
  source: CONSTRUCTED,
  bytes: handshakeReply(2, -123456789),
  value: { sessionId: 2, token: -123456789 },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'max-token',
  description: 'the largest i32 token and a zero token is legal too',
  source: CONSTRUCTED,
  bytes: handshakeReply(3, 2147483647),
  value: { sessionId: 3, token: 2147483647 },
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'unterminated-token',
  description: 'no NUL after the token',
  source: "the handshake reply of wiki.vg's Query page, quoted in packages/codec/src/protocols/mcquery/README.md, cut by 1 byte",
  bytes: handshakeReply(1, 9513307).cutAt(12, 'mcquery.handshake.token'),
});
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'response',
  name: 'token-not-a-number',
  description: 'a token that is not decimal',
  source: CONSTRUCTED,
  bytes: reply(9, 1)
    .fault(notDecimal('mcquery.handshake.token', '12a', 'signed'))
    .cstr('12a'),
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'request',
  name: 'basic',
  description: 'token 9513307 as i32 BE 00 91 29 5B',
  source: "the token bytes of wiki.vg's Query page, quoted in packages/codec/src/protocols/mcquery/README.md",
  bytes: request(0, 1).i32be(9513307, 'mcquery.token').is('fefd00000000010091295b'),
  value: { sessionId: 1, token: 9513307 },
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'request',
  name: 'negative-token',
  description: "token -123456789 in two's complement",
  source: CONSTRUCTED,
  bytes: request(0, 0x01020304).i32be(-123456789, 'mcquery.token'),
  value: { sessionId: 0x01020304, token: -123456789 },
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'request',
  name: 'truncated-token',
  description: 'token cut (vanilla checks it against token 0)',
  source: CONSTRUCTED,
  bytes: request(0, 1).i32be(9513307, 'mcquery.token').cutAt(9, 'mcquery.token'),
});
const basicHex =
  '00 00 00 00 01 41 20 4D 69 6E 65 63 72 61 66 74 20 53 65 72 76 65 72 00 53 4D 50 00 77 6F 72 6C 64 00 32 00 32 30 00 DD 63 31 32 37 2E 30 2E 30 2E 31 00';
const basicReply = (sessionId: number, motd: string, players: number, maxPlayers: number, hostPort: number, hostIp: string) =>
  reply(0, sessionId)
    .cstr(motd, 'mcquery.basic.motd')
    .cstr('SMP', 'mcquery.basic.gametype')
    .cstr('world', 'mcquery.basic.map')
    .decimal(players, 'mcquery.basic.num_players')
    .decimal(maxPlayers, 'mcquery.basic.max_players')
    .u16le(hostPort, 'mcquery.basic.host_port')
    .cstr(hostIp, 'mcquery.basic.host_ip');
const basicBuilt = () => basicReply(1, 'A Minecraft Server', 2, 20, 25565, '127.0.0.1').is(basicHex);
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'response',
  name: 'basic',
  description: '"A Minecraft Server", 2/20, port 25565 little-endian',
  source: "the example of wiki.vg's Query page (real), quoted in packages/codec/src/protocols/mcquery/README.md",
  bytes: basicBuilt(),
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
  bytes: basicReply(5, '§aHello\nWorld', 0, 0, 19132, ''),
  value: { sessionId: 5, motd: '§aHello\nWorld', gametype: 'SMP', map: 'world', numPlayers: 0, maxPlayers: 0, hostPort: 19132, hostIp: '' },
});
add({
  protocol: 'mcquery',
  message: 'basic',
  direction: 'response',
  name: 'truncated-hostport',
  description: 'ends inside hostport',
  source: "the basic reply of wiki.vg's Query page, quoted in packages/codec/src/protocols/mcquery/README.md, cut",
  bytes: basicBuilt().cutAt(40, 'mcquery.basic.host_port'),
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'request',
  name: 'basic',
  description: 'padding 00 00 00 00',
  source: CONSTRUCTED,
  bytes: request(0, 1).i32be(9513307, 'mcquery.token').bytes([0, 0, 0, 0], 'mcquery.padding'),
  value: { sessionId: 1, token: 9513307, padding: new Uint8Array(4) },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'request',
  name: 'gamedig-padding',
  description: 'padding FF FF FF 01 as gamedig and UT3 send',
  source: 'the padding gamedig sends (packages/codec/src/protocols/mcquery/README.md)',
  bytes: request(0, 0x0f0f0f0f).i32be(9513307, 'mcquery.token').bytes([0xff, 0xff, 0xff, 0x01], 'mcquery.padding'),
  value: { sessionId: 0x0f0f0f0f, token: 9513307, padding: Uint8Array.of(0xff, 0xff, 0xff, 0x01) },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'request',
  name: 'truncated-padding',
  description: '14 bytes (vanilla would answer basic stat)',
  source: CONSTRUCTED,
  bytes: request(0, 1).i32be(9513307, 'mcquery.token').bytes([0, 0, 0, 0], 'mcquery.padding').cutAt(14, 'mcquery.padding'),
});

/** The 11 bytes after the session id: `splitnum` (or Geyser's tag), 00 80 00. */
const split = (tag: string) => [...tag].map((c) => c.charCodeAt(0)).concat(0, 0x80, 0);
/** The key/value section up to its end marker. */
const fullHead = (tag: string, kv: [string, string][]) => {
  const b = reply(0, 1).bytes(split(tag), 'mcquery.full.splitnum');
  for (const [k, v] of kv) b.group('mcquery.full.kv', (g) => g.cstr(k, 'mcquery.full.key').cstr(v, 'mcquery.full.value'));
  return b.u8(0, 'mcquery.full.kv_end');
};
/** The player section's key, `player_` and its NUL, which the tree shows as the magic it is. */
const PLAYER_KEY = { abbrev: 'mcquery.full.players.key', value: 'player_\\0' };
const fullBytes = (tag: string, kv: [string, string][], players: string[]) =>
  fullHead(tag, kv).group('mcquery.full.players', (b) => {
    b.u8(1, 'mcquery.full.players.marker').cstr('player_', PLAYER_KEY).u8(0, 'mcquery.full.players.index');
    for (const p of players) b.cstr(p, 'mcquery.full.player');
    b.u8(0, 'mcquery.full.players.end');
  });
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
const splitValue = (tag: string) => Uint8Array.from(split(tag));
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'vanilla',
  description: 'vanilla key order, two players',
  source: CONSTRUCTED + ' (vanilla key order from packages/codec/src/protocols/mcquery/README.md)',
  bytes: fullBytes('splitnum', vanillaKv, ['Notch', 'jeb_']),
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
  bytes: fullBytes(
    'splitnum',
    [
      ['hostname', 'x'],
      ['numplayers', '0'],
    ],
    [],
  ),
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
  source: CONSTRUCTED + ' (Geyser behaviour from packages/codec/src/protocols/mcquery/README.md)',
  bytes: fullBytes(
    'GeyserMC',
    [
      ['numplayers', '1'],
      ['hostname', 'Geyser'],
      ['game_id', 'MINECRAFT'],
    ],
    ['Bedrock Player'],
  ),
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
  bytes: fullBytes('splitnum', [], ['a']),
  value: { sessionId: 1, splitnum: splitValue('splitnum'), kv: [], players: ['a'] },
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'truncated-players',
  description: 'the player list never ends',
  source: CONSTRUCTED,
  bytes: fullBytes('splitnum', [['hostname', 'x']], ['Notch']).cutAt(44, 'mcquery.full.players.end'),
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'bad-section-key',
  description: 'the player section key is not "player_"',
  source: CONSTRUCTED,
  bytes: fullHead('splitnum', []).group('mcquery.full.players', (b) =>
    b
      .u8(1, 'mcquery.full.players.marker')
      .fault(badMagic('mcquery.full.players.key', 'player_\\0', 'players\\0'))
      .cstr('players')
      .u8(0)
      .u8(0),
  ),
});
add({
  protocol: 'mcquery',
  message: 'full',
  direction: 'response',
  name: 'bad-start-index',
  description: 'the player section starts at index 1, not 00 (found by fuzzing: the compiled decoder let any index through)',
  source: CONSTRUCTED,
  bytes: fullHead('splitnum', []).group('mcquery.full.players', (b) =>
    b
      .u8(1, 'mcquery.full.players.marker')
      .cstr('player_', PLAYER_KEY)
      .fault(unexpected('mcquery.full.players.index', '0', '1'))
      .u8(1)
      .cstr('Notch')
      .u8(0),
  ),
});
