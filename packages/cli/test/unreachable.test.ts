/**
 * query, ping and rcon to a closed port on loopback: "port unreachable" and exit 3 at once,
 * not after their timeouts (here 20 s each, so a run that waited them out could not pass).
 * A silent server, bound but never answering, still takes the timeout path.
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gamequery } from './cli.ts';

let silent: Socket;
let closed: number;

beforeAll(async () => {
  silent = createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind({ address: '127.0.0.1', port: 0 }, () => resolve()));
  const s = createSocket('udp4');
  await new Promise<void>((resolve) => s.bind({ address: '127.0.0.1', port: 0 }, () => resolve()));
  closed = s.address().port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
});
afterAll(() => {
  silent.close();
});

const LONG = ['--timeout', '20000'];

describe('a closed port', () => {
  it.each([
    ['query samp', () => ['query', 'samp', `127.0.0.1:${closed}`, ...LONG]],
    ['query minecraft', () => ['query', 'minecraft', `127.0.0.1:${closed}`, ...LONG]],
    ['ping', () => ['ping', 'samp', `127.0.0.1:${closed}`, ...LONG]],
    ['rcon', () => ['rcon', `127.0.0.1:${closed}`, 'players', ...LONG]],
  ])('%s: port unreachable, exit 3, well before the timeout', async (_, args) => {
    const started = performance.now();
    const r = await gamequery(args(), { env: { GAMEQUERY_RCON_PASSWORD: 'not-used-here' }, ms: 15_000 });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`gamequery: 127.0.0.1:${closed}: port unreachable (the host says nothing listens on UDP port ${closed})`);
    // The command's own start-up (tsx) is most of it; a timeout would be 20 s.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(r.stderr).not.toContain('RCON disabled');
  });
});

describe('a silent server', () => {
  it('rcon still waits out --timeout and says so, exit 3', async () => {
    const r = await gamequery(['rcon', `127.0.0.1:${silent.address().port}`, 'players', '--timeout', '300'], {
      env: { GAMEQUERY_RCON_PASSWORD: 'x' },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('RCON disabled or the password/command was cut');
  });
});
