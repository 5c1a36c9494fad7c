import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { udpFrame, writePcap } from '../../dissect/test/capture/helpers.ts';
import { retimedExchange } from '../../dissect/test/dissect/helpers.ts';
import { cliArgs, root, runSync as run } from './cli.ts';
import { writeScan } from '../../../bench/scan.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;

describe('gamequery dissect', () => {
  it('streams NDJSON, one packet per line', () => {
    const r = run('dissect', `${captures}veth-frag.pcap`, '-F', 'ndjson');
    expect(r.status).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(20);
    expect(lines[0]).toMatchObject({ frame: 5, protocol: 'samp', message: 'info', direction: 'request', responseIn: 6 });
  });

  it('prints tshark -V-like text with selected fields', () => {
    const r = run('dissect', `${captures}lo-us.pcap`, '-F', 'text', '-e', 'samp.info.hostname');
    expect(r.stdout).toContain('    samp.info.hostname: gamequery fixture server');
  });

  it('-P -V: each summary line before its tree, as tshark writes both', () => {
    const file = `${captures}lo-us.pcap`;
    const summaries = run('dissect', file, '-P', '-c', '2').stdout.split('\n');
    const trees = run('dissect', file, '-V', '-c', '2').stdout.split('\n\n');
    const both = run('dissect', file, '-P', '-V', '-c', '2');
    expect(both.status).toBe(0);
    expect(both.stdout).toBe(`${summaries[0]}\n${trees[0]}\n\n${summaries[1]}\n${trees[1]}`);
  });

  it("-V -e: the frame's, IP's and UDP's fields too, valued as -T fields writes them, in the order picked; a frame without a query message as well", () => {
    const picks = ['-e', 'udp.port', '-e', 'frame.number', '-e', 'samp.info.hostname', '-e', 'ip.src', '-e', 'frame.time_relative'];
    const r = run('dissect', `${captures}lo-us.pcap`, '-V', '-c', '2', ...picks);
    expect(r.stdout.split('\n').slice(0, 12)).toEqual([
      'Frame 1: 1795346153.486360 127.0.0.1:43811 → 127.0.0.1:47777 SA:MP info request',
      '    udp.port: 43811,47777',
      '    frame.number: 1',
      '    ip.src: 127.0.0.1',
      '    frame.time_relative: 0.000000000',
      '',
      'Frame 2: 1795346153.486728 127.0.0.1:47777 → 127.0.0.1:43811 SA:MP info response: "gamequery fixture server" 100/200',
      '    udp.port: 47777,43811',
      '    frame.number: 2',
      '    ip.src: 127.0.0.1',
      '    frame.time_relative: 0.000368000',
      '    samp.info.hostname: gamequery fixture server',
    ]);
    // The same values as -T fields gives them.
    const fields = run('dissect', `${captures}lo-us.pcap`, '-T', 'fields', '-c', '2', ...picks)
      .stdout.split('\n')[1]!
      .split('\t');
    expect(fields).toEqual(['47777,43811', '2', 'gamequery fixture server', '127.0.0.1', '0.000368000']);
    const dns = run('dissect', `${captures}dns-lo.pcap`, '-V', '-c', '1', '-e', 'ip.src', '-e', 'udp.dstport');
    expect(dns.stdout).toBe(
      'Frame 1: 71 bytes on wire (568 bits), 71 bytes captured (568 bits)\n    ip.src: 127.0.0.1\n    udp.dstport: 53\n',
    );
  });

  it.each(['ndjson', 'json', 'text'])(
    'takes --jobs 2 as scripts pass it: the same %s as without it, and says it runs in one thread',
    (format) => {
      for (const name of ['lo-us.cut.pcap', 'veth-frag.pcap', 'lo-any.pcapng']) {
        const one = run('dissect', `${captures}${name}`, '-F', format);
        const two = run('dissect', `${captures}${name}`, '-F', format, '-j', '2');
        expect(two.stdout, name).toBe(one.stdout);
        expect(two.stderr, name).toBe(
          `gamequery: --jobs 2: dissecting in one thread (worker threads were slower than one thread's two passes and used more memory)\n${one.stderr}`,
        );
        expect(two.status, name).toBe(one.status);
        expect(one.stdout.length).toBeGreaterThan(1000);
      }
    },
  );

  it('refuses a --jobs that is no whole number ≥ 1', () => {
    const r = run('dissect', `${captures}lo-us.pcap`, '-j', '0');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--jobs must be a whole number ≥ 1');
  });

  it('takes --duplicate-window: how long a repeated reply is still marked a duplicate', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-window-'));
    try {
      // A real exchange, its reply delivered again 1 s later.
      const file = join(dir, 'copy.pcap');
      writeFileSync(file, retimedExchange([368, 1_000_368]));
      const third = (...args: string[]) => {
        const r = run('dissect', file, '-F', 'ndjson', ...args);
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(r.stdout.trimEnd().split('\n')[2]!);
      };
      expect(third()).toMatchObject({ frame: 3, requestIn: 1, duplicateOf: 2 });
      const stray = third('--duplicate-window', '0');
      expect(stray).toMatchObject({ frame: 3, unmatched: 'no pending request for this reply' });
      expect(stray.duplicateOf).toBeUndefined();
      expect(stray.requestIn).toBeUndefined();
      expect(third('--duplicate-window', '1001')).toMatchObject({ frame: 3, requestIn: 1, duplicateOf: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['--duplicate-window', '-5'],
    ['--timeout', 'soon'],
  ])('refuses %s %s with a message that names it', (flag, value) => {
    const r = run('dissect', `${captures}lo-us.pcap`, flag, value);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`${flag} must be a number of milliseconds ≥ 0, got ${Number(value)}`);
  });

  it("exits 2 (tshark's code for a bad file) and names the offset when a capture is cut, after its intact packets", () => {
    const r = run('dissect', `${captures}lo-us.cut.pcap`, '-F', 'json');
    expect(r.status).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc.errors[0]).toMatchObject({ type: 'CaptureError', code: 'truncated' });
    expect(doc.packets.length).toBeGreaterThan(0);
    // On stderr, naming the file as tshark does (from stdin there is none to name).
    const cut = `${captures}lo-us.cut.pcap`;
    const said = 'file ends 80 bytes into a 93-byte packet record at offset 920\n';
    expect(run('dissect', cut).stderr).toBe(`gamequery: ${cut}: ${said}`);
    expect(run('stats', cut).stderr).toBe(`gamequery: ${cut}: ${said}`);
    const piped = spawnSync(process.execPath, cliArgs(['dissect', '-']), { cwd: root, input: readFileSync(cut), encoding: 'utf8' });
    expect([piped.status, piped.stderr]).toEqual([2, `gamequery: ${said}`]);
  });
});

describe('gamequery dissect to a slow reader', () => {
  it('waits for the pipe instead of holding the output in memory', async () => {
    // 6000 SA:MP `d` exchanges with 100 players each: about 380 MB of NDJSON from a 20 MB capture.
    const players = Array.from({ length: 100 }, (_, id) => ({ id, name: `player_${id}`, score: id, ping: 30 }));
    const at = { serverIp: '127.0.0.1', serverPort: 7777 };
    const request = samp.playersRequest.encode(at);
    const reply = samp.playersResponse.encode({ ...at, players });
    const records: { seconds: number; ticks: number; data: Uint8Array }[] = [];
    for (let i = 0; i < 6000; i++) {
      for (const [payload, fromServer] of [
        [request, false],
        [reply, true],
      ] as const) {
        const client = 40000 + (i % 20000);
        records.push({
          seconds: 1_700_000_000 + i,
          ticks: fromServer ? 500 : 0,
          data: fromServer ? udpFrame(payload, 7777, client) : udpFrame(payload, client, 7777),
        });
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-pipe-'));
    const file = join(dir, 'big.pcap');
    writeFileSync(file, writePcap(records, { linkType: 1 }));
    try {
      const child = spawn(process.execPath, cliArgs(['dissect', file, '-F', 'ndjson']), { cwd: root });
      child.stdout.pause();
      // While nobody reads, the dissector must stop at the pipe: its memory may not grow with the output.
      let peak = 0;
      for (let i = 0; i < 40 && child.exitCode === null; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        peak = Math.max(peak, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
      }
      expect(child.exitCode).toBeNull();
      let lines = 0;
      let bytes = 0;
      let rest = '';
      child.stdout.on('data', (d: Buffer) => {
        bytes += d.length;
        const parts = (rest + d.toString()).split('\n');
        rest = parts.pop()!;
        lines += parts.length;
      });
      child.stdout.resume();
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(lines).toBe(12000);
      expect(bytes).toBeGreaterThan(330e6);
      // Measured while held at the pipe: about 95 MB; the output is 380 MB.
      expect(peak).toBeLessThan(bytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('gamequery dissect progress line', () => {
  // Only on a TTY (script(1) gives stderr one) and only after the first second: the capture comes
  // through a pipe in two parts, a second and a bit apart, so that the run passes its first second
  // whatever the machine's speed.
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-progress-'));
  const first = join(dir, 'first.pcap');
  const rest = join(dir, 'rest.pcap');
  const pipeline = (): string =>
    `{ cat '${first}'; sleep 1.2; cat '${rest}'; } | ${[process.execPath, ...cliArgs(['dissect', '-', '-F', 'ndjson'])].map((a) => `'${a}'`).join(' ')} > /dev/null`;

  it('is drawn on a terminal, and counts frames', async () => {
    const { generateCapture } = await import('../../../bench/capture-gen.ts');
    const [header, ...chunks] = [...generateCapture({ packets: 4096 })];
    writeFileSync(first, Buffer.concat([header!, chunks[0]!]));
    writeFileSync(rest, Buffer.concat(chunks.slice(1)));
    try {
      const r = spawnSync('script', ['-qec', pipeline(), '/dev/null'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(0);
      const lines = r.stdout.split(/[\r\n]+/).filter((l) => /frames\/s/.test(l));
      expect(lines.length).toBeGreaterThan(0);
      const counts = lines.map((l) => Number(/^(\d+) frames, (\d+) query packets/.exec(l.trim())![1]));
      expect(counts.every((n) => n > 0 && n <= 4096)).toBe(true);
      // Without a terminal, stderr stays quiet.
      const plain = spawnSync('bash', ['-c', pipeline()], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      expect(plain.status).toBe(0);
      expect(plain.stderr).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('gamequery stats to a slow reader', () => {
  /** The process's peak resident set so far (VmHWM), in bytes; 0 once it has gone. */
  const peakOf = (pid: number): number => {
    try {
      return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  };
  /** Its CPU time so far, in clock ticks; -1 once it has gone. */
  const cpuOf = (pid: number): number => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return -1;
    }
  };
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  it('writes the statistics as the pipe takes them, not into memory all at once', async () => {
    // 60 000 servers: some 56 MB of JSON statistics, all written after the last packet.
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-stats-pipe-'));
    const file = join(dir, 'scan.pcap');
    writeScan(file, { servers: 60_000, seed: 4 });
    try {
      // To a file, as a yardstick: its writes are synchronous, nothing is ever queued.
      const out = join(dir, 'stats.json');
      const toFile = spawn(process.execPath, cliArgs(['stats', '-F', 'json', file]), {
        cwd: root,
        stdio: ['ignore', openSync(out, 'w'), 'inherit'],
      });
      let filePeak = 0;
      while (toFile.exitCode === null) {
        filePeak = Math.max(filePeak, peakOf(toFile.pid!));
        await sleep(20);
      }
      expect(toFile.exitCode).toBe(0);
      const bytes = statSync(out).size;
      expect(bytes).toBeGreaterThan(40e6);
      // To a pipe nobody reads: once it has done all it can (its CPU time stands still), what it holds.
      const child = spawn(process.execPath, cliArgs(['stats', '-F', 'json', file]), { cwd: root });
      child.stdout.pause();
      let cpu = -2;
      for (let still = 0, i = 0; still < 5 && i < 600 && child.exitCode === null; i++) {
        await sleep(100);
        const now = cpuOf(child.pid!);
        still = now === cpu ? still + 1 : 0;
        cpu = now;
      }
      expect(child.exitCode).toBeNull();
      const pipePeak = peakOf(child.pid!);
      let got = 0;
      child.stdout.on('data', (d: Buffer) => (got += d.length));
      child.stdout.resume();
      expect(await new Promise<number | null>((resolve) => child.on('close', resolve))).toBe(0);
      expect(got).toBe(bytes);
      // Held at the pipe it holds what it holds writing to a file (measured: 0.6 MB more), not the statistics it has still
      // to write (without waiting for the pipe: 42 MB more, of 48 MB of JSON).
      expect(pipePeak).toBeLessThan(filePeak + bytes / 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
