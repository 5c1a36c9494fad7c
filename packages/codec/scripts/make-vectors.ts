/**
 * Writes test-vectors/ from the case list below.
 *
 * Each case's bytes are either copied from PROTOCOLS.md (real captures quoted there, or
 * its constructed examples) or built with the small byte builder `B`, which knows
 * nothing of our layouts; each value is written by hand. A vector is only written when
 * our codec decodes the bytes to exactly that value and encodes the value back to the
 * bytes (or to `canonical` where the input is deliberately not canonical); the field
 * offsets in the vector are then taken from the annotating decode and checked by the
 * codec tests from then on. Run: `pnpm vectors` (add `--check` to only compare).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { layoutFor, toHex, fromHex, valueToJson, nodeValueToJson, type Charset, type FieldNode, type Protocol } from '@gamequery/codec';
import type { QueryLayout } from '@gamequery/codec';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../test-vectors');

/** A byte builder independent of the codec. */
class B {
  readonly out: number[] = [];
  ascii(s: string): this {
    for (const c of s) this.out.push(c.charCodeAt(0) & 0xff);
    return this;
  }
  raw(...bytes: number[]): this {
    this.out.push(...bytes);
    return this;
  }
  hex(h: string): this {
    this.out.push(...fromHex(h));
    return this;
  }
  u8(n: number): this {
    return this.raw(n & 0xff);
  }
  u16le(n: number): this {
    return this.raw(n & 0xff, (n >>> 8) & 0xff);
  }
  u32le(n: number): this {
    return this.raw(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
  }
  u32be(n: number): this {
    return this.raw((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  }
  i32le(n: number): this {
    return this.u32le(n >>> 0);
  }
  i32be(n: number): this {
    return this.u32be(n >>> 0);
  }
  cstr(s: string): this {
    return this.ascii(s).u8(0);
  }
  /** A string given as its raw bytes in hex, with a length prefix. */
  str8(s: string): this {
    return this.u8(s.length).ascii(s);
  }
  str16(s: string): this {
    return this.u16le(s.length).ascii(s);
  }
  str32(s: string): this {
    return this.u32le(s.length).ascii(s);
  }
  get hexString(): string {
    return toHex(Uint8Array.from(this.out));
  }
}

const samp = (op: string, ip = [127, 0, 0, 1], port = 7777) =>
  new B()
    .ascii('SAMP')
    .raw(...ip)
    .u16le(port)
    .ascii(op);
const vcmpReq = (op: string) => new B().ascii('VCMP').raw(127, 0, 0, 1).u16le(8192).ascii(op);
const vcmpRes = (op: string) => new B().ascii('MP04').raw(127, 0, 0, 1).u16le(8192).ascii(op);
const local = { serverIp: '127.0.0.1', serverPort: 7777 };
const vlocal = { serverIp: '127.0.0.1', serverPort: 8192 };

interface Case {
  protocol: Protocol;
  message: string;
  direction: 'request' | 'response';
  name: string;
  description: string;
  source: string;
  hex: string;
  charset?: Charset;
  value?: Record<string, unknown>;
  /** What encode(value) gives when `hex` is deliberately not canonical. */
  canonical?: string;
  error?: { type: string; offset: number; field: string };
}

const CONSTRUCTED = 'constructed from the layout in PROTOCOLS.md with an independent byte builder';
const cases: Case[] = [];
const add = (c: Case) => cases.push(c);

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
    source: 'PROTOCOLS.md §1.2 (LGSL request bytes)',
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
  description: 'two bytes after the last string are ignored (PROTOCOLS.md §1.13)',
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
  description: 'password byte 2 (PROTOCOLS.md §1.4 says 0 or 1): read as true, with a warning',
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
  source: 'rule names and values as listed in PROTOCOLS.md §1.5; bytes ' + CONSTRUCTED,
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
  source: 'PROTOCOLS.md §1.14 `c` example',
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
  source: 'PROTOCOLS.md §1.14 `c` example, cut by 2 bytes',
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

/* ---------------- SA:MP p ---------------- */
const pingHex = '53 41 4D 50 7F 00 00 01 61 1E 70 12 34 56 78';
for (const direction of ['request', 'response'] as const) {
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'basic',
    description: 'ping to 127.0.0.1:7777 with nonce 12 34 56 78 (request and reply are identical)',
    source: 'PROTOCOLS.md §1.14 `p` example',
    hex: toHex(fromHex(pingHex)),
    value: { ...local, nonce: 0x12345678 },
  });
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'nonce-ffffffff',
    description: 'all-ones nonce',
    source: CONSTRUCTED,
    hex: samp('p').u32be(0xffffffff).hexString,
    value: { ...local, nonce: 0xffffffff },
  });
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'truncated-nonce',
    description: '14 bytes: servers do not answer this',
    source: 'PROTOCOLS.md §1.14 `p` example, cut by 1 byte',
    hex: toHex(fromHex(pingHex).subarray(0, 14)),
    error: { type: 'TruncatedError', offset: 11, field: 'samp.ping.nonce' },
  });
}

/* ---------------- SA:MP x ---------------- */
const rconReq = '53 41 4D 50 7F 00 00 01 61 1E 78 05 00 77 72 6F 6E 67 07 00 70 6C 61 79 65 72 73';
const rconRes = '53 41 4D 50 7F 00 00 01 61 1E 78 16 00 49 6E 76 61 6C 69 64 20 52 43 4F 4E 20 70 61 73 73 77 6F 72 64 2E';
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'basic',
  description: 'password "wrong", command "players"',
  source: 'PROTOCOLS.md §1.14 `x` example',
  hex: toHex(fromHex(rconReq)),
  value: { ...local, password: 'wrong', command: 'players' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'empty-password',
  description: 'empty password and a command with spaces',
  source: CONSTRUCTED,
  hex: samp('x').str16('').str16('say hello world').hexString,
  value: { ...local, password: '', command: 'say hello world' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'truncated-password',
  description: 'the password is cut (open.mp answers "Invalid RCON password.", 0.3.7 is silent)',
  source: 'PROTOCOLS.md §1.14 `x` example, cut inside the password',
  hex: toHex(fromHex(rconReq).subarray(0, 16)),
  error: { type: 'TruncatedError', offset: 13, field: 'samp.rcon.password' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'invalid-password',
  description: 'the one-line reply to a wrong password',
  source: 'PROTOCOLS.md §1.14 `x` reply example',
  hex: toHex(fromHex(rconRes)),
  value: { ...local, output: 'Invalid RCON password.' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'empty-line',
  description: 'an empty console line',
  source: CONSTRUCTED,
  hex: samp('x').str16('').hexString,
  value: { ...local, output: '' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'truncated-output',
  description: 'the line is cut',
  source: 'PROTOCOLS.md §1.14 `x` reply example, cut by 5 bytes',
  hex: toHex(fromHex(rconRes).subarray(0, 30)),
  error: { type: 'TruncatedError', offset: 13, field: 'samp.rcon.output' },
});

/* ---------------- open.mp o ---------------- */
const ompHex =
  '53 41 4D 50 7F 00 00 01 61 1E 6F 11 00 00 00 64 69 73 63 6F 72 64 2E 67 67 2F 6F 70 65 6E 6D 70 00 00 00 00 00 00 00 00 00 00 00 00';
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'basic',
  description: 'Discord invite only, no banners or logo',
  source: 'PROTOCOLS.md §1.14 `o` example',
  hex: toHex(fromHex(ompHex)),
  value: { ...local, discord: 'discord.gg/openmp', bannerLight: '', bannerDark: '', logo: '' },
});
const url = 'https://example.com/' + 'x'.repeat(140);
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'max-urls',
  description: 'all four strings, URLs at the 160-byte cap',
  source: CONSTRUCTED,
  hex: samp('o').str32('discord.gg/abc').str32(url).str32(url).str32(url).hexString,
  value: { ...local, discord: 'discord.gg/abc', bannerLight: url, bannerDark: url, logo: url },
});
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'truncated-logo-length',
  description: 'the datagram ends inside the logo length',
  source: 'PROTOCOLS.md §1.14 `o` example, cut by 2 bytes',
  hex: toHex(fromHex(ompHex).subarray(0, 42)),
  error: { type: 'TruncatedError', offset: 40, field: 'samp.omp.logo.len' },
});

/* ---------------- open.mp o, older forms (samp/omp.ts) ---------------- */
const OMP_SRC = 'openmultiplayer/open.mp Server/Components/LegacyNetwork/Query/query.cpp';
const ECHO_SRC = `constructed after ${OMP_SRC} at d96fde3 (2022-05-31; sent by v0.0.11.2331 through v1.1.0.2612): a 15-byte \`o\` is sent back unchanged`;
const BANNERS_SRC = `constructed after ${OMP_SRC} at f145074 and 9a704f9 (sent by v1.2.0.2670 only): buildExtraServerInfoBuffer writes three u32-length strings`;
const LOGO_SRC = `constructed after ${OMP_SRC} at acc062d and 00909d0 (sent by v1.3.1.2744 and later, v1.5.8.3079 and HEAD f8058db included)`;
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'request',
  name: 'basic',
  description: 'the open.mp detection probe of v1.1 and older: header + 4 arbitrary bytes',
  source: ECHO_SRC,
  hex: samp('o').u32be(0x12345678).hexString,
  value: { ...local, nonce: 0x12345678 },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'response',
  name: 'basic',
  description: 'open.mp v1.0/v1.1 answer: the 15-byte request unchanged',
  source: ECHO_SRC,
  hex: samp('o').u32be(0x12345678).hexString,
  value: { ...local, nonce: 0x12345678 },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'request',
  name: 'nonce-zero',
  description: 'the echo probe with four zero bytes',
  source: ECHO_SRC,
  hex: samp('o').u32be(0).hexString,
  value: { ...local, nonce: 0 },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'response',
  name: 'nonce-zero',
  description: 'its echo',
  source: ECHO_SRC,
  hex: samp('o').u32be(0).hexString,
  value: { ...local, nonce: 0 },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'response',
  name: 'truncated-nonce',
  description: '14 bytes: the echo is cut',
  source: ECHO_SRC,
  hex: samp('o').u32be(0x12345678).hexString.slice(0, 28),
  error: { type: 'TruncatedError', offset: 11, field: 'samp.ompecho.nonce' },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'request',
  name: 'truncated-nonce',
  description: '13 bytes: the nonce is cut (no open.mp version answers this)',
  source: ECHO_SRC,
  hex: samp('o').u32be(0x12345678).hexString.slice(0, 26),
  error: { type: 'TruncatedError', offset: 11, field: 'samp.ompecho.nonce' },
});
add({
  protocol: 'samp',
  message: 'ompbanners',
  direction: 'response',
  name: 'basic',
  description: 'open.mp v1.2.0.2670: Discord invite and both banners, no logo',
  source: BANNERS_SRC,
  hex: samp('o').str32('discord.gg/openmp').str32('https://example.com/light.png').str32('https://example.com/dark.png').hexString,
  value: {
    ...local,
    discord: 'discord.gg/openmp',
    bannerLight: 'https://example.com/light.png',
    bannerDark: 'https://example.com/dark.png',
  },
});
const url120 = 'https://example.com/' + 'b'.repeat(100);
add({
  protocol: 'samp',
  message: 'ompbanners',
  direction: 'response',
  name: 'long-discord-dropped',
  description: 'v1.2: an invite over 50 bytes is sent with length 0, banners at the 120-byte cap',
  source: BANNERS_SRC,
  hex: samp('o').u32le(0).str32(url120).str32(url120).hexString,
  value: { ...local, discord: '', bannerLight: url120, bannerDark: url120 },
});
add({
  protocol: 'samp',
  message: 'ompbanners',
  direction: 'response',
  name: 'empty',
  description: 'v1.2 defaults: three empty strings (23 bytes)',
  source: BANNERS_SRC,
  hex: samp('o').u32le(0).u32le(0).u32le(0).hexString,
  value: { ...local, discord: '', bannerLight: '', bannerDark: '' },
});
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'logo',
  description: 'open.mp v1.3.1 and later: all four strings',
  source: LOGO_SRC,
  hex: samp('o')
    .str32('discord.gg/openmp')
    .str32('https://example.com/light.png')
    .str32('https://example.com/dark.png')
    .str32('https://example.com/logo.png').hexString,
  value: {
    ...local,
    discord: 'discord.gg/openmp',
    bannerLight: 'https://example.com/light.png',
    bannerDark: 'https://example.com/dark.png',
    logo: 'https://example.com/logo.png',
  },
});
add({
  protocol: 'samp',
  message: 'ompbanners',
  direction: 'response',
  name: 'truncated-dark-banner',
  description: 'v1.2 reply cut inside the dark banner URL',
  source: BANNERS_SRC,
  hex: samp('o')
    .u32le(0)
    .u32le(0)
    .str32('https://example.com/dark.png')
    .hexString.slice(0, 2 * 40),
  error: { type: 'TruncatedError', offset: 23, field: 'samp.omp.banner_dark' },
});
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'empty',
  description: 'v1.3.1+ defaults: four empty strings (27 bytes)',
  source: LOGO_SRC,
  hex: samp('o').u32le(0).u32le(0).u32le(0).u32le(0).hexString,
  value: { ...local, discord: '', bannerLight: '', bannerDark: '', logo: '' },
});

/* ---------------- VC:MP ---------------- */
for (const [op, message] of [
  ['i', 'info'],
  ['c', 'clients'],
] as const) {
  add({
    protocol: 'vcmp',
    message,
    direction: 'request',
    name: 'basic',
    description: `${message} request to 127.0.0.1:8192`,
    source: CONSTRUCTED,
    hex: vcmpReq(op).hexString,
    value: vlocal,
  });
  add({
    protocol: 'vcmp',
    message,
    direction: 'request',
    name: 'broadcast-address',
    description: 'VCB LAN discovery sends FF FF FF FF as address',
    source: 'PROTOCOLS.md §2.1 (VCB LAN scan)',
    hex: new B().ascii('VCMP').raw(255, 255, 255, 255).u16le(8000).ascii(op).hexString,
    value: { serverIp: '255.255.255.255', serverPort: 8000 },
  });
  add({
    protocol: 'vcmp',
    message,
    direction: 'request',
    name: 'bad-magic',
    description: 'SA:MP magic in a VC:MP request',
    source: CONSTRUCTED,
    hex: samp(op).hexString,
    error: { type: 'BadMagicError', offset: 0, field: 'vcmp.magic' },
  });
}
const version = (s: string) => new B().ascii(s).raw(...new Array(12 - s.length).fill(0)).hexString;
add({
  protocol: 'vcmp',
  message: 'info',
  direction: 'response',
  name: 'basic',
  description: '04rel006 server, map name as third string',
  source: CONSTRUCTED,
  hex: vcmpRes('i').hex(version('04rel006')).u8(0).u16le(3).u16le(100).str32('VC:MP Server').str32('Freeroam').str32('Vice City').hexString,
  value: {
    ...vlocal,
    version: '04rel006',
    password: false,
    players: 3,
    maxPlayers: 100,
    hostname: 'VC:MP Server',
    gamemode: 'Freeroam',
    map: 'Vice City',
  },
});
add({
  protocol: 'vcmp',
  message: 'info',
  direction: 'response',
  name: 'full-width-version-empty-strings',
  description: '12-character version with no NUL; empty strings; password set',
  source: CONSTRUCTED,
  hex: vcmpRes('i').ascii('04rel006-abc').u8(1).u16le(0).u16le(0).u32le(0).u32le(0).u32le(0).hexString,
  value: { ...vlocal, version: '04rel006-abc', password: true, players: 0, maxPlayers: 0, hostname: '', gamemode: '', map: '' },
});
add({
  protocol: 'vcmp',
  message: 'info',
  direction: 'response',
  name: 'truncated-version',
  description: 'shorter than the 32 bytes VCB requires',
  source: CONSTRUCTED,
  hex: vcmpRes('i').ascii('04rel0').hexString,
  error: { type: 'TruncatedError', offset: 11, field: 'vcmp.info.version' },
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'basic',
  description: 'names only, no scores (gamedig HEAD wrongly reads scores)',
  source: CONSTRUCTED,
  hex: vcmpRes('c').u16le(2).str8('Tommy').str8('Lance').hexString,
  value: { ...vlocal, clients: [{ name: 'Tommy' }, { name: 'Lance' }] },
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'empty',
  description: 'no players',
  source: CONSTRUCTED,
  hex: vcmpRes('c').u16le(0).hexString,
  value: { ...vlocal, clients: [] },
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'truncated-name',
  description: 'the second name is cut',
  source: CONSTRUCTED,
  hex: vcmpRes('c').u16le(2).str8('Tommy').u8(5).ascii('La').hexString,
  error: { type: 'TruncatedError', offset: 20, field: 'vcmp.client.name' },
});
for (const [direction, head] of [
  ['request', vcmpReq],
  ['response', vcmpRes],
] as const) {
  add({
    protocol: 'vcmp',
    message: 'ping',
    direction,
    name: 'basic',
    description: 'ping with nonce 12 34 56 78 (layout by lineage from SA:MP, unconfirmed)',
    source: CONSTRUCTED,
    hex: head('p').u32be(0x12345678).hexString,
    value: { ...vlocal, nonce: 0x12345678 },
  });
  add({
    protocol: 'vcmp',
    message: 'ping',
    direction,
    name: 'zero-nonce',
    description: 'nonce 0',
    source: CONSTRUCTED,
    hex: head('p').u32be(0).hexString,
    value: { ...vlocal, nonce: 0 },
  });
  add({
    protocol: 'vcmp',
    message: 'ping',
    direction,
    name: 'truncated-nonce',
    description: 'nonce missing',
    source: CONSTRUCTED,
    hex: head('p').hexString,
    error: { type: 'TruncatedError', offset: 11, field: 'vcmp.ping.nonce' },
  });
}

/* ---------------- Minecraft ---------------- */
add({
  protocol: 'mcquery',
  message: 'handshake',
  direction: 'request',
  name: 'basic',
  description: 'session id 1',
  source: 'PROTOCOLS.md §3.10 (wiki.vg, real)',
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
  source: 'PROTOCOLS.md §3.10 (wiki.vg, real)',
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
  source: 'PROTOCOLS.md §3.10 reply, cut by 1 byte',
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
  source: 'PROTOCOLS.md §3.10 (token bytes from wiki.vg)',
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
  source: 'PROTOCOLS.md §3.10 (wiki.vg, real)',
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
  source: 'PROTOCOLS.md §3.10 basic reply, cut',
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
  source: 'PROTOCOLS.md §3.2 (GD padding)',
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
  source: CONSTRUCTED + ' (key order from PROTOCOLS.md §3.6)',
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
  source: CONSTRUCTED + ' (Geyser behaviour from PROTOCOLS.md §3.6)',
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

/* ---------------- write ---------------- */

const nodeJson = (n: FieldNode): Record<string, unknown> => ({
  abbrev: n.abbrev,
  offset: n.offset,
  length: n.length,
  value: nodeValueToJson(n.value),
  ...(n.children ? { children: n.children.map(nodeJson) } : {}),
});

const check = process.argv.includes('--check');
let failures = 0;
const fail = (c: Case, why: string) => {
  failures++;
  console.error(`${c.protocol}/${c.message}-${c.direction}.${c.name}: ${why}`);
};
const written = new Set<string>();

for (const c of cases) {
  const layout: QueryLayout = layoutFor(c.protocol, c.message, c.direction);
  const bytes = fromHex(c.hex);
  const opts = c.charset ? { charset: c.charset } : {};
  const ann = layout.annotate(bytes, opts);
  const id = `${c.protocol}/${c.message}-${c.direction}.${c.name}`;
  if (written.has(id)) fail(c, 'duplicate id');
  written.add(id);
  const vector: Record<string, unknown> = {
    id,
    protocol: c.protocol,
    message: c.message,
    direction: c.direction,
    layout: layout.id,
    description: c.description,
    ...(c.charset ? { charset: c.charset } : {}),
    hex: c.hex,
  };
  if (c.error) {
    if (!ann.error) {
      fail(c, 'expected an error, decoded fine');
      continue;
    }
    const e = ann.error;
    if (e.name !== c.error.type || e.info.offset !== c.error.offset || e.info.field !== c.error.field) {
      fail(
        c,
        `expected ${c.error.type} at ${c.error.offset} in ${c.error.field}, got ${e.name} at ${e.info.offset} in ${e.info.field}: ${e.message}`,
      );
      continue;
    }
    vector.error = { type: e.name, offset: e.info.offset, field: e.info.field, message: e.message };
  } else {
    if (ann.error) {
      fail(c, `unexpected ${ann.error.message}`);
      continue;
    }
    const want = c.value!;
    if (!isDeepStrictEqual(ann.value, want)) {
      fail(c, `value differs:\n got ${JSON.stringify(valueToJson(layout, ann.value!))}`);
      continue;
    }
    const encoded = toHex(layout.encode(want, opts));
    const canonical = c.canonical ?? c.hex;
    if (encoded !== canonical) {
      fail(c, `encode gives ${encoded}`);
      continue;
    }
    vector.value = valueToJson(layout, want);
    if (c.canonical) vector.canonicalHex = c.canonical;
    if (ann.warnings.length) vector.warnings = ann.warnings.map((w) => ({ code: w.code, field: w.field, offset: w.offset }));
  }
  vector.fields = ann.fields.map(nodeJson);
  vector.source = c.source;
  const file = join(root, `${id}.json`);
  const text = JSON.stringify(vector, null, 2) + '\n';
  if (check) {
    let old = '';
    try {
      old = readFileSync(file, 'utf8');
    } catch {
      /* missing */
    }
    if (old !== text) fail(c, 'vector file is out of date (run pnpm vectors)');
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
console.log(`${cases.length} cases, ${failures} failures`);
process.exit(failures ? 1 : 0);
