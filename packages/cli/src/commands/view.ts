/**
 * How `gamequery dissect` shows traffic (tshark's habits): summary lines or the tree,
 * a display filter (`-Y`), statistics (`-z stats`, `-z sources`), packets hidden (`-q`).
 * The options and the choices they make; dissect.ts does the reading and writing.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { PROTOCOL_LIST, integer } from '../args.ts';
import {
  Conversations,
  ExpertStats,
  FilterError,
  IoStats,
  ONLY_PROTOCOLS,
  parseConversations,
  parseExpert,
  expertLines,
  type ExpertReport,
  type ConversationRows,
  ProtocolHierarchy,
  ServerStats,
  SourceStats,
  compileFilter,
  isFrameRecord,
  parseIoStat,
  parsePhs,
  phsLines,
  renderIoTable,
  renderSourcesTable,
  statsTableLines,
  type DisplayFilter,
  type DissectedRecord,
  type IoReport,
  type PhsReport,
  type SourcesReport,
  type StatsReport,
  type StatsRows,
  type Timestamp,
} from '@gamequery/dissect';

/** Sources guessing the RCON password named on stderr, one line each (the most refused first). */
const GUESSERS_NAMED = 10;

export interface ViewOpts {
  format?: 'text' | 'json' | 'ndjson' | 'html';
  verbose?: boolean;
  /** tshark's -O: the protocols whose subtrees the tree shows. */
  onlyProtocols?: string[];
  summary?: boolean;
  displayFilter?: string;
  stat: string[];
  /** `--by source`: who is asking too (`-z sources`). */
  by?: 'server' | 'source';
  /** `--top N`: sources and networks listed. */
  top?: number;
  quiet?: boolean;
  field: string[];
  showSecrets?: boolean;
  /** tshark's -T. */
  outputType?: 'fields' | 'text' | 'json';
  /** tshark's -E, parsed. */
  fieldOption?: FieldOpts;
  hex?: boolean;
}

/** `-E` settings of `-T fields`, as tshark names them. */
export interface FieldOpts {
  header?: boolean;
  separator?: string;
  occurrence?: 'f' | 'l' | 'a';
  aggregator?: string;
  quote?: 'd' | 's' | 'n';
}

/** What each packet is written as. */
export type View = 'summary' | 'tree' | 'json' | 'ndjson' | 'html' | 'fields';

/** `-O a,b`: tshark's protocol abbreviations, each one `-O` knows (a usage error otherwise, with the list). */
export function onlyProtocols(value: string): string[] {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !ONLY_PROTOCOLS.includes(n));
  if (!names.length || unknown.length)
    throw new InvalidArgumentError(
      `${unknown.length ? `no protocol ${unknown.map((n) => `"${n}"`).join(', ')}` : 'no protocol named'}: -O takes ${ONLY_PROTOCOLS.join(', ')}, comma-separated`,
    );
  return names;
}

/** `-E name=value`, checked and collected (tshark's spellings). */
export function collectFieldOption(value: string, previous: FieldOpts = {}): FieldOpts {
  const eq = value.indexOf('=');
  const name = eq < 0 ? value : value.slice(0, eq);
  const v = eq < 0 ? '' : value.slice(eq + 1);
  const bad = (expected: string): never => {
    throw new InvalidArgumentError(`-E ${name}=${v}: expected ${expected}`);
  };
  switch (name) {
    case 'header':
      if (v !== 'y' && v !== 'n') bad('y or n');
      return { ...previous, header: v === 'y' };
    case 'separator':
    case 'aggregator':
      if (v === '') bad('a character, /t (tab) or /s (space)');
      return { ...previous, [name]: v };
    case 'occurrence':
      if (v !== 'f' && v !== 'l' && v !== 'a') bad('f (first), l (last) or a (all)');
      return { ...previous, occurrence: v as 'f' | 'l' | 'a' };
    case 'quote':
      if (v !== 'd' && v !== 's' && v !== 'n') bad('d (double), s (single) or n (none)');
      return { ...previous, quote: v as 'd' | 's' | 'n' };
    default:
      throw new InvalidArgumentError(`-E ${value}: the settings are header, separator, occurrence, aggregator and quote`);
  }
}

export const VIEW_HELP = `
Output: one summary line per packet (frame, seconds since the first frame, source →
destination, protocol, message length, info), on a terminal, piped or redirected alike,
as tshark prints them; -V prints each packet's tree instead, -x adds the hex pane (to
either). JSON with -F json (or -T json), one line per packet with -F ndjson; -F text is
the tree (as it always was).
Fields (-e NAME, repeatable; -T fields): one line per packet, the values tab-separated
in -e order, as tshark -T fields prints them; -e takes every name -Y takes, and -E
header=y, separator=/t|/s|C, occurrence=f|l|a, aggregator=,|/s|C, quote=d|s|n as tshark.
With -V, -x or -F text, -e picks the fields of the tree instead.
Display filter (-Y): Wireshark syntax over the field names of 'gamequery fields' and
frame.number, frame.time_relative, frame.time_epoch, frame.time_delta, frame.len, frame.cap_len, ip.src,
ip.dst, ip.addr, ip.ttl, ip.len, ip.proto, ipv6.*, ipv6.hlim, ipv6.plen, udp.srcport,
udp.dstport, udp.port, udp.length, the protocols ${PROTOCOL_LIST}, and
per protocol .response_in .response_to .time .unanswered .duplicate_of .unmatched
.malformed .warning, tshark's columns _ws.col.* and expert fields (_ws.expert, its .message,
.severity and .group, _ws.malformed, samp.expert.short_list, …); e.g.
-Y 'samp.info.players > 50 && ip.src == 10.0.0.0/8', -Y '_ws.expert.severity >= warning'.
Unless --show-secrets, -Y sees RCON passwords as the output shows them: a field as its
masked text (samp.rcon.password == "********"), a protocol's bytes (frame, udp, samp
contains ...) as the hex pane shows them, each hidden byte a '*'.
-F html writes one self-contained page (no network): the packet list, the tree and the
hex pane linked both ways; at most the first 10 000 packets (choose with -Y or -c).
Statistics (after the packets; -q for them alone, or 'gamequery stats'): -z stats per server
(counts, round trips, bytes and amplification, also by message), -z sources who is asking (top
sources and networks, the sources sent the most reply bytes, RCON password guessing;
'gamequery stats --by source'), -z io,stat,INTERVAL[,FILTER] the rate over time as tshark takes
it, -z io,phs[,FILTER] the protocols in the capture (tshark's hierarchy), -z conv,TYPE[,FILTER] and
-z endpoints,TYPE[,FILTER] who talked with whom (tshark's tables; TYPE ip, ipv6 or udp), -z expert[,LEVEL]
the expert items (warnings, malformed packets) counted; with -q on a live input (-i, a pipe) each interval is written as it closes (-F ndjson: an
{"ioRow": ...} line each). -F html draws them as charts.`;

/** Adds the viewing options to `dissect` (or another command that dissects). */
export function addViewOptions(command: Command): Command {
  return command
    .option('-V, --verbose', 'print each packet as its tree (tshark -V), not as a summary line')
    .addOption(
      new Option(
        '-O, --only-protocols <protocols>',
        "as tshark -O: the tree (-V) with these protocols' subtrees alone, comma-separated (frame, eth, sll, ip, ipv6, udp, samp, vcmp, mcquery, …); every other protocol is its title line",
      ).argParser(onlyProtocols),
    )
    .option('-P, --summary', 'print summary lines (the default; with -F text, instead of the tree)')
    .option('-Y, --display-filter <filter>', 'show only the packets this display filter passes (Wireshark syntax)')
    .addOption(
      new Option(
        '-z, --stat <name>',
        'statistics after the packets (repeatable): stats (per server: counts, round trips, bytes and amplification, also by message), sources (who is asking: top sources and networks, the sources sent the most reply bytes, RCON password guessing), io,stat,INTERVAL[,FILTER] (per interval of capture time, as tshark: frames, bytes, requests, replies, answered share, bytes each way; in total and per server), io,phs[,FILTER] (the protocol hierarchy: frames and bytes of each protocol at its place, as tshark), conv,TYPE[,FILTER] and endpoints,TYPE[,FILTER] (the conversations and endpoints of tshark, TYPE ip, ipv6 or udp: frames and bytes each way, start and duration), expert[,LEVEL][,FILTER] (the expert items counted, as tshark)',
      )
        .argParser((v: string, prev: string[] = []) => {
          if (v !== 'stats' && v !== 'sources' && !parseIoStat(v) && !parsePhs(v) && !parseConversations(v) && !parseExpert(v))
            throw new Error(
              `-z ${v}: the statistics are "stats" (per server), "sources" (who is asking), "io,stat,INTERVAL[,FILTER]" (the rate over time, as tshark: seconds, 0 for the whole capture), "io,phs[,FILTER]" (the protocol hierarchy, as tshark), "conv,TYPE[,FILTER]", "endpoints,TYPE[,FILTER]" (tshark's conversations and endpoints; TYPE ip, ipv6 or udp) and "expert[,error|warn|note|chat|comment][,FILTER]" (the expert items, as tshark)`,
            );
          return [...prev, v];
        })
        .default([]),
    )
    .addOption(new Option('--by <what>', "with 'gamequery stats': source adds who is asking (as -z sources)").choices(['server', 'source']))
    .option('--top <n>', 'with -z sources: how many sources and networks to list (default 20)', integer(1, 10_000))
    .option('-q, --quiet', 'no packets: only statistics (-z) and errors')
    .option('-n', 'no name resolution, as tshark -n: addresses and ports are always written as numbers (accepted for the habit)')
    .option(
      '-2',
      'two passes, as tshark -2: a file is always read in two passes, its links known before a packet is written (accepted for the habit; a pipe is read once, each packet written once its exchange settles)',
    )
    .addOption(
      new Option(
        '-T, --output-type <type>',
        "tshark's -T: fields (the -e fields, one line per packet, tab-separated), text (summary lines; the tree with -V), json",
      ).choices(['fields', 'text', 'json']),
    )
    .option(
      '-E, --field-option <name=value>',
      'with -T fields, as tshark: header=y|n, separator=/t|/s|C, occurrence=f|l|a, aggregator=,|/s|C, quote=d|s|n (repeatable)',
      collectFieldOption,
    );
}

/**
 * The view the options ask for. JSON formats are what they say; otherwise -V is the
 * tree, -e the fields (tshark's -T fields; with -V, -x or -F text the tree's), -P summary
 * lines, `-F text` the tree (what it always meant); with none of these, summary lines,
 * wherever the output goes (as tshark: `dissect x.pcap | grep 7777` greps lines, not JSON).
 */
export function chooseView(o: ViewOpts): View {
  if (o.onlyProtocols) {
    // tshark's -O is the text tree's (its JSON outputs take -j/-J): anywhere else it would be ignored, so it is refused.
    if (o.outputType === 'fields' || o.field.length) throw new Error('-O shows whole protocols in the tree; -e picks fields: choose one');
    if (o.outputType === 'json' || (o.format !== undefined && o.format !== 'text'))
      throw new Error(`-O shapes the text tree (-V): it does not apply to ${o.outputType === 'json' ? '-T json' : `-F ${o.format}`}`);
    return 'tree';
  }
  if (o.outputType === 'fields') {
    if (!o.field.length) throw new Error('-T fields: name the fields with -e (gamequery fields lists them)');
    if (o.format !== undefined || o.verbose || o.summary) throw new Error('-T fields writes its own lines: drop -F, -V and -P');
    return 'fields';
  }
  if (o.outputType === 'json') {
    if (o.format !== undefined && o.format !== 'json') throw new Error(`-T json and -F ${o.format} ask for two formats: choose one`);
    return 'json';
  }
  if (o.outputType === 'text') {
    if (o.format !== undefined && o.format !== 'text') throw new Error(`-T text and -F ${o.format} ask for two formats: choose one`);
    return o.verbose || o.field.length ? 'tree' : 'summary';
  }
  if (o.format === 'json' || o.format === 'ndjson' || o.format === 'html') return o.format;
  // -e alone is tshark's -T fields; with -V or -x (or -F text) it picks the fields of the tree, the hex pane marking their bytes.
  if (o.field.length && !o.verbose && !o.hex && !o.summary && o.format === undefined) return 'fields';
  if (o.verbose || o.field.length) return 'tree';
  if (o.summary) return 'summary';
  if (o.format === 'text') return 'tree';
  return 'summary';
}

/**
 * The display filter of `-Y`, compiled; a usage error (exit 2) with the position and the nearest names when it cannot be.
 * An empty one (`-Y ''`, as a script passes an unset variable) is no filter, as tshark takes it.
 */
export function displayFilter(o: ViewOpts): DisplayFilter | undefined {
  if (o.displayFilter === undefined || o.displayFilter.trim() === '') return undefined;
  return compiled(o.displayFilter, o, '-Y:');
}

/** A filter compiled for `what` (an option); a usage error with the position and the nearest names when it cannot be. */
function compiled(text: string, o: ViewOpts, what: string): DisplayFilter {
  try {
    return compileFilter(text, { showSecrets: !!o.showSecrets });
  } catch (e) {
    if (e instanceof FilterError) throw new Error(`${what} ${e.message}\n${e.pointer}`);
    throw e;
  }
}

/** Intervals a chart of the page draws at most (from 1 ms up, doubling as the capture needs). */
const CHART_ROWS = 120;

/** Per-server statistics that report at the end, whole or a row at a time (`FirstPassStats`, `ServerStats`). */
type StatsSource = { report(): StatsReport; reportRows(): StatsRows };

/** `-z stats` and `-z sources`: fed every packet shown, reported at the end. */
export class StatsTap {
  readonly #stats: ServerStats | undefined;
  /** Which were asked for: per server, who is asking. */
  readonly servers: boolean;
  readonly sources: boolean;
  /** `-z io,stat,…`: its interval, and the filter its counts are taken through (tshark's column filter). */
  readonly io: { readonly interval: number; readonly maxRows?: number; readonly filter?: DisplayFilter } | undefined;
  /** With an io,stat filter, the statistics it is counted in, apart from the rest. */
  readonly #io: ServerStats | undefined;
  /** The statistics taken without records (in the first pass), when they were; their report once made. */
  #pass: StatsSource | undefined;
  #report: StatsReport | undefined;
  #sourcesReport: SourcesReport | undefined;
  constructor(o: ViewOpts) {
    // The page (-F html) draws them all: the rate over time in at most CHART_ROWS intervals unless -z io,stat says.
    const page = o.format === 'html';
    this.servers = o.stat.includes('stats') || page;
    this.sources = o.stat.includes('sources') || o.by === 'source' || page;
    if (o.top !== undefined && !this.sources)
      throw new Error('--top sets how many sources and networks are listed: give it with --by source or -z sources');
    const io: { interval: number; filter?: string; maxRows?: number } | undefined =
      o.stat.map(parseIoStat).find((x) => x !== undefined) ?? (page ? { interval: 0.001, maxRows: CHART_ROWS } : undefined);
    this.io = io && {
      interval: io.interval,
      ...(io.maxRows !== undefined ? { maxRows: io.maxRows } : {}),
      ...(io.filter !== undefined ? { filter: compiled(io.filter, o, `-z io,stat,${io.interval},`) } : {}),
    };
    this.ioFilter = io?.filter ?? '';
    const ioStats = this.newIo();
    this.#io = ioStats && this.io?.filter ? new ServerStats(undefined, ioStats) : undefined;
    this.#top = o.top ?? 20;
    const phs = o.stat.map(parsePhs).find((x) => x !== undefined);
    this.phs = phs && {
      hierarchy: new ProtocolHierarchy(phs.filter),
      ...(phs.filter.trim() ? { filter: compiled(phs.filter, o, '-z io,phs,') } : {}),
    };
    this.conversations = o.stat.flatMap((arg) => {
      const c = parseConversations(arg);
      if (!c) return [];
      const table = new Conversations(c.table, c.type, c.filter);
      return [{ table, ...(c.filter.trim() ? { filter: compiled(c.filter, o, `-z ${c.table},${c.type},`) } : {}) }];
    });
    const expert = o.stat.map(parseExpert).find((x) => x !== undefined);
    this.expert = expert && {
      stats: new ExpertStats(expert.level, expert.filter),
      ...(expert.filter.trim() ? { filter: compiled(expert.filter, o, `-z expert,`) } : {}),
    };
    this.#stats =
      this.servers || this.sources || ioStats
        ? new ServerStats(this.sources ? new SourceStats(undefined, this.#top) : undefined, this.#io ? undefined : ioStats)
        : undefined;
  }

  /** `-z io,stat,INTERVAL,FILTER`: the filter its counts are taken through, as written (empty: none). */
  readonly ioFilter: string;

  /** `-z io,phs[,FILTER]`: the hierarchy, and the filter its frames pass. */
  readonly phs: { readonly hierarchy: ProtocolHierarchy; readonly filter?: DisplayFilter } | undefined;

  /** `-z conv,TYPE[,FILTER]` and `-z endpoints,TYPE[,FILTER]`, in the order given: each table, and the filter its frames pass. */
  readonly conversations: readonly { readonly table: Conversations; readonly filter?: DisplayFilter }[];

  /** `-z expert[,LEVEL][,FILTER]`: the items counted, and the filter their packets pass. */
  readonly expert: { readonly stats: ExpertStats; readonly filter?: DisplayFilter } | undefined;

  /**
   * Whether the statistics can be taken in the first pass alone (the filter of io,stat, io,phs,
   * conv or endpoints needs records).
   */
  get firstPass(): boolean {
    return (
      (this.servers || this.sources || this.io !== undefined || this.phs !== undefined || this.conversations.length > 0) &&
      !this.io?.filter &&
      !this.phs?.filter &&
      !this.conversations.some((c) => c.filter) &&
      // The expert items are a decoded message's: records.
      !this.expert
    );
  }

  /** A new rate over time for a first pass that counts without records; undefined unless asked for. */
  newIo(): IoStats | undefined {
    return this.io ? new IoStats(this.io.interval, this.io.maxRows) : undefined;
  }

  /** A new count of who is asking, for a first pass that counts without records; undefined unless asked for. */
  newSources(): SourceStats | undefined {
    return this.sources ? new SourceStats(undefined, this.#top) : undefined;
  }

  /** Sources and networks listed (`--top`). */
  readonly #top: number;

  get on(): boolean {
    return this.#stats !== undefined || this.phs !== undefined || this.conversations.length > 0 || this.expert !== undefined;
  }

  /** Whether a statistic counts every frame, with a query message or not (io,stat, io,phs, conversations). */
  get everyFrame(): boolean {
    return this.io !== undefined || this.phs !== undefined || this.conversations.length > 0;
  }

  /**
   * The filters of their own (of io,stat, io,phs, conv, endpoints, expert) that the record added last passed, as written:
   * the page marks its packet with them, so that a click on a row of such a table shows the packets it counted.
   */
  readonly passed: string[] = [];

  /** A record shown; `start`: the capture's first frame's time (io,stat counts from it). */
  add(p: DissectedRecord, start: Timestamp | null | undefined): void {
    const passed = this.passed;
    if (passed.length) passed.length = 0;
    const phs = this.phs;
    if (phs && (!phs.filter || phs.filter.matches(p, start))) {
      phs.hierarchy.addRecord(p);
      if (phs.filter) passed.push(phs.hierarchy.filter);
    }
    for (const c of this.conversations) {
      if (c.filter && !c.filter.matches(p, start)) continue;
      c.table.add(p, start);
      if (c.filter) passed.push(c.table.filter);
    }
    const expert = this.expert;
    if (expert && (!expert.filter || expert.filter.matches(p, start))) {
      expert.stats.add(p);
      if (expert.filter) passed.push(expert.stats.filter);
    }
    const stats = this.#stats;
    if (!stats) return;
    stats.start = start;
    if (isFrameRecord(p)) stats.frame(p);
    else stats.add(p);
    const io = this.#io;
    if (io) {
      io.start = start;
      if (!this.io!.filter!.matches(p, start)) io.seen(p);
      else {
        passed.push(this.ioFilter);
        if (isFrameRecord(p)) io.frame(p);
        else io.add(p);
      }
    }
  }

  /** The statistics were taken in the first pass: these are their per-server statistics (reported at the end) and their other reports. */
  use(pass: StatsSource, sources?: SourcesReport, io?: IoReport): void {
    this.#pass = pass;
    this.#sourcesReport = sources;
    this.#ioReport = io;
  }

  #ioReport: IoReport | undefined;

  /** The rate over time, with -z io,stat. */
  ioReport(): IoReport | undefined {
    if (!this.io) return undefined;
    return this.#ioReport ?? (this.#io ?? this.#stats)?.io?.report();
  }

  /** Per server, with -z stats (made once, at the end). */
  report(): StatsReport | undefined {
    if (!this.servers) return undefined;
    return (this.#report ??= (this.#pass ?? this.#stats)?.report());
  }

  /**
   * {@link report} with each server's report made as it is read, once, unless it is made
   * already: what JSON writes a row at a time (a scan's 150 000 servers are not held at once).
   */
  reportRows(): StatsRows | undefined {
    if (!this.servers) return undefined;
    return this.#report ?? (this.#pass ?? this.#stats)?.reportRows();
  }

  /** The protocol hierarchy, with -z io,phs. */
  phsReport(): PhsReport | undefined {
    return this.phs?.hierarchy.report();
  }

  /** The conversation and endpoint tables, with -z conv and -z endpoints: their rows made as they are read. */
  conversationRows(): ConversationRows[] {
    return this.conversations.map((c) => c.table.rows());
  }

  /** Who is asking, with -z sources. */
  sourcesReport(): SourcesReport | undefined {
    if (!this.sources) return undefined;
    return this.#sourcesReport ?? this.#stats?.sources?.report();
  }

  /**
   * The reports as text (headings and tables), or nothing without -z: in pieces of a line or
   * so, for the output to take as it fills (a scan's table of 150 000 servers is 44 MB of text;
   * made into one string, then into bytes, it was 180 MB at the end of the run).
   */
  *text(quiet = false): Generator<string> {
    // Each server's report made as the table reads it (unless the page or JSON made them all already).
    const r = this.reportRows();
    const sources = this.sourcesReport();
    const io = this.ioReport();
    let first = true;
    const block = function* (heading: string | undefined, lines: Iterable<string>): Generator<string> {
      yield `${quiet && first ? '' : '\n'}${heading ? `${heading}\n` : ''}`;
      first = false;
      for (const line of lines) yield `${line}\n`;
    };
    if (r) yield* block('Per-server statistics', statsTableLines(r));
    if (sources) yield* block(undefined, renderSourcesTable(sources));
    if (io) yield* block(undefined, renderIoTable(io));
    const phs = this.phsReport();
    // tshark's own layout, its blank line first (with -q too, as tshark's).
    if (phs) for (const line of phsLines(phs)) yield `${line}\n`;
    // Each row made as it is written: a flood's table has a row per spoofed source.
    for (const c of this.conversations) for (const line of c.table.lines()) yield `${line}\n`;
    const expert = this.expertReport();
    if (expert) for (const line of expertLines(expert)) yield `${line}\n`;
  }

  /** The expert items, with -z expert. */
  expertReport(): ExpertReport | undefined {
    return this.expert?.stats.report();
  }

  /**
   * Lines for stderr on the sources guessing the RCON password (never the passwords): one for each
   * of the {@link GUESSERS_NAMED} most refused, then one for the rest, which the table lists (a
   * brute force spread over a thousand addresses is a line, not a thousand).
   */
  warnings(): string[] {
    const sources = this.sourcesReport();
    const guessers = sources?.rconGuessers ?? [];
    const lines = guessers
      .slice(0, GUESSERS_NAMED)
      .map(
        (g) =>
          `${g.address} is guessing the RCON password: ${g.denied} refused of ${g.requests} RCON requests, ${g.distinctPasswords} distinct passwords (reported from ${sources!.guessingThreshold} refusals)`,
      );
    const rest = guessers.slice(GUESSERS_NAMED);
    if (rest.length) {
      const denied = rest.reduce((n, g) => n + g.denied, 0);
      lines.push(
        `${rest.length} more sources are guessing the RCON password (${denied} refused in all): each is listed under "RCON password guessing" (in JSON, sourceStats.rconGuessers)`,
      );
    }
    return lines;
  }
}
