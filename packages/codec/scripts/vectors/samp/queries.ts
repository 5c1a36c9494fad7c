/**
 * SA:MP test vectors: the header-only requests and the `i`, `r`, `c` and `d` replies.
 */
import { fromHex, toHex } from '@gamequery/codec';
import { CONSTRUCTED, caseList } from '../builder.ts';
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
    hex: samp(op).hexString,
    value: local,
  });
  add({
    protocol: 'samp',
    message,
    direction: 'request',
    name: 'lgsl-placeholder-address',
    description: 'LGSL sent 21 21 21 21 00 00 as address and port; servers do not check them',
    source: 'the request bytes of LGSL (gamedig/node-gamedig reference/samp/lgsl.txt at f1467c5)',
    hex: samp(op, [0x21, 0x21, 0x21, 0x21], 0).hexString,
    value: { serverIp: '33.33.33.33', serverPort: 0 },
  });
  add({
    protocol: 'samp',
    message,
    direction: 'request',
    name: 'truncated-opcode',
    description: 'ten bytes: the opcode is missing',
    source: CONSTRUCTED,
    hex: samp(op).hexString.slice(0, 20),
    error: { type: 'TruncatedError', offset: 10, field: 'samp.opcode' },
  });
}

/* ---------------- SA:MP i ---------------- */
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'basic',
  description: 'open.mp defaults with 13 of 250 players',
  source: CONSTRUCTED,
  hex: samp('i').u8(0).u16le(13).u16le(250).str32('open.mp server').str32('Unknown').str32('EN').hexString,
  value: { ...local, password: false, players: 13, maxPlayers: 250, hostname: 'open.mp server', gamemode: 'Unknown', language: 'EN' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'empty-strings-password',
  description: 'all three strings empty, password set, no players',
  source: CONSTRUCTED,
  hex: samp('i').u8(1).u16le(0).u16le(0).u32le(0).u32le(0).u32le(0).hexString,
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
  hex: samp('i').u8(0).u16le(5).u16le(100).u32le(14).hex('d0f3f1f1eae8e920f1e5f0e2e5f0').str32('RP').u32le(7).hex('d0f3f1f1eae8e9')
    .hexString,
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
  hex: samp('i').u8(0).u16le(1).u16le(50).u32le(6).hex('436166e92080').str32('DM').str32('FR').hexString,
  value: { ...local, password: false, players: 1, maxPlayers: 50, hostname: 'Café €', gamemode: 'DM', language: 'FR' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'max-lengths',
  description: 'open.mp caps: 63-byte hostname, 39-byte gamemode and language; 65535 players',
  source: CONSTRUCTED,
  hex: samp('i').u8(0).u16le(65535).u16le(65535).str32('H'.repeat(63)).str32('G'.repeat(39)).str32('L'.repeat(39)).hexString,
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
  hex: samp('i').u8(0).u16le(1).u16le(2).str32('a').str32('b').str32('c').raw(0xde, 0xad).hexString,
  canonical: samp('i').u8(0).u16le(1).u16le(2).str32('a').str32('b').str32('c').hexString,
  value: { ...local, password: false, players: 1, maxPlayers: 2, hostname: 'a', gamemode: 'b', language: 'c' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'flag-byte',
  description: 'password byte 2 (a flag is 0 or 1): read as true, with a warning',
  source: CONSTRUCTED,
  hex: samp('i').u8(2).u16le(1).u16le(2).str32('a').str32('b').str32('c').hexString,
  canonical: samp('i').u8(1).u16le(1).u16le(2).str32('a').str32('b').str32('c').hexString,
  value: { ...local, password: true, players: 1, maxPlayers: 2, hostname: 'a', gamemode: 'b', language: 'c' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'truncated-hostname',
  description: 'hostname length says 12 but only 7 bytes follow',
  source: CONSTRUCTED,
  hex: samp('i').u8(0).u16le(1).u16le(2).u32le(12).ascii('Server ').hexString,
  error: { type: 'TruncatedError', offset: 20, field: 'samp.info.hostname' },
});
add({
  protocol: 'samp',
  message: 'info',
  direction: 'response',
  name: 'garbage-length',
  description: 'a u32 length of 0xFFFFFFFF must not be trusted',
  source: CONSTRUCTED,
  hex: samp('i').u8(0).u16le(1).u16le(2).u32le(0xffffffff).ascii('abc').hexString,
  error: { type: 'TruncatedError', offset: 20, field: 'samp.info.hostname' },
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
  const b = samp('r').u16le(count);
  for (const [k, v] of rules) b.str8(k).str8(v);
  return b;
};
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'basic',
  description: 'stock SA-MP 0.3.7 rules, sorted by name',
  source: 'rule names and values as listed in packages/codec/src/protocols/samp/README.md; bytes ' + CONSTRUCTED,
  hex: rulesBytes(stockRules).hexString,
  value: { ...local, rules: stockRules.map(([name, value]) => ({ name, value })) },
});
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'empty',
  description: 'no rules at all',
  source: CONSTRUCTED,
  hex: rulesBytes([]).hexString,
  value: { ...local, rules: [] },
});
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'empty-value-max-name',
  description: 'a 255-byte rule name with an empty value',
  source: CONSTRUCTED,
  hex: rulesBytes([['n'.repeat(255), '']]).hexString,
  value: { ...local, rules: [{ name: 'n'.repeat(255), value: '' }] },
});
add({
  protocol: 'samp',
  message: 'rules',
  direction: 'response',
  name: 'count-exceeds-entries',
  description: 'count 3 but the datagram ends after 2 whole rules: tolerated with a warning',
  source: CONSTRUCTED,
  hex: rulesBytes(stockRules.slice(0, 2), 3).hexString,
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
  hex: rulesBytes(stockRules.slice(0, 2)).hexString.slice(0, -6),
  error: { type: 'TruncatedError', offset: 33, field: 'samp.rule.value' },
});

/* ---------------- SA:MP c ---------------- */
const cExample =
  '53 41 4D 50 33 FE B2 EE 61 1E 63 02 00 0D 42 6F 66 61 64 65 5F 45 7A 6E 75 74 73 1A 00 00 00 14 5B 46 53 44 5D 20 54 68 6F 6D 61 73 5F 43 61 72 6C 74 6F 6E 1C 00 00 00';
add({
  protocol: 'samp',
  message: 'clients',
  direction: 'response',
  name: 'basic',
  description: "two players from a live server's values",
  source: 'the `c` example of packages/codec/src/protocols/samp/README.md (constructed)',
  hex: toHex(fromHex(cExample)),
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
  hex: samp('c').u16le(2).u8(4).hex('c8e2e0ed').i32le(-5).str8('Max_Payne').i32le(-2147483648).hexString,
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
  hex: samp('c').u16le(0).hexString,
  value: { ...local, clients: [] },
});
add({
  protocol: 'samp',
  message: 'clients',
  direction: 'response',
  name: 'count-exceeds-entries',
  description: 'count 5, one entry: players hidden by YSF',
  source: CONSTRUCTED,
  hex: samp('c').u16le(5).str8('A').i32le(1).hexString,
  canonical: samp('c').u16le(1).str8('A').i32le(1).hexString,
  value: { ...local, clients: [{ name: 'A', score: 1 }] },
});
add({
  protocol: 'samp',
  message: 'clients',
  direction: 'response',
  name: 'truncated-score',
  description: 'the datagram ends inside a score',
  source: 'the `c` example of packages/codec/src/protocols/samp/README.md (constructed), cut by 2 bytes',
  hex: toHex(fromHex(cExample).subarray(0, 54)),
  error: { type: 'TruncatedError', offset: 52, field: 'samp.client.score' },
});

/* ---------------- SA:MP d ---------------- */
add({
  protocol: 'samp',
  message: 'players',
  direction: 'response',
  name: 'basic',
  description: 'two players with ids, scores and pings',
  source: CONSTRUCTED,
  hex: samp('d').u16le(2).u8(0).str8('Bofade_Eznuts').i32le(26).u32le(45).u8(7).str8('Thomas').i32le(0).u32le(120).hexString,
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
  hex: samp('d')
    .u16le(1)
    .u8(300 & 0xff)
    .str8('Late_Joiner')
    .i32le(-100)
    .u32le(0xffffffff).hexString,
  value: { ...local, players: [{ id: 44, name: 'Late_Joiner', score: -100, ping: 4294967295 }] },
});
add({
  protocol: 'samp',
  message: 'players',
  direction: 'response',
  name: 'empty',
  description: 'no players',
  source: CONSTRUCTED,
  hex: samp('d').u16le(0).hexString,
  value: { ...local, players: [] },
});
add({
  protocol: 'samp',
  message: 'players',
  direction: 'response',
  name: 'truncated-name',
  description: 'the name length says 13 but the datagram ends',
  source: CONSTRUCTED,
  hex: samp('d').u16le(1).u8(0).u8(13).ascii('Bofade').hexString,
  error: { type: 'TruncatedError', offset: 15, field: 'samp.player.name' },
});
