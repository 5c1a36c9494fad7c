/**
 * SA:MP test vectors: the header-only requests and the `i`, `r`, `c` and `d` replies.
 */
import { CONSTRUCTED, caseList, truncated, type B } from '../builder.ts';
import { local, samp } from './header.ts';

const [queryCases, add] = caseList();
export { queryCases };

/* ---------------- SA:MP header-only requests ---------------- */
for (const [op, message] of [
  ['i', 'info'],
  ['r', 'rules'],
  ['c', 'clients'],
  ['d', 'players'],
  ['o', 'omp'],
] as const) {
  add({
    protocol: 'samp',
    message,
    direction: 'request',
    name: 'basic',
    description: `${message} request to 127.0.0.1:7777`,
    source: CONSTRUCTED,
    bytes: samp(op),
    value: local,
  });
  add({
    protocol: 'samp',
    message,
    direction: 'request',
    name: 'lgsl-placeholder-address',
    description: 'LGSL sent 21 21 21 21 00 00 as address and port; servers do not check them',
    source: 'the request bytes of LGSL (gamedig/node-gamedig reference/samp/lgsl.txt at f1467c5)',
    bytes: samp(op, '33.33.33.33', 0),
    value: { serverIp: '33.33.33.33', serverPort: 0 },
  });
  add({
    protocol: 'samp',
    message,
    direction: 'request',
    name: 'truncated-opcode',
    description: 'ten bytes: the opcode is missing',
    source: CONSTRUCTED,
    bytes: samp(op).cutAt(10, 'samp.opcode'),
  });
}

/* ---------------- SA:MP i ---------------- */
const infoHead = (password: boolean, players: number, maxPlayers: number) =>
  samp('i')
    .u8(Number(password), { abbrev: 'samp.info.password', value: password })
    .u16le(players, 'samp.info.players')
    .u16le(maxPlayers, 'samp.info.max_players');
const infoStrings = (b: B, hostname: string, gamemode: string, language: string) =>
  b.str32(hostname, 'samp.info.hostname').str32(gamemode, 'samp.info.gamemode').str32(language, 'samp.info.language');
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'basic',
  description: 'open.mp defaults with 13 of 250 players',
  source: CONSTRUCTED,
  bytes: infoStrings(infoHead(false, 13, 250), 'open.mp server', 'Unknown', 'EN'),
  value: { ...local, password: false, players: 13, maxPlayers: 250, hostname: 'open.mp server', gamemode: 'Unknown', language: 'EN' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'empty-strings-password',
  description: 'all three strings empty, password set, no players',
  source: CONSTRUCTED,
  bytes: infoStrings(infoHead(true, 0, 0), '', '', ''),
  value: { ...local, password: true, players: 0, maxPlayers: 0, hostname: '', gamemode: '', language: '' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'cp1251-hostname',
  charset: 'windows-1251',
  description: 'Cyrillic hostname in Windows-1251 ("Русский сервер"), language "Русский"',
  source: CONSTRUCTED,
  bytes: infoHead(false, 5, 100)
    .u32le(14, 'samp.info.hostname.len')
    .hex('d0f3f1f1eae8e920f1e5f0e2e5f0', { abbrev: 'samp.info.hostname', value: 'Русский сервер' })
    .str32('RP', 'samp.info.gamemode')
    .u32le(7, 'samp.info.language.len')
    .hex('d0f3f1f1eae8e9', { abbrev: 'samp.info.language', value: 'Русский' }),
  value: { ...local, password: false, players: 5, maxPlayers: 100, hostname: 'Русский сервер', gamemode: 'RP', language: 'Русский' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'cp1252-hostname',
  charset: 'windows-1252',
  description: 'Windows-1252 hostname with é and the euro sign (0x80)',
  source: CONSTRUCTED,
  bytes: infoHead(false, 1, 50)
    .u32le(6, 'samp.info.hostname.len')
    .hex('436166e92080', { abbrev: 'samp.info.hostname', value: 'Café €' })
    .str32('DM', 'samp.info.gamemode')
    .str32('FR', 'samp.info.language'),
  value: { ...local, password: false, players: 1, maxPlayers: 50, hostname: 'Café €', gamemode: 'DM', language: 'FR' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'max-lengths',
  description: 'open.mp caps: 63-byte hostname, 39-byte gamemode and language; 65535 players',
  source: CONSTRUCTED,
  bytes: infoStrings(infoHead(false, 65535, 65535), 'H'.repeat(63), 'G'.repeat(39), 'L'.repeat(39)),
  value: {
    ...local,
    password: false,
    players: 65535,
    maxPlayers: 65535,
    hostname: 'H'.repeat(63),
    gamemode: 'G'.repeat(39),
    language: 'L'.repeat(39),
  },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'trailing-bytes',
  description: 'two bytes after the last string are ignored (packages/codec/src/protocols/samp/README.md)',
  source: CONSTRUCTED,
  bytes: infoStrings(infoHead(false, 1, 2), 'a', 'b', 'c')
    .warn('trailing-bytes', 'trailing')
    .raw(0xde, 0xad),
  canonical: infoStrings(infoHead(false, 1, 2), 'a', 'b', 'c').hexString,
  value: { ...local, password: false, players: 1, maxPlayers: 2, hostname: 'a', gamemode: 'b', language: 'c' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'flag-byte',
  description: 'password byte 2 (a flag is 0 or 1): read as true, with a warning',
  source: CONSTRUCTED,
  bytes: infoStrings(
    samp('i')
      .u8(2, { abbrev: 'samp.info.password', value: true, warning: 'flag-byte' })
      .u16le(1, 'samp.info.players')
      .u16le(2, 'samp.info.max_players'),
    'a',
    'b',
    'c',
  ),
  canonical: infoStrings(infoHead(true, 1, 2), 'a', 'b', 'c').hexString,
  value: { ...local, password: true, players: 1, maxPlayers: 2, hostname: 'a', gamemode: 'b', language: 'c' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'truncated-hostname',
  description: 'hostname length says 12 but only 7 bytes follow',
  source: CONSTRUCTED,
  bytes: infoHead(false, 1, 2).str32('Server 12345', 'samp.info.hostname').cutAt(27, 'samp.info.hostname'),
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'garbage-length',
  description: 'a u32 length of 0xFFFFFFFF must not be trusted',
  source: CONSTRUCTED,
  bytes: infoHead(false, 1, 2).u32le(0xffffffff, 'samp.info.hostname.len').fault(truncated('samp.info.hostname', 0xffffffff)).ascii('abc'),
});

/* ---------------- SA:MP r ---------------- */
const stockRules: [string, string][] = [
  ['lagcomp', 'On'],
  ['mapname', 'San Andreas'],
  ['version', '0.3.7-R2'],
  ['weather', '10'],
  ['weburl', 'www.sa-mp.com'],
  ['worldtime', '12:00'],
];
const rulesBytes = (rules: [string, string][], count = rules.length) => {
  const b = samp('r').u16le(count, 'samp.rules.count');
  for (const [k, v] of rules) b.group('samp.rule', (r) => r.str8(k, 'samp.rule.name').str8(v, 'samp.rule.value'));
  return b;
};
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'basic',
  description: 'stock SA-MP 0.3.7 rules, sorted by name',
  source: 'rule names and values as listed in packages/codec/src/protocols/samp/README.md; bytes ' + CONSTRUCTED,
  bytes: rulesBytes(stockRules),
  value: { ...local, rules: stockRules.map(([name, value]) => ({ name, value })) },
});
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'empty',
  description: 'no rules at all',
  source: CONSTRUCTED,
  bytes: rulesBytes([]),
  value: { ...local, rules: [] },
});
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'empty-value-max-name',
  description: 'a 255-byte rule name with an empty value',
  source: CONSTRUCTED,
  bytes: rulesBytes([['n'.repeat(255), '']]),
  value: { ...local, rules: [{ name: 'n'.repeat(255), value: '' }] },
});
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'count-exceeds-entries',
  description: 'count 3 but the datagram ends after 2 whole rules: tolerated with a warning',
  source: CONSTRUCTED,
  bytes: rulesBytes(stockRules.slice(0, 2), 3).warn('short-list', 'samp.rules.count'),
  canonical: rulesBytes(stockRules.slice(0, 2)).hexString,
  value: { ...local, rules: stockRules.slice(0, 2).map(([name, value]) => ({ name, value })) },
});
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'truncated-value',
  description: 'the second rule value is cut',
  source: CONSTRUCTED,
  bytes: rulesBytes(stockRules.slice(0, 2)).cutAt(41, 'samp.rule.value'),
});

/* ---------------- SA:MP c ---------------- */
const cExample =
  '53 41 4D 50 33 FE B2 EE 61 1E 63 02 00 0D 42 6F 66 61 64 65 5F 45 7A 6E 75 74 73 1A 00 00 00 14 5B 46 53 44 5D 20 54 68 6F 6D 61 73 5F 43 61 72 6C 74 6F 6E 1C 00 00 00';
const client = (b: B, name: string, score: number) =>
  b.group('samp.client', (c) => c.str8(name, 'samp.client.name').i32le(score, 'samp.client.score'));
/** The `c` example, field by field. */
const cBuilt = () =>
  client(client(samp('c', '51.254.178.238').u16le(2, 'samp.clients.count'), 'Bofade_Eznuts', 26), '[FSD] Thomas_Carlton', 28).is(cExample);
add({
  protocol: 'samp',
  message: 'clients',
  direction: 'response',
  name: 'basic',
  description: "two players from a live server's values",
  source: 'the `c` example of packages/codec/src/protocols/samp/README.md (constructed)',
  bytes: cBuilt(),
  value: {
    serverIp: '51.254.178.238',
    serverPort: 7777,
    clients: [
      { name: 'Bofade_Eznuts', score: 26 },
      { name: '[FSD] Thomas_Carlton', score: 28 },
    ],
  },
});
add({
  protocol: 'samp',
  message: 'clients',
  direction: 'response',
  name: 'negative-score-cp1251',
  charset: 'windows-1251',
  description: 'signed scores and a Cyrillic nickname ("Иван")',
  source: CONSTRUCTED,
  bytes: client(
    samp('c')
      .u16le(2, 'samp.clients.count')
      .group('samp.client', (c) =>
        c.u8(4, 'samp.client.name.len').hex('c8e2e0ed', { abbrev: 'samp.client.name', value: 'Иван' }).i32le(-5, 'samp.client.score'),
      ),
    'Max_Payne',
    -2147483648,
  ),
  value: {
    ...local,
    clients: [
      { name: 'Иван', score: -5 },
      { name: 'Max_Payne', score: -2147483648 },
    ],
  },
});
add({
  protocol: 'samp',
  message: 'clients',
  direction: 'response',
  name: 'empty',
  description: 'no clients',
  source: CONSTRUCTED,
  bytes: samp('c').u16le(0, 'samp.clients.count'),
  value: { ...local, clients: [] },
});
add({
  protocol: 'samp',
  message: 'clients',
  direction: 'response',
  name: 'count-exceeds-entries',
  description: 'count 5, one entry: players hidden by YSF',
  source: CONSTRUCTED,
  bytes: client(samp('c').u16le(5, 'samp.clients.count'), 'A', 1).warn('short-list', 'samp.clients.count'),
  canonical: client(samp('c').u16le(1), 'A', 1).hexString,
  value: { ...local, clients: [{ name: 'A', score: 1 }] },
});
add({
  protocol: 'samp',
  message: 'clients',
  direction: 'response',
  name: 'truncated-score',
  description: 'the datagram ends inside a score',
  source: 'the `c` example of packages/codec/src/protocols/samp/README.md (constructed), cut by 2 bytes',
  bytes: cBuilt().cutAt(54, 'samp.client.score'),
});

/* ---------------- SA:MP d ---------------- */
const player = (b: B, id: number, name: string, score: number, ping: number) =>
  b.group('samp.player', (p) =>
    p.u8(id, 'samp.player.id').str8(name, 'samp.player.name').i32le(score, 'samp.player.score').u32le(ping, 'samp.player.ping'),
  );
add({
  protocol: 'samp',
  message: 'players',
  direction: 'response',
  name: 'basic',
  description: 'two players with ids, scores and pings',
  source: CONSTRUCTED,
  bytes: player(player(samp('d').u16le(2, 'samp.players.count'), 0, 'Bofade_Eznuts', 26, 45), 7, 'Thomas', 0, 120),
  value: {
    ...local,
    players: [
      { id: 0, name: 'Bofade_Eznuts', score: 26, ping: 45 },
      { id: 7, name: 'Thomas', score: 0, ping: 120 },
    ],
  },
});
add({
  protocol: 'samp',
  message: 'players',
  direction: 'response',
  name: 'wrapped-id-negative-score',
  description: 'player 300 shows as id 44 (low byte); negative score; unmeasured ping 0xFFFFFFFF',
  source: CONSTRUCTED,
  bytes: player(samp('d').u16le(1, 'samp.players.count'), 300 & 0xff, 'Late_Joiner', -100, 0xffffffff),
  value: { ...local, players: [{ id: 44, name: 'Late_Joiner', score: -100, ping: 4294967295 }] },
});
add({
  protocol: 'samp',
  message: 'players',
  direction: 'response',
  name: 'empty',
  description: 'no players',
  source: CONSTRUCTED,
  bytes: samp('d').u16le(0, 'samp.players.count'),
  value: { ...local, players: [] },
});
add({
  protocol: 'samp',
  message: 'players',
  direction: 'response',
  name: 'truncated-name',
  description: 'the name length says 13 but the datagram ends',
  source: CONSTRUCTED,
  bytes: player(samp('d').u16le(1, 'samp.players.count'), 0, 'Bofade_Eznuts', 26, 45).cutAt(21, 'samp.player.name'),
});
