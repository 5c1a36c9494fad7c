/**
 * `gamequery query` and `gamequery rcon` as a user runs them: child processes against an
 * emulator on loopback (127.0.0.1 and ::1) started by the test. Every wait is bounded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@gamequery/codec/node';
import { gamequery } from './cli.ts';

const PASSWORD = 'correct horse battery';

let emulator: Emulator;
let dir: string;
const at = (i: number): string => {
  const s = emulator.servers[i]!;
  return s.address.includes(':') ? `[${s.address}]:${s.port}` : `${s.address}:${s.port}`;
};
const LIMITS = { requestsPerSecond: 1e6, requestBurst: 1e6, bytesPerSecond: 1e9, byteBurst: 1e9 };

beforeAll(async () => {
  emulator = await startEmulator({
    limits: LIMITS,
    servers: [
      {
        flavor: 'samp037',
        port: 0,
        hostname: 'CLI \u001b[2Jsamp',
        gamemode: 'Freeroam',
        maxPlayers: 50,
        players: [{ name: 'Alice', score: 7, ping: 30, id: 2 }],
        rcon: { password: PASSWORD, commands: { players: ['ID\tName\tPing', '2\tAlice\t30'] } },
      },
      {
        flavor: 'openmp',
        port: 0,
        hostname: 'CLI open.mp',
        maxPlayers: 20,
        players: [{ name: 'Bob', score: 1 }],
        discord: 'discord.gg/cli',
      },
      { flavor: 'minecraft', port: 0, motd: 'CLI world', players: [{ name: 'Steve' }] },
      { flavor: 'minecraft', port: 0, host: '::1', motd: 'CLI world v6' },
      { flavor: 'vcmp', port: 0, hostname: 'CLI VC:MP', maxPlayers: 10, players: [{ name: 'Tommy' }] },
    ],
  });
  dir = mkdtempSync(join(tmpdir(), 'gamequery-cli-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('gamequery query', () => {
  it('prints a table and, for one server, its rules and players, with control characters made harmless', async () => {
    const r = await gamequery(['query', 'samp', at(0)]);
    expect(r.code).toBe(0);
    const [head, row] = r.stdout.split('\n');
    expect(head).toMatch(/^SERVER +TYPE +NAME +PLAYERS +MODE · LANGUAGE +RTT$/);
    expect(row).toContain(`${at(0)}  samp  CLI \\x1b[2Jsamp  1/50`);
    expect(row).toMatch(/\d+\.\d\d? ms$/);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('players (1, from `d`):\n  #2 Alice  score 7  ping 30 ms');
    expect(r.stdout).toContain('  version = 0.3.7-R2');
    expect(r.stdout).toContain('\nflavor: samp-0.3.7 (version=0.3.7-R2)\n');
  });

  it('queries several servers at once and prints JSON; a closed port fails at once, port unreachable, with exit code 3', async () => {
    const r = await gamequery(['query', 'samp', at(0), at(1), '127.0.0.1:1', '--json', '--timeout', '200', '--retries', '0']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the command's JSON, read as loosely as JSON.parse returns it
    expect(out.map((o) => o['ok'])).toEqual([true, true, false]);
    expect(out[0]).toMatchObject({ server: at(0), openmp: false, playersFrom: 'd', info: { hostname: 'CLI \u001b[2Jsamp' } });
    expect(out[1]).toMatchObject({
      openmp: true,
      playersFrom: 'c',
      omp: { discord: 'discord.gg/cli' },
      players: [{ name: 'Bob', score: 1 }],
    });
    expect([out[0]!['flavor'], out[1]!['flavor']]).toEqual([
      { name: 'samp-0.3.7', evidence: ['version=0.3.7-R2'] },
      { name: 'openmp', evidence: ['version=omp 1.4.0.2779', 'allowed_clients=0.3.7, 0.3.DL', 'artwork=No', 'o=logo'] },
    ]);
    expect(out[2]).toMatchObject({ server: '127.0.0.1:1', error: { type: 'UnreachableError', code: 'unreachable' } });
    expect(out[2]!['error'].message).toBe('127.0.0.1:1: port unreachable (the host says nothing listens on UDP port 1)');
  });

  it('reads a server list from stdin, IPv6 included, comments and blank lines skipped', async () => {
    const list = `# minecraft servers\n${at(2)}\n\n${at(3)}   # the IPv6 one\n`;
    const r = await gamequery(['query', 'minecraft', '-', '--json'], { stdin: list });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the command's JSON, read as loosely as JSON.parse returns it
    expect(out.map((o) => [o['server'], o['info'].motd, o['mode']])).toEqual([
      [at(2), 'CLI world', 'full'],
      [at(3), 'CLI world v6', 'full'],
    ]);
    expect(out[0]!['players']).toEqual(['Steve']);
  });

  it('says each failure once: in the table, and how many of each in one line on stderr', async () => {
    const r = await gamequery(['query', 'samp', at(0), '127.0.0.1:1', '127.0.0.1:2', '127.0.0.1:3', '--timeout', '200', '--retries', '0']);
    expect(r.code).toBe(3);
    expect(r.stdout.match(/^127\.0\.0\.1:[123] +- +\(port unreachable\)$/gm)).toHaveLength(3);
    expect(r.stderr).toBe("gamequery: 3 of 4 servers failed: 3 port unreachable (--json gives each one's message)\n");
  });

  it('reads a list from a file, asks the basic stat with --basic, and reports an unreadable line', async () => {
    const file = join(dir, 'servers.txt');
    writeFileSync(file, `${at(2)}\n[nope]:1\n`);
    const r = await gamequery(['query', 'minecraft', '--file', file, '--basic']);
    expect(r.code).toBe(2);
    // The basic stat has no version: the column shows the map alone.
    expect(r.stdout).toMatch(new RegExp(`^${at(2).replace(/[.[\]]/g, '\\$&')} +minecraft +CLI world +1/20 +world +\\d`, 'm'));
    expect(r.stdout).toMatch(/^\[nope\]:1 +- +\(not a server address\)/m);
    expect(r.stderr).toContain('gamequery: "[nope]:1": brackets hold an IPv6 address');
    const json = await gamequery(['query', 'minecraft', '--file', file, '--basic', '--json']);
    expect(JSON.parse(json.stdout)[1]).toMatchObject({ server: '[nope]:1', ok: false, error: { type: 'TargetError', code: 'bad-target' } });
  });

  it('queries VC:MP', async () => {
    const r = await gamequery(['query', 'vcmp', at(4), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([
      { ok: true, info: { hostname: 'CLI VC:MP', version: '04rel006' }, players: [{ name: 'Tommy' }] },
    ]);
  });

  it('refuses to run without servers', async () => {
    const r = await gamequery(['query', 'samp']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no servers given');
  });
});

describe('gamequery rcon', () => {
  it('prints the output lines, the password read from a file', async () => {
    const file = join(dir, 'rcon.pw');
    writeFileSync(file, `${PASSWORD}\n`);
    const r = await gamequery(['rcon', at(0), '--password-file', file, '--quiet', '150', 'players']);
    expect(r).toMatchObject({ code: 0, stdout: 'ID\tName\tPing\n2\tAlice\t30\n' });
  });

  it('says the password is wrong (taken from the environment) without printing it', async () => {
    const r = await gamequery(['rcon', at(0), '--json', '--quiet', '150', 'players'], {
      env: { GAMEQUERY_RCON_PASSWORD: 'wrong-secret-value' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`gamequery: wrong RCON password for ${at(0)}: the server answered "Invalid RCON password."`);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { type: 'WrongPasswordError', code: 'wrong-password' } });
    expect(r.stdout + r.stderr).not.toContain('wrong-secret-value');
  });

  it('explains silence, and wants a password', async () => {
    const silent = await gamequery(['rcon', at(1), '--timeout', '200', '--quiet', '100', 'players'], {
      env: { GAMEQUERY_RCON_PASSWORD: PASSWORD },
    });
    expect(silent.code).toBe(3);
    expect(silent.stderr).toContain('RCON disabled or the password/command was cut');
    expect(silent.stderr).not.toContain(PASSWORD);
    const none = await gamequery(['rcon', at(0), 'players']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no RCON password: pass --password-file FILE or set GAMEQUERY_RCON_PASSWORD');
  });
});
