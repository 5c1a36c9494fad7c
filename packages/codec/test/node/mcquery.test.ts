/** Vanilla Minecraft query emulation over real UDP on 127.0.0.1 and ::1 (src/protocols/mcquery/README.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromHex, toHex, mcquery } from '@gamequery/codec';
import type { EmulatorConfig, MinecraftServerState } from '@gamequery/codec/node';
import { client as newClient, concat, setup, type Client, type Target } from './udp.ts';

const state: MinecraftServerState = {
  flavor: 'minecraft',
  port: 0,
  motd: '§aA Minecraft Server',
  version: '1.21.4',
  map: 'world',
  maxPlayers: 20,
  players: [{ name: 'Notch' }, { name: 'jeb_' }],
};

const handshake = (sessionId: number) => mcquery.handshakeRequest.encode({ sessionId });
const basic = (sessionId: number, token: number) => mcquery.basicRequest.encode({ sessionId, token });
const full = (sessionId: number, token: number) => mcquery.fullRequest.encode({ sessionId, token, padding: fromHex('ffffff01') });
const asResponse = { protocol: 'mcquery', direction: 'response' } as const;
// kvOf: the codec types fullResponse's `kv` entries as `string | { key, value }` (its
// terminatedList infers Flat as boolean when no options are given); they are objects.

/** Handshakes from `c` and returns the token. */
async function tokenFor(c: Client, to: Target, sessionId = 1): Promise<number> {
  const [r] = await c.query(handshake(sessionId), to);
  return mcquery.handshakeResponse.decode(r!).value.token;
}

/** One emulator per describe: `config` for its Minecraft server(s). */
function withEmulator(config: Omit<EmulatorConfig, 'servers'> & { servers?: EmulatorConfig['servers'] }, clientAddress?: string) {
  const ctx = {} as { client: Client; to: Target; done: () => Promise<void>; hostPort: number };
  beforeAll(async () => {
    const s = await setup({ servers: [state], ...config }, clientAddress);
    ctx.client = s.client;
    ctx.done = s.done;
    ctx.to = { address: s.server().address, port: s.server().port };
    ctx.hostPort = s.server().port;
  });
  afterAll(() => ctx.done());
  return ctx;
}

const silent = async (c: Client, bytes: Uint8Array, to: Target) => expect(await c.query(bytes, to, { timeoutMs: 300 })).toEqual([]);

describe('Minecraft handshake', () => {
  const ctx = withEmulator({});

  it('replies 09, the session id and a decimal token in 0…16 777 215', async () => {
    const [r] = await ctx.client.query(handshake(0x01020304), ctx.to);
    expect(toHex(r!.subarray(0, 5))).toBe('0901020304');
    expect(r![r!.length - 1]).toBe(0);
    const { token } = mcquery.handshakeResponse.decode(r!).value;
    expect(token).toBeGreaterThanOrEqual(0);
    expect(token).toBeLessThan(0x1000000);
  });

  it('drops datagrams shorter than 3 bytes, without FE FD, of another type, or a handshake under 7 bytes', async () => {
    await silent(ctx.client, fromHex('fefd'), ctx.to);
    await silent(ctx.client, fromHex('fefe0900000001'), ctx.to);
    await silent(ctx.client, fromHex('fefd0100000001'), ctx.to);
    await silent(ctx.client, fromHex('fefd09000000'), ctx.to);
  });
});

describe('Minecraft stat', () => {
  const ctx = withEmulator({});

  it('answers an 11-byte stat with a valid token with the basic stat', async () => {
    const token = await tokenFor(ctx.client, ctx.to, 7);
    const [r] = await ctx.client.query(basic(7, token), ctx.to);
    const d = mcquery.basicResponse.decode(r!);
    expect(d.value).toEqual({
      sessionId: 7,
      motd: '§aA Minecraft Server',
      gametype: 'SMP',
      map: 'world',
      numPlayers: 2,
      maxPlayers: 20,
      hostPort: ctx.hostPort,
      hostIp: '127.0.0.1',
    });
    expect(d.bytesRead).toBe(r!.length);
    // Vanilla writes § as the single byte A7, and hostport little-endian.
    expect(toHex(r!.subarray(5, 7))).toBe('a761');
  });

  it('answers exactly 15 bytes with the full stat: split header, vanilla key order, player section', async () => {
    const token = await tokenFor(ctx.client, ctx.to, 9);
    const [r] = await ctx.client.query(full(9, token), ctx.to);
    const d = mcquery.fullResponse.decode(r!);
    const kv = d.value.kv as Array<{ key: string; value: string }>; // see kvOf
    expect(d.bytesRead).toBe(r!.length);
    expect(toHex(d.value.splitnum)).toBe('73706c69746e756d008000');
    expect(kv.map((p) => p.key)).toEqual([
      'hostname',
      'gametype',
      'game_id',
      'version',
      'plugins',
      'map',
      'numplayers',
      'maxplayers',
      'hostport',
      'hostip',
    ]);
    expect(Object.fromEntries(kv.map((p) => [p.key, p.value]))).toMatchObject({
      hostname: '§aA Minecraft Server',
      game_id: 'MINECRAFT',
      plugins: '',
      numplayers: '2',
      maxplayers: '20',
      hostport: String(ctx.hostPort),
    });
    expect(d.value.players).toEqual(['Notch', 'jeb_']);
    // ... hostip value 00 | 00 01 "player_" 00 00 | Notch 00 jeb_ 00 | 00
    expect(toHex(r!.subarray(r!.length - 24))).toBe('0000' + '01706c617965725f0000' + '4e6f74636800' + '6a65625f00' + '00');
  });

  it('answers any stat length other than 15 with the basic stat', async () => {
    const token = await tokenFor(ctx.client, ctx.to);
    for (const extra of [1, 3, 5, 9]) {
      const [r] = await ctx.client.query(concat(basic(1, token), new Uint8Array(extra)), ctx.to);
      expect(mcquery.basicResponse.decode(r!).bytesRead).toBe(r!.length);
    }
  });

  it("carries the session id stored at handshake time, not the stat request's", async () => {
    const token = await tokenFor(ctx.client, ctx.to, 0x01010101);
    const [b] = await ctx.client.query(basic(0x0a0b0c0d, token), ctx.to);
    expect(mcquery.basicResponse.decode(b!).value.sessionId).toBe(0x01010101);
    const [f] = await ctx.client.query(full(0x0a0b0c0d, token), ctx.to);
    expect(mcquery.fullResponse.decode(f!).value.sessionId).toBe(0x01010101);
  });

  it('drops a wrong token', async () => {
    const token = await tokenFor(ctx.client, ctx.to);
    await silent(ctx.client, basic(1, (token + 1) % 0x1000000), ctx.to);
    await silent(ctx.client, full(1, token ^ 0x800000), ctx.to);
  });

  it('keys the token by IP and port: another socket on the same IP gets nothing', async () => {
    const token = await tokenFor(ctx.client, ctx.to);
    const other = await newClient();
    try {
      await silent(other, basic(1, token), ctx.to);
    } finally {
      await other.close();
    }
  });

  it('drops a stat before any handshake', async () => {
    const fresh = await newClient();
    try {
      await silent(fresh, basic(1, 0), ctx.to);
    } finally {
      await fresh.close();
    }
  });

  it('decodes its replies through decodePacket with the mcquery hint', async () => {
    const token = await tokenFor(ctx.client, ctx.to);
    const [r] = await ctx.client.query(full(1, token), ctx.to);
    const { decodePacket } = await import('@gamequery/codec');
    expect(decodePacket(r!, asResponse)).toMatchObject({ message: 'full' });
  });
});

describe('Minecraft tokens', () => {
  let next = 100;
  const ctx = withEmulator({ tokenSource: () => next++ });

  it('replaces the token on a new handshake from the same socket', async () => {
    const first = await tokenFor(ctx.client, ctx.to);
    const second = await tokenFor(ctx.client, ctx.to);
    expect(second).not.toBe(first);
    await silent(ctx.client, basic(1, first), ctx.to);
    expect(await ctx.client.query(basic(1, second), ctx.to)).toHaveLength(1);
  });

  it('checks a stat shorter than 11 bytes against token 0', async () => {
    const token = await tokenFor(ctx.client, ctx.to);
    expect(token).not.toBe(0);
    await silent(ctx.client, fromHex('fefd0000000001'), ctx.to);
  });
});

describe('Minecraft token 0', () => {
  const ctx = withEmulator({ tokenSource: () => 0 });

  it('answers a stat shorter than 11 bytes when the token is 0 (vanilla reads a missing token as 0)', async () => {
    expect(await tokenFor(ctx.client, ctx.to)).toBe(0);
    const [r] = await ctx.client.query(fromHex('fefd0000000001'), ctx.to);
    expect(mcquery.basicResponse.decode(r!).value.motd).toBe('§aA Minecraft Server');
  });
});

describe('Minecraft token expiry', () => {
  const ctx = withEmulator({ tokenPurgeMs: 150 });

  it('purges every token at once each tokenPurgeMs, so a token lives at most that long', async () => {
    // A purge may fall between handshake and stat (a token lives 0–150 ms): retry a few times.
    let token = -1;
    for (let i = 0; i < 5 && token < 0; i++) {
      const t = await tokenFor(ctx.client, ctx.to);
      if ((await ctx.client.query(basic(1, t), ctx.to, { timeoutMs: 100 })).length === 1) token = t;
    }
    expect(token).toBeGreaterThanOrEqual(0);
    await new Promise((r) => setTimeout(r, 320)); // at least one purge has run since the handshake
    await silent(ctx.client, basic(1, token), ctx.to);
    // A fresh handshake works again.
    const again = await tokenFor(ctx.client, ctx.to);
    const replies = await ctx.client.query(basic(1, again), ctx.to, { timeoutMs: 100 });
    expect(replies.length).toBeLessThanOrEqual(1); // 0 only if a purge fell in between
  });
});

describe('Minecraft over IPv6', () => {
  const ctx = withEmulator({ servers: [{ ...state, host: '::1', hostIp: '::1' }] }, '::1');

  it('answers handshake and full stat on ::1', async () => {
    expect(ctx.to.address).toBe('::1');
    const token = await tokenFor(ctx.client, ctx.to);
    const [r] = await ctx.client.query(full(1, token), ctx.to);
    const kv = Object.fromEntries(
      (mcquery.fullResponse.decode(r!).value.kv as Array<{ key: string; value: string }>).map((p) => [p.key, p.value]),
    );
    expect(kv['hostip']).toBe('::1');
  });
});
