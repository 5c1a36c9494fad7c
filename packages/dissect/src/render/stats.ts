/**
 * The per-server statistics as text (`-z stats` on a terminal, `gamequery stats`) in 120
 * columns, as three tables rather than one too wide for a terminal: the counts; the round trips
 * and what the servers say of themselves (a host name longer than its column cut with `…`: JSON
 * has it whole); the requests by message, a list per server broken where it would pass the width.
 */
import { showText } from '@gamequery/codec/internal';
import { formatEndpoint } from '../net/address.ts';
import type { RttSummary, ServerCounts, ServerReport, StatsReport, StatsRows } from '../stats/servers.ts';
import type { SourceCount, SourcesReport } from '../stats/sources.ts';
import type { IoReport, IoRow } from '../stats/io.ts';

/** The width the tables are made to fit, and the most a host name is given of it. */
const WIDTH = 120;
const HOSTNAME = 40;

const COUNTS = ['Server', 'Protocol', 'Requests', 'Answered', 'Unanswered', 'Replies', 'Dup', 'Late', 'Unmatched', 'Malformed'];
const DETAILS = ['Server', 'RTT ms min/median/p95/max', 'Players', 'Hostname'];
const MESSAGES = ['Server', 'Requests by message'];
const BYTES = ['Server', 'Req bytes', 'Reply bytes', 'Amp', 'Req wire', 'Reply wire', 'Amp wire'];
const BY_MESSAGE = ['Message', 'Requests', 'Replies', ...BYTES.slice(1)];

const requestsText = (r: Readonly<Record<string, number>>): string =>
  Object.entries(r)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([m, n]) => `${m} ${n}`)
    .join(', ') || '-';
const rttText = (r: RttSummary): string =>
  r.count ? [r.min, r.median, r.p95, r.max].map((v) => v!.toFixed(3)).join('/') + (r.exact ? '' : ' ~') : '-';
/** Requests of every message, in all. */
export const requested = (r: Readonly<Record<string, number>>): number => Object.values(r).reduce((a, b) => a + b, 0);
/** Reply bytes per request byte as the tables write it (`-` without requests). */
export const ampText = (a: number | null): string => (a === null ? '-' : a.toFixed(3));
const countsRow = (c: ServerCounts): string[] => [
  String(requested(c.requests)),
  String(c.answered),
  String(c.unanswered),
  String(c.replies),
  String(c.duplicates),
  String(c.late),
  String(c.unmatched),
  String(c.malformed),
];

/**
 * How many characters `text` shows: its code points, as `[...text].length` counts them (a pair of
 * surrogates one, a lone one one), without making that array: a scan's tables measure a million cells.
 */
function chars(text: string): number {
  let n = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Rows as aligned lines under a rule; `right`: the columns aligned right (numbers). */
function table(rows: readonly (readonly string[])[], right: ReadonlySet<number>, footer: readonly string[]): string[] {
  return [...tableLines(rows[0]!, rows.length - 1, (i) => rows[i + 1]!, right, footer)];
}

/**
 * The lines of a table of `n` rows under `head`, each row made by `row` when asked (twice: once
 * for the columns' widths, once for its line), so that a table of a row per server is not held
 * whole: a scan's 150 000 rows of ten cells were 1.5 million strings at once.
 */
function* tableLines(
  head: readonly string[],
  n: number,
  row: (i: number) => readonly string[],
  right: ReadonlySet<number>,
  footer: readonly string[],
): Generator<string> {
  const widths = head.map((h, c) => Math.max(chars(h), chars(footer[c]!)));
  for (let i = 0; i < n; i++) {
    const r = row(i);
    for (let c = 0; c < widths.length; c++) widths[c] = Math.max(widths[c]!, chars(r[c]!));
  }
  const line = (r: readonly string[]): string =>
    r
      .map((cell, i) => (right.has(i) ? cell.padStart(widths[i]!) : i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  yield line(head);
  yield rule;
  for (let i = 0; i < n; i++) yield line(row(i));
  yield rule;
  yield line(footer);
}

/** `text` cut to `room` characters, the last one `…`. */
function cut(text: string, room: number): string {
  if (chars(text) <= room) return text;
  return `${[...text].slice(0, Math.max(1, room - 1)).join('')}…`;
}

/** `text` in lines of at most {@link WIDTH} characters, broken after a comma, later lines indented by `indent`. */
function wrap(text: string, indent: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of text.split(/(?<=, )/)) {
    if (line.trim() && chars(line) + chars(part) > WIDTH) {
      lines.push(line.trimEnd());
      line = ' '.repeat(indent);
    }
    line += part;
  }
  return [...lines, line];
}

/** No histogram: what a server's row keeps of its round trips' (the tables show their summary). */
const NO_HISTOGRAM: RttSummary['histogram'] = Object.freeze({ edges: Object.freeze([]), counts: Object.freeze([]) });
const NO_MESSAGES: ServerReport['byMessage'] = Object.freeze({});

/**
 * A server's report as the tables read it, several times over: without its round-trip histogram and its
 * counts by message (the tables show those of all servers only), two thirds of a report's size, so that a
 * scan's 150 000 servers are held at a third of what their reports take.
 */
const shownOf = (s: ServerReport): ServerReport => ({ ...s, rtt: { ...s.rtt, histogram: NO_HISTOGRAM }, byMessage: NO_MESSAGES });

/**
 * The report as the tables (text and the page's) read it: each server's report read once (from rows made as
 * they are read: {@link StatsRows}) and kept without what no table shows.
 */
export function shownReport(report: StatsReport | StatsRows): StatsReport {
  const servers: ServerReport[] = [];
  for (const s of report.servers) servers.push(shownOf(s));
  return { servers, totals: report.totals };
}

/** The tables' lines: the counts per server and their totals, then per server what else is known. */
export function renderStatsTable(report: StatsReport | StatsRows): string[] {
  return [...statsTableLines(report)];
}

/**
 * {@link renderStatsTable}'s lines one at a time, each table's rows made as its lines are asked
 * for (a scan's tables are 44 MB of text: the output takes them as they come).
 */
export function* statsTableLines(report: StatsReport | StatsRows): Generator<string> {
  const t = report.totals;
  const all = shownReport(report).servers;
  const servers = all.map((s) => formatEndpoint(s.server));
  yield* tableLines(COUNTS, all.length, (i) => [servers[i]!, all[i]!.protocol, ...countsRow(all[i]!)], new Set([2, 3, 4, 5, 6, 7, 8, 9]), [
    `${t.servers} server${t.servers === 1 ? '' : 's'}`,
    '',
    ...countsRow(t),
  ]);
  yield '';
  // Bytes each way and what the server sent back for each byte it got (UDP payloads, then frames on the wire).
  const bytesRow = (a: ServerCounts['amplification']): string[] => [
    String(a.requestBytes),
    String(a.replyBytes),
    ampText(a.payload),
    String(a.requestWireBytes),
    String(a.replyWireBytes),
    ampText(a.wire),
  ];
  yield* tableLines(BYTES, all.length, (i) => [servers[i]!, ...bytesRow(all[i]!.amplification)], new Set([1, 2, 3, 4, 5, 6]), [
    'all',
    ...bytesRow(t.amplification),
  ]);
  yield '';
  // The same by message, over all servers (JSON has it per server): which query is worth the most to a reflector.
  yield* table(
    [BY_MESSAGE, ...Object.entries(t.byMessage).map(([name, m]) => [name, String(m.requests), String(m.replies), ...bytesRow(m)])],
    new Set([1, 2, 3, 4, 5, 6, 7, 8]),
    ['all', String(requested(t.requests)), String(t.replies), ...bytesRow(t.amplification)],
  );
  yield '';
  // The host name gets what the other columns leave of the width: at least its heading's, at most HOSTNAME.
  const detail = (i: number, room: number): string[] => {
    const s = all[i]!;
    return [
      servers[i]!,
      rttText(s.rtt),
      s.players === null ? '-' : String(s.players),
      room > 0 ? cut(s.hostname === null ? '-' : showText(s.hostname), room) : '',
    ];
  };
  const footer = ['all', rttText(t.rtt), '', `${t.packets} packets`];
  const widths = [0, 1, 2].map((c) => Math.max(DETAILS[c]!.length, chars(footer[c]!)));
  for (let i = 0; i < all.length; i++) {
    const row = detail(i, 0);
    for (let c = 0; c < 3; c++) widths[c] = Math.max(widths[c]!, chars(row[c]!));
  }
  const others = widths.reduce((sum, w) => sum + w, 0) + 2 * (DETAILS.length - 1);
  const room = Math.min(HOSTNAME, Math.max(DETAILS[3]!.length, WIDTH - others));
  yield* tableLines(DETAILS, all.length, (i) => detail(i, room), new Set([2]), footer);
  yield '';
  // Requests by message: a list per server, broken after a comma where it would pass the width.
  const indent = servers.reduce((w, a) => Math.max(w, chars(a)), Math.max(MESSAGES[0]!.length, 'all'.length)) + 2;
  yield `${MESSAGES[0]!.padEnd(indent)}${MESSAGES[1]}`;
  for (let i = 0; i < all.length; i++) yield* wrap(`${servers[i]!.padEnd(indent)}${requestsText(all[i]!.requests)}`, indent);
  yield* wrap(`${'all'.padEnd(indent)}${requestsText(t.requests)}`, indent);
  if (all.some((s) => !s.rtt.exact) || !t.rtt.exact)
    yield '~ median and p95 from a histogram of 64 buckets per doubling: within 0.55 % of the exact values';
}

const SOURCES = ['Source', 'Requests', '±', 'Answered', 'Req bytes', 'Reply bytes', 'Amp', 'Requests by message'];

/** `n thing` or `n things`. */
const plural = (n: number, thing: string): string => `${n} ${thing}${n === 1 ? '' : 's'}`;

/** Reply bytes per request byte, as the tables write it (`-` without requests). */
const ratioText = (reply: number, request: number): string => (request > 0 ? (reply / request).toFixed(3) : '-');

/** A source's (or network's) row. */
const sourceRow = (c: SourceCount): string[] => [
  c.address,
  String(c.requests),
  c.error ? String(c.error) : '',
  String(c.answered),
  String(c.requestBytes),
  String(c.replyBytes),
  ratioText(c.replyBytes, c.requestBytes),
  requestsText(c.byMessage),
];

/**
 * Who is asking (`-z sources`): the top sources and networks by requests (± is how much a count
 * may overstate: blank is exact), then the sources guessing the RCON password.
 */
export function renderSourcesTable(report: SourcesReport): string[] {
  const right = new Set([1, 2, 3, 4, 5, 6]);
  const footer = [`${report.requests} requests`, '', '', '', '', '', '', ''];
  const out = [
    'Top sources',
    ...table([SOURCES, ...report.sources.map(sourceRow)], right, footer),
    '',
    'Top networks (IPv4 /24, IPv6 /48)',
    ...table([['Network', ...SOURCES.slice(1)], ...report.networks.map(sourceRow)], right, footer),
    `± how much a count may overstate (blank: exact); a source or network with more than ${report.threshold} requests (all ÷ ${report.capacity}) is never missed`,
    '',
    ...(report.byReplyBytes.length
      ? [
          'Sources sent the most reply bytes (where reflected replies go; Amp: reply bytes per request byte)',
          ...table([SOURCES, ...report.byReplyBytes.map(sourceRow)], right, [
            plural(report.byReplyBytes.length, 'source'),
            '',
            '',
            '',
            '',
            '',
            '',
            '',
          ]),
        ]
      : ['Sources sent the most reply bytes: none was sent any']),
    '',
  ];
  if (!report.rconGuessers.length) {
    out.push(`RCON password guessing: no source had ${report.guessingThreshold} passwords refused`);
    return out;
  }
  out.push(
    `RCON password guessing (${report.guessingThreshold} or more passwords refused)`,
    ...table(
      [
        ['Source', 'RCON requests', 'Refused', 'Distinct passwords'],
        ...report.rconGuessers.map((g) => [g.address, String(g.requests), String(g.denied), String(g.distinctPasswords)]),
      ],
      new Set([1, 2, 3]),
      [plural(report.rconGuessers.length, 'source'), '', '', ''],
    ),
  );
  return out;
}

const IO = ['Interval', 'Frames', 'Bytes', 'Requests', 'Replies', 'Answered', 'Answered %', 'Req bytes', 'Reply bytes'];

/** An interval's row: its bounds in seconds since the first frame, the counts, the share of its requests answered. */
const ioRow = (r: IoRow, places: number): string[] => [
  `${r.start.toFixed(places)} <> ${r.end.toFixed(places)}`,
  String(r.frames),
  String(r.bytes),
  String(r.requests),
  String(r.replies),
  String(r.answered),
  r.requests ? ((100 * r.answered) / r.requests).toFixed(1) : '-',
  String(r.requestBytes),
  String(r.replyBytes),
];

/** As many decimals as the interval has (at least 3), so that neighbouring bounds differ. */
const placesOf = (interval: number): number => Math.max(3, (String(interval).split('.')[1] ?? '').length);

/** Fixed widths of a live row, in {@link IO}'s order (the interval's own is made of its bounds). */
const LIVE_WIDTHS = [0, 9, 12, 9, 8, 9, 11, 11, 12];

/** The heading of rows written one at a time (a live capture), aligned as {@link ioRowLine} writes them. */
export function ioRowHeading(interval: number): string {
  const p = placesOf(interval);
  return IO.map((h, i) => (i ? h.padStart(LIVE_WIDTHS[i]!) : h.padEnd(2 * (p + 6) + 4))).join('');
}

/** One interval as a line of fixed widths: a live capture writes each as it closes. */
export function ioRowLine(row: IoRow, interval: number): string {
  const p = placesOf(interval);
  const cells = ioRow(row, p);
  return cells.map((c, i) => (i ? c.padStart(LIVE_WIDTHS[i]!) : c.padEnd(2 * (p + 6) + 4))).join('');
}

/** The rate over time (`-z io,stat`): the total by interval, then each server's. */
export function renderIoTable(report: IoReport): string[] {
  const places = placesOf(report.interval);
  const right = new Set([1, 2, 3, 4, 5, 6, 7, 8]);
  const sum = (rows: readonly IoRow[]): IoRow =>
    rows.reduce(
      (a, r) => ({
        ...a,
        frames: a.frames + r.frames,
        bytes: a.bytes + r.bytes,
        requests: a.requests + r.requests,
        replies: a.replies + r.replies,
        answered: a.answered + r.answered,
        requestBytes: a.requestBytes + r.requestBytes,
        replyBytes: a.replyBytes + r.replyBytes,
      }),
      { start: 0, end: report.duration, frames: 0, bytes: 0, requests: 0, replies: 0, answered: 0, requestBytes: 0, replyBytes: 0 },
    );
  const block = (rows: readonly IoRow[]): string[] => table([IO, ...rows.map((r) => ioRow(r, places))], right, ioRow(sum(rows), places));
  const out = [
    `IO statistics: ${report.interval > 0 ? `intervals of ${report.interval} s` : 'the whole capture'} over ${report.duration.toFixed(6)} s (seconds since the first frame)`,
    ...block(report.rows),
  ];
  for (const s of report.servers) out.push('', `${formatEndpoint(s.server)} (${s.protocol}): its query datagrams`, ...block(s.rows));
  if (report.serversOmitted)
    out.push('', `${report.serversOmitted} more server${report.serversOmitted === 1 ? '' : 's'}: in the total only`);
  return out;
}
