/**
 * What `gamequery dissect` is given, as people who use tcpdump, tshark and gzip give it: a file
 * or stdin (`-`, `/dev/stdin`), pcap in all four magics, pcapng, gzip of either, hex text; and
 * files that are none of these, refused at once with one line. Real captures and tool output
 * (test/fixtures/input/README.md).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toBigEndianPcapng } from '../../dissect/test/capture/helpers.ts';
import { bigEndianPcap } from '../../dissect/test/input/helpers.ts';
import { canRunInProcess, cliArgs, root, runSync } from './cli.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
const hex = `${root}packages/dissect/test/fixtures/hex/`;
const inputs = `${root}packages/cli/test/fixtures/input/`;
const dir = mkdtempSync(join(tmpdir(), 'gamequery-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tmp = (name: string, bytes: Uint8Array | string): string => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

/** `gamequery ARGS…` with `stdin` as its standard input: bytes through a pipe, or a path opened as a file. */
function run(
  args: readonly string[],
  stdin: Uint8Array | { file: string } = new Uint8Array(0),
  env: Record<string, string> = {},
  node: readonly string[] = [],
) {
  // Nothing on stdin, no environment or node flags of its own: run as the other tests run it (in process where it can).
  if (!('file' in stdin) && stdin.length === 0 && !Object.keys(env).length && !node.length && canRunInProcess(args)) {
    const r = runSync(...args);
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  const fd = 'file' in stdin ? openSync(stdin.file, 'r') : undefined;
  try {
    const r = spawnSync(process.execPath, [...node, ...cliArgs(args)], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, ...env },
      ...(fd === undefined ? { input: stdin as Uint8Array } : { stdio: [fd, 'pipe', 'pipe'] }),
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const ndjson = (path: string): string => {
  const r = run(['dissect', path, '-F', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

describe('captures, from a file or from stdin', () => {
  const usFile = `${captures}lo-us.pcap`;
  const nsFile = `${captures}lo-ns.pcap`;
  const us = ndjson(usFile);
  const ns = ndjson(nsFile);

  it('reads the reference captures (16 packets each)', () => {
    expect(us.trimEnd().split('\n')).toHaveLength(16);
    expect(ns.trimEnd().split('\n')).toHaveLength(16);
  });

  it.each([
    ['big-endian µs pcap (a1 b2 c3 d4)', () => tmp('be-us.pcap', bigEndianPcap(readFileSync(usFile))), () => us],
    ['big-endian ns pcap (a1 b2 3c 4d)', () => tmp('be-ns.pcap', bigEndianPcap(readFileSync(nsFile))), () => ns],
    ['gzip of a pcap (gzip -9n)', () => `${inputs}lo-us.pcap.gz`, () => us],
  ])('%s: as a file, as - and as /dev/stdin (a pipe and a file), the same packets', (_what, make, expected) => {
    const path = make();
    expect(ndjson(path)).toBe(expected());
    const bytes = readFileSync(path);
    for (const [args, stdin] of [
      [['-'], bytes],
      [['/dev/stdin'], bytes],
      [['/dev/stdin'], { file: path }],
    ] as const) {
      const r = run(['dissect', ...args, '-F', 'ndjson'], stdin);
      expect(r.stderr).toBe('');
      expect(r.stdout, `${args[0]} ${'file' in stdin ? 'file' : 'socket'}`).toBe(expected());
    }
    // A shell's pipe (not a socket, as a parent process's stdio is): `cat FILE | gamequery dissect /dev/stdin`.
    const shell = spawnSync(
      'sh',
      ['-c', `cat "$0" | "${process.execPath}" "$@"`, path, ...cliArgs(['dissect', '/dev/stdin', '-F', 'ndjson'])],
      { cwd: root, encoding: 'utf8' },
    );
    expect(shell.stderr).toBe('');
    expect(shell.stdout).toBe(expected());
  });

  it('pcapng: little- and big-endian, gzipped, from a file and through a pipe, the same packets', () => {
    const reference = ndjson(`${captures}lo.pcapng`);
    expect(reference.trimEnd().split('\n')).toHaveLength(16);
    const be = tmp('be.pcapng', toBigEndianPcapng(Uint8Array.from(readFileSync(`${captures}lo.pcapng`))));
    expect(ndjson(be)).toBe(reference);
    expect(ndjson(`${inputs}lo.pcapng.gz`)).toBe(reference);
    expect(run(['dissect', '-', '-F', 'ndjson'], readFileSync(`${inputs}lo.pcapng.gz`)).stdout).toBe(reference);
    expect(run(['dissect', '-', '-F', 'ndjson'], readFileSync(be)).stdout).toBe(reference);
  });

  it('a gzip cut short: every packet before the cut, then the error; exit 2, as tshark', () => {
    const gz = readFileSync(`${inputs}lo-us.pcap.gz`);
    const cut = tmp('cut.pcap.gz', gz.subarray(0, gz.length - 8)); // the CRC and length trailer lost
    const r = run(['dissect', cut, '-F', 'ndjson']);
    expect(r.code).toBe(2);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, -1).join('\n') + '\n').toBe(us);
    expect(JSON.parse(lines.at(-1)!)).toEqual({
      error: { type: 'InputError', code: 'bad-gzip', message: `${cut}: damaged gzip data: unexpected end of file` },
    });
  });
});

describe('hex dumps, from a file or from stdin', () => {
  it('reads a gzipped tcpdump -X dump, and the same dump through a pipe, as its two packets', () => {
    const plain = run(['dissect', `${hex}samp-brackets.tcpdump-X.txt`, '-F', 'ndjson']);
    expect(
      plain.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).message),
    ).toEqual(['info', 'info']);
    expect(run(['dissect', `${inputs}samp-brackets.tcpdump-X.txt.gz`, '-F', 'ndjson']).stdout).toBe(plain.stdout);
    expect(run(['dissect', '-', '-F', 'ndjson'], readFileSync(`${hex}samp-brackets.tcpdump-X.txt`)).stdout).toBe(plain.stdout);
  });
});

describe('what is neither a capture nor a hex dump: exit 2, one line naming it', () => {
  const refused = (args: readonly string[], stdin?: Uint8Array) => {
    const r = run(['dissect', ...args, '-F', 'ndjson'], stdin);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
    return r.stderr.trimEnd();
  };

  it('a PNG image, as a file and through a pipe', () => {
    expect(refused([`${inputs}tiny.png`])).toBe(
      `gamequery: ${inputs}tiny.png: not a capture (pcap, pcapng) or a hex dump: it starts with 89 50 4e 47 0d 0a 1a 0a, a PNG image`,
    );
    expect(refused(['-'], readFileSync(`${inputs}tiny.png`))).toBe(
      'gamequery: stdin: not a capture (pcap, pcapng) or a hex dump: it starts with 89 50 4e 47 0d 0a 1a 0a, a PNG image',
    );
  });

  it('64 KiB of random bytes', () => {
    let bytes = randomBytes(65536);
    while (bytes[0] === 0x1f) bytes = randomBytes(65536); // not a gzip magic by chance
    const path = tmp('random.bin', bytes);
    expect(refused([path])).toMatch(
      new RegExp(
        `: not a capture \\(pcap, pcapng\\) or a hex dump: it starts with ${[...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}, binary data, not text$`,
      ),
    );
  });

  it('/dev/zero, at once', () => {
    expect(refused(['/dev/zero'])).toBe(
      'gamequery: /dev/zero: not a capture (pcap, pcapng) or a hex dump: it starts with 00 00 00 00 00 00 00 00, zero bytes',
    );
  });

  it('an empty file and empty stdin; a directory; a missing file', () => {
    expect(refused([tmp('empty', '')])).toBe(`gamequery: ${dir}/empty: empty (no bytes at all)`);
    expect(refused(['-'])).toBe('gamequery: stdin: empty (no bytes at all)');
    expect(refused([dir])).toBe(`gamequery: ${dir}: is a directory`);
    expect(refused([`${dir}/missing.pcap`])).toBe(`gamequery: ${dir}/missing.pcap: cannot open it (ENOENT)`);
  });

  it('gzip of a PNG, and gzip inside gzip', () => {
    const png = readFileSync(`${inputs}tiny.png`);
    expect(refused(['-'], spawnSync('gzip', ['-c'], { input: png }).stdout)).toMatch(
      /^gamequery: stdin: not a capture \(pcap, pcapng\) or a hex dump, gzip-compressed: it starts with 89 50 4e 47/,
    );
    expect(
      refused(
        [`${dir}/twice.gz`].map(
          (p) => (writeFileSync(p, spawnSync('gzip', ['-c'], { input: readFileSync(`${inputs}lo-us.pcap.gz`) }).stdout), p),
        ),
      ),
    ).toMatch(/gzip-compressed: it starts with 1f 8b .*, gzip inside gzip$/);
  });

  it('text without a dump: a short note, and a megabyte of prose given up on early', () => {
    expect(refused(['-'], Buffer.from('hello\n'))).toBe('gamequery: stdin: no hex dump in it (1 line of text): not a hex dump');
    const prose = tmp('prose.txt', 'Nothing to see here, just words.\n'.repeat(100_000));
    expect(refused([prose])).toMatch(
      new RegExp(`^gamequery: ${prose}: no hex dump line in the first 1 MiB \\(\\d+ lines\\): not a hex dump$`),
    );
  });
});

describe('any size, bounded memory', () => {
  /** Peak RSS in KiB, written by a preloaded module as the process exits. */
  const peak = (args: readonly string[]): { r: ReturnType<typeof run>; kib: number } => {
    const file = join(dir, `rss-${args.length}-${Date.now()}`);
    const r = run(['dissect', ...args], new Uint8Array(0), { GAMEQUERY_PEAK_RSS_FILE: file }, [
      '--import',
      `${root}packages/cli/test/helpers/peak-rss.mjs`,
    ]);
    return { r, kib: Number(readFileSync(file, 'utf8')) };
  };

  it('a 300 MB sparse file with a dump at each end: both packets, the hole skipped as one long line, < 100 MiB over a one-packet run', () => {
    // Twenty dumps first (8 KiB: the first 4 KiB, by which text is told, hold no NUL), then the hole.
    const dump = readFileSync(`${hex}samp-info-response.xxd.txt`);
    const path = join(dir, 'sparse.txt');
    writeFileSync(path, Buffer.concat(Array.from({ length: 20 }, () => dump)));
    const fd = openSync(path, 'r+');
    const end = 300_000_000;
    writeSync(fd, Buffer.concat([Buffer.from('\n'), dump]), 0, dump.length + 1, end);
    closeSync(fd);
    const small = peak([`${hex}samp-info-response.xxd.txt`, '-F', 'ndjson']);
    const big = peak([path, '-F', 'ndjson']);
    expect(big.r.code, big.r.stderr).toBe(0);
    const lines = big.r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.frame, l.message])).toEqual(Array.from({ length: 21 }, (_, i) => [i + 1, 'info']));
    expect(big.r.stderr).toContain(`gamequery: ${path}: line 121, column 1: longer than 1048576 characters: skipped\n`);
    expect(small.kib).toBeGreaterThan(10_000);
    expect(big.kib - small.kib, `${big.kib} KiB against ${small.kib} KiB`).toBeLessThan(100 * 1024);
  }, 120_000);
});
