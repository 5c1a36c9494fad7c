/**
 * `gamequery serve` as a user runs it: a child process on the example state, queried
 * once over loopback UDP, then stopped with SIGTERM. Every wait is bounded.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';

import { cliArgs, root } from './cli.ts';

interface Run {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, cliArgs(args), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r: Run = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  child.stdout!.on('data', (d: Buffer) => (r.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (r.stderr += d.toString()));
  return r;
}

/** Resolves when `test` holds, or false after `ms`. */
async function waitFor(test: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (test()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return test();
}

/** Kills the child if still running and waits (bounded) for it to exit. */
async function stop(r: Run): Promise<number | null> {
  if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
  return exitWithin(r, 5000);
}

/** The exit code, or SIGKILL and null after `ms`. */
async function exitWithin(r: Run, ms: number): Promise<number | null> {
  const code = await Promise.race([r.exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))]);
  if (code !== 'timeout') return code;
  r.child.kill('SIGKILL');
  await r.exited;
  return null;
}

function queryOnce(bytes: Uint8Array, port: number, timeoutMs = 1000): Promise<Uint8Array | undefined> {
  const socket = createSocket('udp4');
  return new Promise((resolve) => {
    const done = (reply?: Uint8Array): void => {
      clearTimeout(timer);
      socket.close();
      resolve(reply);
    };
    const timer = setTimeout(() => done(), timeoutMs);
    socket.on('message', (msg, rinfo) => {
      if (rinfo.port === port) done(new Uint8Array(msg));
    });
    socket.bind({ address: '127.0.0.1', port: 0 }, () => socket.send(bytes, port, '127.0.0.1'));
  });
}

describe('gamequery serve', () => {
  it('serves the example state with a port offset, answers a query, and stops on SIGTERM', async () => {
    let r: Run | undefined;
    let offset = 0;
    // A random offset may land on a port in use: try a few.
    for (let attempt = 0; attempt < 4; attempt++) {
      offset = 10_000 + Math.floor(Math.random() * 29_000);
      r = run(['serve', 'examples/servers.json', '--port-offset', String(offset)]);
      const ready = await waitFor(() => r!.stdout.split('\n').length > 5 || r!.child.exitCode !== null, 15_000);
      if (ready && r.child.exitCode === null) break;
      await stop(r);
      if (!r.stderr.includes('cannot bind')) break;
    }
    try {
      expect(r!.stdout.trim().split('\n')).toEqual([
        `samp037 "My Server" on 127.0.0.1:${7777 + offset}`,
        `openmp "My open.mp Server" on 127.0.0.1:${7778 + offset}`,
        `vcmp "My VC:MP Server" on 127.0.0.1:${8192 + offset}`,
        `minecraft "A Minecraft Server" on 127.0.0.1:${25565 + offset}`,
        `minecraft "§aIPv6 world" on [::1]:${25566 + offset}`,
      ]);
      const port = 7777 + offset;
      const reply = await queryOnce(samp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: port }), port);
      expect(reply).toBeDefined();
      expect(samp.infoResponse.decode(reply!).value).toMatchObject({ hostname: 'My Server', players: 2, maxPlayers: 49 });
    } finally {
      expect(await stop(r!)).toBe(0);
    }
    expect(r!.stderr).toMatch(/^SIGTERM: 1 requests, 1 replies/);
  });

  it('refuses a non-loopback address without --public, and says why', async () => {
    const r = run(['serve', 'examples/servers.json', '--host', '0.0.0.0']);
    expect(await exitWithin(r, 15_000)).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('refusing to bind 0.0.0.0, which is not a loopback address; pass --public');
    expect(r.stderr).toContain('no handshake');
  });

  it('answers a list of 300 servers queried from loopback with its defaults; over --rate, says who lost what on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-serve-'));
    const state = join(dir, 'state.json');
    const servers = Array.from({ length: 300 }, (_, i) => ({
      flavor: i % 2 ? 'openmp' : 'samp037',
      port: 0,
      hostname: `Server ${i}`,
      gamemode: 'Freeroam',
      language: 'English',
      password: false,
      maxPlayers: 50,
      players: [{ name: `Player${i}`, score: i, ping: 30, id: 0 }],
    }));
    writeFileSync(state, JSON.stringify({ servers }));
    const served = async (extra: string[]): Promise<{ r: Run; list: string }> => {
      const r = run(['serve', state, ...extra]);
      expect(await waitFor(() => r.stdout.split('\n').length > 300 || r.child.exitCode !== null, 15_000)).toBe(true);
      const list = join(dir, 'list.txt');
      writeFileSync(
        list,
        r.stdout
          .split('\n')
          .flatMap((l) => l.match(/ on (\S+)$/)?.slice(1) ?? [])
          .join('\n'),
      );
      return { r, list };
    };
    try {
      const { r, list } = await served([]);
      try {
        const q = spawnSync(process.execPath, cliArgs(['query', 'samp', '--file', list, '--json']), { cwd: root, encoding: 'utf8' });
        const out = JSON.parse(q.stdout) as { ok: boolean; openmp?: boolean }[];
        expect(out).toHaveLength(300);
        expect(out.filter((o) => o.ok)).toHaveLength(300);
        // Each flavor told apart: no open.mp reported as SA:MP for want of a reply.
        expect(out.filter((o) => o.openmp)).toHaveLength(150);
        expect(q.status, q.stderr).toBe(0);
      } finally {
        await stop(r);
      }
      expect(r.stderr).not.toContain('over the limit');
      const limited = await served(['--rate', '20']);
      try {
        spawnSync(process.execPath, cliArgs(['query', 'samp', '--file', limited.list, '--retries', '0', '--timeout', '300']), {
          cwd: root,
        });
      } finally {
        await stop(limited.r);
      }
      expect(limited.r.stderr).toMatch(
        /^gamequery serve: 127\.0\.0\.1 over the limit of 20 requests and 100000000 bytes a second \(--rate, --byte-rate\): \d+ requests and 0 replies dropped \(127\.0\.0\.1:\d+\)$/m,
      );
      // Once a second at most: a query of a few seconds, a few lines.
      expect(limited.r.stderr.match(/over the limit/g)!.length).toBeLessThanOrEqual(8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('serves more players than slots as given, and says so on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gq-state-'));
    const file = join(dir, 'over.json');
    const players = [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'bot', npc: true }];
    writeFileSync(file, JSON.stringify({ servers: [{ flavor: 'samp037', port: 0, maxPlayers: 3, players }] }));
    const r = run(['serve', file]);
    try {
      expect(await waitFor(() => r.stdout.includes(' on 127.0.0.1:') || r.child.exitCode !== null, 15_000)).toBe(true);
      const port = Number(/:(\d+)$/m.exec(r.stdout)![1]);
      const reply = await queryOnce(samp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: port }), port);
      expect(samp.infoResponse.decode(reply!).value).toMatchObject({ players: 3, maxPlayers: 2 });
      expect(r.stderr).toBe(
        'gamequery serve: servers[0]: 3 players in 2 slots (maxPlayers 3, less 1 NPC): no real server says so; served as given\n',
      );
    } finally {
      expect(await stop(r)).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a state file it cannot serve, with the path of the mistake', async () => {
    const r = run(['serve', 'packages/cli/test/fixtures/bad-state.json']);
    expect(await exitWithin(r, 15_000)).toBe(2);
    expect(r.stderr).toContain('servers[0].maxPlayers: missing');
  });

  it('names the state file it cannot read or parse (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gq-state-'));
    try {
      const broken = join(dir, 'broken.json');
      writeFileSync(broken, '{"servers": [');
      const r = run(['serve', broken]);
      expect(await exitWithin(r, 15_000)).toBe(2);
      expect(r.stderr.startsWith(`gamequery: ${broken}: not JSON: `), r.stderr).toBe(true);
      const typo = join(dir, 'typo.json');
      writeFileSync(typo, JSON.stringify({ servers: [{ flavor: 'openmp', port: 7777, maxPlayers: 10, hostnmae: 'Mine' }] }));
      const t = run(['serve', typo]);
      expect(await exitWithin(t, 15_000)).toBe(2);
      expect(t.stderr).toContain('servers[0].hostnmae: no such key (did you mean hostname?)');
      const missing = run(['serve', join(dir, 'missing.json')]);
      expect(await exitWithin(missing, 15_000)).toBe(2);
      expect(missing.stderr).toBe(`gamequery: ${join(dir, 'missing.json')}: cannot read it (ENOENT)\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
