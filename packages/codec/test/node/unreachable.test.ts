/**
 * Unreachable servers fail fast: with `connect`, a query, ping or RCON command to a closed
 * loopback port fails at once with UnreachableError (the kernel's ICMP port unreachable,
 * which Node reports only on a connected socket); a silent server still takes the timeout
 * path, and a connected socket still gets every reply. Real sockets on 127.0.0.1 and ::1.
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoReplyError, QueryClient, UnreachableError, startEmulator, type Emulator, type ServerState } from '@gamequery/codec/node';

const LIMITS = { requestsPerSecond: 1e6, requestBurst: 1e6, bytesPerSecond: 1e9, byteBurst: 1e9 };
const LOCAL = { ipv4: '127.0.0.1', ipv6: '::1' };
const PASSWORD = 'unreachable-test';

const servers: ServerState[] = [
  {
    flavor: 'samp037',
    port: 0,
    hostname: 'Connected',
    maxPlayers: 10,
    players: [{ name: 'Alice' }],
    rcon: { password: PASSWORD, commands: { echo: ['one', 'two'] } },
  },
  { flavor: 'minecraft', port: 0, motd: 'Connected', maxPlayers: 20, players: [{ name: 'Notch' }] },
  { flavor: 'openmp', port: 0, host: '::1', hostname: 'IPv6', maxPlayers: 10 },
];

let emulator: Emulator;
/** A UDP socket bound on loopback that never answers (a silent drop), and a port nothing is bound to. */
let silent: Socket;
let closed: number;
let closed6: number;

async function bound(address: string): Promise<Socket> {
  const s = createSocket(address.includes(':') ? 'udp6' : 'udp4');
  await new Promise<void>((resolve) => s.bind({ address, port: 0 }, () => resolve()));
  return s;
}

async function freePort(address: string): Promise<number> {
  const s = await bound(address);
  const p = s.address().port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return p;
}

beforeAll(async () => {
  emulator = await startEmulator({ servers, limits: LIMITS });
  silent = await bound('127.0.0.1');
  closed = await freePort('127.0.0.1');
  closed6 = await freePort('::1');
});
afterAll(async () => {
  await emulator.close();
  silent.close();
});

const client = (connect: boolean): QueryClient =>
  new QueryClient({ localAddress: LOCAL, timeoutMs: 1500, retries: 2, backoffMs: 50, connect });

/** How a call ends, and when (ms). */
async function timed(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await call();
    return { error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

describe('a closed port, with connected sockets', () => {
  it.each([
    ['SA:MP query', (c: QueryClient) => c.querySamp('127.0.0.1', closed)],
    ['VC:MP query', (c: QueryClient) => c.queryVcmp('127.0.0.1', closed)],
    ['Minecraft query', (c: QueryClient) => c.queryMinecraft('127.0.0.1', closed)],
    ['ping', (c: QueryClient) => c.ping('127.0.0.1', closed)],
    ['RCON', (c: QueryClient) => c.rcon('127.0.0.1', closed, PASSWORD, 'echo')],
    ['SA:MP query over IPv6', (c: QueryClient) => c.querySamp('::1', closed6)],
  ])('%s fails within a second, port unreachable, without retries', async (_, call) => {
    const c = client(true);
    try {
      const { error, ms } = await timed(() => call(c));
      expect(error).toBeInstanceOf(UnreachableError);
      expect((error as UnreachableError).message).toMatch(/port unreachable/);
      expect((error as UnreachableError).info.code).toBe('unreachable');
      expect(ms).toBeLessThan(1000);
      expect(c.stats().retries).toBe(0);
    } finally {
      await c.close();
    }
  });
});

describe('what connecting leaves as it was', () => {
  it('a silent server still waits out its timeout and retries', async () => {
    const c = new QueryClient({ localAddress: LOCAL, timeoutMs: 150, retries: 1, backoffMs: 10, connect: true });
    try {
      const { error, ms } = await timed(() => c.ping('127.0.0.1', silent.address().port));
      expect(error).toBeInstanceOf(NoReplyError);
      expect(ms).toBeGreaterThanOrEqual(300);
      expect(c.stats().retries).toBe(1);
    } finally {
      await c.close();
    }
  });

  it('the shared socket (bulk querying) does not hear the ICMP: the timeout path', async () => {
    const c = new QueryClient({ localAddress: LOCAL, timeoutMs: 150, retries: 0, connect: false });
    try {
      const { error, ms } = await timed(() => c.ping('127.0.0.1', closed));
      expect(error).toBeInstanceOf(NoReplyError);
      expect(ms).toBeGreaterThanOrEqual(140);
    } finally {
      await c.close();
    }
  });

  it('a connected socket gets every reply: queries, RCON lines, IPv6, several servers at once', async () => {
    const c = client(true);
    try {
      const [samp, mc, v6, lines] = await Promise.all([
        c.querySamp('127.0.0.1', emulator.servers[0]!.port),
        c.queryMinecraft('127.0.0.1', emulator.servers[1]!.port),
        c.querySamp('::1', emulator.servers[2]!.port),
        c.rcon('127.0.0.1', emulator.servers[0]!.port, PASSWORD, 'echo'),
      ]);
      expect(samp.info.hostname).toBe('Connected');
      expect(mc.info.motd).toBe('Connected');
      expect(v6.info.hostname).toBe('IPv6');
      expect(lines.lines).toEqual(['one', 'two']);
      // And an unreachable one beside them fails on its own.
      await expect(c.querySamp('127.0.0.1', closed)).rejects.toBeInstanceOf(UnreachableError);
      await expect(c.ping('127.0.0.1', emulator.servers[0]!.port)).resolves.toMatchObject({ rttMs: expect.any(Number) });
    } finally {
      await c.close();
    }
  });
});
