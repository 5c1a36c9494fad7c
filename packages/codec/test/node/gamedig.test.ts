/**
 * A third-party client against the emulator: gamedig 5.3.3 (node-gamedig) queries
 * each flavor on 127.0.0.1. Where gamedig reads the protocol wrongly, the test pins
 * what it actually returns and says why.
 *
 * Game ids (gamedig lib/games.js): `gtasam` (protocol samp: i, r, then d),
 * `gtasao` (protocol gtasao = samp with isOmp: i, r, then c), `vcm` (protocol vcmp),
 * and for Minecraft `protocol-gamespy3`, the GS3/GS4 query alone; the `minecraft` id
 * runs the TCP status ping, Bedrock's ping and gamespy3 side by side.
 *
 * Every query: an IP literal (gamedig then skips DNS — checked below with spies),
 * the emulator's port only (`givenPortOnly`), one attempt, short timeouts. gamedig
 * has no close(), so the sockets it creates are tracked through `dgram.createSocket`
 * and closed after each test.
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { GameDig, type QueryResult } from 'gamedig';
import { startEmulator, type Emulator, type ServerState } from '@gamequery/codec/node';

const samp: ServerState = {
  flavor: 'samp037',
  port: 0,
  hostname: 'GameDig 0.3.7',
  gamemode: 'Freeroam',
  language: 'English',
  password: true,
  maxPlayers: 50,
  players: [
    { name: 'Alice', score: 120, ping: 35, id: 3 },
    { name: 'Bob', score: -3, ping: 80, id: 260 },
    { name: 'Bot', npc: true },
  ],
  rules: { lagcomp: 'On', mapname: 'San Andreas', version: '0.3.7-R2', weather: '10', worldtime: '12:00' },
};
const omp: ServerState = {
  flavor: 'openmp',
  port: 0,
  hostname: 'GameDig open.mp',
  gamemode: 'Roleplay',
  maxPlayers: 100,
  players: [
    { name: 'Carol', score: 5 },
    { name: 'Dave', score: 0 },
  ],
};
const vcmp: ServerState = {
  flavor: 'vcmp',
  port: 0,
  hostname: 'GameDig VC:MP',
  gamemode: 'Deathmatch',
  map: 'Vice City',
  maxPlayers: 40,
  players: [{ name: 'Tommy' }, { name: 'Lance' }],
};
const minecraft: ServerState = {
  flavor: 'minecraft',
  port: 0,
  motd: '§aGameDig §lMinecraft',
  map: 'world',
  version: '1.21.4',
  maxPlayers: 20,
  players: [{ name: 'Notch' }, { name: 'jeb_' }],
  hostPort: 25565,
};
const hundred: ServerState = {
  flavor: 'samp037',
  port: 0,
  hostname: 'Full house',
  maxPlayers: 100,
  players: Array.from({ length: 100 }, (_, i) => ({ name: `P${i}` })),
};

const roles = { samp, omp, vcmp, minecraft, hundred } as const;
type Role = keyof typeof roles;

let emulator: Emulator;
let zeroToken: Emulator;
const port: Partial<Record<Role, number>> = {};
const lookups = [vi.spyOn(dns.promises, 'lookup'), vi.spyOn(dns.promises, 'resolve')];
/** Sockets gamedig created during the current test. */
const clientSockets: dgram.Socket[] = [];
let createSocket: MockInstance | undefined;

beforeAll(async () => {
  const names = Object.keys(roles) as Role[];
  emulator = await startEmulator({ servers: names.map((r) => roles[r]) });
  names.forEach((r, i) => (port[r] = emulator.servers[i]!.port));
  zeroToken = await startEmulator({ servers: [minecraft], tokenSource: () => 0 });
  // From here on every dgram socket is gamedig's. gamedig imports createSocket by name,
  // so the builtin's ESM exports are re-synced after spying.
  const original = dgram.createSocket.bind(dgram) as (...args: unknown[]) => dgram.Socket;
  createSocket = vi.spyOn(dgram, 'createSocket').mockImplementation(((...args: unknown[]) => {
    const socket = original(...args);
    clientSockets.push(socket);
    return socket;
  }) as typeof dgram.createSocket);
  syncBuiltinESMExports();
});
afterAll(async () => {
  createSocket?.mockRestore();
  syncBuiltinESMExports();
  await emulator.close();
  await zeroToken.close();
  for (const spy of lookups) spy.mockRestore();
});
afterEach(() => {
  for (const socket of clientSockets.splice(0)) {
    try {
      socket.close();
    } catch {
      // already closed
    }
  }
});

function query(type: string, to: number, gamedig = new GameDig()): Promise<QueryResult> {
  return gamedig.query({
    type,
    host: '127.0.0.1',
    port: to,
    givenPortOnly: true,
    maxRetries: 1,
    socketTimeout: 800,
    attemptTimeout: 4000,
  });
}

describe('gamedig gtasam (SA-MP 0.3.7)', () => {
  it('reads name, counts, password, rules and the d list as the state says', async () => {
    const r = await query('gtasam', port.samp!);
    expect(r).toMatchObject({ name: 'GameDig 0.3.7', password: true, numplayers: 2, maxplayers: 49, version: '0.3.7-R2' });
    expect(r.raw.gamemode).toBe('Freeroam');
    expect(r.raw.rules).toEqual({ lagcomp: 'On', mapname: 'San Andreas', version: '0.3.7-R2', weather: '10', worldtime: '12:00' });
    expect(r.players.map((p) => ({ name: p.name, ...p.raw }))).toEqual([
      { name: 'Alice', id: 3, score: 120, ping: 35 },
      { name: 'Bob', id: 260 & 0xff, score: -3, ping: 80 },
    ]);
  });

  it('files the third i string (the language since 0.3.7) as raw.map, and leaves map empty', async () => {
    // gamedig samp.js: `state.raw.map = reader.pascalString(4)`; it predates 0.3.7's language.
    const r = await query('gtasam', port.samp!);
    expect(r.raw.map).toBe('English');
    expect(r.map).toBe('');
  });

  it('asks for no player list at exactly 100 players, though the server would still send one', async () => {
    // gamedig: `if (state.numplayers < 100)`; servers withhold the list only above 100.
    const r = await query('gtasam', port.hundred!);
    expect(r.numplayers).toBe(100);
    expect(r.players).toEqual([]);
    expect(emulator.stats().servers[4]!.received).toBe(2); // i and r, no d
  });

  it('gets no players from open.mp with the SA-MP id: open.mp never answers d', async () => {
    const r = await query('gtasam', port.omp!);
    expect(r.name).toBe('GameDig open.mp');
    expect(r.players).toEqual([]);
  });
});

describe('gamedig gtasao (open.mp)', () => {
  it('reads name, counts, open.mp rules and the c list as the state says', async () => {
    const r = await query('gtasao', port.omp!);
    expect(r).toMatchObject({ name: 'GameDig open.mp', password: false, numplayers: 2, maxplayers: 100, version: 'omp 1.4.0.2779' });
    expect(r.raw).toMatchObject({ gamemode: 'Roleplay', map: 'EN' });
    expect(r.raw.rules).toMatchObject({ allowed_clients: '0.3.7, 0.3.DL', artwork: 'No' });
    expect(r.players.map((p) => ({ name: p.name, ...p.raw }))).toEqual([
      { name: 'Carol', score: 5 },
      { name: 'Dave', score: 0 },
    ]);
  });
});

describe('gamedig vcm (VC:MP)', () => {
  it('reads version, name, gamemode, map and counts', async () => {
    const r = await query('vcm', port.vcmp!);
    expect(r).toMatchObject({ name: 'GameDig VC:MP', version: '04rel006', password: false, numplayers: 2, maxplayers: 40 });
    expect(r.raw).toMatchObject({ gamemode: 'Deathmatch', map: 'Vice City' });
  });

  it('misreads the names-only c list by taking a score after each name', async () => {
    // gamedig commit 6bfc342 made the shared `c` reader take `int(4)` for VC:MP too, but a
    // VC:MP list has names only (VCWIKI; src/protocols/vcmp/README.md). After "Tommy" it reads the
    // next entry's length byte and "Lan" as a score, then 0x63 ('c') as a name length
    // and gets the one byte left, "e"; the read past the end yields score 0.
    const r = await query('vcm', port.vcmp!);
    const garbled = Buffer.from([5, ...Buffer.from('Lan')]).readInt32LE(0);
    expect(r.players.map((p) => ({ name: p.name, score: p.raw.score }))).toEqual([
      { name: 'Tommy', score: garbled },
      { name: 'e', score: 0 },
    ]);
  });
});

describe('gamedig protocol-gamespy3 (Minecraft query)', () => {
  it('reads the full stat: hostname, counts, players, hostport', async () => {
    const r = await query('protocol-gamespy3', port.minecraft!);
    expect(r).toMatchObject({ name: '§aGameDig §lMinecraft', numplayers: 2, maxplayers: 20, connect: '127.0.0.1:25565' });
    expect(r.players.map((p) => p.name)).toEqual(['Notch', 'jeb_']);
    expect(r.raw).toMatchObject({ game_id: 'MINECRAFT', map: 'world', version: '1.21.4', hostip: '127.0.0.1' });
  });

  it('leaves map and version empty: it looks for GS3 keys mapname and gamever', async () => {
    const r = await query('protocol-gamespy3', port.minecraft!);
    expect(r.map).toBe('');
    expect(r.version).toBe('');
  });

  it('fails on a vanilla token of 0, which it takes for "no challenge"', async () => {
    // gamespy3.js sends no token when the challenge is 0 (a BF2 convention), so its
    // stat is FE FD 00 id FF FF FF 01: vanilla reads FF FF FF 01 as the token and drops it.
    await expect(query('protocol-gamespy3', zeroToken.servers[0]!.port)).rejects.toThrow();
    expect(zeroToken.stats().total.silent).toBeGreaterThanOrEqual(1);
  });
});

describe('gamedig minecraft', () => {
  it('fails on a fresh instance: its handshake and stat leave from two different sockets', async () => {
    // The three legs (TCP status ping, Bedrock ping, gamespy3) start at once, and
    // GlobalUdpSocket._getSocket creates a socket per concurrent caller until the first
    // bind completes. The gamespy3 handshake goes out on one source port and its stat on
    // another; vanilla keys challenges by IP:port, so the stat is dropped.
    await expect(query('minecraft', port.minecraft!)).rejects.toThrow('Failed all 1 attempts');
    expect(clientSockets.length).toBeGreaterThanOrEqual(2); // UDP sockets only: the TCP ping uses net
  });

  it('gets the GS4 result on a warm instance, but decodes the MOTD as UTF-8', async () => {
    // Once one socket exists every leg shares it. The TCP ping is refused (the emulator
    // has no TCP) and the Bedrock ping dropped (no FE FD), both on 127.0.0.1. The
    // gamespy3 leg decodes UTF-8, so vanilla's single-byte § (A7) becomes U+FFFD and the
    // colour codes survive its `\u00A7.` stripping.
    const gamedig = new GameDig();
    await query('minecraft', port.minecraft!, gamedig).catch(() => undefined);
    const r = await query('minecraft', port.minecraft!, gamedig);
    expect(r).toMatchObject({ numplayers: 2, maxplayers: 20 });
    expect(r.players.map((p) => p.name)).toEqual(['Notch', 'jeb_']);
    expect(r.name).toBe('\uFFFDaGameDig \uFFFDlMinecraft');
  });
});

describe('gamedig and DNS', () => {
  it('made no DNS lookup for any of these queries', () => {
    for (const spy of lookups) expect(spy).not.toHaveBeenCalled();
  });
});
