/**
 * `-z conv,TYPE[,FILTER]` and `-z endpoints,TYPE[,FILTER]` (TYPE ip, ipv6, udp): byte for byte
 * what tshark prints, on every committed capture (fragments of IPv4 and IPv6, snapshot lengths
 * that cut IP and UDP headers, Linux cooked and raw IP, DNS and ICMPv6 beside the query traffic)
 * on 6 000 frames of the benchmark's mix (many conversations of as many frames) and a flood (sizes in kB);
 * counted in the first pass as from the records; their filter, JSON and usage errors.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFlood } from '../../../bench/flood.ts';
import { generateTraffic } from '../../../bench/traffic.ts';
import { formatSize, printfFixed } from '../../dissect/src/stats/conversations.ts';
import { requireTshark } from '../../codec/test/helpers/tshark.ts';
import { root, runSync as run } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

requireTshark();

const captures = `${root}packages/dissect/test/fixtures/captures/`;
/**
 * The captures that differ in what the tables see (IPv4 and IPv6 fragments, headers cut at 38, 60 and
 * 200 bytes, Linux cooked, DNS and ICMPv6, a capture cut short); the others hold such frames again in
 * another container or link, or cut elsewhere: a tshark run is half a second.
 */
const CHOSEN = new Set([
  'veth-frag.pcap',
  'veth-frag.snap200.pcap',
  'veth-frag.snap38.pcap',
  'lo-snap60.pcap',
  'dns-lo.pcap',
  'any-sll2.pcap',
  'lo-us.cut.pcap',
]);
const files = readdirSync(captures).filter((f) => CHOSEN.has(f));
/** Captures also counted from the records. */
const RECORDS = new Set(['veth-frag.pcap', 'veth-frag.snap200.pcap', 'lo-snap60.pcap']);
const TABLES = ['conv,ip', 'conv,ipv6', 'conv,udp', 'endpoints,ip', 'endpoints,ipv6', 'endpoints,udp'];
const RULE = '='.repeat(80);

/** The tables of a run's output by their title (tshark writes several in the reverse of the order asked). */
function tables(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== RULE || lines[i + 1] === undefined || !/ (Conversations|Endpoints)$/.test(lines[i + 1]!)) continue;
    const end = lines.indexOf(RULE, i + 1);
    expect(end, text).toBeGreaterThan(i);
    out.set(lines[i + 1]!, lines.slice(i, end + 1).join('\n'));
    i = end;
  }
  return out;
}

/** tshark's tables, with its exit code. */
const tsharkRun = (file: string, zs: readonly string[]): { stdout: string; status: number | null } => {
  const r = tsharkSync(['-q', '-r', file, ...zs.flatMap((z) => ['-z', z])], { encoding: 'utf8', maxBuffer: 1 << 28 });
  // A capture cut short: tshark says so and exits 2, after its tables.
  expect([0, 2], r.stderr).toContain(r.status);
  return r;
};
const tshark = (file: string, zs: readonly string[]): string => tsharkRun(file, zs).stdout;
const zArgs = (zs: readonly string[]): string[] => zs.flatMap((z) => ['-z', z]);

const dir = mkdtempSync(join(tmpdir(), 'gamequery-conv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("-z conv and -z endpoints: tshark's tables", () => {
  it('has every capture chosen', () => expect(files).toHaveLength(CHOSEN.size));

  it.each(files)('%s: every table byte for byte (and from the records as in the first pass)', (name) => {
    const file = captures + name;
    const r = run('dissect', '-q', ...zArgs(TABLES), file);
    const t = tsharkRun(file, TABLES);
    // Cut short: its tables, then the error, and tshark's exit code for a bad file (2).
    expect(r.status, r.stderr).toBe(name.includes('.cut.') ? 2 : 0);
    expect(r.status).toBe(t.status);
    const ours = tables(r.stdout);
    // In the order asked, each once.
    expect([...ours.keys()]).toEqual([
      'IPv4 Conversations',
      'IPv6 Conversations',
      'UDP Conversations',
      'IPv4 Endpoints',
      'IPv6 Endpoints',
      'UDP Endpoints',
    ]);
    const theirs = tables(t.stdout);
    for (const [title, table] of ours) expect(table, `${name}: ${title}`).toBe(theirs.get(title));
    // From the records (-Y frame makes them, and passes every frame), the same: where fragments, cut headers and
    // frames without a query message make the two ways differ most.
    if (RECORDS.has(name)) expect(run('dissect', '-q', '-Y', 'frame', ...zArgs(TABLES), file).stdout).toBe(r.stdout);
  });

  it('6 000 frames of the mix: hundreds of conversations, ties in the order they began', () => {
    const file = join(dir, 'mix.pcap');
    const chunks: Uint8Array[] = [];
    for (const chunk of generateTraffic({ frames: 6_000, seed: 5 })) chunks.push(chunk);
    writeFileSync(file, Buffer.concat(chunks));
    const zs = ['conv,udp', 'conv,ip', 'endpoints,udp', 'endpoints,ip'];
    const ours = tables(run('dissect', '-q', ...zArgs(zs), file).stdout);
    const theirs = tables(tshark(file, zs));
    for (const [title, table] of ours) expect(table, title).toBe(theirs.get(title));
    expect(ours.get('UDP Conversations')!.split('\n').length).toBeGreaterThan(200);
  });

  it("a flood of 30 000 requests: a conversation per spoofed source, the heavy hosts' in kB", () => {
    const file = join(dir, 'flood.pcap');
    writeFlood(file, { requests: 30_000, seed: 2 });
    const zs = ['conv,ip', 'endpoints,ip'];
    const ours = tables(run('dissect', '-q', ...zArgs(zs), file).stdout);
    const theirs = tables(tshark(file, zs));
    for (const [title, table] of ours) expect(table, title).toBe(theirs.get(title));
    const rows = ours.get('IPv4 Conversations')!.split('\n').slice(5, -1);
    expect(rows.length).toBeGreaterThan(20_000);
    expect(rows[0]).toMatch(/ \d+ kB +\d+ \d+ kB /);
  });

  it('-z TABLE,TYPE,FILTER: each filter as tshark applies it, to its table alone', () => {
    const zs = ['conv,udp,udp.port == 47777', 'endpoints,ipv6,icmpv6', 'conv,ip,frame.len > 100'];
    const file = `${captures}veth-frag.pcap`;
    const r = run('dissect', '-q', ...zArgs(zs), file);
    expect(r.status, r.stderr).toBe(0);
    const ours = tables(r.stdout);
    const theirs = tables(tshark(file, zs));
    expect(ours.size).toBe(3);
    for (const [title, table] of ours) {
      expect(table, title).toBe(theirs.get(title));
      expect(table.split('\n').length, title).toBeGreaterThan(6);
    }
    expect([...ours.values()].map((t) => t.split('\n')[2])).toEqual(zs.map((z) => `Filter:${z.split(',').slice(2).join(',')}`));
  });

  it('beside the packets, after them; in JSON, convStats', () => {
    const file = `${captures}veth-frag.pcap`;
    const text = run('dissect', '-z', 'conv,udp', file).stdout;
    expect(text).toMatch(/\[RTT 0\.187 ms\]\n={80}\nUDP Conversations\n/);
    const doc = JSON.parse(run('dissect', '-F', 'json', '-z', 'conv,udp', '-z', 'endpoints,ip', file).stdout) as {
      convStats: {
        table: string;
        type: string;
        filter: string;
        rows: { a?: { address: string; port?: number }; aToB?: { frames: number; bytes: number }; address?: string; tx?: unknown }[];
      }[];
    };
    expect(doc.convStats.map((c) => [c.table, c.type, c.filter])).toEqual([
      ['conv', 'udp', ''],
      ['endpoints', 'ip', ''],
    ]);
    expect(doc.convStats[0]!.rows[0]).toEqual({
      a: { address: '10.231.0.1', port: 42595 },
      b: { address: '10.231.0.2', port: 47777 },
      aToB: { frames: 1, bytes: 53 },
      bToA: { frames: 1, bytes: 113 },
      start: 1.519795,
      duration: expect.closeTo(0.000871, 9),
    });
    expect(doc.convStats[1]!.rows).toEqual([
      { address: '10.231.0.1', frames: 12, bytes: 4106, tx: { frames: 5, bytes: 265 }, rx: { frames: 7, bytes: 3841 } },
      { address: '10.231.0.2', frames: 12, bytes: 4106, tx: { frames: 7, bytes: 3841 }, rx: { frames: 5, bytes: 265 } },
    ]);
    const schema = JSON.parse(readFileSync(`${root}packages/dissect/schema/packet.schema.json`, 'utf8'));
    const ajv = new Ajv2020({ allErrors: true });
    ajv.addSchema(schema);
    const validate = ajv.compile({ $ref: schema.$id });
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const lines = run('dissect', '-q', '-F', 'ndjson', '-z', 'endpoints,udp', file).stdout.trim().split('\n');
    const last = JSON.parse(lines.at(-1)!) as { convStats: unknown[] };
    expect(last.convStats).toHaveLength(1);
    expect(validate(last), JSON.stringify(validate.errors)).toBe(true);
  });

  it('in the page (-F html): a table each, after the other statistics', () => {
    const page = run('dissect', '-F', 'html', '-z', 'conv,udp', '-z', 'endpoints,ipv6', `${captures}veth-frag.pcap`).stdout;
    expect(page).toContain('<caption>UDP conversations: 10</caption>');
    expect(page).toContain('<caption>IPv6 endpoints: 7</caption>');
    expect(page.indexOf('UDP conversations')).toBeLessThan(page.indexOf('IPv6 endpoints'));
    // The first row, as the text's: A, B, each way, start and duration (its filter: html.test clicks each row).
    expect(page).toMatch(
      /<tr data-filter="[^"]*" data-display="[^"]*" tabindex="0" role="button"><td>10\.231\.0\.1:42595<\/td><td>10\.231\.0\.2:47777<\/td><td class="r">1<\/td><td class="r">53<\/td><td class="r">1<\/td><td class="r">113<\/td><td class="r">1\.519795<\/td><td class="r">0\.000871<\/td><\/tr>/,
    );
    // gamequery stats takes them as dissect -q does.
    expect(run('stats', '-z', 'conv,ip', `${captures}veth-frag.pcap`).stdout).toContain(
      tables(tshark(`${captures}veth-frag.pcap`, ['conv,ip'])).get('IPv4 Conversations'),
    );
  });

  it('names the tables it draws', () => {
    for (const z of ['conv,eth', 'conv,tcp', 'endpoints', 'conv']) {
      const r = run('dissect', '-q', '-z', z, `${captures}veth-frag.pcap`);
      expect(r.status, z).toBe(2);
      expect(r.stderr).toMatch(/"conv,TYPE\[,FILTER\]", "endpoints,TYPE\[,FILTER\]".*TYPE ip, ipv6 or udp/);
    }
  });
});

describe("tshark 4.0's numbers", () => {
  it('writes sizes as format_size does: bytes below ten thousand, then whole kB, MB, GB, cut', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(9999)).toBe('9999 bytes');
    expect(formatSize(10_000)).toBe('10 kB');
    expect(formatSize(2_755_999)).toBe('2755 kB');
    expect(formatSize(9_999_999)).toBe('9999 kB');
    expect(formatSize(12_999_999)).toBe('12 MB');
    expect(formatSize(10e9)).toBe('10 GB');
  });

  it('rounds a double exactly halfway to the even figure, as printf does', () => {
    expect(printfFixed(0.03125, 4)).toBe('0.0312');
    expect(printfFixed(0.09375, 4)).toBe('0.0938');
    expect(printfFixed(0.00005, 4)).toBe('0.0001');
    expect(printfFixed(1.519795, 9)).toBe('1.519795000');
    expect(printfFixed(2.5, 0)).toBe('2');
    expect(printfFixed(-0.03125, 4)).toBe('-0.0312');
  });
});
