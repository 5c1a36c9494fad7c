/**
 * `gamequery rcon` masks what the server's output echoes of the password it was sent, and
 * of a password the command sets, unless --show-secrets. An emulated SA-MP server on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@gamequery/codec/node';
import { gamequery } from './cli.ts';

const PASSWORD = 'echoed-secret-7';
const NEW = 'NEWSECRET9';
let emulator: Emulator;
let at: string;

beforeAll(async () => {
  emulator = await startEmulator({
    servers: [
      {
        flavor: 'samp037',
        port: 0,
        hostname: 'echo',
        maxPlayers: 10,
        rcon: {
          password: PASSWORD,
          commands: {
            varlist: ['Console Variables:', `  rcon_password\t= "${PASSWORD}"  (string)`, '  hostname\t= "echo"  (string)'],
            [`rcon_password ${NEW}`]: [`  rcon_password\t= "${NEW}"  (string)`],
          },
        },
      },
    ],
    limits: { requestsPerSecond: 1e6, requestBurst: 1e6, bytesPerSecond: 1e9, byteBurst: 1e9 },
  });
  at = `127.0.0.1:${emulator.servers[0]!.port}`;
});
afterAll(async () => {
  await emulator.close();
});

const env = { GAMEQUERY_RCON_PASSWORD: PASSWORD };

describe('gamequery rcon output', () => {
  it('masks the password where varlist echoes it, in text and JSON', async () => {
    const [text, json] = await Promise.all([
      gamequery(['rcon', at, 'varlist', '--quiet', '200'], { env }),
      gamequery(['rcon', at, 'varlist', '--quiet', '200', '--json'], { env }),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('Console Variables:\n  rcon_password\t= "********"  (string)\n  hostname\t= "echo"  (string)\n');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).lines).toEqual([
      'Console Variables:',
      '  rcon_password\t= "********"  (string)',
      '  hostname\t= "echo"  (string)',
    ]);
    for (const r of [text, json]) expect(r.stdout + r.stderr).not.toContain(PASSWORD);
  });

  it('masks a password the command sets, in its echo and in the JSON command', async () => {
    const r = await gamequery(['rcon', at, 'rcon_password', NEW, '--quiet', '200', '--json'], { env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.command).toBe('rcon_password ********');
    expect(out.lines).toEqual(['  rcon_password\t= "********"  (string)']);
    expect(r.stdout).not.toContain(NEW);
  });

  it('shows both with --show-secrets', async () => {
    const [varlist, set] = await Promise.all([
      gamequery(['rcon', at, 'varlist', '--quiet', '200', '--show-secrets'], { env }),
      gamequery(['rcon', at, 'rcon_password', NEW, '--quiet', '200', '--show-secrets'], { env }),
    ]);
    expect(varlist.stdout).toContain(`  rcon_password\t= "${PASSWORD}"  (string)`);
    expect(set.stdout).toBe(`  rcon_password\t= "${NEW}"  (string)\n`);
  });
});
