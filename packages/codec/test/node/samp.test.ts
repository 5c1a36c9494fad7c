/**
 * SA-MP 0.3.7 and open.mp emulation over real UDP on 127.0.0.1: every opcode against
 * both flavors, the exact-length rules, the caps, the >100-player silence and the RCON
 * table of src/protocols/samp/README.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHex, samp, type Layout, type QueryLayout } from '@gamequery/codec';
import { sampResponder, resolveServer, type ResolvedSamp, type SampServerState } from '@gamequery/codec/node';
import { ascii, concat, pad, setup, type Client } from './udp.ts';

type Target = { address: string; port: number };

const players = [
  { name: 'Alice', score: 120, ping: 35, id: 0 },
  { name: 'Bob', score: -3, ping: 80, id: 300 },
  { name: 'Bot', npc: true, id: 5 },
];

const rcon = {
  password: 'secret',
  commands: { players: ['ID Name Ping', '0 Alice 35', '300 Bob 80'], kick: ['Kicked.'] },
};

const crowd = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Player${i}`, score: i }));

const base = { port: 0, maxPlayers: 50, players, rcon } as const;

/** The servers of the emulator under test, by role. */
const servers = {
  samp: {
    ...base,
    flavor: 'samp037',
    hostname: 'Test 0.3.7',
    gamemode: 'Freeroam',
    rules: { weburl: 'example.com', 'SAMPCAC version': '1', mapname: 'Las Venturas', lagcomp: 'On' },
  },
  omp: {
    ...base,
    flavor: 'openmp',
    hostname: 'Test open.mp',
    gamemode: 'Roleplay',
    discord: 'discord.gg/openmp',
    bannerLight: `https://e.com/${'l'.repeat(200)}`,
    bannerDark: 'https://e.com/dark.png',
    logo: 'https://e.com/logo.png',
  },
  sampLong: { ...base, flavor: 'samp037', hostname: 'H'.repeat(70), gamemode: 'G'.repeat(45), language: 'L'.repeat(45) },
  ompLong: {
    ...base,
    flavor: 'openmp',
    charset: 'utf8',
    hostname: 'é'.repeat(40),
    gamemode: 'G'.repeat(45),
    language: 'L'.repeat(45),
    discord: `discord.gg/${'x'.repeat(40)}`,
  },
  samp101: { ...base, flavor: 'samp037', players: crowd(101), maxPlayers: 200 },
  omp101: { ...base, flavor: 'openmp', players: crowd(101), maxPlayers: 200 },
  samp100: { ...base, flavor: 'samp037', players: crowd(100), maxPlayers: 200 },
  omp100: { ...base, flavor: 'openmp', players: crowd(100), maxPlayers: 200 },
  sampNoRcon: { ...base, flavor: 'samp037', rcon: undefined },
  ompRconOff: { ...base, flavor: 'openmp', rcon: { ...rcon, enabled: false } },
} satisfies Record<string, SampServerState>;

type Role = keyof typeof servers;
const roles = Object.keys(servers) as Role[];

let client: Client;
let done: () => Promise<void>;
const target: Partial<Record<Role, Target>> = {};

beforeAll(async () => {
  const s = await setup({ servers: roles.map((r) => servers[r]) });
  client = s.client;
  done = s.done;
  roles.forEach((r, i) => (target[r] = { address: '127.0.0.1', port: s.server(i).port }));
});
afterAll(() => done());

const at = (role: Role): Target => target[role]!;
const head = (role: Role) => ({ serverIp: '127.0.0.1', serverPort: at(role).port });
const ask = (role: Role, bytes: Uint8Array) => client.query(bytes, at(role));
/** Waits out a silence: no reply within 300 ms. */
const silent = async (role: Role, bytes: Uint8Array) => expect(await client.query(bytes, at(role), { timeoutMs: 300 })).toEqual([]);

/** The 11-byte request of `layout` to `role`. */
const request = (layout: QueryLayout, role: Role) => layout.encode(head(role));
/** The single reply to `bytes`, decoded with `layout`. */
async function reply<V>(role: Role, bytes: Uint8Array, layout: Layout<V>, charset?: 'latin1'): Promise<{ value: V; bytes: Uint8Array }> {
  const got = await ask(role, bytes);
  expect(got).toHaveLength(1);
  const d = layout.decode(got[0]!, charset ? { charset } : undefined);
  expect(d.bytesRead).toBe(got[0]!.length);
  return { value: d.value, bytes: got[0]! };
}

const rconBytes = (role: Role, password: Uint8Array | string, command: string) =>
  typeof password === 'string'
    ? samp.rconRequest.encode({ ...head(role), password, command })
    : // A password with bytes the layout's text cannot carry (an embedded NUL): p, then the bytes.
      concat(
        samp.infoRequest.encode(head(role)).subarray(0, 10),
        ascii('x'),
        [password.length & 0xff, password.length >> 8],
        password,
        [command.length, 0],
        ascii(command),
      );
const lines = (got: Uint8Array[]) => got.map((b) => samp.rconResponse.decode(b).value.output);

describe.each([
  ['SA-MP 0.3.7', 'samp' as const],
  ['open.mp', 'omp' as const],
])('%s: common behaviour', (_title, role) => {
  it('answers i with the state, counting humans only and max players minus NPCs', async () => {
    const { value, bytes } = await reply(role, request(samp.infoRequest, role), samp.infoResponse);
    expect(value).toMatchObject({
      password: false,
      players: 2,
      maxPlayers: 49,
      hostname: servers[role].hostname,
      gamemode: servers[role].gamemode,
    });
    expect(toHex(bytes.subarray(0, 11))).toBe(toHex(request(samp.infoRequest, role)));
  });

  it('echoes bytes 4–9 unchecked (LGSL sent 21 21 21 21 00 00)', async () => {
    const odd = samp.infoRequest.encode({ serverIp: '33.33.33.33', serverPort: 0 });
    const { bytes } = await reply(role, odd, samp.infoResponse);
    expect(toHex(bytes.subarray(0, 11))).toBe('53414d5021212121000069');
  });

  it('answers r with the rules sorted by the bytes of their names', async () => {
    const { value } = await reply(role, request(samp.rulesRequest, role), samp.rulesResponse);
    const names = value.rules.map((r) => r.name);
    expect(names).toEqual([...names].sort());
    if (role === 'samp') expect(names).toEqual(['SAMPCAC version', 'lagcomp', 'mapname', 'weburl']);
    else expect(value.rules).toContainEqual({ name: 'version', value: 'omp 1.4.0.2779' });
  });

  it('answers c with names and signed scores, NPCs left out', async () => {
    const { value } = await reply(role, request(samp.clientsRequest, role), samp.clientsResponse);
    expect(value.clients).toEqual([
      { name: 'Alice', score: 120 },
      { name: 'Bob', score: -3 },
    ]);
  });

  it('answers p (exactly 15 bytes) with the request, byte for byte', async () => {
    const ping = samp.pingRequest.encode({ ...head(role), nonce: 0x12345678 });
    expect(await ask(role, ping)).toEqual([ping]);
    await Promise.all([silent(role, ping.subarray(0, 14)), silent(role, concat(ping, [0]))]);
  });

  it('answers c with 100 players but not with 101 (c), while i still counts them', async () => {
    const r100 = role === 'samp' ? 'samp100' : 'omp100';
    const r101 = role === 'samp' ? 'samp101' : 'omp101';
    expect((await reply(r100, request(samp.clientsRequest, r100), samp.clientsResponse)).value.clients).toHaveLength(100);
    await silent(r101, request(samp.clientsRequest, r101));
    expect((await reply(r101, request(samp.infoRequest, r101), samp.infoResponse)).value).toMatchObject({ players: 101, maxPlayers: 200 });
  });

  it('says nothing to an unknown opcode, a foreign magic or fewer than 11 bytes', async () => {
    const info = request(samp.infoRequest, role);
    // Each silence waited out at once with the others (300 ms each, one after another, was a second).
    await Promise.all([
      silent(role, concat(info.subarray(0, 10), ascii('z'))),
      silent(role, concat(ascii('PMAS'), info.subarray(4))),
      silent(role, info.subarray(0, 10)),
    ]);
  });

  it('runs an RCON command with the right password: one datagram per line, header echoed', async () => {
    const got = await ask(role, rconBytes(role, 'secret', 'players'));
    expect(lines(got)).toEqual(['ID Name Ping', '0 Alice 35', '300 Bob 80']);
    for (const b of got) expect(toHex(b.subarray(0, 11))).toBe(toHex(rconBytes(role, 'secret', 'players').subarray(0, 11)));
  });

  it('finds canned output by the first word, and names an unknown command', async () => {
    expect(lines(await ask(role, rconBytes(role, 'secret', 'kick 3')))).toEqual(['Kicked.']);
    expect(lines(await ask(role, rconBytes(role, 'secret', 'gmx now')))).toEqual(['Unknown command or variable: gmx now']);
  });

  it('answers a wrong password, or one of another length, with one "Invalid RCON password." line', async () => {
    expect(lines(await ask(role, rconBytes(role, 'secreT', 'players')))).toEqual(['Invalid RCON password.']);
    expect(lines(await ask(role, rconBytes(role, 'secre', 'players')))).toEqual(['Invalid RCON password.']);
    const [one] = await ask(role, rconBytes(role, 'wrong', 'players'));
    expect(one).toHaveLength(35);
  });

  it('says nothing to an 11- or 12-byte x, or with the command cut short', async () => {
    const full = rconBytes(role, 'secret', 'players');
    await Promise.all([
      silent(role, full.subarray(0, 11)),
      silent(role, full.subarray(0, 12)),
      silent(role, full.subarray(0, full.length - 1)), // command 6 of 7 bytes
      silent(role, full.subarray(0, 20)), // command length cut
    ]);
  });
});

describe('SA-MP 0.3.7 (YSF) quirks', () => {
  it('answers i r c d at any length of at least 11', async () => {
    for (const [req, res] of [
      [samp.infoRequest, samp.infoResponse],
      [samp.rulesRequest, samp.rulesResponse],
      [samp.clientsRequest, samp.clientsResponse],
      [samp.playersRequest, samp.playersResponse],
    ] as const) {
      for (const extra of [1, 4, 30]) {
        const padded = concat(request(req, 'samp'), pad(extra, 0xaa));
        const got = await ask('samp', padded);
        expect(got).toHaveLength(1);
        expect(toHex(got[0]!.subarray(0, 11))).toBe(toHex(padded.subarray(0, 11)));
        expect(res.decode(got[0]!).bytesRead).toBe(got[0]!.length);
      }
    }
  });

  it('answers d with the low 8 bits of each id, score and ping', async () => {
    const { value } = await reply('samp', request(samp.playersRequest, 'samp'), samp.playersResponse);
    expect(value.players).toEqual([
      { id: 0, name: 'Alice', score: 120, ping: 35 },
      { id: 300 & 0xff, name: 'Bob', score: -3, ping: 80 },
    ]);
  });

  it('withholds d above 100 players and sends it at 100', async () => {
    await silent('samp101', request(samp.playersRequest, 'samp101'));
    expect((await reply('samp100', request(samp.playersRequest, 'samp100'), samp.playersResponse)).value.players).toHaveLength(100);
  });

  it('never answers o', async () => {
    await silent('samp', request(samp.ompRequest, 'samp'));
  });

  it('sends the mapname rule as the third i string when language is empty', async () => {
    expect((await reply('samp', request(samp.infoRequest, 'samp'), samp.infoResponse)).value.language).toBe('Las Venturas');
  });

  it('caps hostname, gamemode and language at 50, 30 and 30 bytes', async () => {
    const { value } = await reply('sampLong', request(samp.infoRequest, 'sampLong'), samp.infoResponse);
    expect([value.hostname.length, value.gamemode.length, value.language.length]).toEqual([50, 30, 30]);
  });

  it('compares the RCON password as a C string: a NUL ends it', async () => {
    const withNul = concat(ascii('secret'), [0], ascii('junk'));
    expect(lines(await ask('samp', rconBytes('samp', withNul, 'kick')))).toEqual(['Kicked.']);
  });

  it('says nothing when the password field is shorter than its length', async () => {
    const full = rconBytes('samp', 'secret', 'players');
    await silent('samp', full.subarray(0, 16)); // 3 of 6 password bytes
  });

  it('accepts bytes after the command', async () => {
    expect(lines(await ask('samp', concat(rconBytes('samp', 'secret', 'kick'), ascii('trailing'))))).toEqual(['Kicked.']);
  });

  it('keeps silent to x when RCON is off, whatever the password', async () => {
    await Promise.all([
      silent('sampNoRcon', rconBytes('sampNoRcon', 'secret', 'players')),
      silent('sampNoRcon', rconBytes('sampNoRcon', 'wrong', 'players')),
    ]);
  });
});

describe('open.mp quirks', () => {
  it('answers i r c o only to exactly 11 bytes', async () => {
    for (const layout of [samp.infoRequest, samp.rulesRequest, samp.clientsRequest, samp.ompRequest]) {
      expect(await ask('omp', request(layout, 'omp'))).toHaveLength(1);
      await silent('omp', concat(request(layout, 'omp'), [0]));
    }
  });

  it('never answers d, at any length', async () => {
    await Promise.all([
      silent('omp', request(samp.playersRequest, 'omp')),
      silent('omp', concat(request(samp.playersRequest, 'omp'), pad(4))),
    ]);
  });

  it('answers o with Discord invite, banners and logo, banner URLs cut to 160 bytes', async () => {
    const { value, bytes } = await reply('omp', request(samp.ompRequest, 'omp'), samp.ompResponse);
    expect(bytes[10]).toBe(0x6f);
    expect(value).toMatchObject({ discord: 'discord.gg/openmp', bannerDark: 'https://e.com/dark.png', logo: 'https://e.com/logo.png' });
    expect(value.bannerLight).toBe(servers.omp.bannerLight.slice(0, 160));
  });

  it('sends the Discord invite empty when it is longer than 50 bytes', async () => {
    const { value } = await reply('ompLong', request(samp.ompRequest, 'ompLong'), samp.ompResponse);
    expect(value.discord).toBe('');
  });

  it('defaults the language to EN', async () => {
    expect((await reply('omp', request(samp.infoRequest, 'omp'), samp.infoResponse)).value.language).toBe('EN');
  });

  it('caps hostname, gamemode and language at 63, 39 and 39 bytes, cutting a UTF-8 character in half', async () => {
    const { value } = await reply('ompLong', request(samp.infoRequest, 'ompLong'), samp.infoResponse, 'latin1');
    expect([value.hostname.length, value.gamemode.length, value.language.length]).toEqual([63, 39, 39]);
    // 40 × "é" is 80 bytes (C3 A9 …); byte 63 is the lead byte C3 of the 32nd.
    expect(value.hostname.charCodeAt(62)).toBe(0xc3);
  });

  it('answers a password field shorter than its length as a wrong password', async () => {
    const full = rconBytes('omp', 'secret', 'players');
    expect(lines(await ask('omp', full.subarray(0, 16)))).toEqual(['Invalid RCON password.']);
  });

  it('compares the RCON password by length and bytes: a NUL does not end it', async () => {
    const withNul = concat(ascii('secret'), [0], ascii('junk'));
    expect(lines(await ask('omp', rconBytes('omp', withNul, 'kick')))).toEqual(['Invalid RCON password.']);
  });

  it('says nothing when bytes follow the command', async () => {
    await silent('omp', concat(rconBytes('omp', 'secret', 'kick'), ascii('trailing')));
  });

  it('keeps silent to x when RCON is disabled', async () => {
    await silent('ompRconOff', rconBytes('ompRconOff', 'secret', 'players'));
  });
});

describe('SA-MP 0.3.7 flood guard (YSF CheckQueryFlood), at the responder with a made-up clock', () => {
  const state = (floodGuard: boolean) => resolveServer({ flavor: 'samp037', port: 0, maxPlayers: 10, floodGuard }) as ResolvedSamp;
  const info = samp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: 7777 });
  const ping = samp.pingRequest.encode({ serverIp: '127.0.0.1', serverPort: 7777, nonce: 1 });
  const a = { address: '10.0.0.1', port: 5000 };
  const b = { address: '10.0.0.2', port: 5000 };
  const answered = (r: ReturnType<typeof sampResponder>, from: typeof a, at: number, bytes = info) => r.respond(bytes, from, at).length > 0;

  it('drops another address within 25 ms of the last one answered, then lets it in', () => {
    const r = sampResponder(state(true));
    expect(answered(r, a, 1000)).toBe(true);
    expect(answered(r, a, 1001)).toBe(true); // same address: never dropped
    expect(answered(r, b, 1010)).toBe(false);
    expect(answered(r, b, 1024)).toBe(false);
    expect(answered(r, b, 1025)).toBe(true); // the slot moves to b
    expect(answered(r, a, 1030)).toBe(false);
  });

  it('never drops p', () => {
    const r = sampResponder(state(true));
    expect(answered(r, a, 1000)).toBe(true);
    expect(answered(r, b, 1001, ping)).toBe(true);
  });

  it('is off by default', () => {
    const r = sampResponder(state(false));
    expect(answered(r, a, 1000)).toBe(true);
    expect(answered(r, b, 1001)).toBe(true);
  });
});
