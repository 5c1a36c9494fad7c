/**
 * The emulator as a whole: several servers from one process on IPv4 and IPv6 loopback,
 * the ports it reports, its counters, the loopback guard, state checking, and the
 * amplification factors documented in limits.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mcquery, samp, vcmp } from '@gamequery/codec';
import {
  StateError,
  isLoopback,
  minecraftResponder,
  parseState,
  resolveServer,
  sampResponder,
  startEmulator,
  vcmpResponder,
  type ResolvedMinecraft,
  type ResolvedSamp,
  type ResolvedVcmp,
  type Responder,
} from '@gamequery/codec/node';
import { client } from './udp.ts';

const example = JSON.parse(readFileSync(new URL('../../../../examples/servers.json', import.meta.url), 'utf8')) as {
  servers: Array<Record<string, unknown>>;
};

describe('startEmulator', () => {
  it('serves every server of the example state on ephemeral ports, IPv4 and IPv6, and reports them', async () => {
    const emulator = await startEmulator({ servers: example.servers.map((s) => ({ ...s, port: 0 })) as never });
    const v4 = await client();
    const v6 = await client('::1');
    try {
      expect(emulator.servers.map((s) => [s.flavor, s.protocol, s.address, s.name])).toEqual([
        ['samp037', 'samp', '127.0.0.1', 'My Server'],
        ['openmp', 'samp', '127.0.0.1', 'My open.mp Server'],
        ['vcmp', 'vcmp', '127.0.0.1', 'My VC:MP Server'],
        ['minecraft', 'mcquery', '127.0.0.1', 'A Minecraft Server'],
        ['minecraft', 'mcquery', '::1', '§aIPv6 world'],
      ]);
      const ports = emulator.servers.map((s) => s.port);
      expect(new Set(ports).size).toBe(ports.length);
      for (const p of ports) expect(p).toBeGreaterThan(0);

      const [sa037, omp, vc, , mc6] = emulator.servers;
      const [i] = await v4.query(samp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: sa037!.port }), sa037!);
      expect(samp.infoResponse.decode(i!).value.hostname).toBe('My Server');
      expect(await v4.query(samp.ompRequest.encode({ serverIp: '127.0.0.1', serverPort: omp!.port }), omp!)).toHaveLength(1);
      const [v] = await v4.query(vcmp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: vc!.port }), vc!);
      expect(vcmp.infoResponse.decode(v!).value.map).toBe('Vice City');
      expect(await v6.query(mcquery.handshakeRequest.encode({ sessionId: 1 }), mc6!)).toHaveLength(1);
    } finally {
      await v4.close();
      await v6.close();
      await emulator.close();
    }
  });

  it('counts requests, replies, bytes and silences per server and in total', async () => {
    const emulator = await startEmulator({
      servers: [
        { flavor: 'openmp', port: 0, maxPlayers: 10 },
        { flavor: 'vcmp', port: 0, maxPlayers: 10 },
      ],
    });
    const c = await client();
    try {
      const [omp, vc] = emulator.servers;
      const info = samp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: omp!.port });
      const [reply] = await c.query(info, omp!);
      expect(await c.query(samp.playersRequest.encode({ serverIp: '127.0.0.1', serverPort: omp!.port }), omp!, { timeoutMs: 200 })).toEqual(
        [],
      );
      expect(await c.query(vcmp.clientsRequest.encode({ serverIp: '127.0.0.1', serverPort: vc!.port }), vc!)).toHaveLength(1);
      const stats = emulator.stats();
      expect(stats.servers[0]).toMatchObject({
        flavor: 'openmp',
        received: 2,
        bytesIn: 22,
        answered: 1,
        silent: 1,
        replies: 1,
        bytesOut: reply!.length,
        rateLimited: 0,
        byteCapped: 0,
        errors: 0,
      });
      expect(stats.servers[1]).toMatchObject({ flavor: 'vcmp', received: 1, answered: 1, replies: 1 });
      expect(stats.total).toMatchObject({ received: 3, answered: 2, silent: 1, replies: 2 });
      expect(stats.sources).toBe(1);
    } finally {
      await c.close();
      await emulator.close();
    }
  });

  it('adds the port offset to non-zero ports', async () => {
    // Find a free port, then ask for it as (port - 1000) + 1000.
    const probe = await client();
    const free = probe.port;
    await probe.close();
    const emulator = await startEmulator({
      servers: [
        { flavor: 'vcmp', port: free - 1000, maxPlayers: 1 },
        { flavor: 'vcmp', port: 0, maxPlayers: 1 },
      ],
      portOffset: 1000,
    });
    try {
      expect(emulator.servers[0]!.port).toBe(free);
      expect(emulator.servers[1]!.port).not.toBe(1000);
    } finally {
      await emulator.close();
    }
  });

  it('rejects a port offset that leaves the port range, and a purge period that is not positive', async () => {
    await expect(startEmulator({ servers: [{ flavor: 'vcmp', port: 65000, maxPlayers: 1 }], portOffset: 1000 })).rejects.toThrow(
      'servers[0].port: 65000 + offset 1000 = 66000 is not a port in 1..65535',
    );
    await expect(startEmulator({ servers: [{ flavor: 'vcmp', port: 7000, maxPlayers: 1 }], portOffset: -7000 })).rejects.toThrow(
      'is not a port',
    );
    await expect(startEmulator({ servers: [], tokenPurgeMs: 0 })).rejects.toThrow('tokenPurgeMs');
  });

  it('rejects a port it cannot bind, closing the sockets it had already bound', async () => {
    const first = await startEmulator({ servers: [{ flavor: 'vcmp', port: 0, maxPlayers: 1 }] });
    try {
      const taken = first.servers[0]!.port;
      await expect(
        startEmulator({
          servers: [
            { flavor: 'vcmp', port: 0, maxPlayers: 1 },
            { flavor: 'vcmp', port: taken, maxPlayers: 1 },
          ],
        }),
      ).rejects.toThrow(`cannot bind 127.0.0.1:${taken}`);
    } finally {
      await first.close();
    }
  });

  it('refuses addresses that are not loopback unless allowPublic is set', async () => {
    await expect(startEmulator({ servers: [{ flavor: 'vcmp', port: 0, maxPlayers: 1 }], host: '0.0.0.0' })).rejects.toThrow(
      'refusing to bind 0.0.0.0',
    );
    await expect(startEmulator({ servers: [{ flavor: 'vcmp', port: 0, maxPlayers: 1, host: '::' }] })).rejects.toThrow(
      'servers[0].host: refusing to bind ::',
    );
    await expect(startEmulator({ servers: [{ flavor: 'vcmp', port: 0, maxPlayers: 1, host: 'example.com' }] })).rejects.toThrow(
      'is not an IP address',
    );
  });

  it('binds 127.0.0.1 by default and accepts "localhost" as 127.0.0.1', async () => {
    const emulator = await startEmulator({
      servers: [
        { flavor: 'vcmp', port: 0, maxPlayers: 1 },
        { flavor: 'vcmp', port: 0, maxPlayers: 1, host: 'localhost' },
      ],
    });
    try {
      expect(emulator.servers.map((s) => s.address)).toEqual(['127.0.0.1', '127.0.0.1']);
    } finally {
      await emulator.close();
    }
  });

  it('stops answering once closed, and close() may be called twice', async () => {
    const emulator = await startEmulator({ servers: [{ flavor: 'vcmp', port: 0, maxPlayers: 1 }] });
    const to = emulator.servers[0]!;
    await emulator.close();
    await emulator.close();
    const c = await client();
    try {
      expect(await c.query(vcmp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: to.port }), to, { timeoutMs: 200 })).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe('isLoopback', () => {
  it('knows 127/8 and ::1 in their spellings, and nothing else', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.1', '::2', 'localhost', '']) expect(isLoopback(a), a).toBe(false);
  });
});

describe('parseState', () => {
  it('accepts the example state and fills the defaults of each flavor', () => {
    const { servers } = parseState(example);
    expect(servers).toHaveLength(5);
    const omp = parseState({ servers: [{ flavor: 'openmp', port: 7777, maxPlayers: 50 }] }).servers[0] as ResolvedSamp;
    expect(omp).toMatchObject({
      hostname: 'open.mp server',
      gamemode: 'Unknown',
      language: 'EN',
      charset: 'windows-1252',
      floodGuard: false,
      rcon: undefined,
    });
    expect(omp.rules['allowed_clients']).toBe('0.3.7, 0.3.DL');
    const mc = parseState({ servers: [{ flavor: 'minecraft', port: 25565 }] }).servers[0] as ResolvedMinecraft;
    expect(mc).toMatchObject({
      motd: 'A Minecraft Server',
      gametype: 'SMP',
      gameId: 'MINECRAFT',
      map: 'world',
      maxPlayers: 20,
      plugins: '',
    });
  });

  it('names the path of what is wrong', () => {
    const bad = (servers: unknown[]) => () => parseState({ servers });
    expect(() => parseState([])).toThrow(StateError);
    expect(bad([{ flavor: 'quake', port: 1 }])).toThrow('servers[0].flavor: expected one of samp037, openmp, vcmp, minecraft');
    expect(bad([{ flavor: 'samp037', port: 70000, maxPlayers: 1 }])).toThrow('servers[0].port: expected an integer in 0..65535');
    expect(bad([{ flavor: 'samp037', port: 1 }])).toThrow('servers[0].maxPlayers: missing');
    expect(bad([{ flavor: 'samp037', port: 1, maxPlayers: 1, players: [{ name: 'x'.repeat(25) }] }])).toThrow(
      'servers[0].players[0].name: is 25 bytes in windows-1252, at most 24 fit',
    );
    expect(bad([{ flavor: 'openmp', port: 1, maxPlayers: 1, hostname: '日本' }])).toThrow(
      'servers[0].hostname: has characters that windows-1252 cannot encode',
    );
    expect(bad([{ flavor: 'openmp', port: 1, maxPlayers: 1, rcon: { password: '' } }])).toThrow(
      'servers[0].rcon.password: expected a non-empty string',
    );
    expect(bad([{ flavor: 'vcmp', port: 1, maxPlayers: 1, version: '0.4-release-006' }])).toThrow(
      'servers[0].version: expected at most 12 ASCII characters',
    );
    expect(bad([{ flavor: 'minecraft', port: 1, motd: 'a\u2a00b' }])).toThrow(
      'servers[0].motd: character 1 would be written as a NUL byte',
    );
    expect(bad([{ flavor: 'minecraft', port: 1, players: [{ name: '' }] }])).toThrow(
      'servers[0].players[0].name: expected a non-empty string',
    );
  });

  it('refuses a key no server shows (a misspelling would leave the default in its place), naming the nearest one', () => {
    const bad = (servers: unknown[]) => () => parseState({ servers });
    expect(bad([{ flavor: 'samp037', port: 1, maxPlayers: 1, hostnmae: 'x' }])).toThrow(
      'servers[0].hostnmae: no such key (did you mean hostname?)',
    );
    expect(bad([{ flavor: 'openmp', port: 1, maxPlayers: 1, rcon: { passwrod: 'x', password: 'y' } }])).toThrow(
      'servers[0].rcon.passwrod: no such key (did you mean password?)',
    );
    expect(bad([{ flavor: 'vcmp', port: 1, maxPlayers: 1, players: [{ name: 'a', scroe: 3 }] }])).toThrow(
      'servers[0].players[0].scroe: no such key (did you mean score?)',
    );
    // A key of another flavor: known to none of this one's checks, nearest to none.
    expect(bad([{ flavor: 'minecraft', port: 1, discord: 'x' }])).toThrow('servers[0].discord: no such key');
    expect(() => parseState({ servers: [], comment: 'x' })).toThrow('state.comment: no such key');
    expect(() => resolveServer({ flavor: 'vcmp', port: 1, maxPlayers: 1, mapp: 'x' })).toThrow(
      'server.mapp: no such key (did you mean map?)',
    );
    // Free-form maps keep any key: rules, RCON commands.
    const rules = { anything: 'goes', 'weird key': 'v' };
    const ok = parseState({
      servers: [{ flavor: 'samp037', port: 1, maxPlayers: 1, rules, rcon: { password: 'p', commands: { 'x y': ['z'] } } }],
    });
    expect((ok.servers[0] as ResolvedSamp).rules).toEqual(rules);
  });
});

/** Reply bytes over request bytes, from the responders directly. */
function factor(r: Responder, request: Uint8Array): number {
  const replies = r.respond(request, { address: '127.0.0.1', port: 1 }, 0);
  return replies.reduce((n, b) => n + b.length, 0) / request.length;
}

describe('amplification factors (as documented in limits.ts)', () => {
  const h = { serverIp: '127.0.0.1', serverPort: 7777 };
  const name24 = (i: number) => `P${String(i).padStart(23, '0')}`;
  const full = {
    port: 0,
    maxPlayers: 1000,
    hostname: 'H'.repeat(99),
    gamemode: 'G'.repeat(99),
    language: 'L'.repeat(99),
    players: Array.from({ length: 100 }, (_, i) => ({ name: name24(i) })),
    discord: 'd'.repeat(50),
    bannerLight: 'u'.repeat(200),
    bannerDark: 'u'.repeat(200),
    logo: 'u'.repeat(200),
    rcon: { password: 'x' },
  };
  const sampResponder037 = sampResponder(resolveServer({ ...full, flavor: 'samp037' }) as ResolvedSamp);
  const omp = sampResponder(resolveServer({ ...full, flavor: 'openmp' }) as ResolvedSamp);
  // VC:MP has none of SA:MP's language, open.mp's extras or RCON (a state file with them is refused).
  const { language: _language, discord: _discord, bannerLight: _light, bannerDark: _dark, logo: _logo, rcon: _rcon, ...vcmpFull } = full;
  const vcmpResponder04 = vcmpResponder(resolveServer({ ...vcmpFull, flavor: 'vcmp' }) as ResolvedVcmp);
  const round = (n: number) => Math.round(n * 10) / 10;

  it('SA:MP and VC:MP at the caps with 100 players of 24-byte names', () => {
    expect(round(factor(sampResponder037, samp.infoRequest.encode(h)))).toBe(12.5);
    expect(round(factor(omp, samp.infoRequest.encode(h)))).toBe(15.4);
    expect(round(factor(sampResponder037, samp.rulesRequest.encode(h)))).toBe(9.9);
    expect(round(factor(omp, samp.rulesRequest.encode(h)))).toBe(12.3);
    expect(round(factor(sampResponder037, samp.clientsRequest.encode(h)))).toBe(264.8);
    expect(round(factor(sampResponder037, samp.playersRequest.encode(h)))).toBe(310.3);
    expect(round(factor(omp, samp.ompRequest.encode(h)))).toBe(50.6);
    expect(round(factor(omp, samp.rconRequest.encode({ ...h, password: '', command: '' })))).toBe(2.3);
    expect(round(factor(vcmpResponder04, vcmp.clientsRequest.encode(h)))).toBe(228.5);
  });

  it('Minecraft: at most 2 for a handshake; stat replies need the token', () => {
    const mc = minecraftResponder(resolveServer(example.servers[3], 'mc') as ResolvedMinecraft, {
      boundPort: 25565,
      boundAddress: '127.0.0.1',
      tokenSource: () => 0xffffff,
    });
    try {
      expect(factor(mc, mcquery.handshakeRequest.encode({ sessionId: 1 }))).toBe(2);
      expect(factor(mc, mcquery.fullRequest.encode({ sessionId: 1, token: 1, padding: new Uint8Array(4) }))).toBe(0);
      expect(round(factor(mc, mcquery.fullRequest.encode({ sessionId: 1, token: 0xffffff, padding: new Uint8Array(4) })))).toBe(12.7);
    } finally {
      mc.close();
    }
  });
});
