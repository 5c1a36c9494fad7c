/**
 * Statistics of Minecraft traffic as `gamequery query minecraft` makes it: a full stat, whose
 * player count and host name are key/value pairs (`numplayers`, `hostname`), not fields of
 * their own. Captured on loopback with tcpdump while the query runs against `gamequery serve`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs, exitWithin, gamequery, root, runSync as run, waitFor, type Started } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

let dir: string;
let capture: string;

/** Starts `program ARGS…`, its stderr collected. */
function started(program: string, args: readonly string[]): Started & { out: string; err: string; bytes: Buffer[] } {
  const child = spawn(program, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const r = {
    child,
    out: '',
    err: '',
    bytes: [] as Buffer[],
    exited: new Promise<number | null>((resolve) => child.once('close', resolve)),
  };
  child.stdout.on('data', (d: Buffer) => {
    r.bytes.push(d);
    r.out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (r.err += d.toString()));
  return r;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gamequery-mcstats-'));
  const state = join(dir, 'state.json');
  const players = ['Notch', 'jeb_', 'Dinnerbone'].map((name) => ({ name }));
  writeFileSync(state, JSON.stringify({ servers: [{ flavor: 'minecraft', port: 0, motd: 'Stats world', maxPlayers: 20, players }] }));
  const server = started(process.execPath, cliArgs(['serve', state]));
  try {
    await waitFor(() => /on 127\.0\.0\.1:\d+$/m.test(server.out) || server.child.exitCode !== null, 15_000);
    const port = /on 127\.0\.0\.1:(\d+)$/m.exec(server.out)?.[1];
    if (!port) throw new Error(`gamequery serve did not start: ${server.err}`);
    capture = join(dir, 'mc.pcap');
    // To stdout, not a file: tcpdump writes files as its own user, which may not enter a private temporary directory.
    const tcpdump = started('tcpdump', ['-i', 'lo', '-U', '--immediate-mode', '-w', '-', `udp port ${port}`]);
    await waitFor(() => tcpdump.err.includes('listening on') || tcpdump.child.exitCode !== null, 10_000);
    // The full stat (the default) twice: no basic stat, which states both as fields of its own.
    for (let i = 0; i < 2; i++) expect((await gamequery(['query', 'minecraft', `127.0.0.1:${port}`])).code).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    tcpdump.child.kill('SIGINT');
    expect(await exitWithin(tcpdump, 10_000)).toBe(0);
    writeFileSync(capture, Buffer.concat(tcpdump.bytes));
  } finally {
    server.child.kill('SIGTERM');
    await exitWithin(server, 5000);
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('statistics of Minecraft queries', () => {
  it('read the players and the host name of a full stat, in the first pass and from the records', () => {
    const fields = run('dissect', capture, '-e', 'mcquery.full.key', '-e', 'mcquery.full.value', '-Y', 'mcquery.full.kv');
    // The full stat's pairs are there, as the emulator sent them (two full stats).
    const [keys, values] = fields.stdout
      .split('\n')[0]!
      .split('\t')
      .map((c) => c.split(','));
    expect(Object.fromEntries(keys!.map((k, i) => [k, values![i]]))).toMatchObject({ hostname: 'Stats world', numplayers: '3' });
    expect(fields.stdout.trim().split('\n')).toHaveLength(2);
    for (const args of [
      ['stats', capture, '-F', 'json'],
      ['dissect', capture, '-q', '-z', 'stats', '-Y', 'mcquery', '-F', 'json'],
    ]) {
      const r = run(...args);
      expect(r.status, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as {
        serverStats?: { servers: { players: number | null; hostname: string | null }[] };
        servers?: unknown;
      };
      const servers = (doc.serverStats ?? (doc as { servers: { players: number | null; hostname: string | null }[] })).servers;
      expect(servers, args.join(' ')).toHaveLength(1);
      expect(servers[0], args.join(' ')).toMatchObject({ players: 3, hostname: 'Stats world' });
    }
  });

  it('-T fields prints what tshark with our Lua plugin prints for them, the full stat and the protocols included', () => {
    const plugin = join(dir, 'gamequery.lua');
    writeFileSync(plugin, run('export', 'wireshark').stdout);
    const names = [
      'frame.number',
      'mcquery',
      'udp',
      'ip',
      'mcquery.type',
      'mcquery.full.kv',
      'mcquery.full.key',
      'mcquery.full.value',
      'mcquery.full.player',
      'mcquery.basic.motd',
      'mcquery.basic.num_players',
      'mcquery.handshake.token',
    ];
    const e = names.flatMap((n) => ['-e', n]);
    const tshark = tsharkSync(['-X', `lua_script:${plugin}`, '-r', capture, '-T', 'fields', ...e], { encoding: 'utf8' });
    expect(tshark.status, tshark.stderr).toBe(0);
    const ours = run('dissect', capture, '-T', 'fields', ...e);
    expect(ours.stdout.split('\n').length).toBeGreaterThanOrEqual(9);
    expect(ours.stdout).toBe(tshark.stdout);
  });
});
