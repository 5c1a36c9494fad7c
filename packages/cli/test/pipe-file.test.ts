/**
 * A capture read from a pipe and the same capture read as a file give the same answers.
 *
 * `cat FILE | gamequery dissect -` (one pass, each record as its exchange settles) writes the
 * packets of `gamequery dissect FILE` (two passes, in frame order): the same JSON for every
 * frame, the same counts and errors. `gamequery stats` counts in the first pass alone, from a
 * file or a pipe, without making a record; `gamequery dissect -z stats` counts the records it
 * writes: the same statistics, on committed captures of every kind (link types, fragments,
 * sections, warnings, one cut mid-record: exit 1, its error in "errors", and a gzip), a
 * generated real mix of 20 000 frames and a query flood whose exact counts are known. The
 * library's side of this, on every committed capture, is dissect's test/stats/first-pass.test.ts.
 *
 * A run from a pipe is a child process of the built command, `cat FILE |` a shell's pipe (not
 * the socket a parent's stdio is); a run from a file is the built program in process (cli.ts).
 * All are started when the file loads, no more pipes at once than the machine has cores, each
 * killed with its pipeline after a bounded time; a test waits for its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFlood } from '../../../bench/flood.ts';
import { generateTraffic, type TrafficSummary } from '../../../bench/traffic.ts';
import { cliArgs, gamequery, root, type Ran } from './cli.ts';

// ---------------------------------------------------------------------------------------
// Running the command

let running = 0;
const waiting: Array<() => void> = [];

/** `gamequery ARGS…` to its end, stdin `cat FROM |` or nothing; the output decoded once it is all there. */
async function run(args: readonly string[], from?: string): Promise<Ran> {
  // From a file: in process, as the other tests run quick commands.
  if (from === undefined) return gamequery(args);
  if (running < availableParallelism()) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await new Promise<Ran>((resolve) => {
      const [command, argv] =
        from === undefined
          ? [process.execPath, cliArgs(args)]
          : ['sh', ['-c', 'cat "$0" | "$@"', from, process.execPath, ...cliArgs(args)]];
      // Its own process group: the kill reaches cat and gamequery too.
      const child = spawn(command, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
      });
    });
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

interface Document {
  readonly packets: ReadonlyArray<{ readonly frame: number } & Record<string, unknown>>;
  readonly errors: unknown[];
  readonly stats: Record<string, unknown>;
  readonly serverStats?: {
    readonly servers: ReadonlyArray<Record<string, unknown> & { server: { ip: string; port: number } }>;
    readonly totals: Record<string, unknown>;
  };
}

const parse = (r: Ran): Document => {
  try {
    return JSON.parse(r.stdout) as Document;
  } catch {
    throw new Error(`not a JSON document (exit ${r.code}): ${r.stderr.slice(0, 2000)}`);
  }
};

const byFrame = (packets: Document['packets']) => [...packets].sort((a, b) => a.frame - b.frame);
const frames = (d: Document): number[] => d.packets.map((p) => p.frame);
const ascending = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || x > xs[i - 1]!);

// ---------------------------------------------------------------------------------------
// The captures and their runs

/** One capture of each kind, through the command (every committed one goes through the library in dissect's tests). */
const CHOSEN = [
  'packages/cli/test/fixtures/input/lo-us.pcap.gz',
  'packages/dissect/test/fixtures/captures/any-sll2.pcap',
  'packages/dissect/test/fixtures/captures/lo-us.cut.pcap',
  'packages/dissect/test/fixtures/captures/lo-v6.rawip6.pcap',
  'packages/dissect/test/fixtures/captures/two-sections.pcapng',
  'packages/dissect/test/fixtures/captures/veth-frag.pcap',
  'packages/dissect/test/fixtures/expert/expert-lo.pcap',
  'packages/dissect/test/fixtures/mcquery/full-stat-lo.pcap',
  'packages/dissect/test/fixtures/omp/omp-forms-lo.pcap',
];
const captures = CHOSEN;
/** Read both ways as packets (not the gzip, which is a file read once). */
const dissected = captures.filter((c) => !c.endsWith('.gz'));

/** The runs of a capture: its records (`dissect FILE -z stats`), its first-pass statistics from the file and from a pipe. */
const statsRuns = (path: string) => ({
  records: run(['dissect', path, '-F', 'json', '-z', 'stats']),
  stats: run(['stats', path, '-F', 'json']),
  piped: run(['stats', '-', '-F', 'json'], path),
});

// Every run is started now: each test waits for its own.
const runs = new Map(
  captures.map((c) => {
    const path = `${root}${c}`;
    const r = statsRuns(path);
    return [c, { ...r, dissectPiped: dissected.includes(c) ? run(['dissect', '-', '-F', 'json', '-z', 'stats'], path) : undefined }];
  }),
);

/** Writes a generated capture to `file`; returns its summary. */
function writeTraffic(file: string, traffic: Generator<Uint8Array, TrafficSummary>): TrafficSummary {
  const chunks: Uint8Array[] = [];
  for (;;) {
    const r = traffic.next();
    if (r.done) {
      writeFileSync(file, Buffer.concat(chunks));
      return r.value;
    }
    chunks.push(r.value);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'gamequery-pipe-file-'));
const ompGz = join(dir, 'omp-forms-lo.pcap.gz');
writeFileSync(ompGz, gzipSync(readFileSync(`${root}packages/dissect/test/fixtures/omp/omp-forms-lo.pcap`)));
const ompGzRun = run(['dissect', ompGz, '-F', 'json', '-z', 'stats']);
const mix = writeTraffic(join(dir, 'mix.pcap'), generateTraffic({ frames: 20_000, seed: 3 }));
const mixRuns = statsRuns(join(dir, 'mix.pcap'));
const flood = writeFlood(join(dir, 'flood.pcap'), { requests: 20_000, seed: 1 });
const floodRuns = statsRuns(join(dir, 'flood.pcap'));
afterAll(async () => {
  await Promise.all([...Object.values(mixRuns), ...Object.values(floodRuns)]);
  rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------

describe('cat FILE | gamequery dissect - -F json, and gamequery dissect FILE -F json (both -z stats)', () => {
  // Both with -z stats (the file's run is shared with the statistics below): it adds "serverStats"
  // after the packets and changes none of them. The pipe's statistics are counted of its records, in
  // the order they settle: the same numbers (the order of the keys in "requests" may differ).
  it('reads the chosen captures both ways', () => {
    expect(dissected.length).toBe(CHOSEN.length - 1);
    expect(dissected).toContain('packages/dissect/test/fixtures/omp/omp-forms-lo.pcap');
    expect(dissected).toContain('packages/dissect/test/fixtures/captures/lo-us.cut.pcap');
  });

  it.each(dissected)('%s: the same packets (JSON per frame), stats, errors and serverStats; the file in frame order', async (name) => {
    const { records, dissectPiped } = runs.get(name)!;
    const [fileRun, pipeRun] = await Promise.all([records, dissectPiped!]);
    const file = parse(fileRun);
    const piped = parse(pipeRun);
    // A capture cut mid-record: exit 2 (tshark's bad file), its error in "errors"; else exit 0.
    expect(fileRun.code).toBe(file.errors.length ? 2 : 0);
    expect(pipeRun.code, pipeRun.stderr).toBe(fileRun.code);
    expect([pipeRun.stderr, fileRun.stderr]).toEqual(['', '']);
    expect(ascending(frames(file)), `file order: ${frames(file).join(' ')}`).toBe(true);
    expect(byFrame(piped.packets)).toEqual(byFrame(file.packets));
    expect(piped.stats).toEqual(file.stats);
    expect(piped.errors).toEqual(file.errors);
    expect(piped.serverStats).toEqual(file.serverStats);
  });

  it('the pipe writes each exchange as it settles: omp-forms-lo.pcap, its unanswered request (frame 4) last', async () => {
    const piped = parse(await runs.get('packages/dissect/test/fixtures/omp/omp-forms-lo.pcap')!.dissectPiped!);
    expect(frames(piped)).toEqual([1, 2, 3, 11, 5, 12, 6, 13, 7, 14, 8, 15, 9, 16, 10, 17, 18, 19, 20, 21, 22, 23, 24, 25, 4]);
  });

  it('a gzipped capture file (read once, as a pipe is): the packets of the plain file, in frame order', async () => {
    // "A file is read in two passes, in frame order": a .gz file cannot be read twice, but it is a file.
    const [plainRun, gzRun] = await Promise.all([runs.get('packages/dissect/test/fixtures/omp/omp-forms-lo.pcap')!.records, ompGzRun]);
    expect(gzRun.code, gzRun.stderr).toBe(0);
    const plain = parse(plainRun);
    const gz = parse(gzRun);
    expect(byFrame(gz.packets)).toEqual(byFrame(plain.packets));
    expect(frames(gz)).toEqual(frames(plain));
  });
});

/** The three runs of a capture agree (see the module comment); returns the first pass's document and exit code. */
async function agree(r: ReturnType<typeof statsRuns>): Promise<{ file: Document; code: number | null }> {
  const [recordsRun, fileRun, pipeRun] = await Promise.all([r.records, r.stats, r.piped]);
  const file = parse(fileRun);
  const piped = parse(pipeRun);
  const records = parse(recordsRun);
  expect([fileRun.stderr, pipeRun.stderr, recordsRun.stderr]).toEqual(['', '', '']);
  expect([pipeRun.code, recordsRun.code]).toEqual([fileRun.code, fileRun.code]);
  // A capture cut mid-record: exit 2 and its error, the statistics of what came before it.
  expect(fileRun.code).toBe(file.errors.length ? 2 : 0);
  expect([file.packets, piped.packets]).toEqual([[], []]);

  // The first pass, from a file and from a pipe.
  expect(piped.serverStats, 'stats -: serverStats').toEqual(file.serverStats);
  expect(piped.stats, 'stats -: stats').toEqual(file.stats);
  expect(piped.errors, 'stats -: errors').toEqual(file.errors);
  // The first pass against the records: the totals, every server, the counts, the errors.
  expect(file.serverStats!.totals, 'totals, against dissect -z stats').toEqual(records.serverStats!.totals);
  expect(file.serverStats!.servers, 'servers, against dissect -z stats').toEqual(records.serverStats!.servers);
  expect(file.stats, 'stats, against dissect -z stats').toEqual(records.stats);
  expect(file.errors, 'errors, against dissect -z stats').toEqual(records.errors);
  return { file, code: fileRun.code };
}

describe('gamequery stats FILE (first pass) = cat FILE | gamequery stats - = gamequery dissect FILE -z stats (records)', () => {
  it('finds the chosen captures', () => {
    expect(captures).toEqual([...CHOSEN].sort());
  });

  it.each(captures)('%s', async (name) => {
    await agree(runs.get(name)!);
  });

  it('a real mix of 20 000 frames (bench/traffic.ts, seed 3)', async () => {
    const { file, code } = await agree(mixRuns);
    expect(code).toBe(0);
    expect(file.stats['frames']).toBe(mix.frames);
    expect(file.serverStats!.servers.length).toBeGreaterThan(10);
  }, 60_000);

  it('a query flood of 20 000 requests (bench/flood.ts, seed 1), and its exact counts', async () => {
    const { file, code } = await agree(floodRuns);
    expect(code).toBe(0);
    expect(file.stats['frames']).toBe(flood.frames);
    const [ip, port] = flood.server.split(':');
    expect(file.serverStats!.servers.map((s) => s.server)).toEqual([{ ip, port: Number(port) }]);
    const server = file.serverStats!.servers[0]!;
    expect(server['requests']).toEqual(flood.requests);
    expect([server['answered'], server['unanswered'], server['replies']]).toEqual([flood.answered, flood.unanswered, flood.replies]);
  }, 60_000);
});
