/**
 * Reading an attack: `gamequery stats --by source` (`-z sources`) and the amplification of
 * `-z stats`, on a query flood generated with its truth (bench/flood.ts: spoofed sources,
 * five unspoofed heavy hosts, an RCON password guesser) and on committed captures, the
 * bytes checked against tshark's own reading of the same frames.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourcesReport, StatsReport } from '@gamequery/dissect';
import { writeFlood, type FloodSummary } from '../../../bench/flood.ts';
import { cliArgs, root, runSync as run, waitFor } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
let dir: string;
let flood: string;
let truth: FloodSummary;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gamequery-attack-'));
  flood = join(dir, 'flood.pcap');
  truth = writeFlood(flood, { requests: 60_000, seed: 7 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Document {
  readonly serverStats?: StatsReport;
  readonly sourceStats?: SourcesReport;
}
const json = (...args: string[]): Document => {
  const r = run(...args);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Document;
};

/** tshark's UDP payload and frame bytes of the frames a filter passes: `udp.length` less the header, `frame.len`. */
function tsharkBytes(file: string, filter: string): { payload: number; wire: number } {
  const r = tsharkSync(['-r', file, '-Y', filter, '-T', 'fields', '-e', 'udp.length', '-e', 'frame.len'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  expect(r.status, r.stderr).toBe(0);
  let payload = 0;
  let wire = 0;
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const [udp, frame] = line.split('\t');
    payload += Number(udp) - 8;
    wire += Number(frame);
  }
  return { payload, wire };
}

/** One frame as tshark reads it: addresses and ports, `udp.length` less the header, `frame.len`, the payload's byte 10 (SA:MP's opcode). */
interface TsharkFrame {
  readonly src: string;
  readonly dst: string;
  readonly srcport: number;
  readonly dstport: number;
  readonly payload: number;
  readonly wire: number;
  readonly opcode: number;
}

/** Every frame of a file as tshark reads it, in one run. */
function tsharkFrames(file: string): TsharkFrame[] {
  const fields = ['ip.src', 'ip.dst', 'udp.srcport', 'udp.dstport', 'udp.length', 'frame.len', 'udp.payload'];
  const r = tsharkSync(['-r', file, '-T', 'fields', ...fields.flatMap((f) => ['-e', f])], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [src, dst, srcport, dstport, udp, frame, data] = line.split('\t');
      return {
        src: src!,
        dst: dst!,
        srcport: Number(srcport),
        dstport: Number(dstport),
        payload: Number(udp) - 8,
        wire: Number(frame),
        opcode: parseInt(data!.slice(20, 22), 16),
      };
    });
}

let floodFrames: TsharkFrame[] | undefined;
/** The flood's frames as tshark reads them, read once. */
const floodAsTshark = (): TsharkFrame[] => (floodFrames ??= tsharkFrames(flood));

/** The amplification JSON of bytes each way, as tshark counts them: the bytes and their ratios to 3 decimals. */
const amplificationOf = (requests: { payload: number; wire: number }, replies: { payload: number; wire: number }) => ({
  requestBytes: requests.payload,
  replyBytes: replies.payload,
  requestWireBytes: requests.wire,
  replyWireBytes: replies.wire,
  payload: Math.round((replies.payload / requests.payload) * 1000) / 1000,
  wire: Math.round((replies.wire / requests.wire) * 1000) / 1000,
});

/** The payload and frame bytes of the frames `pass` passes. */
const sum = (frames: readonly TsharkFrame[], pass: (f: TsharkFrame) => boolean): { payload: number; wire: number } =>
  frames.filter(pass).reduce((n, f) => ({ payload: n.payload + f.payload, wire: n.wire + f.wire }), { payload: 0, wire: 0 });

describe('a query flood (bench/flood.ts): who is asking', () => {
  it('lists the five unspoofed hosts first with exact counts, among ~60 000 spoofed sources, in fixed memory', () => {
    const { sourceStats } = json('stats', flood, '--by', 'source', '-F', 'json');
    const s = sourceStats!;
    const heavy = [...truth.heavyHosts].sort((a, b) => b.requests - a.requests);
    expect(s.sources.slice(0, 5).map((x) => x.address)).toEqual(heavy.map((h) => h.address));
    for (const [i, h] of heavy.entries()) {
      expect(s.sources[i], h.address).toMatchObject({
        requests: h.requests,
        error: 0,
        answered: h.answered,
        byMessage: { info: h.requests },
      });
    }
    expect(s.requests).toBe(Object.values(truth.requests).reduce((a, b) => a + b, 0));
    // The heavy hosts' networks: 198.51.100.0/24 holds all five.
    expect(s.networks[0]).toMatchObject({ address: '198.51.100.0/24', requests: heavy.reduce((n, h) => n + h.requests, 0), error: 0 });
    expect(s.capacity).toBe(4096);
    expect(s.threshold).toBe(Math.floor(s.requests / 4096));
  });

  it('--top N lists N sources and networks', () => {
    const { sourceStats } = json('stats', flood, '--by', 'source', '--top', '3', '-F', 'json');
    expect([sourceStats!.sources.length, sourceStats!.networks.length]).toEqual([3, 3]);
    expect(run('stats', flood, '--by', 'source', '--top', '0').status).toBe(2);
    // Without sources to list it would change nothing: a usage error, not ignored.
    const alone = run('stats', flood, '--top', '3');
    expect([alone.status, alone.stdout]).toEqual([2, '']);
    expect(alone.stderr).toContain('--top sets how many sources and networks are listed: give it with --by source or -z sources');
    expect(run('stats', flood, '-z', 'sources', '--top', '3').status).toBe(0);
  });

  it('finds the RCON password guesser with its exact guess count, and says so on stderr without the passwords', () => {
    const r = run('stats', flood, '--by', 'source');
    expect(r.status).toBe(0);
    const g = truth.guesser;
    const { sourceStats } = json('stats', flood, '-z', 'sources', '-F', 'json');
    expect(sourceStats!.rconGuessers).toEqual([
      { address: g.address, requests: g.guesses, denied: g.guesses, distinctPasswords: g.distinctPasswords },
    ]);
    expect(r.stderr).toContain(`gamequery: ${g.address} is guessing the RCON password: ${g.guesses} refused of ${g.guesses} RCON requests`);
    expect(r.stdout).toMatch(new RegExp(`^${g.address.replaceAll('.', '\\.')} +${g.guesses} +${g.guesses} +${g.distinctPasswords}$`, 'm'));
    // A guessed password is never printed (they are dictionary words and a counter: "admin0", "rcon0", …).
    expect(r.stdout + r.stderr).not.toMatch(/admin0|rcon0|password0/);
    // The page says it too: a row of its own, which filters to the guesser's packets.
    const page = run('stats', flood, '-F', 'html').stdout;
    expect(page).toContain('<caption>RCON password guessing (');
    expect(page).toMatch(
      new RegExp(
        `data-display="ip\\.src == ${g.address.replaceAll('.', '\\.')}"[^>]*><td>${g.address.replaceAll('.', '\\.')}</td><td class="r">${g.guesses}</td>`,
      ),
    );
    expect(page).not.toMatch(/admin0|rcon0|password0/);
  });

  it('the same with -Y (records, not the first pass): the same sources', () => {
    const first = json('stats', flood, '--by', 'source', '-F', 'json').sourceStats!;
    const records = json('stats', flood, '--by', 'source', '-F', 'json', '-Y', 'samp').sourceStats!;
    expect(records.sources.slice(0, 5)).toEqual(first.sources.slice(0, 5));
    expect(records.rconGuessers).toEqual(first.rconGuessers);
  }, 60_000);

  it("counts the server's bytes each way as tshark reads them, and their ratio to 3 digits", () => {
    const server = json('stats', flood, '-F', 'json').serverStats!.servers[0]!;
    const frames = floodAsTshark();
    const requests = sum(frames, (f) => f.dst === '10.0.0.1' && f.dstport === 7777);
    const replies = sum(frames, (f) => f.src === '10.0.0.1' && f.srcport === 7777);
    expect(server.amplification).toEqual(amplificationOf(requests, replies));
  }, 60_000);
});

describe('a query flood: what the server sends back', () => {
  it('amplification by message: the bytes each way of each opcode as tshark reads them', () => {
    const byMessage = json('stats', flood, '-F', 'json').serverStats!.servers[0]!.byMessage;
    const opcodes: Record<string, number> = { info: 0x69, rules: 0x72, clients: 0x63, rcon: 0x78 };
    const frames = floodAsTshark();
    expect(Object.keys(byMessage).sort()).toEqual(Object.keys(opcodes).sort());
    for (const [message, opcode] of Object.entries(opcodes)) {
      const requests = sum(frames, (f) => f.dstport === 7777 && f.opcode === opcode);
      const replies = sum(frames, (f) => f.srcport === 7777 && f.opcode === opcode);
      expect(byMessage[message], message).toEqual({
        requests: truth.requests[message],
        replies: frames.filter((f) => f.srcport === 7777 && f.opcode === opcode).length,
        ...amplificationOf(requests, replies),
      });
    }
    expect(Object.values(byMessage).reduce((n, m) => n + m.replies, 0)).toBe(truth.replies);
  }, 60_000);

  it('the sources sent the most reply bytes: each heavy host and the guesser with the bytes tshark counts to it', () => {
    const { byReplyBytes } = json('stats', flood, '--by', 'source', '-F', 'json').sourceStats!;
    const frames = floodAsTshark();
    const sent = byReplyBytes.map((s) => s.replyBytes);
    expect(sent).toEqual([...sent].sort((a, b) => b - a));
    expect(sent.every((n) => n > 0)).toBe(true);
    for (const address of [...truth.heavyHosts.map((h) => h.address), truth.guesser.address]) {
      const source = byReplyBytes.find((s) => s.address === address);
      const replies = sum(frames, (f) => f.dst === address && f.srcport === 7777);
      const requests = sum(frames, (f) => f.src === address && f.dstport === 7777);
      expect(source, address).toMatchObject({
        error: 0,
        requestBytes: requests.payload,
        replyBytes: replies.payload,
        requestWireBytes: requests.wire,
        replyWireBytes: replies.wire,
      });
    }
  }, 60_000);
});

describe('amplification on a committed capture', () => {
  it('veth-frag.pcap: a reassembled reply counts every fragment frame on the wire, as tshark sums them', () => {
    const file = `${captures}veth-frag.pcap`;
    for (const args of [[], ['-Y', 'frame']]) {
      const servers = json('stats', file, '-F', 'json', ...args).serverStats!.servers;
      const samp4 = servers.find((s) => s.server.ip === '10.231.0.2' && s.server.port === 47777)!;
      // The fragments' frames carry no UDP header: tshark's frame bytes of every frame from the server to the client.
      const wire = spawnSync(
        'tshark',
        [
          '-r',
          file,
          '-o',
          'ip.defragment:FALSE',
          '-Y',
          'ip.src == 10.231.0.2 && !(udp.srcport == 47778)',
          '-T',
          'fields',
          '-e',
          'frame.len',
        ],
        {
          encoding: 'utf8',
        },
      )
        .stdout.split('\n')
        .filter(Boolean)
        .reduce((n, l) => n + Number(l), 0);
      expect(samp4.amplification.replyWireBytes, args.join(' ')).toBe(wire);
      expect(samp4.amplification.replyBytes).toBe(tsharkBytes(file, 'ip.src == 10.231.0.2 && udp.srcport == 47777').payload);
    }
  }, 60_000);
});

/**
 * tshark's frames and bytes per interval, for each of `intervals` (seconds; 0: the whole
 * capture) and one column per filter (`frame`: every frame): its io,stat tables, all from one
 * run. tshark prints them last asked first; each names its interval, or the capture's duration
 * where that is shorter (the whole capture's, always).
 */
function tsharkIo(file: string, intervals: readonly string[], filters: readonly string[]): Map<string, [number, number][][]> {
  const r = tsharkSync(['-r', file, '-q', ...intervals.flatMap((i) => ['-z', `io,stat,${i},${filters.join(',')}`])], {
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const tables = r.stdout.split(/^=+$/m).filter((t) => t.includes('IO Statistics'));
  expect(tables).toHaveLength(intervals.length);
  const byInterval = new Map<string, [number, number][][]>();
  tables.reverse().forEach((table, k) => {
    const interval = intervals[k]!;
    const duration = Number(/^\| Duration: ([\d.]+) secs/m.exec(table)![1]);
    const stated = Number(/^\| Interval: ([\d.]+) secs/m.exec(table)![1]);
    if (interval !== '0' && Number(interval) < duration)
      expect(stated, `tshark's table ${k + 1} is of -z io,stat,${interval}`).toBe(Number(interval));
    const columns: [number, number][][] = filters.map(() => []);
    for (const m of table.matchAll(/^\|\s*[\d.]+\s*<>\s*(?:[\d.]+|Dur)\s*((?:\|\s*\d+\s*\|\s*\d+\s*)+)\|/gm)) {
      const cells = m[1]!
        .split('|')
        .filter((c) => c.trim())
        .map(Number);
      expect(cells.length, m[0]).toBe(2 * filters.length);
      filters.forEach((_, i) => columns[i]!.push([cells[2 * i]!, cells[2 * i + 1]!]));
    }
    byInterval.set(interval, columns);
  });
  return byInterval;
}

describe('-z io,stat', () => {
  it.each(['veth-frag.pcap', 'lo-any.pcapng', 'dns-lo.pcap', 'lo-snap60.pcap', 'veth-frag.rawip.pcap'])(
    "%s: frames and bytes per interval as tshark's (a gap a row of zeros), for the same intervals and filters",
    (name) => {
      const file = captures + name;
      // Ours unfiltered against tshark's column `frame` (which every frame passes), each filter against its own column.
      const filters = [undefined, 'udp.port == 47777', 'icmpv6 || ip.proto != 17'];
      const intervals = ['0.5', '0.01', '0'];
      const tables = tsharkIo(
        file,
        intervals,
        filters.map((f) => f ?? 'frame'),
      );
      for (const interval of intervals) {
        const theirs = tables.get(interval)!;
        filters.forEach((filter, i) => {
          const z = `io,stat,${interval}${filter ? `,${filter}` : ''}`;
          const io = (json('dissect', file, '-q', '-z', z, '-F', 'json') as { ioStats: { rows: { frames: number; bytes: number }[] } })
            .ioStats;
          expect(theirs[i]!.length, z).toBeGreaterThan(0);
          expect(
            io.rows.map((r) => [r.frames, r.bytes]),
            z,
          ).toEqual(theirs[i]);
        });
      }
    },
    120_000,
  );

  it('counts the requests, replies and answered of the flood exactly, 10 ms at a time, from the first pass and from records', () => {
    const io = (
      json('stats', flood, '-z', 'io,stat,0.01', '-F', 'json') as {
        ioStats: { rows: { requests: number; replies: number; answered: number; frames: number }[] };
      }
    ).ioStats;
    const requests = io.rows.reduce((n, r) => n + r.requests, 0);
    expect(requests).toBe(Object.values(truth.requests).reduce((a, b) => a + b, 0));
    expect(io.rows.reduce((n, r) => n + r.replies, 0)).toBe(truth.replies);
    expect(io.rows.reduce((n, r) => n + r.answered, 0)).toBe(truth.answered);
    expect(io.rows.reduce((n, r) => n + r.frames, 0)).toBe(truth.frames);
    // 500 000 flood requests a second: 5 000 per 10 ms, and the guesser's and visitors' on top.
    for (const r of io.rows.slice(0, -1)) expect(r.requests / 0.01 / truth.requestsPerSecond).toBeCloseTo(1, 1);
    // The same through records (-Y): the same rows.
    const records = (json('stats', flood, '-z', 'io,stat,0.01', '-F', 'json', '-Y', 'frame') as typeof io & { ioStats: typeof io }).ioStats;
    expect(records.rows).toEqual(io.rows);
  }, 60_000);
});

describe('-z io,stat on a live input', () => {
  it('writes each interval as it closes, while the input is still open, and the table at the end', async () => {
    const bytes = readFileSync(`${captures}veth-frag.pcap`);
    const child = spawn(process.execPath, cliArgs(['stats', '-', '-z', 'io,stat,0.5']), { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    // The header and frames 1-5 (frame 5 at 1.52 s): three intervals are over.
    child.stdin.write(bytes.subarray(0, 700));
    const early = await waitFor(() => /^1\.000 <> 1\.500 +0 +0 /m.test(out), 15_000);
    expect(early, out).toBe(true);
    expect(child.exitCode).toBe(null);
    expect(out).toMatch(/^0\.000 <> 0\.500 +2 +180 +0 +0 +0 +- +0 +0$/m);
    expect(out).not.toContain('1.500 <>');
    child.stdin.end(bytes.subarray(700));
    expect(await exited).toBe(0);
    // Then the whole table, the last interval with it.
    expect(out).toMatch(/^1\.500 <> 1\.676 +26 +8648 +10 +10 +10 +100\.0 +110 +7126$/m);
  });
});

describe('-z io,stat on a live input, as NDJSON', () => {
  it('writes each closed interval as an ioRow line while the input is open, then the ioStats line with the final counts', async () => {
    const bytes = readFileSync(`${captures}veth-frag.pcap`);
    const child = spawn(process.execPath, cliArgs(['stats', '-', '-z', 'io,stat,0.5', '-F', 'ndjson']), {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const lines = (): Record<string, unknown>[] =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    // The header and frames 1-5 (frame 5 at 1.52 s): three intervals are over.
    child.stdin.write(bytes.subarray(0, 700));
    expect(await waitFor(() => lines().length >= 3, 15_000), out).toBe(true);
    expect(child.exitCode).toBe(null);
    const early = lines();
    expect(early.map((l) => Object.keys(l))).toEqual([['ioRow'], ['ioRow'], ['ioRow']]);
    expect(early[0]).toEqual({
      ioRow: { start: 0, end: 0.5, frames: 2, bytes: 180, requests: 0, replies: 0, answered: 0, requestBytes: 0, replyBytes: 0 },
    });
    child.stdin.end(bytes.subarray(700));
    expect(await exited).toBe(0);
    const all = lines();
    const report = all.find((l) => 'ioStats' in l)!.ioStats as { rows: Record<string, unknown>[] };
    // The rows written live are the report's first rows (no reply here answers a request of an earlier interval).
    expect(early.map((l) => l.ioRow)).toEqual(report.rows.slice(0, 3));
    expect(all.filter((l) => 'ioRow' in l)).toHaveLength(3);
  });
});

describe('-z io,stat, its limits', () => {
  it('an interval too short for the capture is an error that says so (exit 2), not a run out of memory', () => {
    const r = run('dissect', `${captures}veth-frag.pcap`, '-q', '-z', 'io,stat,0.000001');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^gamequery: -z io,stat,0\.000001: the capture runs past 1\.\d+ s, more than 1048576 intervals of 0\.000001 s; choose a longer interval\n$/,
    );
  });

  it('a -z it does not know is a usage error naming those it knows', () => {
    const r = run('dissect', `${captures}veth-frag.pcap`, '-q', '-z', 'follow,udp,ascii,0');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      '"stats" (per server), "sources" (who is asking), "io,stat,INTERVAL[,FILTER]" (the rate over time, as tshark: seconds, 0 for the whole capture), "io,phs[,FILTER]" (the protocol hierarchy, as tshark), "conv,TYPE[,FILTER]", "endpoints,TYPE[,FILTER]"',
    );
  });
});
