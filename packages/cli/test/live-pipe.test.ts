/**
 * `gamequery dissect -` reading a capture while it is being written into the pipe, as from
 * `tcpdump -U -w - | gamequery dissect -`: each exchange comes out as soon as it settles (a
 * request with its reply; an unanswered request once its timeout passes, the capture clock
 * moving on in wall time while the input is quiet) and stdout is flushed after each read,
 * with the pipe still open. A committed capture is written a record at a time, 300–400 ms
 * apart; every wait is bounded and every child killed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliArgs, exitWithin, root, runSync, running, waitFor, type Started } from './cli.ts';

const OMP = `${root}packages/dissect/test/fixtures/omp/omp-forms-lo.pcap`;
const HEX = `${root}packages/dissect/test/fixtures/hex/samp-info-response.xxd.txt`;
const TIMEOUT = 1000;
/** Between two records written. */
const GAP = 330;

interface Pcap {
  /** The 24-byte file header. */
  readonly header: Buffer;
  /** Each record (its 16-byte header and its bytes), with its time in µs since the first. */
  readonly records: ReadonlyArray<{ readonly bytes: Buffer; readonly micros: number }>;
}

/** A little-endian µs pcap, cut into its file header and its records. */
function splitPcap(bytes: Buffer): Pcap {
  if (bytes.readUInt32LE(0) !== 0xa1b2c3d4) throw new Error('not a little-endian µs pcap');
  const records: Array<{ bytes: Buffer; micros: number }> = [];
  let first: number | undefined;
  for (let at = 24; at < bytes.length;) {
    const micros = bytes.readUInt32LE(at) * 1e6 + bytes.readUInt32LE(at + 4);
    first ??= micros;
    const end = at + 16 + bytes.readUInt32LE(at + 8);
    records.push({ bytes: bytes.subarray(at, end), micros: micros - first });
    at = end;
  }
  return { header: bytes.subarray(0, 24), records };
}

const omp = splitPcap(readFileSync(OMP));

/** A line of stdout and when it arrived (Date.now()). */
interface Line {
  readonly text: string;
  readonly at: number;
}

interface Run extends Started {
  readonly lines: Line[];
  stderr: string;
}

const runs = new Set<Run>();

/** Starts `gamequery ARGS…` with stdin a pipe left open; each line of stdout is stamped as it comes. */
function start(args: readonly string[]): Run {
  const child = spawn(process.execPath, cliArgs(args), { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const r: Run = { child, lines: [], stderr: '', exited: new Promise((resolve) => child.once('close', (code) => resolve(code))) };
  let partial = Buffer.alloc(0);
  child.stdout!.on('data', (d: Buffer) => {
    const at = Date.now();
    partial = Buffer.concat([partial, d]);
    for (let nl = partial.indexOf(10); nl >= 0; nl = partial.indexOf(10)) {
      r.lines.push({ text: partial.subarray(0, nl).toString('utf8'), at });
      partial = partial.subarray(nl + 1);
    }
  });
  child.stderr!.on('data', (d: Buffer) => (r.stderr += d.toString()));
  child.stdin!.on('error', () => {}); // a child that died: its exit code says so
  runs.add(r);
  return r;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  for (const r of runs) {
    if (running(r)) r.child.kill('SIGKILL');
    await exitWithin(r, 5000);
  }
  runs.clear();
});

/**
 * Writes the pcap header, then one record every `gap` ms, to every run's stdin (left open);
 * returns when each record was written (Date.now(), by frame number - 1): taken just before
 * the write, so that no run can have read the record earlier (taken after it, a test process
 * the loaded machine set aside for some ms between the write and the clock read a time later
 * than the run's, and a line written on time looked 20 ms early).
 */
async function feed(to: readonly Run[], pcap: Pcap, gap: number, records = pcap.records.length): Promise<number[]> {
  for (const r of to) r.child.stdin!.write(pcap.header);
  const written: number[] = [];
  for (const { bytes } of pcap.records.slice(0, records)) {
    await sleep(gap);
    written.push(Date.now());
    for (const r of to) r.child.stdin!.write(bytes);
  }
  return written;
}

/** A record as the checks need it, from an NDJSON line or a summary line (-P). */
interface Seen {
  readonly frame: number;
  readonly responseIn?: number;
  readonly requestIn?: number;
  /** Unanswered: the reason (NDJSON) or "No response" (-P). */
  readonly unanswered?: string;
  readonly at: number;
}

const fromNdjson = (l: Line): Seen => {
  const p = JSON.parse(l.text) as { frame: number; responseIn?: number; requestIn?: number; unanswered?: string };
  return { frame: p.frame, responseIn: p.responseIn, requestIn: p.requestIn, unanswered: p.unanswered, at: l.at };
};

const fromSummary = (l: Line): Seen => {
  const frame = /^ *(\d+) /.exec(l.text);
  if (!frame) throw new Error(`not a summary line: ${l.text}`);
  const link = (name: string): number | undefined => {
    const m = new RegExp(`\\[${name} (\\d+)\\]`).exec(l.text);
    return m ? Number(m[1]) : undefined;
  };
  return {
    frame: Number(frame[1]),
    responseIn: link('Response In'),
    requestIn: link('Request In'),
    unanswered: l.text.includes('[No response]') ? 'No response' : undefined,
    at: l.at,
  };
};

/** The exchanges of the capture read as a file (two passes, frame order): each reply's frame and its request's. */
const reference = (() => {
  const r = runSync('dissect', OMP, '-F', 'ndjson', '--timeout', String(TIMEOUT));
  if (r.status !== 0) throw new Error(r.stderr);
  const all = r.stdout
    .trimEnd()
    .split('\n')
    .map((text) => fromNdjson({ text, at: 0 }));
  return {
    pairs: all.filter((p) => p.requestIn !== undefined).map((p) => ({ request: p.requestIn!, reply: p.frame })),
    unanswered: all.filter((p) => p.unanswered !== undefined).map((p) => p.frame),
  };
})();

describe('gamequery dissect - (a capture written into the pipe as it is made)', () => {
  it('the reference capture: 25 frames, 12 exchanges, frame 4 (an `o` request) unanswered', () => {
    expect(omp.records).toHaveLength(25);
    expect(reference.pairs).toHaveLength(12);
    expect(reference.unanswered).toEqual([4]);
  });

  it('writes each exchange within 1 s of its reply being written, and the unanswered request once its timeout has passed in wall time, stdin still open (NDJSON and -P)', async () => {
    // Both runs are fed the same records at the same moments.
    const ndjson = start(['dissect', '-', '-F', 'ndjson', '--timeout', String(TIMEOUT)]);
    const summary = start(['dissect', '-', '-P', '--timeout', String(TIMEOUT)]);
    const written = await feed([ndjson, summary], omp, GAP);
    const last = written.at(-1)!;

    const views = [
      { name: 'ndjson', r: ndjson, seen: (): Seen[] => ndjson.lines.map(fromNdjson) },
      { name: '-P', r: summary, seen: (): Seen[] => summary.lines.map(fromSummary) },
    ];
    for (const { name, r, seen } of views) {
      // The unanswered request: out while stdin is open, within timeout + 2 s of the last record.
      const found = await waitFor(() => seen().some((p) => p.frame === 4), TIMEOUT + 2000 - (Date.now() - last));
      expect(found, `${name}: frame 4 within ${TIMEOUT + 2000} ms of the last record; stderr: ${r.stderr}`).toBe(true);
      expect(running(r), name).toBe(true);
      const all = seen();
      const lone = all.find((p) => p.frame === 4)!;
      expect(lone.unanswered, name).toMatch(name === 'ndjson' ? /^no reply/ : /^No response$/);
      expect(lone.at - last, `${name}: frame 4 after the last record`).toBeLessThanOrEqual(TIMEOUT + 2000);
      // Not before the capture clock can have passed its timeout: the request's time plus the timeout, from the
      // last frame's time on, in the wall time since that frame was written (less a few ms for clock rounding).
      const due = omp.records[3]!.micros / 1000 + TIMEOUT - omp.records.at(-1)!.micros / 1000;
      expect(lone.at - last, `${name}: frame 4 not before its timeout passed`).toBeGreaterThanOrEqual(due - 20);

      // Each exchange: both lines, linked both ways, within 1 s of the reply being written and not before.
      for (const { request, reply } of reference.pairs) {
        const q = all.find((p) => p.frame === request);
        const a = all.find((p) => p.frame === reply);
        expect(q, `${name}: frame ${request}`).toBeDefined();
        expect(a, `${name}: frame ${reply}`).toBeDefined();
        expect([q!.responseIn, a!.requestIn], `${name}: ${request} ↔ ${reply}`).toEqual([reply, request]);
        for (const p of [q!, a!]) {
          const late = p.at - written[reply - 1]!;
          expect(late, `${name}: frame ${p.frame}, ${late} ms after frame ${reply} was written`).toBeLessThanOrEqual(1000);
          expect(late, `${name}: frame ${p.frame} before its reply (frame ${reply}) was written`).toBeGreaterThanOrEqual(0);
        }
        // What settles together comes out in frame order: the request first.
        expect(all.indexOf(q!), `${name}: ${request} before ${reply}`).toBeLessThan(all.indexOf(a!));
      }
      expect(all.map((p) => p.frame).sort((x, y) => x - y)).toEqual(omp.records.map((_, i) => i + 1));
    }

    // End of input: nothing more to write, exit 0, every frame once.
    for (const { name, r, seen } of views) {
      const before = r.lines.length;
      r.child.stdin!.end();
      expect(await exitWithin(r, 10_000), `${name}: ${r.stderr}`).toBe(0);
      expect(r.stderr, name).toBe('');
      expect(r.lines.length, `${name}: lines written after stdin closed`).toBe(before);
      expect(
        seen()
          .map((p) => p.frame)
          .sort((x, y) => x - y),
        name,
      ).toEqual(omp.records.map((_, i) => i + 1));
    }
  }, 40_000);

  it('-T fields of the frame layers: each frame its line within 1 s of its record being written, none held for a reply', async () => {
    // Nothing read needs pairing (FieldsLine.linkless): the unanswered request, frame 4, is out at once too.
    const r = start([
      'dissect',
      '-',
      '-T',
      'fields',
      '-e',
      'frame.number',
      '-e',
      'ip.src',
      '-e',
      'udp.srcport',
      '--timeout',
      String(TIMEOUT),
    ]);
    // A third of the other tests' gap: nothing here waits on the capture clock.
    const written = await feed([r], omp, GAP / 3);
    expect(await waitFor(() => r.lines.length === omp.records.length, 1000 - (Date.now() - written.at(-1)!)), r.stderr).toBe(true);
    expect(running(r)).toBe(true);
    expect(r.lines.map((l) => Number(l.text.split('\t')[0]))).toEqual(omp.records.map((_, i) => i + 1));
    for (const [i, l] of r.lines.entries()) {
      const late = l.at - written[i]!;
      expect(late, `frame ${i + 1}, ${late} ms after it was written`).toBeLessThanOrEqual(1000);
      expect(late, `frame ${i + 1} before it was written`).toBeGreaterThanOrEqual(0);
    }
    r.child.stdin!.end();
    expect(await exitWithin(r, 10_000), r.stderr).toBe(0);
    // The lines of the file read whole, two passes and all.
    const file = runSync('dissect', OMP, '-T', 'fields', '-e', 'frame.number', '-e', 'ip.src', '-e', 'udp.srcport');
    expect(r.lines.map((l) => l.text).join('\n')).toBe(file.stdout.trimEnd());
  }, 30_000);

  it('a FIFO named as the input: the first exchange is out before the rest is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gamequery-fifo-'));
    try {
      const fifo = join(dir, 'capture');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      const r = start(['dissect', fifo, '-F', 'ndjson', '--timeout', String(TIMEOUT)]);
      const writer = createWriteStream(fifo);
      writer.write(omp.header);
      writer.write(omp.records[0]!.bytes);
      await sleep(GAP);
      writer.write(omp.records[1]!.bytes);
      const pair = (): boolean => r.lines.map(fromNdjson).filter((p) => p.frame <= 2).length === 2;
      expect(await waitFor(pair, 1000), r.stderr).toBe(true);
      expect(running(r)).toBe(true);
      for (const { bytes } of omp.records.slice(2)) writer.write(bytes);
      writer.end();
      expect(await exitWithin(r, 10_000), r.stderr).toBe(0);
      expect(r.lines.map((l) => fromNdjson(l).frame).sort((x, y) => x - y)).toEqual(omp.records.map((_, i) => i + 1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('-c N from a pipe left open', () => {
  it('exits 0 once N packets are written, the pipe still open and quiet (tshark -c)', async () => {
    // The first exchange (frames 1 and 2) settles as its reply comes; the third packet would wait for frame 4's timeout.
    const r = start(['dissect', '-', '-c', '2', '-F', 'ndjson']);
    r.child.stdin!.write(omp.header);
    for (const { bytes } of omp.records.slice(0, 8)) r.child.stdin!.write(bytes);
    // Nothing more is written and stdin stays open: the reader stops anyway.
    expect(await exitWithin(r, 3000), r.stderr).toBe(0);
    expect(r.lines.map((l) => fromNdjson(l).frame)).toEqual([1, 2]);
    expect(r.stderr).toBe('');
  });

  it('a hex dump the same, once its N packets are complete', async () => {
    const r = start(['dissect', '-', '-c', '5', '-F', 'ndjson']);
    // Twenty dumps, more than the 4 KiB a text input is told by; a dump is dissected once the next one is complete.
    r.child.stdin!.write(Buffer.concat(Array.from({ length: 20 }, () => readFileSync(HEX))));
    expect(await exitWithin(r, 3000), r.stderr).toBe(0);
    expect(r.lines).toHaveLength(5);
  });
});

describe('-l (--line-buffered)', () => {
  it('a pipe, with -l and without: the first exchange is readable from stdout (a pipe) before the rest of the capture is written', async () => {
    // Without -l a capture read from a pipe is flushed after each read anyway: the two are alike.
    const lined = start(['dissect', '-', '-F', 'ndjson', '-l', '--timeout', String(TIMEOUT)]);
    const plain = start(['dissect', '-', '-F', 'ndjson', '--timeout', String(TIMEOUT)]);
    const written = await feed([lined, plain], omp, GAP, 2);
    for (const r of [lined, plain]) {
      const pair = (): boolean => r.lines.filter((l) => fromNdjson(l).frame <= 2).length === 2;
      expect(await waitFor(pair, 1000 - (Date.now() - written[1]!)), r.stderr).toBe(true);
      expect(running(r)).toBe(true);
    }
    for (const r of [lined, plain]) {
      for (const { bytes } of omp.records.slice(2)) r.child.stdin!.write(bytes);
      r.child.stdin!.end();
      expect(await exitWithin(r, 10_000), r.stderr).toBe(0);
    }
    const sorted = (r: Run): string[] => r.lines.map((l) => l.text).sort();
    expect(sorted(lined)).toHaveLength(25);
    expect(sorted(lined)).toEqual(sorted(plain));
  });

  it('a hex dump through a pipe, with -l: each packet is on stdout as it is decoded, before the input ends', async () => {
    // Twenty dumps of one info response (more than the 4 KiB a text input is told by), stdin left open.
    // A dump is dissected once the next one is complete (the panes of a tshark frame come one after
    // another) and the last one's end is not known: 18 packets can be out. (Without -l they stay in the
    // output buffer until the input ends: text from a pipe is not flushed after each read, a capture is.)
    const dumps = Buffer.concat(Array.from({ length: 20 }, () => readFileSync(HEX)));
    const r = start(['dissect', '-', '-F', 'ndjson', '-l']);
    r.child.stdin!.write(dumps);
    expect(await waitFor(() => r.lines.length >= 18, 2000), r.stderr).toBe(true);
    expect(running(r)).toBe(true);
    r.child.stdin!.end();
    expect(await exitWithin(r, 10_000), r.stderr).toBe(0);
    expect(r.lines.map((l) => (JSON.parse(l.text) as { message: string }).message)).toEqual(Array(20).fill('info'));
  });
});
