/**
 * gamedig (5.3.3, node-gamedig) as an independent reader of the A2S fixture's bytes: a server on
 * 127.0.0.1 answers gamedig's A2S_INFO and A2S_PLAYER queries with what the fixture's layouts
 * encode (test/fixtures/protocols/a2s), and gamedig's Valve protocol (`protocol-valve`, its own
 * Buffer-based reader) must read back what was encoded: the Steam ID past 2^53 to the digit (a
 * Long), the app ID from the low 24 bits of the 64-bit game ID, and each player's time as the
 * float Buffer.readFloatLE gives. Its queries must decode as the fixture's requests.
 */
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameDig } from 'gamedig';
import { a2sMessages } from '../fixtures/protocols/a2s/protocol.ts';
import { players, server } from '../fixtures/protocols/a2s/samples.ts';

const { info, player } = a2sMessages;

let socket: dgram.Socket;
let port = 0;
/** What gamedig sent, decoded by the fixture's layouts. */
const queries: unknown[] = [];

beforeAll(async () => {
  socket = dgram.createSocket('udp4');
  socket.on('message', (msg, from) => {
    const bytes = new Uint8Array(msg);
    const reply = bytes[4] === 0x54 ? info.response.encode(server) : bytes[4] === 0x55 ? player.response.encode({ players }) : undefined;
    queries.push((bytes[4] === 0x54 ? info.request : player.request).decode(bytes).value);
    if (reply) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  port = socket.address().port;
});
afterAll(() => new Promise<void>((resolve) => socket.close(() => resolve())));

describe('gamedig protocol-valve against the A2S fixture', () => {
  it('reads what the layouts encode: names, counts, the Steam ID exactly, the app ID from the 64-bit game ID, the tags', async () => {
    const r = await new GameDig().query({
      type: 'protocol-valve',
      host: '127.0.0.1',
      port,
      givenPortOnly: true,
      maxRetries: 1,
      socketTimeout: 800,
      attemptTimeout: 4000,
    });
    expect(r).toMatchObject({
      name: server.name,
      map: server.map,
      password: server.password,
      numplayers: server.players,
      maxplayers: server.maxPlayers,
      version: server.version,
      // The game port (EDF 0x80) is where gamedig says to connect.
      connect: `127.0.0.1:${server.port}`,
    });
    expect(r.raw).toMatchObject({
      protocol: server.protocol,
      folder: server.folder,
      game: server.game,
      numbots: server.bots,
      listentype: String.fromCharCode(server.serverType),
      environment: String.fromCharCode(server.environment),
      secure: 1,
      steamid: String(server.steamId),
      sourcetvport: server.tvPort,
      sourcetvname: server.tvName,
      tags: server.keywords.split(','),
      // gamedig takes the "more accurate" app ID from the game ID's low 24 bits (the u16 holds its low 16).
      appId: Number(server.gameId & 0xffffffn),
    });
    // Each player's time as gamedig's reader.float() gives it (Buffer.readFloatLE): the decoded f32, exactly. gamedig
    // files as many of them as the server counts bots under `bots` (those with the longest times), the rest under `players`.
    const everyone = [...r.players, ...(r['bots'] as typeof r.players)];
    expect(r.players.length).toBe(players.length - server.bots);
    const read = everyone.map((p) => ({ name: p.name, score: p.raw['score'], time: p.raw['time'] }));
    expect(read.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      players.map((p) => ({ name: p.name, score: p.score, time: p.duration })),
    );
    // Its queries are the fixture's requests: the info query's text, the player query asking for a challenge.
    expect(queries).toEqual([{}, { challenge: -1 }]);
  });
});
