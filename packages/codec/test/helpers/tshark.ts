/**
 * tshark with the generated Wireshark plugin, for the tests that hold the plugin to our
 * own trees: the codec's annotated tree of every vector (`test/export/wireshark.test.ts`)
 * and the dissector's output on every committed capture (`dissect/test/dissect/`).
 * Runs tshark without the personal preferences or plugins of whoever runs the tests, reads
 * its PDML and Info column, and compares our protocols' items field by field.
 */
import { tsharkAsync, tsharkSync, type TsharkRun } from './tshark-run.ts';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  expertInfo,
  fieldRegistry,
  toHex,
  type DecodeWarning,
  type FieldNode,
  type Protocol,
  type RegisteredField,
} from '@gamequery/codec';
import { MASK } from '@gamequery/codec/internal';
import { exportWireshark, wiresharkExpertAbbrev } from '@gamequery/codec/export';

export const gameProtocols: readonly string[] = ['samp', 'vcmp', 'mcquery'] satisfies Protocol[];

/** The plugin is only verified by the real tool: without tshark a test file fails, it never skips. */
export function requireTshark(): void {
  // Looked up on PATH, not run: each file's `tshark --version` cost a start of tshark (0.6 s under the suite's load), and a
  // tshark that is there but does not work fails the runs that follow all the same.
  const onPath = (process.env.PATH ?? '').split(delimiter).some((d) => {
    try {
      accessSync(join(d || '.', 'tshark'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!onPath) {
    throw new Error(
      'tshark is not on PATH: the Wireshark plugin cannot be checked. Install it with `apt-get install -y tshark` (.ci/run does).',
    );
  }
}

/* ---------- PDML ---------- */

export interface PdmlNode {
  name: string;
  pos: number;
  size: number;
  show?: string;
  value?: string;
  showname?: string;
  children: PdmlNode[];
}

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };
const unescapeXml = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e] ?? m),
  );

/** Each packet's top-level protocol nodes. */
export function parsePdml(xml: string): PdmlNode[][] {
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
      name: attrs.name ?? '',
      pos: Number(attrs.pos ?? 0),
      size: Number(attrs.size ?? 0),
      show: attrs.show,
      value: attrs.value,
      showname: attrs.showname,
      children: [],
    };
    (stack.length ? stack.at(-1)!.children : packets.at(-1)!).push(node);
    if (!selfClose) stack.push(node);
  }
  return packets;
}

/** The packet's own query-protocol node, if the plugin claimed it. */
export const gameNode = (packet: readonly PdmlNode[] | undefined): PdmlNode | undefined =>
  packet?.find((p) => gameProtocols.includes(p.name));

/* ---------- running tshark ---------- */

export type { TsharkRun };

export interface Dissected extends TsharkRun {
  /** Each packet's top-level protocol nodes, in frame order. */
  readonly packets: PdmlNode[][];
  /** Each packet's Info column, in frame order. */
  readonly info: string[];
}

export interface Tshark {
  /** The working folder (the plugin, captures written by the tests). */
  readonly work: string;
  /** The generated plugin, in `work`. */
  readonly plugin: string;
  /** The environment tshark runs in: no personal preferences or plugins. */
  readonly env: NodeJS.ProcessEnv;
  /** Runs tshark and requires it to succeed. */
  run(args: readonly string[], env?: Record<string, string>): TsharkRun;
  /**
   * tshark with the plugin on a capture, two passes (so requests know their response):
   * the PDML tree and, from a second run, the Info column. The caller judges the status
   * (a capture cut mid-record ends in an error after its intact packets).
   */
  dissect(file: string, prefs?: readonly string[]): Promise<Dissected>;
  /** Removes `work`, unless GAMEQUERY_KEEP_CAPTURES=1 (to look at the plugin and captures in Wireshark). */
  dispose(): void;
}

/** tshark in a temporary folder holding the generated plugin and an empty configuration. */
export function tsharkWithPlugin(name: string): Tshark {
  const work = mkdtempSync(join(tmpdir(), `gamequery-${name}-`));
  const plugin = join(work, 'gamequery.lua');
  const config = join(work, 'config');
  mkdirSync(config);
  writeFileSync(plugin, exportWireshark());
  // No personal preferences or plugins of whoever runs the tests.
  const environment = (env: Record<string, string>) => ({ ...process.env, XDG_CONFIG_HOME: config, HOME: work, ...env });

  const run = (args: readonly string[], env: Record<string, string> = {}): TsharkRun => {
    const r = tsharkSync(args, { encoding: 'utf8', env: environment(env) });
    if (r.status !== 0) throw new Error(`tshark ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
    return r;
  };

  const start = (args: readonly string[]): Promise<TsharkRun> => tsharkAsync(args, environment({}));

  const dissect = async (file: string, prefs: readonly string[] = []): Promise<Dissected> => {
    const common = ['-2', '-n', '-X', `lua_script:${plugin}`, ...prefs.flatMap((p) => ['-o', p]), '-r', file];
    const [tree, columns] = await Promise.all([start([...common, '-T', 'pdml']), start([...common, '-T', 'fields', '-e', '_ws.col.Info'])]);
    const info = columns.stdout.split('\n');
    info.pop(); // the last line's newline
    return { ...tree, stderr: tree.stderr + columns.stderr, packets: parsePdml(tree.stdout), info };
  };

  return {
    work,
    plugin,
    env: environment({}),
    run,
    dissect,
    dispose: () => {
      if (!process.env.GAMEQUERY_KEEP_CAPTURES) rmSync(work, { recursive: true, force: true });
    },
  };
}

/* ---------- many display filters in one run ---------- */

/**
 * A Lua script for tshark: one tap (`Listener.new`) per display filter read from the file
 * that GAMEQUERY_TSHARK_FILTERS names, one filter a line, each writing `N<TAB>frame` for a
 * frame it passes; a filter tshark cannot compile writes `E<TAB>N<TAB>why`. tshark's own
 * filter engine, without a process per filter: starting tshark costs about 0.5 s, and a
 * plugin more.
 */
const FILTER_TAPS = `local taps = Proto("gamequery_taps", "gamequery test taps")
local made = false
-- Made when the capture opens: a plugin's fields are registered after every script has run.
function taps.init()
  if made then return end
  made = true
  local n = 0
  for filter in io.lines(os.getenv("GAMEQUERY_TSHARK_FILTERS")) do
    n = n + 1
    local i = n
    local ok, tap = pcall(Listener.new, nil, filter)
    if ok then
      function tap.packet(pinfo) io.write(i, "\\t", pinfo.number, "\\n") end
    else
      io.write("E\\t", i, "\\t", tostring(tap), "\\n")
    end
  end
end
`;

/**
 * The frames each display filter passes, in frame order, from one tshark run with `args`
 * (the input, `-2`, a plugin loaded with `-X lua_script:…` before the taps) and `env`.
 */
export function tsharkFilterFrames(
  args: readonly string[],
  filters: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Map<string, number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-taps-'));
  try {
    const script = join(dir, 'taps.lua');
    const list = join(dir, 'filters.txt');
    writeFileSync(script, FILTER_TAPS);
    if (filters.some((f) => f.includes('\n'))) throw new Error('a display filter on more than one line');
    writeFileSync(list, filters.map((f) => `${f}\n`).join(''));
    const r = tsharkSync([...args, '-q', '-X', `lua_script:${script}`], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...env, GAMEQUERY_TSHARK_FILTERS: list },
    });
    if (r.status !== 0) throw new Error(`tshark ${args.join(' ')} with ${filters.length} filter taps failed (${r.status}): ${r.stderr}`);
    const frames = filters.map((): number[] => []);
    for (const line of r.stdout.split('\n')) {
      if (!line) continue;
      const [a, b, why] = line.split('\t');
      if (a === 'E') throw new Error(`tshark cannot compile the display filter ${filters[Number(b) - 1]}: ${why}`);
      frames[Number(a) - 1]!.push(Number(b));
    }
    return new Map(filters.map((f, i) => [f, frames[i]!]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/* ---------- comparing a PDML tree with ours ---------- */

/** One of our protocol's items as tshark shows it, offsets relative to the UDP payload. */
export interface Got {
  abbrev: string;
  offset: number;
  length: number;
  show: string;
  value?: string;
  showname?: string;
  children: Got[];
}

/** The generated links of a packet, by the abbreviation's last part: `response_in`, `response_to`, `time`. */
export type Links = Map<string, string>;

/** One of our protocol's warning expert items as tshark shows it (or as we expect it): offset relative to the UDP payload. */
export interface Expert {
  abbrev: string;
  offset: number;
  severity: string;
  group: string;
  message: string;
}

const builtInRows: ReadonlyMap<string, RegisteredField> = new Map(fieldRegistry.map((r) => [r.abbrev, r]));

/**
 * C's `printf("%.<digits>g", v)`: how Wireshark 4.0 shows a float (6 digits, FLT_DIG) and a
 * double (15, DBL_DIG) in its labels, `-T fields`, PDML and JSON.
 */
export function printfG(v: number, digits: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const trim = (s: string): string => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);
  const [mantissa, e] = v.toExponential(digits - 1).split('e') as [string, string];
  const x = Number(e);
  if (x < -4 || x >= digits) return `${trim(mantissa)}e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
  return trim(v.toFixed(digits - 1 - x));
}
const GENERATED = /\.(response_in|response_to|time)$/;

/**
 * Our protocol's items, with the expert item unwrapped and the generated links set aside.
 * `base` is where the UDP payload starts in the data source tshark reports positions in:
 * the frame, or the reassembled IP payload of a datagram that came in fragments.
 */
export function collect(nodes: readonly PdmlNode[], proto: string, base: number, links: Links, experts: Expert[] = []): Got[] {
  const out: Got[] = [];
  for (const n of nodes) {
    if (GENERATED.test(n.name) && n.name.startsWith(`${proto}.`)) {
      links.set(n.name.slice(proto.length + 1), n.show ?? '');
    } else if (n.name === '' || n.name === '_ws.expert') {
      // The text item add_tvb_expert_info makes carries the range; the expert item inside names the field,
      // or the declared warning (`samp.expert.short_list`), which is set aside with its severity and group.
      const wrapper = n.name === '_ws.expert' ? n : n.children.find((c) => c.name === '_ws.expert');
      const message = wrapper?.children.find((c) => c.name === '_ws.expert.message')?.show ?? '';
      const item = wrapper?.children.find((c) => c.name === `${proto}.malformed`);
      const warning = wrapper?.children.find((c) => c.name.startsWith(`${proto}.expert.`));
      if (wrapper && item) {
        out.push({ abbrev: item.name, offset: n.pos - base, length: n.size, show: message, children: [] });
      } else if (wrapper && warning) {
        const [, severity = '', group = ''] = /^Expert Info \((\w+)\/(\w+)\)/.exec(wrapper.showname ?? '') ?? [];
        experts.push({ abbrev: warning.name, offset: n.pos - base, severity, group, message });
      }
    } else if (!n.name.startsWith('_ws.')) {
      out.push({
        abbrev: n.name,
        offset: n.pos - base,
        length: n.size,
        show: n.show ?? '',
        value: n.value,
        showname: n.showname,
        children: collect(n.children, proto, base, links, experts),
      });
    }
  }
  return out;
}

/** Text whose display both tools escape alike (no control characters but \n \r \t, no backslash). */
const plainText = (s: string): boolean => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\\]/.test(s); // eslint-disable-line no-control-regex -- the control characters are what it looks for
const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

/**
 * Compares our tree with tshark's item by item (abbreviation, offset, length, value and
 * display text), adding what differs to `problems`; returns how many items it compared.
 * A secret node (an RCON password, a command that sets one, a reply that echoes one) must
 * show masked, value and label alike: the plugin's show_secrets preference is off here.
 */
export function compareFields(
  want: readonly FieldNode[],
  got: readonly Got[],
  path: string,
  problems: string[],
  rows: ReadonlyMap<string, RegisteredField> = builtInRows,
): number {
  if (want.length !== got.length) {
    problems.push(
      `${path}: ${want.length} items expected (${want.map((w) => w.abbrev).join(' ')}), tshark has ${got.length} (${got.map((g) => g.abbrev).join(' ')})`,
    );
    return 0;
  }
  let compared = 0;
  want.forEach((w, i) => {
    const g = got[i]!;
    const at = `${path}/${w.abbrev}@${w.offset}`;
    compared++;
    if (g.abbrev !== w.abbrev || g.offset !== w.offset || g.length !== w.length) {
      problems.push(`${at}: tshark has ${g.abbrev} at ${g.offset}, length ${g.length}; expected length ${w.length}`);
      return;
    }
    const row = rows.get(w.abbrev);
    if (!row) {
      problems.push(`${at}: not in the registry`);
      return;
    }
    const masked = w.secret && typeof w.value === 'string' ? (w.masked ?? MASK) : undefined;
    const label = `${row.label}: ${masked ?? w.show}`;
    // Wireshark cuts item labels at 240 bytes ("Name [truncated]: ...").
    const labelled = utf8Length(label) < 240 ? label : g.showname;
    const v = w.value;
    let ok = true;
    switch (row.type) {
      case 'FT_UINT8':
      case 'FT_UINT16':
      case 'FT_INT16':
      case 'FT_UINT32':
      case 'FT_INT32':
        ok = Number(g.show) === v && g.showname === labelled;
        break;
      case 'FT_UINT64':
        ok = BigInt(g.show) === v && g.showname === labelled;
        break;
      case 'FT_FLOAT':
      case 'FT_DOUBLE': {
        // Wireshark shows C's %g of the value, with fewer digits than ours (the shortest that reads back).
        const shown = printfG(v as number, row.type === 'FT_FLOAT' ? 6 : 15);
        ok = g.show === shown && g.showname === `${row.label}: ${shown}`;
        break;
      }
      case 'FT_BOOLEAN':
        ok = (g.show !== '0') === v;
        break;
      case 'FT_IPv4':
        ok = g.show === v && g.showname === labelled;
        break;
      case 'FT_BYTES':
        ok = g.value === (v instanceof Uint8Array ? toHex(v) : v) && g.showname === labelled;
        break;
      case 'FT_STRING':
      case 'FT_STRINGZ': {
        if (typeof v === 'number') {
          ok = Number(g.show) === v;
          break;
        }
        // Wireshark 4.0 keeps a string value as a C string, cut at its first NUL (4.2 lifted
        // that); the plugin then writes the whole text into the label itself.
        if (masked !== undefined) {
          // The plugin masks the text itself; the escaped form is only ours to compare where nothing is escaped.
          ok = plainText(masked) ? g.show === masked && g.showname === labelled : g.show.includes(MASK);
          break;
        }
        const nul = String(v).indexOf('\0');
        ok = g.show === (nul < 0 ? v : String(v).slice(0, nul)) && ((nul < 0 && !plainText(String(v))) || g.showname === labelled);
        break;
      }
      case 'FT_NONE':
        // Subtrees (entries, groups) show their summary; the expert item its message.
        ok = w.generated ? g.show === w.show : g.showname === (w.show ? labelled : row.label);
        break;
      default:
        ok = false;
    }
    if (!ok)
      problems.push(
        `${at}: expected ${JSON.stringify(v instanceof Uint8Array ? toHex(v) : v)} shown "${w.show}", tshark shows ${JSON.stringify(g.show)} / ${JSON.stringify(g.showname)} / value ${g.value}`,
      );
    compared += compareFields(w.children ?? [], g.children, at, problems, rows);
  });
  return compared;
}

/** What one packet must show: our protocol's tree (or none), and the Info column. */
export interface Want {
  readonly id: string;
  /** The name of the protocol whose tree the plugin must show; null: the plugin must leave the packet alone. */
  readonly protocol: string | null;
  readonly fields: readonly FieldNode[];
  readonly summary?: string;
  /** Where the UDP payload starts in tshark's positions (see `collect`). */
  readonly base: number;
  /** Our warnings: the plugin must raise each as its declared expert item, with the same words, and no other. */
  readonly warnings?: readonly DecodeWarning[];
}

/** A warning of ours as the plugin must raise it: its code's expert item, group and severity from the declared table. */
export function expectedExpert(protocol: string, w: DecodeWarning): Expert {
  const info = expertInfo(w.code);
  if (!info) throw new Error(`warning code ${JSON.stringify(w.code)} is declared by no table`);
  return {
    abbrev: wiresharkExpertAbbrev(protocol, w.code),
    offset: w.offset,
    severity: info.severity,
    group: info.group,
    message: w.message,
  };
}

/**
 * Checks one packet of tshark's output against what we expect of it, adding what differs
 * to `problems`; returns the generated links tshark showed, how many items it compared and
 * the warning expert items it raised.
 */
export function checkPacket(
  want: Want,
  packet: readonly PdmlNode[] | undefined,
  info: string | undefined,
  problems: string[],
): { links: Links; compared: number; experts: Expert[] } {
  const links: Links = new Map();
  const mine = gameNode(packet);
  if (!want.protocol) {
    if (mine) problems.push(`${want.id}: should not be dissected, tshark shows ${mine.name}: ${info}`);
    return { links, compared: 0, experts: [] };
  }
  if (!mine || mine.name !== want.protocol) {
    problems.push(`${want.id}: expected ${want.protocol}, tshark shows ${packet?.map((p) => p.name).join(' ') ?? 'no packet'}`);
    return { links, compared: 0, experts: [] };
  }
  if (want.summary !== undefined && info !== want.summary)
    problems.push(`${want.id}: Info ${JSON.stringify(info)}, expected ${JSON.stringify(want.summary)}`);
  const experts: Expert[] = [];
  const compared = compareFields(want.fields, collect(mine.children, want.protocol, want.base, links, experts), want.id, problems);
  const wanted = (want.warnings ?? []).map((w) => expectedExpert(want.protocol!, w));
  if (JSON.stringify(experts) !== JSON.stringify(wanted))
    problems.push(`${want.id}: tshark raises ${JSON.stringify(experts)}, our warnings ${JSON.stringify(wanted)}`);
  return { links, compared, experts };
}
