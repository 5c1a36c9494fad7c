/**
 * The generated Wireshark plugin, checked with the real tshark: every test vector is
 * wrapped into a capture, tshark dissects it with the plugin, and every field of its
 * PDML tree (abbreviation, offset, length, value, display text) must equal our own
 * annotated tree of the same bytes; so must the field list (`tshark -G fields`), the
 * request/response links and the response times.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  UnknownOpcodeError, UnrecognizedPacketError, fieldRegistry, fromHex, layoutFor, layouts, messages, recognize, toHex,
  type Charset, type FieldNode, type Layout, type Protocol,
} from '@gamequery/codec';
import { exportWireshark, wiresharkPorts } from '../../src/export/index.ts';
import { loadVectors, type Vector } from '../helpers/vectors.ts';

const vectors = loadVectors();
// The plugin is only verified by the real tool: without tshark this file fails, it never skips.
if (spawnSync('tshark', ['--version'], { encoding: 'utf8' }).status !== 0) {
  throw new Error('tshark is not on PATH: the Wireshark plugin cannot be checked. Install it with `apt-get install -y tshark` (.ci/run does).');
}

/* ---------- a capture writer: classic pcap, nanosecond timestamps, raw IPv4 (linktype 101) ---------- */

interface Datagram { readonly payload: Uint8Array; readonly srcPort: number; readonly dstPort: number; readonly time: bigint }

/** Payload offset inside each frame: IPv4 header (20) + UDP header (8). */
const PAYLOAD_AT = 28;

function pcap(datagrams: readonly Datagram[]): Uint8Array {
  const size = 24 + datagrams.reduce((n, d) => n + 16 + PAYLOAD_AT + d.payload.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xa1b23c4d, true); // nanosecond-resolution magic
  view.setUint16(4, 2, true);
  view.setUint16(6, 4, true);
  view.setUint32(16, 65535, true);
  view.setUint32(20, 101, true); // LINKTYPE_RAW
  let at = 24;
  for (const d of datagrams) {
    const length = PAYLOAD_AT + d.payload.length;
    view.setUint32(at, Number(d.time / 1_000_000_000n), true);
    view.setUint32(at + 4, Number(d.time % 1_000_000_000n), true);
    view.setUint32(at + 8, length, true);
    view.setUint32(at + 12, length, true);
    at += 16;
    // IPv4 127.0.0.1 → 127.0.0.1, UDP (checksum 0: none).
    out.set([0x45, 0, length >> 8, length & 0xff, 0, 0, 0, 0, 64, 17, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1], at);
    let sum = 0;
    for (let i = 0; i < 20; i += 2) sum += view.getUint16(at + i);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
    view.setUint16(at + 10, ~sum & 0xffff);
    view.setUint16(at + 20, d.srcPort);
    view.setUint16(at + 22, d.dstPort);
    view.setUint16(at + 24, 8 + d.payload.length);
    out.set(d.payload, at + PAYLOAD_AT);
    at += length;
  }
  return out;
}

/* ---------- what we expect of one datagram ---------- */

interface Expected {
  readonly id: string;
  readonly protocol: Protocol;
  /** Null: the plugin must leave the datagram alone. */
  readonly layout: Layout<any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly fields: FieldNode[];
  /** Frame of the request this answers, and the response time in ns, when a link is required. */
  readonly answers?: { readonly frame: number; readonly ns: bigint };
}

const leadingMagic = (l: Layout<any>): Uint8Array | undefined => (l.fields[0]?.kind === 'magic' ? l.fields[0].bytes : undefined); // eslint-disable-line @typescript-eslint/no-explicit-any
const startsWith = (b: Uint8Array, m: Uint8Array): boolean => b.length >= m.length && m.every((x, i) => b[i] === x);

/**
 * The layout our codec recognises for these bytes in the vector's conversation: the
 * direction is given only where packet.ts needs the conversation (a symmetric `p`,
 * Minecraft replies). Too short to name a message, the first layout with the same magic
 * shows where the bytes end; with no magic at all, the bytes are not ours.
 */
function recognised(bytes: Uint8Array, v: Vector): Layout<any> | null { // eslint-disable-line @typescript-eslint/no-explicit-any
  const pair = messages[v.protocol][v.message]!;
  const conversational = Boolean(pair.symmetric) || (v.protocol === 'mcquery' && v.direction === 'response');
  if (v.protocol === 'mcquery' && v.direction === 'response' && bytes.length < 5) return null; // no session id to match
  try {
    return recognize(bytes, { protocol: v.protocol, ...(conversational ? { direction: v.direction } : {}) }).layout;
  } catch (e) {
    // Too short for packet.ts to name the message (or, for Minecraft, the direction).
    if (!(e instanceof UnrecognizedPacketError || e instanceof UnknownOpcodeError)) throw e;
    return layouts.find((l) => l.protocol === v.protocol && leadingMagic(l) && startsWith(bytes, leadingMagic(l)!)) ?? null;
  }
}

/** A request this response can answer, built from what the response echoes. */
function requestFor(v: Vector, bytes: Uint8Array): Uint8Array {
  const response = layoutFor(v.protocol, v.message, 'response');
  const request = layoutFor(v.protocol, v.message, 'request');
  const echoed = response.annotate(bytes).partial as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  for (const f of request.fields) {
    if (!('name' in f)) continue;
    value[f.name] = echoed[f.name] ?? (f.kind === 'bytes' ? new Uint8Array(f.length) : f.kind === 'string' && !f.numeric ? '' : f.kind === 'ipv4' ? '127.0.0.1' : 0);
  }
  return request.encode(value);
}

/* ---------- running tshark and reading its PDML ---------- */

interface PdmlNode { name: string; pos: number; size: number; show?: string; value?: string; showname?: string; children: PdmlNode[] }

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };
const unescapeXml = (s: string): string => s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
  e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e] ?? m));

/** Each packet's top-level protocol nodes. */
function parsePdml(xml: string): PdmlNode[][] {
  const packets: PdmlNode[][] = [];
  const stack: PdmlNode[] = [];
  const tag = /<(\/?)(packet|proto|field)((?:\s+[\w.:-]+="[^"]*")*)\s*(\/?)>/g;
  for (const m of xml.matchAll(tag)) {
    const [, close, kind, attrText = '', selfClose] = m;
    if (kind === 'packet') {
      if (!close) packets.push([]);
      continue;
    }
    if (close) {
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(/([\w.:-]+)="([^"]*)"/g)) attrs[a[1]!] = unescapeXml(a[2]!);
    const node: PdmlNode = {
      name: attrs.name ?? '', pos: Number(attrs.pos ?? 0), size: Number(attrs.size ?? 0),
      show: attrs.show, value: attrs.value, showname: attrs.showname, children: [],
    };
    (stack.length ? stack.at(-1)!.children : packets.at(-1)!).push(node);
    if (!selfClose) stack.push(node);
  }
  return packets;
}

const work = mkdtempSync(join(tmpdir(), 'gamequery-wireshark-'));
// GAMEQUERY_KEEP_CAPTURES=1 keeps the plugin and captures for a look in Wireshark.
afterAll(() => { if (!process.env.GAMEQUERY_KEEP_CAPTURES) rmSync(work, { recursive: true, force: true }); });
const luaPath = join(work, 'gamequery.lua');
const emptyConfig = join(work, 'config');
mkdirSync(emptyConfig);

function tshark(args: readonly string[], env: Record<string, string> = {}): { stdout: string; stderr: string } {
  const r = spawnSync('tshark', args, {
    encoding: 'utf8', maxBuffer: 1 << 30,
    // No personal preferences or plugins of whoever runs the tests.
    env: { ...process.env, XDG_CONFIG_HOME: emptyConfig, HOME: work, ...env },
  });
  if (r.status !== 0) throw new Error(`tshark ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

function dissect(name: string, datagrams: readonly Datagram[], prefs: readonly string[] = []): { packets: PdmlNode[][]; stdout: string; stderr: string } {
  const file = join(work, `${name}.pcap`);
  writeFileSync(file, pcap(datagrams));
  const out = tshark(['-2', '-n', '-X', `lua_script:${luaPath}`, ...prefs.flatMap((p) => ['-o', p]), '-r', file, '-T', 'pdml']);
  return { ...out, packets: parsePdml(out.stdout) };
}

/* ---------- comparing a PDML tree with ours ---------- */

interface Got { abbrev: string; offset: number; length: number; show: string; value?: string; showname?: string; children: Got[] }

const rows = new Map(fieldRegistry.map((r) => [r.abbrev, r]));
const GENERATED = /\.(response_in|response_to|time)$/;

/** Our protocol's items, with the expert item unwrapped and the generated links set aside. */
function collect(nodes: readonly PdmlNode[], proto: string, links: Map<string, string>): Got[] {
  const out: Got[] = [];
  for (const n of nodes) {
    if (GENERATED.test(n.name) && n.name.startsWith(`${proto}.`)) {
      links.set(n.name.slice(proto.length + 1), n.show ?? '');
    } else if (n.name === '' || n.name === '_ws.expert') {
      // The text item add_tvb_expert_info makes carries the range; the expert item inside names the field.
      const wrapper = n.name === '_ws.expert' ? n : n.children.find((c) => c.name === '_ws.expert');
      const item = wrapper?.children.find((c) => c.name === `${proto}.malformed`);
      if (wrapper && item) {
        const message = wrapper.children.find((c) => c.name === '_ws.expert.message')?.show ?? '';
        out.push({ abbrev: item.name, offset: n.pos - PAYLOAD_AT, length: n.size, show: message, children: [] });
      }
    } else if (!n.name.startsWith('_ws.')) {
      out.push({
        abbrev: n.name, offset: n.pos - PAYLOAD_AT, length: n.size, show: n.show ?? '', value: n.value, showname: n.showname,
        children: collect(n.children, proto, links),
      });
    }
  }
  return out;
}

/** Text whose display both tools escape alike (no control characters but \n \r \t, no backslash). */
const plainText = (s: string): boolean => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\\]/.test(s); // eslint-disable-line no-control-regex

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

let fieldsCompared = 0;
let linksChecked = 0;

function compare(want: readonly FieldNode[], got: readonly Got[], path: string, problems: string[]): void {
  if (want.length !== got.length) {
    problems.push(`${path}: ${want.length} items expected (${want.map((w) => w.abbrev).join(' ')}), tshark has ${got.length} (${got.map((g) => g.abbrev).join(' ')})`);
    return;
  }
  want.forEach((w, i) => {
    const g = got[i]!;
    const at = `${path}/${w.abbrev}@${w.offset}`;
    fieldsCompared++;
    if (g.abbrev !== w.abbrev || g.offset !== w.offset || g.length !== w.length) {
      problems.push(`${at}: tshark has ${g.abbrev} at ${g.offset}, length ${g.length}; expected length ${w.length}`);
      return;
    }
    const row = rows.get(w.abbrev)!;
    const label = `${row.label}: ${w.show}`;
    // Wireshark cuts item labels at 240 bytes ("Name [truncated]: ...").
    const labelled = utf8Length(label) < 240 ? label : g.showname;
    const v = w.value;
    let ok = true;
    switch (row.type) {
      case 'FT_UINT8': case 'FT_UINT16': case 'FT_UINT32': case 'FT_INT32':
        ok = Number(g.show) === v && g.showname === labelled;
        break;
      case 'FT_BOOLEAN':
        ok = (g.show !== '0') === v;
        break;
      case 'FT_IPv4':
        ok = g.show === v && g.showname === labelled;
        break;
      case 'FT_BYTES':
        ok = g.value === (v instanceof Uint8Array ? toHex(v) : v) && g.showname === labelled;
        break;
      case 'FT_STRING': case 'FT_STRINGZ':
        ok = (typeof v === 'number' ? Number(g.show) === v : g.show === v)
          && (!plainText(String(v)) || typeof v === 'number' || g.showname === labelled);
        break;
      case 'FT_NONE':
        // Subtrees (entries, groups) show their summary; the expert item its message.
        ok = w.generated ? g.show === w.show : g.showname === (w.show ? labelled : row.label);
        break;
      default:
        ok = false;
    }
    if (!ok) problems.push(`${at}: expected ${JSON.stringify(v instanceof Uint8Array ? toHex(v) : v)} shown "${w.show}", tshark shows ${JSON.stringify(g.show)} / ${JSON.stringify(g.showname)} / value ${g.value}`);
    compare(w.children ?? [], g.children, at, problems);
  });
}

function check(e: Expected, packet: readonly PdmlNode[] | undefined, problems: string[]): Map<string, string> {
  const links = new Map<string, string>();
  const mine = packet?.find((p) => p.name === 'samp' || p.name === 'vcmp' || p.name === 'mcquery');
  if (!e.layout) {
    if (mine) problems.push(`${e.id}: should not be dissected, tshark shows ${mine.name}`);
    return links;
  }
  if (!mine || mine.name !== e.protocol) {
    problems.push(`${e.id}: expected ${e.protocol} (${e.layout.id}), tshark shows ${packet?.map((p) => p.name).join(' ') ?? 'no packet'}`);
    return links;
  }
  compare(e.fields, collect(mine.children, e.protocol, links), e.id, problems);
  return links;
}

/* ---------- captures ---------- */

const serverPorts = (p: Protocol): number => wiresharkPorts[p][0]!;

/** Ports no dissector claims in udp.port: clients, and servers only the heuristics can find. */
function freePorts(count: number): number[] {
  const used = new Set(tshark(['-G', 'decodes']).stdout.split('\n')
    .filter((l) => l.startsWith('udp.port\t')).map((l) => Number(l.split('\t')[1])));
  const out: number[] = [];
  for (let p = 30000; out.length < count && p < 65536; p++) if (!used.has(p)) out.push(p);
  return out;
}

/**
 * Lays vectors out as conversations, one client port each: requests client → server;
 * responses server → client after a request they answer (a Minecraft reply is only
 * recognisable that way). Returns the datagrams and what each vector's frame must show.
 */
function layOut(cases: readonly { v: Vector; bytes: Uint8Array; id: string }[], serverPort: (v: Vector, i: number) => number, clients: readonly number[]) {
  const datagrams: Datagram[] = [];
  const expected = new Map<number, Expected>();
  let time = 1_700_000_000_123_456_789n; // far from zero, where a float of seconds keeps no nanoseconds
  cases.forEach(({ v, bytes, id }, i) => {
    const client = clients[i]!;
    const server = serverPort(v, i);
    let answers: Expected['answers'];
    if (v.direction === 'response') {
      datagrams.push({ payload: requestFor(v, bytes), srcPort: client, dstPort: server, time });
      const gap = 250_000_001n + BigInt(i) * 1_000_003n;
      time += gap;
      answers = { frame: datagrams.length, ns: gap };
    }
    datagrams.push({ payload: bytes, srcPort: v.direction === 'request' ? client : server, dstPort: v.direction === 'request' ? server : client, time });
    time += 1_000_000_007n;
    const layout = recognised(bytes, v);
    const fields = layout ? layout.annotate(bytes, v.charset ? { charset: v.charset as Charset } : {}).fields : [];
    expected.set(datagrams.length, { id, protocol: v.protocol, layout, fields, ...(answers ? { answers } : {}) });
  });
  return { datagrams, expected };
}

const seconds = (ns: bigint): string => `${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;

function run(name: string, laid: ReturnType<typeof layOut>, prefs: readonly string[] = [], checkLinks = false) {
  const { packets, stdout, stderr } = dissect(name, laid.datagrams, prefs);
  const problems: string[] = [];
  expect(packets.length).toBe(laid.datagrams.length);
  expect(stdout).not.toMatch(/Lua Error/);
  expect(stderr).not.toMatch(/Lua|error/i);
  for (const [frame, e] of laid.expected) {
    const links = check(e, packets[frame - 1], problems);
    if (!checkLinks || !e.answers || !e.layout || e.layout.direction !== 'response' || e.fields.some((f) => f.generated)) continue;
    // A complete reply names its request and the time since it; the request names the reply.
    linksChecked++;
    if (links.get('response_to') !== String(e.answers.frame)) problems.push(`${e.id}: response_to ${links.get('response_to')}, expected ${e.answers.frame}`);
    if (links.get('time') !== seconds(e.answers.ns)) problems.push(`${e.id}: time ${links.get('time')}, expected ${seconds(e.answers.ns)}`);
    const requestLinks = new Map<string, string>();
    collect(packets[e.answers.frame - 1]?.find((p) => p.name === e.protocol)?.children ?? [], e.protocol, requestLinks);
    if (requestLinks.get('response_in') !== String(frame)) problems.push(`${e.id}: its request has response_in ${requestLinks.get('response_in')}, expected ${frame}`);
  }
  return problems;
}

describe('Wireshark export, checked with tshark', () => {
  writeFileSync(luaPath, exportWireshark());
  // Client ports (and the heuristics' server port) that no other dissector claims.
  const free = freePorts(8000);
  const all = vectors.map((v) => ({ v, bytes: fromHex(v.hex), id: v.id }));
  // A Windows-1251 vector needs the preference; a VC:MP request with SA:MP's magic, the "claim every datagram" one.
  const special = (v: Vector): boolean => v.charset === 'windows-1251' || (v.protocol === 'vcmp' && v.error?.type === 'BadMagicError');

  it('registers exactly the field registry (tshark -G fields)', () => {
    const plugins = join(work, 'xdg', 'wireshark', 'plugins');
    mkdirSync(plugins, { recursive: true });
    writeFileSync(join(plugins, 'gamequery.lua'), exportWireshark());
    const lines = tshark(['-G', 'fields'], { XDG_CONFIG_HOME: join(work, 'xdg') }).stdout.split('\n');
    const bases: Record<string, string> = { dec: 'BASE_DEC', hex: 'BASE_HEX', char: 'BASE_HEX', none: '' };
    const got = lines.map((l) => l.split('\t')).filter((c) => c[0] === 'F' && ['samp', 'vcmp', 'mcquery'].includes(c[4]!))
      .map(([, label, abbrev, type, protocol, base, , doc]) => ({ abbrev, label, type, protocol, base, doc }));
    const want = fieldRegistry.map((r) => ({
      abbrev: r.abbrev, label: r.label, type: r.type, protocol: r.protocol,
      base: r.type === 'FT_BOOLEAN' ? '0' : bases[r.base],
      // The malformed item is a ProtoExpert, and Wireshark's expert items carry no description.
      doc: r.abbrev.endsWith('.malformed') ? '' : r.doc,
    }));
    const missing = want.filter((w) => !got.some((g) => JSON.stringify(g) === JSON.stringify(w)));
    const extra = got.filter((g) => !want.some((w) => JSON.stringify(g) === JSON.stringify(w)));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    expect(got.length).toBe(want.length);
    expect(lines.filter((l) => /^P\t/.test(l) && /\t(samp|vcmp|mcquery)$/.test(l)).length).toBe(3);
  });

  it('dissects every vector on the registered ports as our annotated tree, with links and exact response times', () => {
    const cases = all.filter(({ v }) => !special(v));
    const laid = layOut(cases, (v) => serverPorts(v.protocol), free);
    expect(run('vectors', laid, [], true)).toEqual([]);
    expect(linksChecked).toBeGreaterThan(30);
    expect(cases.length + all.filter(({ v }) => special(v)).length).toBe(vectors.length);
  });

  it('honours the text encoding and "claim every datagram" preferences', () => {
    const laid = layOut(all.filter(({ v }) => special(v)), (v) => serverPorts(v.protocol), free);
    expect(laid.expected.size).toBeGreaterThanOrEqual(4);
    expect(run('preferences', laid, ['samp.charset:windows-1251', 'vcmp.force:TRUE'], true)).toEqual([]);
  });

  it('names an unknown opcode, and leaves RakNet, other data and unasked-for Minecraft replies to others', () => {
    const [client] = free;
    const at = (payload: Uint8Array, srcPort: number, dstPort: number, i: number): Datagram =>
      ({ payload, srcPort, dstPort, time: 1_700_000_000_000_000_000n + BigInt(i) * 1_000_000n });
    const unknown = fromHex('53414d507f000001611e41');
    const raknetPing = fromHex('01000000000000000000ffff00fefefefefdfdfdfd123456780000000000000000');
    const { packets, stdout } = dissect('foreign', [
      at(unknown, client!, 7777, 0),
      at(raknetPing, client!, 19132, 1),
      at(fromHex('deadbeef00112233445566'), client!, 7777, 2),
      at(fromHex('0900000001393531333330370000'), 25565, client!, 3),
    ]);
    expect(stdout).not.toMatch(/Lua Error/);
    let message = '';
    try { recognize(unknown); } catch (e) { message = (e as Error).message; }
    expect(message).toBe('samp.opcode: unknown opcode 0x41 at offset 10');
    const header = layoutFor('samp', 'info', 'request').annotate(unknown).fields.slice(0, 3);
    const malformed: FieldNode = { abbrev: 'samp.malformed', label: 'Malformed Packet', offset: 10, length: 1, value: 'UnknownOpcodeError', show: message, generated: true };
    const problems: string[] = [];
    check({ id: 'unknown-opcode', protocol: 'samp', layout: layoutFor('samp', 'info', 'request'), fields: [...header, malformed] }, packets[0], problems);
    expect(problems).toEqual([]);
    expect(packets[1]!.map((p) => p.name)).toContain('raknet');
    for (const p of [packets[2]!, packets[3]!]) expect(p.map((x) => x.name).filter((n) => ['samp', 'vcmp', 'mcquery'].includes(n))).toEqual([]);
  });

  it('finds every valid vector on other ports through its heuristics, and every prefix of one without a Lua error', () => {
    const before = fieldsCompared;
    const valid = all.filter(({ v }) => v.value && !special(v));
    const [server, ...clients] = free;
    const prefixes = valid.flatMap(({ v, bytes }) =>
      Array.from({ length: bytes.length - 1 }, (_, n) => ({ v, bytes: bytes.subarray(0, n + 1), id: `${v.id}[:${n + 1}]` })));
    const laid = layOut([...valid, ...prefixes], (v, i) => (i < valid.length ? server! : serverPorts(v.protocol)), clients);
    const problems = run('heuristics-and-prefixes', laid);
    expect(problems).toEqual([]);
    expect(prefixes.length).toBeGreaterThan(2000);
    expect(fieldsCompared - before).toBeGreaterThan(15000);
    console.info(`wireshark.test.ts: ${fieldsCompared} fields and ${linksChecked} request/response links compared with tshark`);
  });
});
