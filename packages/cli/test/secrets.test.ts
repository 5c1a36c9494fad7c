/**
 * RCON passwords as a user would see them leak: `gamequery dissect` and `decode` print
 * `********` in every output form unless --show-secrets is given, and `gamequery rcon` and
 * `serve` never print one, whatever goes wrong. Each check looks for any 4 consecutive
 * characters of the password, as text and as hex (spaced, as in a hex pane, and run
 * together), so a partial leak shows too. Child processes on loopback; every wait bounded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { QueryClient, startEmulator, type Emulator } from '@gamequery/codec/node';
import { udpFrame, writePcap } from '../../dissect/test/capture/helpers.ts';
import { gamequery, type Ran } from './cli.ts';

const SECRET = 'Zq7xKv9Wp2';
const OTHER = 'Jm4rTt8Yh6';

/** Every 4-character window of `secret`, as text and as hex the ways a dump prints bytes. */
function traces(secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 4 <= secret.length; i++) {
    const part = secret.slice(i, i + 4);
    const hex = [...Buffer.from(part, 'latin1')].map((b) => b.toString(16).padStart(2, '0'));
    out.push(part, hex.join(' '), hex.join(''));
  }
  return out;
}

/** The traces of `secrets` found in what a run printed (stdout and stderr). */
const leaks = (r: Ran, ...secrets: string[]): string[] =>
  secrets.flatMap(traces).filter((t) => `${r.stdout}\n${r.stderr}`.toLowerCase().includes(t.toLowerCase()));

const header = { serverIp: '127.0.0.1', serverPort: 7777 };
const requestOf = (password: string, command: string): Uint8Array => samp.rconRequest.encode({ ...header, password, command });
const line = (output: string): Uint8Array => samp.rconResponse.encode({ ...header, output });

/** An Ethernet/IPv4/UDP frame between 127.0.0.1:50000 (client) and 127.0.0.1:7777. */
const frame = (payload: Uint8Array, fromServer: boolean): Uint8Array =>
  fromServer ? udpFrame(payload, 7777, 50000) : udpFrame(payload, 50000, 7777);

/** A classic pcap (Ethernet) of `datagrams`, 1 ms apart. */
const pcap = (datagrams: ReadonlyArray<readonly [Uint8Array, boolean]>): Uint8Array =>
  writePcap(
    datagrams.map(([p, fromServer], i) => ({ seconds: 1_700_000_000, ticks: i * 1000, data: frame(p, fromServer) })),
    { linkType: 1 },
  );

/** `xxd`'s layout: offset, 8 groups of 2 bytes, the printable bytes. */
function xxd(bytes: Uint8Array): string {
  const rows: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row = [...bytes.subarray(i, i + 16)];
    const hex = row
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('')
      .replace(/(.{4})/g, '$1 ')
      .trimEnd();
    rows.push(
      `${i.toString(16).padStart(8, '0')}: ${hex.padEnd(39)}  ${row.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('')}`,
    );
  }
  return rows.join('\n') + '\n';
}

let dir: string;
let capture: string;
let dump: string;
let cutDump: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gamequery-secrets-'));
  capture = join(dir, 'rcon.pcap');
  writeFileSync(
    capture,
    pcap([
      [requestOf(SECRET, 'players'), false],
      [line('Invalid RCON password.'), true],
      [requestOf(OTHER, 'echo hi'), false],
      [line('hi'), true],
    ]),
  );
  dump = join(dir, 'rcon.txt');
  writeFileSync(dump, xxd(requestOf(SECRET, 'players')));
  cutDump = join(dir, 'rcon-cut.txt');
  writeFileSync(cutDump, xxd(requestOf(SECRET, 'players').subarray(0, 20))); // cut 7 bytes into the password
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('gamequery dissect and decode mask RCON passwords', () => {
  const masked: ReadonlyArray<readonly string[]> = [
    ['-F', 'text'],
    ['-F', 'json'],
    ['-F', 'ndjson'],
    ['-F', 'text', '-x'],
    ['-F', 'json', '-x'],
    ['-F', 'text', '-e', 'samp.rcon.password'],
    ['-F', 'ndjson', '-e', 'samp.rcon.password'],
    ['-F', 'text', '-x', '-e', 'samp.rcon.password'],
    ['-T', 'fields', '-e', 'samp.rcon.password', '-e', 'samp.rcon.command'],
  ];

  it('in a capture: text, JSON, NDJSON, the hex pane and --field, but in clear with --show-secrets', async () => {
    const runs = await Promise.all([
      ...masked.map((flags) => gamequery(['dissect', capture, ...flags])),
      gamequery(['dissect', capture, '-F', 'text', '-x', '--show-secrets']),
      gamequery(['dissect', capture, '-F', 'json', '--show-secrets']),
      gamequery(['dissect', capture, '-F', 'text', '-e', 'samp.rcon.password', '--show-secrets']),
      gamequery(['dissect', capture, '-T', 'fields', '-e', 'samp.rcon.password', '--show-secrets']),
    ]);
    masked.forEach((flags, i) => {
      const r = runs[i]!;
      expect(r.code, flags.join(' ')).toBe(0);
      expect(r.stdout, flags.join(' ')).toContain('********');
      expect(r.stdout, flags.join(' ')).toContain('players'); // the commands are no secret
      expect(leaks(r, SECRET, OTHER), flags.join(' ')).toEqual([]);
    });
    const [hexPane, json, field, fields] = runs.slice(masked.length);
    expect(fields!.stdout.split('\n').filter((l) => l !== '')).toEqual([SECRET, OTHER]);
    expect(hexPane!.stdout).toContain('Password: Zq7xKv9Wp2');
    expect(hexPane!.stdout).toMatch(/5a 71 37 78/); // the bytes of the password, in the hex pane
    const doc = JSON.parse(json!.stdout) as { packets: Array<{ fields: Array<{ abbrev: string; value: unknown; show: string }> }> };
    expect(
      doc.packets
        .filter((p) => p.fields.some((f) => f.abbrev === 'samp.rcon.password'))
        .map((p) => p.fields.find((f) => f.abbrev === 'samp.rcon.password')!.value),
    ).toEqual([SECRET, OTHER]);
    expect(field!.stdout.match(/samp\.rcon\.password: .*/g)).toEqual([`samp.rcon.password: ${SECRET}`, `samp.rcon.password: ${OTHER}`]);
    // A masked node says so (its value is the mask, not the password); in clear it does not.
    type Node = { abbrev: string; value: unknown; masked?: true };
    const passwords = (text: string): Node[] =>
      text
        .split('\n')
        .filter((l) => l.startsWith('{"frame"'))
        .flatMap((l) => (JSON.parse(l) as { fields: Node[] }).fields.filter((f) => f.abbrev === 'samp.rcon.password'));
    const ndjson = runs[masked.findIndex((flags) => flags.includes('ndjson') && !flags.includes('-e'))]!.stdout;
    expect(passwords(ndjson).map((f) => [f.value, f.masked])).toEqual([
      ['********', true],
      ['********', true],
    ]);
    expect(doc.packets.flatMap((p) => p.fields).some((f) => 'masked' in f)).toBe(false);
  }, 60_000);

  it('in a hex dump, and in `gamequery decode`', async () => {
    const hex = Buffer.from(requestOf(SECRET, 'players')).toString('hex');
    const runs = await Promise.all([
      gamequery(['dissect', dump, '-F', 'text', '-x']),
      gamequery(['dissect', dump, '-F', 'json', '-e', 'samp.rcon.password']),
      gamequery(['decode', hex]),
      gamequery(['decode', hex, '--format', 'json']),
      gamequery(['decode', hex, '--format', 'json', '--show-secrets']),
    ]);
    for (const r of runs.slice(0, 4)) {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('********');
      expect(leaks(r, SECRET)).toEqual([]);
    }
    expect(runs[4]!.stdout).toContain(`"value": "${SECRET}"`);
  }, 60_000);

  it('in a command that sets a password: `rcon_password NEW` shows as `rcon_password ********`, summary line too', async () => {
    const NEW = 'Hb3nQw5Lz8';
    const file = join(dir, 'rcon-password.pcap');
    writeFileSync(
      file,
      pcap([
        [requestOf(SECRET, `rcon_password ${NEW}`), false],
        [line('Setting rcon password.'), true],
        [requestOf(SECRET, 'password ' + OTHER), false],
      ]),
    );
    const runs = await Promise.all([
      ...masked.map((flags) => gamequery(['dissect', file, ...flags])),
      gamequery(['dissect', file, '-F', 'text', '-e', 'samp.rcon.command']),
      gamequery(['dissect', file, '-F', 'json', '--show-secrets']),
      gamequery(['dissect', file, '-P']),
    ]);
    const summary = runs.pop()!;
    expect(leaks(summary, SECRET, NEW, OTHER)).toEqual([]);
    expect(summary.stdout).toContain('SA:MP rcon request: rcon_password ********');
    for (const r of runs.slice(0, -1)) {
      expect(r.code).toBe(0);
      expect(leaks(r, SECRET, NEW, OTHER)).toEqual([]);
    }
    expect(runs[0]!.stdout).toContain('Command: rcon_password ********');
    expect(runs[masked.length]!.stdout.match(/samp\.rcon\.command: .*/g)).toEqual([
      'samp.rcon.command: rcon_password ********',
      'samp.rcon.command: password ********',
    ]);
    expect(runs.at(-1)!.stdout).toContain(`"value":"rcon_password ${NEW}"`);
  }, 60_000);

  it('in the fields of a packet cut inside the password', async () => {
    const runs = await Promise.all([
      gamequery(['dissect', cutDump, '-F', 'text']),
      gamequery(['dissect', cutDump, '-F', 'json']),
      gamequery(['decode', Buffer.from(requestOf(SECRET, 'players').subarray(0, 20)).toString('hex'), '--format', 'json']),
    ]);
    for (const r of runs) {
      expect(r.stdout).toContain('Malformed');
      expect(leaks(r, SECRET)).toEqual([]);
    }
  });

  // A password cut short has no node of its own, only the malformed item over its first bytes: a secret too.
  it('in the hex pane of a packet cut inside the password', async () => {
    const r = await gamequery(['dissect', cutDump, '-F', 'text', '-x']);
    expect(r.stdout).toContain('Malformed');
    expect(leaks(r, SECRET)).toEqual([]);
  });
});

describe('gamequery rcon and serve never print the password', () => {
  let emulator: Emulator;
  let at: string;
  let silent: string;
  beforeAll(async () => {
    emulator = await startEmulator({
      servers: [
        {
          flavor: 'samp037',
          port: 0,
          hostname: 'secret keeper',
          maxPlayers: 10,
          rcon: { password: OTHER, commands: { players: ['none'] } },
        },
        { flavor: 'samp037', port: 0, hostname: 'rcon off', maxPlayers: 10, rcon: { password: OTHER, enabled: false } },
      ],
    });
    at = `127.0.0.1:${emulator.servers[0]!.port}`;
    silent = `127.0.0.1:${emulator.servers[1]!.port}`;
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('not for a wrong password, silence, a password too long or outside the charset, a bad address, or one on the command line', async () => {
    const file = join(dir, 'pw');
    writeFileSync(file, `${SECRET}\n`);
    const long = join(dir, 'long-pw');
    writeFileSync(long, `${SECRET}${'x'.repeat(70_000)}\n`);
    const env = { GAMEQUERY_RCON_PASSWORD: SECRET };
    // Answers get time enough under load; silences end sooner.
    const answered = ['--timeout', '3000', '--quiet', '100'];
    const quick = ['--timeout', '300', '--quiet', '100'];
    const cases: Array<[string, Promise<Ran>, number, RegExp]> = [
      ['wrong, from a file', gamequery(['rcon', at, '--password-file', file, ...answered, 'players']), 1, /wrong RCON password for/],
      ['wrong, JSON', gamequery(['rcon', at, '--json', ...answered, 'players'], { env }), 1, /"code": "wrong-password"/],
      ['silence, JSON', gamequery(['rcon', silent, '--json', ...quick, 'players'], { env }), 3, /"type": "RconSilenceError"/],
      [
        'silence, with retries',
        gamequery(['rcon', silent, '--retries', '1', ...quick, 'players'], { env }),
        3,
        /RCON disabled or the password\/command was cut .*\(2 attempts/,
      ],
      [
        'too long to encode',
        gamequery(['rcon', at, '--password-file', long, 'players']),
        1,
        /samp\.rcon\.password\.len: length 70010 is out of range/,
      ],
      ['bad address', gamequery(['rcon', '[nope]:1', 'players'], { env }), 2, /brackets hold an IPv6 address/],
      [
        'the password as the file path',
        gamequery(['rcon', at, '--password-file', SECRET, 'players']),
        2,
        /cannot read the --password-file: ENOENT/,
      ],
      ['--password on the command line', gamequery(['rcon', at, `--password=${SECRET}`, 'players']), 2, /--password is not accepted/],
    ];
    const runs = await Promise.all(cases.map((c) => c[1]));
    cases.forEach(([name, , code, says], i) => {
      const r = runs[i]!;
      expect(r.code, name).toBe(code);
      expect(`${r.stdout}${r.stderr}`, name).toMatch(says);
      expect(leaks(r, SECRET), name).toEqual([]);
    });
    // "€" is in windows-1252, the default, but not in latin1.
    const latin1 = await gamequery(['rcon', at, '--charset', 'latin1', 'players'], { env: { GAMEQUERY_RCON_PASSWORD: `${SECRET}\u20ac` } });
    expect(latin1.code).toBe(1);
    expect(latin1.stderr).toContain('the RCON password has characters that latin1 cannot encode');
    expect(leaks(latin1, SECRET)).toEqual([]);
  }, 60_000);

  it('`gamequery serve` logs nothing of the passwords it is sent or holds', async () => {
    const state = join(dir, 'state.json');
    writeFileSync(
      state,
      JSON.stringify({ servers: [{ flavor: 'samp037', port: 0, hostname: 'served', maxPlayers: 5, rcon: { password: OTHER } }] }),
    );
    let port = 0;
    let stop: (() => void) | undefined;
    const served = gamequery(['serve', state], {
      ms: 15_000,
      watch: (out, interrupt) => {
        port = Number(/:(\d+)\n/.exec(out)?.[1] ?? 0);
        stop = interrupt;
      },
    });
    try {
      for (let n = 0; n < 400 && port === 0; n++) await new Promise((r) => setTimeout(r, 25));
      expect(port).toBeGreaterThan(0);
      const client = new QueryClient({ localAddress: { ipv4: '127.0.0.1' }, timeoutMs: 3000, rconQuietMs: 100 });
      try {
        await expect(client.rcon('127.0.0.1', port, SECRET, 'players')).rejects.toThrow('wrong RCON password');
        expect((await client.rcon('127.0.0.1', port, OTHER, 'nonsense')).lines).toEqual(['Unknown command or variable: nonsense']);
      } finally {
        await client.close();
      }
    } finally {
      stop?.();
    }
    const r = await served;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^SIGINT: 2 requests, 2 replies/);
    expect(leaks(r, SECRET, OTHER)).toEqual([]);
  });
});
