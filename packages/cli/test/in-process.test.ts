/**
 * The CLI's tests run quick commands in process (cli.ts `runSync`: the bundle's program in a
 * worker thread), unless GAMEQUERY_TEST_SPAWN=1. Here, either way, each is held to the other: the same exit code, stdout and stderr as
 * the built command in a child process, for every outcome a test meets (exit 0, 1 and 2, help,
 * binary output, an error thrown past a command), and runs in process that leave nothing to
 * the next one.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { canRunInProcess, cliArgs, root, runInProcess } from './cli.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;

/** The built command as a child process. */
const spawned = (args: readonly string[]) => {
  const r = spawnSync(process.execPath, cliArgs(args), {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, GAMEQUERY_RCON_PASSWORD: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('a command run in process', () => {
  it.each([
    ['a capture as JSON', ['dissect', `${captures}veth-frag.pcap`, '-F', 'json', '-z', 'stats']],
    ['the tree with bytes', ['dissect', `${captures}lo-snap60.pcap`, '-V', '-x']],
    ['a cut capture: exit 1', ['dissect', `${captures}lo-us.cut.pcap`]],
    ['statistics', ['stats', `${captures}lo-any.pcapng`, '-F', 'json']],
    ['a usage error: exit 2', ['dissect', `${captures}lo.pcapng`, '-F', 'yaml']],
    ['a missing file: exit 2', ['dissect', `${captures}no-such.pcap`]],
    ['a display filter that does not compile', ['dissect', `${captures}lo.pcapng`, '-Y', 'samp.info.hostnam']],
    ['help', ['dissect', '--help']],
    ['the program help', ['--help']],
    ['the version', ['--version']],
    ['decode as JSON', ['decode', '53414d507f0000016111', '--format', 'json']],
    ['the plugin', ['export', 'wireshark']],
  ])('%s: what the command prints as a process, and its exit code', (_, args) => {
    expect(canRunInProcess(args)).toBe(true);
    expect(runInProcess(args, { GAMEQUERY_RCON_PASSWORD: '' })).toEqual(spawned(args));
  });

  it('leaves nothing to the next run: its exit code and its output', () => {
    expect(runInProcess(['dissect', `${captures}lo-us.cut.pcap`]).status).toBe(2);
    const after = runInProcess(['dissect', `${captures}lo-us.pcap`]);
    expect([after.status, after.stderr]).toEqual([0, '']);
    expect(after.stdout).toBe(spawned(['dissect', `${captures}lo-us.pcap`]).stdout);
  });

  it('is a child process where the command reads stdin, captures live, or keeps sockets', () => {
    for (const args of [
      ['dissect', '-'],
      ['stats', '/dev/stdin'],
      ['dissect', '-i', 'lo'],
      ['dissect', '--interface=lo'],
      ['serve', 'state.json'],
      ['query', 'samp', '127.0.0.1:7777'],
      ['rcon', '127.0.0.1:7777', 'players'],
      ['ping', 'samp', '127.0.0.1:7777'],
    ])
      expect(canRunInProcess(args), args.join(' ')).toBe(false);
  });
});
