/**
 * `gamequery dissect -i IFACE` as a user runs it: a live capture on loopback of `gamequery query`
 * against `gamequery serve`, each a child process, with the packets read while the capture
 * runs; stopped by SIGINT, SIGTERM or -c. The failures to begin (no capture program, no
 * permission, no such interface, a bad capture filter) are one line and exit 2. Capturing
 * needs root or capture rights (CI runs as root). Every wait is bounded, every child killed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs, exitWithin, gamequery, root, running, waitFor, type Started } from './cli.ts';

interface Run extends Started {
  stdout: string;
  stderr: string;
}

const runs = new Set<Run>();

/** Starts `gamequery ARGS…`, its output collected as it comes. */
function start(args: readonly string[], options: { env?: Record<string, string> } = {}): Run {
  const child = spawn(process.execPath, cliArgs(args), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  const r: Run = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('close', (code) => resolve(code))),
  };
  child.stdout!.on('data', (d: Buffer) => (r.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (r.stderr += d.toString()));
  runs.add(r);
  return r;
}

/** Stops what a test left running: SIGTERM (a capture stops its program), then SIGKILL. */
afterEach(async () => {
  for (const r of runs) {
    if (running(r)) r.child.kill('SIGTERM');
    await exitWithin(r, 5000);
  }
  runs.clear();
});

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
/** NDJSON output, the lines complete so far. */
const records = (r: Run): Array<Record<string, unknown>> =>
  lines(r.stdout.slice(0, r.stdout.lastIndexOf('\n') + 1)).map((l) => JSON.parse(l) as Record<string, unknown>);
const capturing = (r: Run): boolean => r.stderr.includes("Capturing on 'lo'") || !running(r);
const CAPTURED = /^(\d+) packets captured$/m;

let dir: string;
let server: Run;
let address: string;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gamequery-live-'));
  const state = join(dir, 'state.json');
  // Port 0: the system picks a free one, which serve prints.
  writeFileSync(
    state,
    JSON.stringify({ servers: [{ flavor: 'samp037', port: 0, hostname: 'Live capture', maxPlayers: 10, players: [{ name: 'Alice' }] }] }),
  );
  server = start(['serve', state]);
  runs.delete(server);
  await waitFor(() => server.stdout.includes('\n') || !running(server), 15_000);
  const m = /on (127\.0\.0\.1):(\d+)$/m.exec(server.stdout);
  if (!m) throw new Error(`gamequery serve did not start: ${server.stderr}`);
  address = `${m[1]}:${m[2]}`;
  port = Number(m[2]);
});

afterAll(async () => {
  if (server && running(server)) server.child.kill('SIGTERM');
  if (server) await exitWithin(server, 5000);
  rmSync(dir, { recursive: true, force: true });
});

/** `gamequery query samp` of the emulator, to its end. */
async function query(): Promise<void> {
  const r = await gamequery(['query', 'samp', address], { ms: 10_000 });
  expect(r.code).toBe(0);
}

/** Where an installed program is. */
function installed(name: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (found === '') throw new Error(`${name} is not installed (.ci/run installs it)`);
  return found;
}

/** A directory holding only `names` (links to the installed programs), for PATH. */
function pathWith(...names: string[]): string {
  const bin = mkdtempSync(join(dir, 'bin-'));
  for (const name of names) symlinkSync(installed(name), join(bin, name));
  return bin;
}

describe('gamequery dissect -i (live capture)', () => {
  it('writes each exchange, paired, while the capture runs; SIGINT stops it, writes what is pending and counts the packets', async () => {
    // samp037 leaves the query's `o` request unanswered: it is held until its timeout, in capture time, which the
    // next query (400 ms later) passes; the last one's is written when the capture stops.
    const r = start(['dissect', '-i', 'lo', '-f', `udp port ${port}`, '-F', 'ndjson', '--timeout', '300']);
    expect(await waitFor(() => capturing(r), 10_000)).toBe(true);
    for (let i = 0; i < 3; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 400));
      await query();
    }
    // Info exchanges, each request pointing at its reply and back, before the capture ends.
    const paired = (): number => {
      const all = records(r);
      return all.filter(
        (q) =>
          q['message'] === 'info' &&
          q['direction'] === 'request' &&
          all.some((p) => p['frame'] === q['responseIn'] && p['requestIn'] === q['frame'] && p['message'] === 'info'),
      ).length;
    };
    expect(await waitFor(() => paired() >= 2, 5000)).toBe(true);
    expect(running(r)).toBe(true);

    r.child.kill('SIGINT');
    expect(await exitWithin(r, 10_000)).toBe(0);
    const all = records(r);
    expect(paired()).toBe(3);
    expect(all.filter((p) => p['message'] === 'omp' && typeof p['unanswered'] === 'string')).toHaveLength(3);
    expect(r.stderr).toMatch(/^Capturing on 'lo'$/m);
    const count = Number(CAPTURED.exec(r.stderr)?.[1]);
    expect(count).toBe(all.length);
    expect(r.stderr).not.toContain('gamequery:');
  });

  it('two signals 10 ms apart (timeout -s INT signals the command and then its group) stop it once: the table, exit 0', async () => {
    const r = start(['stats', '-i', 'lo', '-f', `udp port ${port}`]);
    expect(await waitFor(() => capturing(r), 10_000)).toBe(true);
    await query();
    r.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 10));
    r.child.kill('SIGINT');
    expect(await exitWithin(r, 10_000), r.stderr).toBe(0);
    expect(r.stdout).toContain('Per-server statistics');
    expect(r.stderr).toMatch(CAPTURED);
    expect(r.stderr).not.toContain('gamequery:');
  });

  it('captures with tcpdump when dumpcap is not on PATH, and stops after -c N packets', async () => {
    const r = start(['dissect', '-i', 'lo', '-f', `udp port ${port}`, '-c', '2', '-P'], { env: { PATH: pathWith('tcpdump') } });
    expect(await waitFor(() => capturing(r), 10_000)).toBe(true);
    await query();
    expect(await exitWithin(r, 10_000)).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(2);
    // The query sends its first requests at once: the second line is the info reply or the rules request,
    // whichever settles first (a live capture writes each exchange as it settles: its frame may be 2 or later).
    expect(out[0]).toMatch(/^ +1 .* SA:MP info request \[Response In \d\]$/);
    expect(out[1]).toMatch(/^ +\d .* SA:MP (info response: "Live capture" 1\/10 \[Request In 1\]|rules request \[Response In \d\])/);
    expect(Number(CAPTURED.exec(r.stderr)?.[1])).toBeGreaterThanOrEqual(2);
  });

  it('gamequery stats -i: the per-server table once SIGTERM stops the capture', async () => {
    const r = start(['stats', '-i', 'lo', '-f', `udp port ${port}`]);
    expect(await waitFor(() => capturing(r), 10_000)).toBe(true);
    await query();
    // At once: the capture program hands over what it has captured before it stops.
    r.child.kill('SIGTERM');
    expect(await exitWithin(r, 10_000)).toBe(0);
    expect(r.stdout).toContain('Per-server statistics');
    const server = `^127\\.0\\.0\\.1:${port} +`;
    expect(r.stdout).toMatch(new RegExp(`${server}samp +4 +`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`${server}\\S+ +1 +Live capture$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`${server}info 1, omp 1, players 1, rules 1$`, 'm'));
    expect(r.stderr).toMatch(CAPTURED);
  });

  it('-a duration:N stops the capture after N seconds as a signal does: the table, the count, exit 0', async () => {
    const began = Date.now();
    const r = start(['stats', '-i', 'lo', '-f', `udp port ${port}`, '-a', 'duration:3']);
    expect(await waitFor(() => capturing(r), 10_000)).toBe(true);
    await query();
    expect(running(r)).toBe(true);
    expect(await exitWithin(r, 15_000), r.stderr).toBe(0);
    expect(Date.now() - began).toBeGreaterThanOrEqual(3000);
    expect(r.stdout).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} +samp +4 +`, 'm'));
    expect(r.stderr).toMatch(CAPTURED);
    expect(r.stderr).not.toContain('gamequery:');
  });

  it('-w FILE keeps the capture in a file as it comes: read again, the same packets as the live output', async () => {
    const file = join(dir, 'kept.pcapng');
    const r = start(['dissect', '-i', 'lo', '-f', `udp port ${port}`, '-F', 'ndjson', '-w', file]);
    expect(await waitFor(() => capturing(r), 10_000)).toBe(true);
    await query();
    r.child.kill('SIGINT');
    expect(await exitWithin(r, 10_000), r.stderr).toBe(0);
    const live = records(r);
    expect(live.length).toBeGreaterThanOrEqual(6);
    // dumpcap writes pcapng; from the file, the same messages, links and times (frames in capture order, not as they settled).
    expect(readFileSync(file).readUInt32LE(0)).toBe(0x0a0d0d0a);
    const again = await gamequery(['dissect', file, '-F', 'ndjson'], { ms: 10_000 });
    expect(again.code, again.stderr).toBe(0);
    const read = lines(again.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
    const key = (p: Record<string, unknown>): string =>
      JSON.stringify([p['frame'], p['message'], p['responseIn'], p['requestIn'], p['captureTime']]);
    expect(read.map(key).sort()).toEqual(live.map(key).sort());
    expect(Number(CAPTURED.exec(r.stderr)?.[1])).toBe(live.length);
  });

  it('-w to a full disk (/dev/full): said once on stderr, the capture dissected all the same, exit 1', async () => {
    const r = start(['dissect', '-i', 'lo', '-f', `udp port ${port}`, '-F', 'ndjson', '-w', '/dev/full']);
    expect(await waitFor(() => capturing(r), 10_000)).toBe(true);
    await query();
    r.child.kill('SIGINT');
    expect(await exitWithin(r, 10_000)).toBe(1);
    expect(records(r).filter((p) => p['message'] === 'info')).toHaveLength(2);
    expect(lines(r.stderr).filter((l) => l.startsWith('gamequery:'))).toEqual([
      expect.stringMatching(/^gamequery: -w \/dev\/full: writing failed after 0 bytes \(ENOSPC\): the capture goes on without the file$/),
    ]);
    expect(r.stderr).toMatch(CAPTURED);
  });

  it('gamequery stats -i -c N: the statistics of the first N frames, the capture stopped then', async () => {
    const r = start(['stats', '-i', 'lo', '-f', `udp port ${port}`, '-c', '2']);
    expect(await waitFor(() => capturing(r), 10_000)).toBe(true);
    await query();
    expect(await exitWithin(r, 10_000), r.stderr).toBe(0);
    // The query's first request and its reply, or two of its requests (sent at once): two packets either way.
    expect(r.stdout).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} +samp +[12] +[01] +[0-2] +[01] +0 +0 +0 +0$`, 'm'));
    expect(Number(CAPTURED.exec(r.stderr)?.[1])).toBe(2);
  });

  it('ends with what it has and says why when the capture program stops by itself (exit 1)', async () => {
    // A stand-in for dumpcap: it writes a capture and its arguments, then ends as dumpcap does when the interface goes away.
    const bin = mkdtempSync(join(dir, 'fake-'));
    const capture = join(root, 'packages/dissect/test/fixtures/captures/veth-frag.pcap');
    writeFileSync(
      join(bin, 'dumpcap'),
      `#!${process.execPath}
const fs = require('node:fs');
fs.writeFileSync(${JSON.stringify(join(bin, 'args.json'))}, JSON.stringify(process.argv.slice(2)));
process.stdout.write(fs.readFileSync(${JSON.stringify(capture)}), () => {
  process.stderr.write("Capturing on 'lo'\\nFile: -\\ndumpcap: The network adapter \\"lo\\" is no longer attached; the capture has stopped.\\nPackets captured: 30\\n");
});
`,
    );
    chmodSync(join(bin, 'dumpcap'), 0o755);
    const r = start(['dissect', '-i', 'lo', '-f', 'udp port 47777', '-P'], { env: { PATH: bin } });
    expect(await exitWithin(r, 15_000)).toBe(1);
    expect(JSON.parse(readFileSync(join(bin, 'args.json'), 'utf8'))).toEqual(['-i', 'lo', '-q', '-w', '-', '-f', 'udp port 47777']);
    expect(lines(r.stdout)).toHaveLength(30);
    expect(r.stdout).toContain('SA:MP info response: "gamequery fixture server" 100/200 [Request In 5]');
    expect(lines(r.stderr)).toEqual([
      "Capturing on 'lo'",
      'gamequery: the capture ended by itself: dumpcap: The network adapter "lo" is no longer attached; the capture has stopped.',
      '30 packets captured',
    ]);
  });
});

describe('gamequery dissect -D: the interfaces -i takes', () => {
  it('lists them as tshark -D does (dumpcap -D); with tcpdump alone, the same names; with neither, exit 2', async () => {
    const ours = await gamequery(['dissect', '-D'], { ms: 10_000 });
    expect(ours.code, ours.stderr).toBe(0);
    // tshark -D's own list is dumpcap's, then its extcap programs' (sshdump, randpkt …), which -i cannot run here.
    const dumpcap = spawnSync('dumpcap', ['-D'], { encoding: 'utf8' });
    expect(dumpcap.status, dumpcap.stderr).toBe(0);
    expect(ours.stdout).toBe(dumpcap.stdout);
    const tshark = spawnSync('tshark', ['-D'], { encoding: 'utf8' });
    expect(tshark.stdout.startsWith(ours.stdout)).toBe(true);
    expect(lines(ours.stdout)).toContainEqual(expect.stringMatching(/^\d+\. lo \(Loopback\)$/));
    const names = (text: string): string[] => lines(text).map((l) => l.split(' ')[1]!);
    const tcpdump = await gamequery(['stats', '-D'], { env: { PATH: pathWith('tcpdump') }, ms: 10_000 });
    expect(tcpdump.code, tcpdump.stderr).toBe(0);
    expect(names(tcpdump.stdout)).toEqual(names(ours.stdout));
    const none = await gamequery(['dissect', '-D'], { env: { PATH: mkdtempSync(join(dir, 'empty-')) }, ms: 10_000 });
    expect(none.code).toBe(2);
    expect(lines(none.stderr)).toEqual([
      'gamequery: listing the interfaces needs dumpcap or tcpdump, and neither is on PATH: install one (apt-get install tshark, which brings dumpcap, or apt-get install tcpdump)',
    ]);
  });
});

describe('gamequery dissect -i: what keeps a capture from beginning is one line, exit 2', () => {
  it('without dumpcap or tcpdump on PATH, names what to install', async () => {
    const r = await gamequery(['dissect', '-i', 'lo'], { env: { PATH: mkdtempSync(join(dir, 'empty-')) }, ms: 10_000 });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'gamequery: a live capture needs dumpcap or tcpdump, and neither is on PATH: install one (apt-get install tshark, which brings dumpcap, or apt-get install tcpdump)',
    ]);
    expect(r.stdout).toBe('');
  });

  it('an interface that does not exist', async () => {
    for (const program of ['dumpcap', 'tcpdump']) {
      const r = await gamequery(['dissect', '-i', 'gq-nosuch0'], { env: { PATH: pathWith(program) }, ms: 10_000 });
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([`gamequery: gq-nosuch0: no such interface (${program} -D lists them)`]);
    }
  });

  it('a capture filter the program cannot compile', async () => {
    const r = await gamequery(['dissect', '-i', 'lo', '-f', 'udp prot 7'], { ms: 10_000 });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^gamequery: -f 'udp prot 7': not a capture filter \(libpcap syntax, man pcap-filter\): (dumpcap|tcpdump): /);
  });

  it('without permission to capture, says which to grant', async () => {
    for (const program of ['dumpcap', 'tcpdump']) {
      let bin = pathWith(program);
      if (process.getuid?.() === 0) {
        // As root, the program runs as nobody (uid 65534, no capabilities), who may not capture.
        bin = mkdtempSync(join(dir, 'nobody-'));
        writeFileSync(
          join(bin, program),
          `#!/bin/sh\nexec ${installed('setpriv')} --reuid=65534 --regid=65534 --clear-groups ${installed(program)} "$@"\n`,
        );
        chmodSync(join(bin, program), 0o755);
      }
      const r = await gamequery(['dissect', '-i', 'lo'], { env: { PATH: bin }, ms: 10_000 });
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([
        `gamequery: ${program} may not capture on lo: run as root, or give it the capabilities (setcap cap_net_raw,cap_net_admin=eip ${join(bin, program)})${
          program === 'dumpcap' ? ', or add your user to the wireshark group (Debian: dpkg-reconfigure wireshark-common first)' : ''
        }`,
      ]);
    }
  });

  it('a file and -i together, -f without -i, neither a file nor -i, and -w to stdout or where it cannot write are usage errors', async () => {
    for (const [args, message] of [
      [['x.pcap', '-i', 'lo'], 'gamequery: a file (x.pcap) and -i lo: read one or capture, not both'],
      [['x.pcap', '-f', 'udp'], 'gamequery: -f (a capture filter) needs -i INTERFACE; to choose packets of a file, use -Y'],
      [[], 'gamequery: no input: name a capture or hex dump file ("-" for stdin), or -i INTERFACE to capture live'],
      [
        ['-i', 'lo', '-w', '-'],
        'gamequery: -w -: stdout is the dissection; for the capture itself on stdout, run dumpcap -w - or tcpdump -w -',
      ],
      [['-i', 'lo', '-w', '/nonexistent-dir/x.pcapng'], 'gamequery: -w /nonexistent-dir/x.pcapng: cannot write it (ENOENT)'],
    ] as const) {
      const r = await gamequery(['dissect', ...args], { ms: 10_000 });
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([message]);
    }
  });
});
