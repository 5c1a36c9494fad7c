/**
 * The statistics of `-F html` as inline SVG, drawn here as text (no script draws them, no
 * font or image is fetched): the rate over time of requests and replies (in total and per
 * server), the round-trip times as a histogram, and the top sources as bars; then the servers
 * (counts, players and name, amplification), the RCON password guessers, the protocol hierarchy,
 * the conversations and endpoints and the expert items as tables. Every bar, interval and row
 * carries what it counts as a filter — `data-filter` for the page's script,
 * which shows the packets it counted, and its Wireshark display filter for `-Y` — and a `<title>`.
 */
import { showText } from '@gamequery/codec/internal';
import { formatEndpoint } from '../net/address.ts';
import { escapeHtml } from './html-page.ts';
import { ampText, requested, shownReport } from './stats.ts';
import type { IoReport, IoRow } from '../stats/io.ts';
import type { ServerCounts, StatsReport, StatsRows } from '../stats/servers.ts';
import type { SourceCount, SourcesReport } from '../stats/sources.ts';
import { phsDisplay, type PhsNode, type PhsReport } from '../stats/phs.ts';
import type { ConversationReport, ConversationRows } from '../stats/conversations.ts';
import { SEVERITY_OF, expertItemLine, type ExpertReport } from '../stats/expert.ts';

const W = 640;
const H = 140;
const PAD = 36;

const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(3));
/** A bound in a filter: to the nanosecond, so that `-Y` takes what the chart counted. */
const exact = (n: number): string => String(Number(n.toFixed(9)));

/** A filter as the page's script applies it, and as `-Y` takes it. */
interface ChartFilter {
  /** What the page's rows are tested on. */
  readonly test: {
    readonly from?: number;
    readonly to?: number;
    readonly last?: boolean;
    readonly server?: string;
    readonly src?: string;
    readonly dst?: string;
    readonly rttFrom?: number;
    readonly rttTo?: number;
    /** A conversation: the packets between these two ends, either way. */
    readonly pair?: readonly [string, string];
    /** An endpoint: the packets from or to it. */
    readonly end?: string;
    /** The ends of `pair` and `end` are address and port (`10.0.0.1:7777`, `[::1]:7777`), else addresses alone. */
    readonly ports?: boolean;
    /** An expert item, as the packet's notes write it (`[Expert Info (Warning/Malformed): …]`). */
    readonly expert?: string;
    /** A place in the protocol hierarchy: the packets whose place begins with these protocols (`eth:ip:udp`). */
    readonly phs?: string;
    /** A table's own filter (`-z conv,udp,FILTER`): the packets marked as passing it. */
    readonly within?: string;
  };
  /** The same as a Wireshark display filter. */
  readonly display: string;
}

const attrs = (f: ChartFilter): string =>
  ` data-filter="${escapeHtml(JSON.stringify(f.test))}" data-display="${escapeHtml(f.display)}" tabindex="0" role="button"`;

/**
 * A row's filter within its table's own (`-z conv,udp,FILTER`): the frames the table counted, of which the
 * row's. Without it a row's filter passed frames its row did not count.
 */
export const within = (table: string, row: string): string => (table.trim() ? `(${table}) && (${row})` : row);

/** A row's test on the page within its table's own filter: the packets marked as passing it (render/html.ts). */
const withinTest = (table: string, test: ChartFilter['test']): ChartFilter['test'] => (table.trim() ? { ...test, within: table } : test);

/** `ip.src == a` or `ipv6.src == a`, by the address's family. */
const ipField = (ip: string, side: 'src' | 'dst'): string => `${ip.includes(':') ? 'ipv6' : 'ip'}.${side} == ${ip}`;

/** A server's traffic both ways, as a display filter. */
const serverDisplay = (ip: string, port: number): string =>
  `((${ipField(ip, 'dst')} && udp.dstport == ${port}) || (${ipField(ip, 'src')} && udp.srcport == ${port}))`;

/** The axis: the largest value at the top, zero and the time span at the bottom. */
function frame(title: string, top: number, left: string, right: string): string {
  return (
    `<text class="t" x="${PAD}" y="12">${escapeHtml(title)}</text>` +
    `<text class="a" x="${PAD - 4}" y="${PAD - 8}" text-anchor="end">${escapeHtml(num(top))}</text>` +
    `<text class="a" x="${PAD - 4}" y="${H - PAD}" text-anchor="end">0</text>` +
    `<line class="axis" x1="${PAD}" y1="${H - PAD}" x2="${W - 8}" y2="${H - PAD}"/>` +
    `<text class="a" x="${PAD}" y="${H - PAD + 14}">${escapeHtml(left)}</text>` +
    `<text class="a" x="${W - 8}" y="${H - PAD + 14}" text-anchor="end">${escapeHtml(right)}</text>`
  );
}

/**
 * Requests (bars) and replies (a line) per interval; each interval a target that filters to its packets (of those
 * `filter`, the column filter of `-z io,stat,INTERVAL,FILTER`, passed).
 */
function ioSvg(title: string, rows: readonly IoRow[], filter: string, server?: { readonly ip: string; readonly port: number }): string {
  const n = Math.max(rows.length, 1);
  // A loop, not Math.max(...): two days of one-second intervals are 172 800 arguments, past the 125 000 or so a call takes.
  const top = rows.reduce((m, r) => Math.max(m, r.requests, r.replies), 1);
  const plotW = W - PAD - 8;
  const plotH = H - 2 * PAD;
  const x = (i: number): number => PAD + (plotW * i) / n;
  const y = (v: number): number => H - PAD - (plotH * v) / top;
  const bw = Math.max(1, plotW / n - 1);
  let bars = '';
  let targets = '';
  const line: string[] = [];
  rows.forEach((r, i) => {
    bars += `<rect class="req" x="${x(i).toFixed(1)}" y="${y(r.requests).toFixed(1)}" width="${bw.toFixed(1)}" height="${(H - PAD - y(r.requests)).toFixed(1)}"/>`;
    line.push(`${(x(i) + bw / 2).toFixed(1)},${y(r.replies).toFixed(1)}`);
    const test = {
      from: r.start,
      to: r.end,
      ...(i === rows.length - 1 ? { last: true } : {}),
      ...(server ? { server: formatEndpoint(server) } : {}),
    };
    const time = `frame.time_relative >= ${exact(r.start)} && frame.time_relative ${i === rows.length - 1 ? '<=' : '<'} ${exact(r.end)}`;
    const display = within(filter, server ? `${time} && ${serverDisplay(server.ip, server.port)}` : time);
    const share = r.requests ? ` (${((100 * r.answered) / r.requests).toFixed(1)} % answered)` : '';
    targets +=
      `<rect class="hit" x="${x(i).toFixed(1)}" y="${PAD - 8}" width="${(plotW / n).toFixed(1)}" height="${plotH + 8}"${attrs({ test: withinTest(filter, test), display })}>` +
      `<title>${escapeHtml(`${num(r.start)}–${num(r.end)} s: ${r.requests} requests, ${r.replies} replies${share}, ${r.frames} frames`)}</title></rect>`;
  });
  const last = rows.at(-1);
  return (
    `<svg class="chart io" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(title)}">` +
    frame(title, top, '0 s', `${num(last?.end ?? 0)} s`) +
    bars +
    `<polyline class="rep" points="${line.join(' ')}"/>` +
    targets +
    `<text class="a key" x="${W - 8}" y="12" text-anchor="end">■ requests  — replies</text>` +
    `</svg>`
  );
}

/** Round trips as a histogram (log-scale bins); each bin filters to the replies whose time falls in it. */
function rttSvg(report: StatsReport): string {
  const { edges, counts } = report.totals.rtt.histogram;
  if (!counts.length) return '';
  const top = counts.reduce((m, c) => Math.max(m, c), 1);
  const plotW = W - PAD - 8;
  const plotH = H - 2 * PAD;
  const bw = plotW / counts.length;
  const maxMs = report.totals.rtt.max ?? edges.at(-1)!;
  let out = '';
  // The protocols of the servers counted: whose replies the round trips are.
  const protocols = [...new Set(report.servers.map((s) => s.protocol))];
  counts.forEach((c, i) => {
    const lo = edges[i]!;
    const hi = i + 1 < edges.length ? edges[i + 1]! : maxMs;
    const h = (plotH * c) / top;
    const test = { rttFrom: lo, rttTo: hi };
    const times = protocols.map((p) => `(${p}.time >= ${exact(lo / 1e3)} && ${p}.time <= ${exact(hi / 1e3)})`).join(' || ');
    out +=
      `<rect class="req" x="${(PAD + bw * i).toFixed(1)}" y="${(H - PAD - h).toFixed(1)}" width="${Math.max(1, bw - 1).toFixed(1)}" height="${h.toFixed(1)}"/>` +
      `<rect class="hit" x="${(PAD + bw * i).toFixed(1)}" y="${PAD - 8}" width="${bw.toFixed(1)}" height="${plotH + 8}"${attrs({ test, display: times })}>` +
      `<title>${escapeHtml(`${num(lo)}–${num(hi)} ms: ${c} replies`)}</title></rect>`;
  });
  return (
    `<svg class="chart rtt" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="Round-trip times">` +
    frame(`Round-trip times (${report.totals.rtt.count}, log scale)`, top, `${num(edges[0]!)} ms`, `${num(maxMs)} ms`) +
    out +
    `</svg>`
  );
}

/**
 * Sources as bars of `value` (requests, or the reply bytes sent them), ten at most; each
 * filters to the packets from (or to) that source.
 */
function sourcesSvg(title: string, list: readonly SourceCount[], value: (s: SourceCount) => number, side: 'src' | 'dst'): string {
  list = list.slice(0, 10);
  if (!list.length) return '';
  const row = 18;
  const height = 24 + row * list.length;
  const top = list.reduce((m, x) => Math.max(m, value(x)), 1);
  const left = 150;
  const plotW = W - left - 70;
  let out = `<text class="t" x="4" y="12">${escapeHtml(title)}</text>`;
  list.forEach((s, i) => {
    const y = 20 + row * i;
    const w = Math.max(1, (plotW * value(s)) / top);
    const amp = s.requestBytes > 0 ? `, ${(s.replyBytes / s.requestBytes).toFixed(3)} reply bytes per request byte` : '';
    out +=
      `<g${attrs({ test: { [side]: s.address }, display: ipField(s.address, side) })}>` +
      `<title>${escapeHtml(`${s.address}: ${s.requests} requests${s.error ? ` (± ${s.error})` : ''}, ${s.answered} answered, ${s.requestBytes} bytes sent, ${s.replyBytes} received${amp}`)}</title>` +
      // The whole row answers a click, not only the bar and the text.
      `<rect class="hit" x="0" y="${y}" width="${W}" height="${row}"/>` +
      `<text class="a" x="${left - 6}" y="${y + 12}" text-anchor="end">${escapeHtml(s.address)}</text>` +
      `<rect class="req" x="${left}" y="${y + 2}" width="${w.toFixed(1)}" height="${row - 5}"/>` +
      `<text class="a" x="${(left + w + 4).toFixed(1)}" y="${y + 12}">${value(s)}${s.error && side === 'src' ? ` ±${s.error}` : ''}</text></g>`;
  });
  return `<svg class="chart sources" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="${escapeHtml(title)}">${out}</svg>`;
}

/** A row of a statistics table: its cells, and the packets it counts as a filter (a click shows them, as a bar's does). */
interface TableRow {
  readonly cells: readonly string[];
  readonly filter: ChartFilter;
}

/**
 * A table of the page's statistics: a caption, a head, rows (the columns in `right` aligned right), a footer row;
 * in pieces, a row each, made as they are asked for (a scan's servers' table is 70 MB of a page: see {@link chartsHtmlPieces}).
 */
function* tableHtml(
  caption: string,
  head: readonly string[],
  rows: Iterable<TableRow>,
  right: ReadonlySet<number>,
  footer?: readonly string[],
): Generator<string> {
  const cells = (tag: 'td' | 'th', list: readonly string[]): string =>
    list.map((c, i) => `<${tag}${right.has(i) ? ' class="r"' : ''}>${escapeHtml(c)}</${tag}>`).join('');
  yield `<table class="stat"><caption>${escapeHtml(caption)}</caption><thead><tr>${cells('th', head)}</tr></thead><tbody>`;
  for (const r of rows) yield `<tr${attrs(r.filter)}>${cells('td', r.cells)}</tr>`;
  yield `</tbody>${footer ? `<tfoot><tr>${cells('td', footer)}</tr></tfoot>` : ''}</table>`;
}

/** The servers as a table: counts, the median round trip, players and name, and what each sent back per byte it got. */
function serversTable(report: StatsReport): Generator<string> {
  const head = [
    'Server',
    'Protocol',
    'Requests',
    'Answered',
    'Unanswered',
    'Replies',
    'Malformed',
    'RTT median ms',
    'Players',
    'Host name',
    'Amp',
    'Amp wire',
  ];
  const counts = (c: ServerCounts): string[] => [
    String(requested(c.requests)),
    String(c.answered),
    String(c.unanswered),
    String(c.replies),
    String(c.malformed),
    c.rtt.median === null ? '-' : `${c.rtt.median.toFixed(3)}${c.rtt.exact ? '' : ' ~'}`,
  ];
  const rows = (function* (): Generator<TableRow> {
    for (const s of report.servers) {
      const server = formatEndpoint(s.server);
      yield {
        cells: [
          server,
          s.protocol,
          ...counts(s),
          s.players === null ? '-' : String(s.players),
          s.hostname === null ? '-' : showText(s.hostname),
          ampText(s.amplification.payload),
          ampText(s.amplification.wire),
        ],
        filter: { test: { server }, display: serverDisplay(s.server.ip, s.server.port) },
      };
    }
  })();
  const t = report.totals;
  return tableHtml(
    'Servers (Amp: reply bytes per request byte, UDP payloads; Amp wire: frames on the wire)',
    head,
    rows,
    new Set([2, 3, 4, 5, 6, 7, 8, 10, 11]),
    [
      `${t.servers} server${t.servers === 1 ? '' : 's'}`,
      '',
      ...counts(t),
      '',
      '',
      ampText(t.amplification.payload),
      ampText(t.amplification.wire),
    ],
  );
}

/** The sources guessing the RCON password, or a line saying none did. */
function guessersTable(sources: SourcesReport): Iterable<string> {
  if (!sources.rconGuessers.length)
    return [`<p class="hint">RCON password guessing: no source had ${sources.guessingThreshold} passwords refused.</p>`];
  return tableHtml(
    `RCON password guessing (${sources.guessingThreshold} or more passwords refused)`,
    ['Source', 'RCON requests', 'Refused', 'Distinct passwords'],
    sources.rconGuessers.map((g) => ({
      cells: [g.address, String(g.requests), String(g.denied), String(g.distinctPasswords)],
      filter: { test: { src: g.address }, display: ipField(g.address, 'src') },
    })),
    new Set([1, 2, 3]),
  );
}

/**
 * The protocol hierarchy (`-z io,phs`) as Wireshark's window shows it: each protocol indented under the one it is in,
 * its share of the frames and bytes; a row filters to the frames it counts (those whose place in the hierarchy begins
 * with its protocols).
 */
function phsTable(r: PhsReport): Generator<string> {
  const share = (n: number, of: number): string => (of ? `${((100 * n) / of).toFixed(1)} %` : '-');
  const rows: TableRow[] = [];
  const walk = (nodes: readonly PhsNode[], depth: number, above: readonly string[]): void => {
    for (const n of nodes) {
      // The `frame` node (a filter that reads the frame's fields puts it on top) holds every frame: no chain names it.
      const path = depth === 0 && n.protocol === 'frame' ? [] : [...above, n.protocol];
      rows.push({
        cells: [
          `${'\u00a0'.repeat(4 * depth)}${n.protocol}`,
          share(n.frames, r.frames),
          String(n.frames),
          share(n.bytes, r.bytes),
          String(n.bytes),
        ],
        filter: { test: withinTest(r.filter, path.length ? { phs: path.join(':') } : {}), display: within(r.filter, phsDisplay(path)) },
      });
      walk(n.children, depth + 1, path);
    }
  };
  walk(r.protocols, 0, []);
  return tableHtml(
    `Protocol hierarchy${r.filter ? ` (filter: ${r.filter})` : ''}: ${r.frames} frames, ${r.bytes} bytes on the wire`,
    ['Protocol', 'Frames %', 'Frames', 'Bytes %', 'Bytes'],
    rows,
    new Set([1, 2, 3, 4]),
  );
}

/** The statistics the page draws, each when asked for. */
export interface PageStats {
  /** Per server: the report, or its rows made as they are read (read once). */
  readonly servers?: StatsReport | StatsRows;
  readonly sources?: SourcesReport;
  readonly io?: IoReport;
  /** The column filter the rate was counted through (`-z io,stat,INTERVAL,FILTER`): an interval's packets are those it passed. */
  readonly ioFilter?: string;
  readonly phs?: PhsReport;
  /** `-z conv` and `-z endpoints`, in the order asked (their rows made as the page takes them). */
  readonly conversations?: readonly (ConversationReport | ConversationRows)[];
  /** `-z expert`. */
  readonly expert?: ExpertReport;
}

/** The expert items (`-z expert`): each with its severity, group, protocol, summary and count, worst first. */
function expertTable(r: ExpertReport): Generator<string> {
  return tableHtml(
    `Expert items${r.filter ? ` (filter: ${r.filter})` : ''}: ${r.items.reduce((n, i) => n + i.count, 0)}`,
    ['Severity', 'Group', 'Protocol', 'Summary', 'Count'],
    r.items.map((i) => {
      const severity = SEVERITY_OF[i.level];
      const quoted = `"${i.summary.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
      return {
        cells: [i.level, i.group, i.protocol, i.summary, String(i.count)],
        filter: {
          test: withinTest(r.filter, { expert: expertItemLine({ severity, group: i.group, message: i.summary }) }),
          display: within(
            r.filter,
            `_ws.expert.message == ${quoted} && _ws.expert.severity == ${severity.toLowerCase()} && _ws.expert.group == ${i.group.toLowerCase()} && ${i.protocol.toLowerCase()}`,
          ),
        },
      };
    }),
    new Set([4]),
  );
}

/** An end of a conversation or an endpoint: an address, or an address and a UDP port. */
interface End {
  readonly address: string;
  readonly port?: number;
}

/** An end as a display filter: its address (and port) as the frame's source or destination. */
const endDisplay = (e: End, side: 'src' | 'dst'): string =>
  e.port === undefined ? ipField(e.address, side) : `${ipField(e.address, side)} && udp.${side}port == ${e.port}`;

/**
 * A conversation's packets, either way, as a display filter: what its row counts (an IPv6 row leaves out
 * the fragments that complete no datagram, as tshark's table does; the filter, as Wireshark's conversation
 * filter, takes them too).
 */
const pairDisplay = (a: End, b: End): string =>
  `(${endDisplay(a, 'src')} && ${endDisplay(b, 'dst')}) || (${endDisplay(b, 'src')} && ${endDisplay(a, 'dst')})`;

/** An endpoint's packets, from it or to it, as a display filter. */
const endpointDisplay = (e: End): string =>
  e.port === undefined
    ? `${ipField(e.address, 'src')} || ${ipField(e.address, 'dst')}`
    : `(${endDisplay(e, 'src')}) || (${endDisplay(e, 'dst')})`;

/**
 * A conversation or endpoint table (`-z conv`, `-z endpoints`) with tshark's columns, a row each,
 * most frames first; a row filters to its packets.
 */
function conversationTable(r: ConversationReport | ConversationRows): Generator<string> {
  const count = 'count' in r ? r.count : r.rows.length;
  const layer = r.type === 'ip' ? 'IPv4' : r.type === 'ipv6' ? 'IPv6' : 'UDP';
  const ports = r.type === 'udp';
  const end = (e: End): string => (e.port === undefined ? e.address : formatEndpoint({ ip: e.address, port: e.port }));
  const filter = r.filter ? ` (filter: ${r.filter})` : '';
  if (r.table === 'endpoints')
    return tableHtml(
      `${layer} endpoints${filter}: ${count}`,
      ['Endpoint', 'Frames', 'Bytes', 'Tx frames', 'Tx bytes', 'Rx frames', 'Rx bytes'],
      (function* () {
        for (const e of r.rows)
          yield {
            cells: [end(e), e.frames, e.bytes, e.tx.frames, e.tx.bytes, e.rx.frames, e.rx.bytes].map(String),
            filter: { test: withinTest(r.filter, { end: end(e), ports }), display: within(r.filter, endpointDisplay(e)) },
          };
      })(),
      new Set([1, 2, 3, 4, 5, 6]),
    );
  return tableHtml(
    `${layer} conversations${filter}: ${count}`,
    ['A', 'B', 'Frames A → B', 'Bytes A → B', 'Frames B → A', 'Bytes B → A', 'Start (s)', 'Duration (s)'],
    (function* () {
      for (const c of r.rows)
        yield {
          cells: [
            end(c.a),
            end(c.b),
            String(c.aToB.frames),
            String(c.aToB.bytes),
            String(c.bToA.frames),
            String(c.bToA.bytes),
            c.start.toFixed(6),
            c.duration.toFixed(6),
          ],
          filter: { test: withinTest(r.filter, { pair: [end(c.a), end(c.b)], ports }), display: within(r.filter, pairDisplay(c.a, c.b)) },
        };
    })(),
    new Set([2, 3, 4, 5, 6, 7]),
  );
}

/**
 * The statistics section of the page: the charts that have data, in order, then the servers'
 * table, the RCON password guessers and the protocol hierarchy. `packets`: the page holds packets for a click to show
 * (`gamequery stats -F html` holds none: a click shows the display filter alone).
 */
export function chartsHtml(stats: PageStats, packets = true): string {
  return [...chartsHtmlPieces(stats, packets)].join('');
}

/**
 * {@link chartsHtml} in pieces, the tables a row each, made as the output takes them: a scan of
 * 150 000 servers made its servers' table as one string of 70 MB, and the page's peak RSS was
 * 1.1 GB (docs/performance.md).
 */
export function* chartsHtmlPieces(stats: PageStats, packets = true): Generator<string> {
  // The charts are small and drawn now (an empty one is left out); the tables come as they are written.
  const parts: (string | Iterable<string>)[] = [];
  const io = stats.io;
  if (io) {
    const step = io.interval > 0 ? `${num(io.interval)} s` : 'the whole capture';
    const filter = stats.ioFilter ?? '';
    parts.push(ioSvg(`Requests and replies per ${step}, all servers${filter.trim() ? ` (filter: ${filter})` : ''}`, io.rows, filter));
    for (const s of io.servers) parts.push(ioSvg(`${formatEndpoint(s.server)} (${s.protocol})`, s.rows, filter, s.server));
  }
  // Each server's report read once and kept as the tables show it (a scan's 150 000, made as they are read).
  const servers = stats.servers && shownReport(stats.servers);
  if (servers) parts.push(rttSvg(servers));
  if (stats.sources) {
    parts.push(sourcesSvg("Top sources by requests (± a count's possible overstatement)", stats.sources.sources, (s) => s.requests, 'src'));
    parts.push(
      sourcesSvg('Sources sent the most reply bytes (where reflected replies go)', stats.sources.byReplyBytes, (s) => s.replyBytes, 'dst'),
    );
  }
  if (servers?.servers.length) parts.push(serversTable(servers));
  if (stats.sources) parts.push(guessersTable(stats.sources));
  if (stats.phs) parts.push(phsTable(stats.phs));
  for (const c of stats.conversations ?? []) parts.push(conversationTable(c));
  if (stats.expert?.items.length) parts.push(expertTable(stats.expert));
  const charts = parts.filter((p) => p !== '');
  if (!charts.length) return;
  const hint = packets
    ? 'A click on a bar, an interval or a row shows the packets it counts; its display filter (for <code>-Y</code>) is shown above the list.'
    : 'This page holds no packets: a click on a bar, an interval or a row shows the display filter that selects its packets, for <code>gamequery dissect -Y</code>.';
  yield `<section id="stats" aria-label="Statistics"><p class="hint">${hint}</p>`;
  for (const part of charts) {
    if (typeof part === 'string') yield part;
    else yield* part;
  }
  yield '</section>\n';
}
