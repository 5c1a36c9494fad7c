/**
 * `-z io,phs[,FILTER]`: the protocol hierarchy, as tshark prints it, checked against tshark
 * on every committed capture (ours names the query protocols where tshark without our plugin
 * says data, and says data where tshark dissects DNS); its filter, its JSON and its usage
 * errors.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { requireTshark } from '../../codec/test/helpers/tshark.ts';
import { root, runSync as run } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

requireTshark();

const captures = `${root}packages/dissect/test/fixtures/captures/`;
/**
 * Every committed capture but those that hold lo-us.pcap's frames again in another container
 * (the hierarchy does not see the container; lo-any.pcapng and lo.cut.pcapng stand for pcapng):
 * a tshark run is half a second.
 */
const again = new Set(['lo-ns.pcap', 'lo.pcapng', 'lo-us.editcap.pcapng', 'two-sections.pcapng']);
const files = readdirSync(captures).filter((f) => /\.pcap(ng)?$/.test(f) && !again.has(f));
/**
 * Where the first pass and the records could differ most (fragments, cut headers, frames of other
 * protocols, a capture cut short): also counted from the records, and every frame found in it.
 */
const RECORDS = new Set(['veth-frag.pcap', 'veth-frag.snap38.pcap', 'lo-snap60.pcap', 'dns-lo.pcap', 'lo-us.cut.pcap']);
const schema = JSON.parse(readFileSync(`${root}packages/dissect/schema/packet.schema.json`, 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
ajv.addSchema(schema);
const validate = ajv.compile({ $ref: schema.$id });

interface Node {
  name: string;
  frames: number;
  bytes: number;
  children: Node[];
}

/** The table's protocols as a tree (each line: two spaces a level, the name, frames:N bytes:M). */
function parse(text: string): { filter: string; top: Node[] } {
  const lines = text.split('\n');
  const at = lines.indexOf('Protocol Hierarchy Statistics');
  expect(at, text).toBeGreaterThan(0);
  expect(lines[at - 1]).toBe('='.repeat(67));
  expect(lines[at - 2]).toBe('');
  const filter = lines[at + 1]!.replace(/^Filter: /, '');
  expect(lines[at + 2]).toBe('');
  const top: Node[] = [];
  const stack: Node[][] = [top];
  for (const line of lines.slice(at + 3)) {
    if (line === '='.repeat(67)) return { filter, top };
    const m = /^((?: {2})*)(\S+) +frames:(\d+) bytes:(\d+)$/.exec(line);
    expect(m, line).not.toBeNull();
    // The name and its indent fill 40 columns, then a space.
    expect(line.indexOf(' frames:')).toBe(Math.max(40, m![1]!.length + m![2]!.length));
    const depth = m![1]!.length / 2;
    const node: Node = { name: m![2]!, frames: Number(m![3]), bytes: Number(m![4]), children: [] };
    stack[depth]!.push(node);
    stack[depth + 1] = node.children;
    stack.length = depth + 2;
  }
  throw new Error(`no closing rule in ${text}`);
}

/** Renames protocols by `rename` and merges siblings of one name (where they first stood). */
function normalised(nodes: readonly Node[], rename: (name: string) => string): Node[] {
  const out: Node[] = [];
  for (const n of nodes) {
    const name = rename(n.name);
    const same = out.find((o) => o.name === name);
    const children = normalised(n.children, rename);
    if (!same) out.push({ name, frames: n.frames, bytes: n.bytes, children });
    else {
      same.frames += n.frames;
      same.bytes += n.bytes;
      same.children = normalised([...same.children, ...children], (x) => x);
    }
  }
  return out;
}

const ours = (name: string): string => (['samp', 'vcmp', 'mcquery'].includes(name) ? 'data' : name);
const theirs = (name: string): string => (name === 'dns' ? 'data' : name);

/** tshark's output, with its exit code (2 for a damaged capture, after what it held). */
const tsharkRun = (args: readonly string[]): { stdout: string; status: number | null } => {
  const r = tsharkSync(args, { encoding: 'utf8' });
  expect([0, 2], r.stderr).toContain(r.status);
  return r;
};
const tshark = (args: readonly string[]): string => tsharkRun(args).stdout;

describe('-z io,phs', () => {
  it.each(files)('%s: the hierarchy tshark prints', (name) => {
    const r = run('dissect', '-q', '-z', 'io,phs', `${captures}${name}`);
    const t = tsharkRun(['-q', '-z', 'io,phs', '-r', `${captures}${name}`]);
    // A damaged capture: what it holds, then its error, and tshark's exit code for a bad file (2).
    expect(r.status, r.stderr).toBe(name.includes('.cut.') ? 2 : 0);
    expect(r.status).toBe(t.status);
    const got = parse(r.stdout);
    const want = parse(t.stdout);
    expect(got.filter).toBe('');
    expect(normalised(got.top, ours)).toEqual(normalised(want.top, theirs));
    if (!RECORDS.has(name)) return;
    // Counted in the first pass alone (-q, no filter) as from the records (-Y frame makes them), the same.
    expect(run('dissect', '-q', '-z', 'io,phs', '-Y', 'frame', `${captures}${name}`).stdout).toBe(r.stdout);
    // Every frame read is in it: the outermost protocols hold them all.
    const frames = run('dissect', '-T', 'fields', '-e', 'frame.number', `${captures}${name}`).stdout.trim().split('\n').length;
    expect(got.top.reduce((sum, n) => sum + n.frames, 0)).toBe(frames);
  });

  it.each([
    ['udp', 'veth-frag.pcap'],
    ['ipv6', 'veth-frag.pcap'],
    ['udp.port == 47777', 'lo.pcapng'],
    ['ip.src == 127.0.0.1 && !(udp.port == 47778)', 'lo-any.pcapng'],
    // tshark's hierarchy then starts at frame.
    ['frame.len > 60', 'lo-snap60.pcap'],
    ['frame.number <= 20 && ip', 'veth-frag.pcap'],
  ])('with its filter (%s, %s): the frames tshark counts', (filter, name) => {
    const r = run('dissect', '-q', '-z', `io,phs,${filter}`, `${captures}${name}`);
    expect(r.status, r.stderr).toBe(0);
    const got = parse(r.stdout);
    const want = parse(tshark(['-q', '-z', `io,phs,${filter}`, '-r', `${captures}${name}`]));
    expect(got.filter).toBe(filter);
    expect(want.filter).toBe(filter);
    expect(normalised(got.top, ours)).toEqual(normalised(want.top, theirs));
    expect(got.top.length).toBeGreaterThan(0);
  });

  it('names the query protocols, a fragment flood of its own, and what the snapshot length cut', () => {
    const text = run('dissect', '-q', '-z', 'io,phs', `${captures}veth-frag.pcap`).stdout;
    const { top } = parse(text);
    const ip = top[0]!.children.find((n) => n.name === 'ip')!;
    // The datagrams reassembled are read as their protocol; the fragments before the last are data of IP.
    expect(ip.children.map((n) => n.name)).toEqual(['udp', 'data']);
    expect(ip.children[0]!.children.map((n) => n.name)).toEqual(['samp', 'mcquery']);
    const cut = parse(run('dissect', '-q', '-z', 'io,phs', `${captures}lo-snap60.pcap`).stdout).top;
    expect(cut[0]!.children.find((n) => n.name === 'ipv6')!.children[0]!.children.map((n) => n.name)).toEqual(['_ws.short']);
  });

  it('in JSON: the same tree, beside the packets or alone', () => {
    const file = `${captures}veth-frag.pcap`;
    const text = parse(run('dissect', '-q', '-z', 'io,phs', file).stdout);
    const doc = JSON.parse(run('dissect', '-q', '-F', 'json', '-z', 'io,phs', file).stdout) as {
      packets: unknown[];
      phsStats: {
        filter: string;
        frames: number;
        bytes: number;
        protocols: { protocol: string; frames: number; bytes: number; children: unknown[] }[];
      };
    };
    expect(doc.packets).toEqual([]);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const tree = (nodes: typeof doc.phsStats.protocols): Node[] =>
      nodes.map((n) => ({ name: n.protocol, frames: n.frames, bytes: n.bytes, children: tree(n.children as typeof nodes) }));
    expect(tree(doc.phsStats.protocols)).toEqual(text.top);
    expect(doc.phsStats.frames).toBe(30);
    expect(doc.phsStats.bytes).toBe(text.top.reduce((s, n) => s + n.bytes, 0));
    const lines = run('dissect', '-F', 'ndjson', '-z', 'io,phs', file).stdout.trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toEqual({ phsStats: doc.phsStats });
    for (const line of lines) expect(validate(JSON.parse(line)), line.slice(0, 200)).toBe(true);
    // After the packets' summary lines, without -q.
    const both = run('dissect', '-z', 'io,phs', file).stdout;
    expect(both.indexOf('Protocol Hierarchy Statistics')).toBeGreaterThan(both.indexOf('\n30 '));
  });

  it('refuses a filter it cannot compile, as a usage error', () => {
    const r = run('dissect', '-q', '-z', 'io,phs,udp.port ==', `${captures}lo.pcapng`);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/-z io,phs,/);
    expect(r.stdout).toBe('');
  });
});
