/**
 * Per-server statistics of a dissection (`gamequery dissect -z stats`, `gamequery stats`):
 * fed the records as they come, it keeps one small state per server (address, port and
 * protocol), never one per packet, so a capture of any length is summed in memory that
 * grows only with the number of servers.
 *
 * The server of a request is its destination, of a reply its source. Player counts and
 * host names are read from the fields each protocol's declaration names (its `stated`: the
 * same values `-Y` tests), from the replies that carry them.
 */
import { builtInProtocols, samp, type CodecOptions, type ProtocolDeclaration, type QueryLayout } from '@gamequery/codec';
import { ipv4Number, ipv6Number } from '../filter/addresses.ts';
import { rconDenies, rconPassword } from './rcon.ts';
import type { SourceStats } from './sources.ts';
import { nanosecondsSince, secondsToNs, type IoStats } from './io.ts';
import type { Timestamp } from '../capture/timestamp.ts';
import type { DissectedRecord, FrameRecord } from '../frame-record.ts';
import { keyedReader } from '@gamequery/codec/internal';
import { filterFields, type FilterContext, type FilterField } from '../filter/fields.ts';
import type { Endpoint } from '../net/types.ts';
import { Packet, type PacketRecord, type ProtocolName } from '../packet-record.ts';
import { RttDigest } from './digest.ts';

/**
 * Where the protocols of a dissection state a server's player count and name (each one's
 * declared `stated`): the fields that hold them (the same values `-Y` tests), and the replies
 * that hold them as key/value pairs, not fields of their own (a Minecraft full stat), by
 * layout: the list of pairs and its keys. One per list of protocols ({@link statedFields}).
 */
export class StatedFields {
  readonly players: readonly string[];
  readonly hostname: readonly string[];
  readonly #byKey: ReadonlyMap<string, { readonly list: string; readonly players: string; readonly hostname: string }>;
  readonly #keyed = new Map<QueryLayout, { read: ReturnType<typeof keyedReader>; players: Uint8Array }>();

  constructor(protocols: readonly ProtocolDeclaration[]) {
    this.players = protocols.flatMap((p) => p.stated?.players ?? []);
    this.hostname = protocols.flatMap((p) => p.stated?.hostname ?? []);
    this.#byKey = new Map(protocols.flatMap((p) => Object.entries(p.stated?.byKey ?? {})));
  }

  /** Whether a layout states them by key (see {@link byKey}). */
  statesByKey(layout: string): boolean {
    return this.#byKey.has(layout);
  }

  /** The player count and host name a key/value reply's decoded value (or what decodes of it) states. */
  byKey(layout: string, value: unknown): { players?: number; hostname?: string } {
    const by = this.#byKey.get(layout);
    const out: { players?: number; hostname?: string } = {};
    const list = by ? (value as Record<string, unknown> | undefined)?.[by.list] : undefined;
    if (!by || !Array.isArray(list)) return out;
    for (const e of list as { key?: unknown; value?: unknown }[]) {
      if (typeof e.value !== 'string') continue;
      if (e.key === by.hostname) out.hostname = e.value;
      else if (e.key === by.players && /^\d+$/.test(e.value)) out.players = Number(e.value);
    }
    return out;
  }

  /**
   * The player count a whole key/value reply states, read off its bytes (a full stat is large:
   * decoding each one was a third of `gamequery stats` on a real mix); undefined where it states none.
   */
  playersByKey(layout: QueryLayout, bytes: Uint8Array): number | undefined {
    const by = this.#byKey.get(layout.id);
    if (!by) return undefined;
    let k = this.#keyed.get(layout);
    if (!k)
      this.#keyed.set(layout, (k = { read: keyedReader(layout, by.list), players: Uint8Array.from(by.players, (c) => c.charCodeAt(0)) }));
    const v = k.read?.(bytes, k.players);
    if (!v || v.length === 0 || v.length > 9) return undefined;
    let n = 0;
    for (const b of v) {
      if (b < 0x30 || b > 0x39) return undefined;
      n = n * 10 + b - 0x30;
    }
    return n;
  }

  /** The host name a whole reply kept as bytes states (`field`: the value's property that holds it), decoded once, at the end. */
  namedBy(layout: QueryLayout, bytes: Uint8Array, codec: CodecOptions, field: string | undefined): string | undefined {
    let v: Record<string, unknown>;
    try {
      v = layout.decode(bytes, codec).value as Record<string, unknown>;
    } catch {
      return undefined;
    }
    const hostname = this.statesByKey(layout.id) ? this.byKey(layout.id, v).hostname : field === undefined ? undefined : v[field];
    return typeof hostname === 'string' ? hostname : undefined;
  }
}

const stated = new WeakMap<readonly ProtocolDeclaration[], StatedFields>();

/** The {@link StatedFields} of a list of protocols (the built-in ones by default), made once per list. */
export function statedFields(protocols: readonly ProtocolDeclaration[] = builtInProtocols): StatedFields {
  let s = stated.get(protocols);
  if (!s) stated.set(protocols, (s = new StatedFields(protocols)));
  return s;
}

/** Requests per server remembered as timed (see ServerState.timed). */
const TIMED = 64;

/**
 * What is counted of one server (a record's, or the first pass's: see stats/first-pass.ts).
 * Its messages are a list, looked through in order: a server has a few.
 */
export class ServerState {
  /**
   * By message name, in the order first seen: its requests and replies and their bytes (a reply is filed under
   * its own layout's message). An array of its own length (a server has a few): see {@link messageState}.
   */
  messages: readonly MessageState[] = NO_MESSAGES;
  replies = 0;
  answered = 0;
  unanswered = 0;
  duplicates = 0;
  late = 0;
  unmatched = 0;
  malformed = 0;
  readonly rtt = new RttDigest();
  /**
   * The requests whose first reply was timed, the newest {@link TIMED} of them: their later
   * replies (RCON output lines) are not timed again. Bounded: a few sessions at a time. Made
   * when a record first asks (the first pass's statistics never do): an empty set a server
   * was some 150 bytes, 22 MB of a 150 000-server scan.
   */
  timed: Set<number> | undefined = undefined;
  players: number | null = null;
  hostname: string | null = null;
  /** UDP payload bytes of the requests to it and of its replies; the same as frames on the wire. */
  requestBytes = 0;
  replyBytes = 0;
  requestWireBytes = 0;
  replyWireBytes = 0;

  constructor(
    readonly ip: string,
    readonly port: number,
    readonly protocol: ProtocolName,
  ) {}
}

/** A server's messages before the first. */
const NO_MESSAGES: readonly MessageState[] = Object.freeze([]);

/** One message's traffic to and from one server. */
export interface MessageState {
  readonly name: string;
  requests: number;
  replies: number;
  requestBytes: number;
  replyBytes: number;
  requestWireBytes: number;
  replyWireBytes: number;
}

/** Message `message`'s state at server `s`, made on first use (a server has a few: looked for in order). */
export function messageState(s: ServerState, message: string): MessageState {
  for (const m of s.messages) if (m.name === message) return m;
  const m = { name: message, requests: 0, replies: 0, requestBytes: 0, replyBytes: 0, requestWireBytes: 0, replyWireBytes: 0 };
  // One longer, not pushed to: an empty array pushed to takes room for 17 (some 150 bytes a server of a scan). Nor
  // spread into a new one (`[...old, m]`), which V8 fills by pushing: room for 17 again, 23.5 MB of a 150 000-server
  // scan's 148 MB heap. `concat` makes it its length.
  s.messages = s.messages.concat([m]);
  return m;
}

/** A request to server `s`: `bytes` of UDP payload in a frame of `wire` bytes (every fragment's). */
export function countRequest(s: ServerState, message: string, bytes: number, wire: number): void {
  countRequestIn(s, messageState(s, message), bytes, wire);
}

/** A request to server `s`, counted in its message's state `m` ({@link messageState}, looked up once by a caller that keeps it). */
export function countRequestIn(s: ServerState, m: MessageState, bytes: number, wire: number): void {
  m.requests++;
  m.requestBytes += bytes;
  m.requestWireBytes += wire;
  s.requestBytes += bytes;
  s.requestWireBytes += wire;
}

/** A reply from server `s`, as {@link countRequest}. */
export function countReply(s: ServerState, message: string, bytes: number, wire: number): void {
  countReplyIn(s, messageState(s, message), bytes, wire);
}

/** A reply from server `s`, as {@link countRequestIn}. */
export function countReplyIn(s: ServerState, m: MessageState, bytes: number, wire: number): void {
  m.replies++;
  m.replyBytes += bytes;
  m.replyWireBytes += wire;
  s.replies++;
  s.replyBytes += bytes;
  s.replyWireBytes += wire;
}

/** Round-trip times in milliseconds; null where there were none. */
export interface RttSummary {
  readonly count: number;
  readonly min: number | null;
  readonly median: number | null;
  readonly p95: number | null;
  readonly max: number | null;
  /** Whether median and p95 are exact (up to 64 samples) or read from the histogram (within 0.55 %). */
  readonly exact: boolean;
  /** The times in 16 bins of equal width on a log scale, minimum to maximum: each bin's lower edge (ms) and count. */
  readonly histogram: { readonly edges: readonly number[]; readonly counts: readonly number[] };
}

/** Packet counts of one server, or of all of them. */
export interface ServerCounts {
  /** Requests by message name (`info`, `players`, `full`, …). */
  readonly requests: Readonly<Record<string, number>>;
  /** Replies from the server, every one (RCON output lines, duplicates and strays included). */
  readonly replies: number;
  /** Requests that got a reply. */
  readonly answered: number;
  readonly unanswered: number;
  /** Replies byte for byte the same as one already paired. */
  readonly duplicates: number;
  /** Replies that came after their request's timeout. */
  readonly late: number;
  /** Other replies paired with no request (another reply to an answered request, no request pending, wrong address). */
  readonly unmatched: number;
  /** Packets that did not decode (cut short or damaged). */
  readonly malformed: number;
  readonly rtt: RttSummary;
  /** Bytes each way and what the server sent back for each byte it got, as UDP payloads and as frames on the wire. */
  readonly amplification: Amplification;
  /**
   * The same by message name, with its requests and replies: which query the server answers
   * with the most bytes for each byte asked (a reply counts under its own message: `info`
   * answers `info`, an open.mp `ompbanners` reply has no request of its own name).
   */
  readonly byMessage: Readonly<Record<string, MessageCounts>>;
}

/** One message's requests, replies and {@link Amplification}. */
export interface MessageCounts extends Amplification {
  readonly requests: number;
  readonly replies: number;
}

/** Reply bytes ÷ request bytes (null without requests): the figure by which reflection risk is judged. */
export interface Amplification {
  readonly requestBytes: number;
  readonly replyBytes: number;
  readonly requestWireBytes: number;
  readonly replyWireBytes: number;
  /** replyBytes ÷ requestBytes, to 3 decimals. */
  readonly payload: number | null;
  /** replyWireBytes ÷ requestWireBytes, to 3 decimals. */
  readonly wire: number | null;
}

/** What a capture showed of one server: its counts, round-trip times, player count and hostname. */
export interface ServerReport extends ServerCounts {
  readonly server: Endpoint;
  readonly protocol: ProtocolName;
  /** The largest player count a reply stated; null if none did. */
  readonly players: number | null;
  /** The name the latest reply that states one gave (a Minecraft server's MOTD); null if none did. */
  readonly hostname: string | null;
}

/** {@link StatsReport} with its servers' reports made as they are read, once ({@link ServerStats.reportRows}). */
export interface StatsRows {
  readonly servers: Iterable<ServerReport>;
  readonly totals: StatsReport['totals'];
}

/** What {@link ServerStats.report} returns: one report per server and the totals. */
export interface StatsReport {
  /** By protocol, then address and port. */
  readonly servers: readonly ServerReport[];
  readonly totals: ServerCounts & { readonly servers: number; readonly packets: number };
}

const CONTEXT: FilterContext = { start: undefined, showSecrets: false };
const V4 = { v6: false };
const V6 = { v6: true };

/** Per-server statistics, fed one record at a time. */
export class ServerStats {
  readonly #servers = new Map<string, ServerState>();
  /** Who is asking (`-z sources`), when asked for. */
  readonly sources: SourceStats | undefined;
  /** The rate over time (`-z io,stat`), when asked for: fed every record given to {@link add} or {@link frame}. */
  readonly io: IoStats | undefined;
  readonly #words = new Uint32Array(4);
  /** The capture's first frame's time (`-z io,stat` counts from it). */
  #start: Timestamp | null | undefined;
  readonly #stated: StatedFields;
  readonly #players: readonly FilterField[];
  readonly #hostname: readonly FilterField[];
  /** The protocols' layouts by id (a record names its layout by id). */
  readonly #layouts: ReadonlyMap<string, QueryLayout>;
  #packets = 0;

  /** `protocols`: those of the dissection (the built-in ones by default), whose declarations say where servers state their players and names. */
  constructor(sources?: SourceStats, io?: IoStats, protocols: readonly ProtocolDeclaration[] = builtInProtocols) {
    this.sources = sources;
    this.io = io;
    this.#stated = statedFields(protocols);
    const fields = filterFields(protocols);
    this.#players = this.#stated.players.map((n) => fields.get(n)!);
    this.#hostname = this.#stated.hostname.map((n) => fields.get(n)!);
    this.#layouts = new Map(protocols.flatMap((p) => p.layouts as readonly QueryLayout[]).map((l) => [l.id, l]));
  }

  /** The capture's first frame's time, for `-z io,stat` (records carry absolute times). */
  set start(t: Timestamp | null | undefined) {
    this.#start = t;
  }

  /** Nanoseconds since the first frame of a record's time; undefined without times. */
  #ns(p: { readonly timestamp?: Timestamp | null }): number | undefined {
    const t = p.timestamp;
    return t && this.#start ? nanosecondsSince(t, this.#start) : undefined;
  }

  /** A frame without a query message (`allFrames`): only the frame columns of `-z io,stat` count it. */
  frame(p: FrameRecord): void {
    const t = this.#ns(p);
    if (this.io && t !== undefined) this.io.frame(t, p.frameLength);
  }

  /** A record that `-z io,stat`'s filter did not pass: its intervals still run to its time. */
  seen(p: DissectedRecord): void {
    const t = this.#ns(p as { readonly timestamp?: Timestamp | null });
    if (this.io && t !== undefined) this.io.seen(t);
  }

  add(p: PacketRecord): void {
    this.#packets++;
    const response = p.direction === 'response' || (p.direction === 'either' && p.requestIn !== undefined);
    const s = this.#server(response ? p.src : p.dst, p.protocol);
    if (p.malformed) s.malformed++;
    // The payload's length as the UDP header says it, and the frame's (a bare payload has no frame: its own length).
    const bytes = p instanceof Packet && p.udpLength !== undefined ? p.udpLength - 8 : p.payloadLength;
    const wire = (p instanceof Packet ? p.wireLength : undefined) ?? bytes;
    const sources = this.sources;
    const client = sources ? this.#client(response ? p.dst : p.src) : undefined;
    const io = this.io;
    const t = io ? this.#ns(p as Packet) : undefined;
    if (io && t !== undefined) io.frame(t, (p instanceof Packet ? p.frameLength : undefined) ?? bytes);
    if (!response) {
      countRequest(s, p.message, bytes, wire);
      if (io && t !== undefined) io.request(t, s, bytes, wire);
      if (sources && client) {
        sources.request(this.#words, client.v6, p.message, bytes, wire);
        if (p.layout === samp.rconRequest.id && !p.malformed) sources.rconRequest(this.#words, client.v6, rconPassword(p.payload, {}));
      }
      if (p.responseIn !== undefined) s.answered++;
      if (p.unanswered) s.unanswered++;
      return;
    }
    countReply(s, p.message, bytes, wire);
    const answers = p.requestIn !== undefined && p.duplicateOf === undefined && !p.unmatched && !s.timed?.has(p.requestIn);
    // The request answered was sent a response time before.
    if (io && t !== undefined)
      io.reply(t, s, bytes, wire, answers && p.responseTime !== undefined ? t - secondsToNs(p.responseTime) : undefined);
    if (sources && client) {
      sources.reply(this.#words, client.v6, answers, bytes, wire);
      if (p.layout === samp.rconResponse.id && !p.malformed && rconDenies(p.payload, {})) sources.rconDenied(this.#words, client.v6);
    }
    if (p.duplicateOf !== undefined) s.duplicates++;
    else if (p.unmatched) {
      if (p.unmatchedCause === 'late') s.late++;
      else s.unmatched++;
    } else if (p.responseTime !== undefined && !s.timed?.has(p.requestIn!)) {
      s.rtt.add(Number(p.responseTime));
      const timed = (s.timed ??= new Set());
      timed.add(p.requestIn!);
      if (timed.size > TIMED) timed.delete(timed.values().next().value!);
    }
    for (const f of this.#players) {
      for (const v of f.values(p, CONTEXT)) if (typeof v === 'number' && (s.players === null || v > s.players)) s.players = v;
    }
    for (const f of this.#hostname) {
      for (const v of f.values(p, CONTEXT))
        if (typeof v === 'string') {
          s.hostname = v;
          this.#named.delete(s);
        }
    }
    if (this.#stated.statesByKey(p.layout)) this.#byKey(s, p);
  }

  /**
   * A reply that states them as key/value pairs (a Minecraft full stat): its player count read
   * off its bytes, its bytes kept for the host name (decoded once, in the report, unless a later
   * reply names the server); what decodes of one cut short, now.
   */
  #byKey(s: ServerState, p: PacketRecord): void {
    const source = p instanceof Packet ? p.treeSource : undefined;
    const layout = source?.layout ?? this.#layouts.get(p.layout);
    if (!layout) return;
    const codec = source?.codec ?? {};
    if (source && !p.malformed) {
      const players = this.#stated.playersByKey(layout, p.payload);
      if (players !== undefined && (s.players === null || players > s.players)) s.players = players;
      this.#named.set(s, { layout, bytes: p.payload.slice(), codec });
      return;
    }
    const a = layout.annotate(p.payload, codec);
    const stated = this.#stated.byKey(p.layout, a.value ?? a.partial);
    if (stated.players !== undefined && (s.players === null || stated.players > s.players)) s.players = stated.players;
    if (stated.hostname !== undefined) {
      s.hostname = stated.hostname;
      this.#named.delete(s);
    }
  }

  /** Each server's last whole key/value reply, whose host name the report reads. */
  readonly #named = new Map<ServerState, { layout: QueryLayout; bytes: Uint8Array; codec: CodecOptions }>();

  /** A client's address as words (in `#words`); undefined for a bare payload's. */
  #client(e: Endpoint): { readonly v6: boolean } | undefined {
    if (e.ip.includes(':')) {
      const n = ipv6Number(e.ip);
      if (n === undefined) return undefined;
      for (let i = 0; i < 4; i++) this.#words[i] = Number((n >> BigInt(96 - 32 * i)) & 0xffffffffn);
      return V6;
    }
    const n = ipv4Number(e.ip);
    if (n === undefined || (n === 0 && e.port === 0)) return undefined;
    this.#words[0] = n;
    return V4;
  }

  #server(e: Endpoint, protocol: ProtocolName): ServerState {
    const key = `${protocol} ${e.ip} ${e.port}`;
    let s = this.#servers.get(key);
    if (!s) this.#servers.set(key, (s = new ServerState(e.ip, e.port, protocol)));
    return s;
  }

  report(): StatsReport {
    this.#name();
    return reportOf(this.#servers.values(), this.#packets);
  }

  /** {@link report} with each server's report made as it is read, once: read it before another record comes. */
  reportRows(): StatsRows {
    this.#name();
    return reportRowsOf(this.#servers.values(), this.#packets);
  }

  /** Each server's name, from the last reply that stated one. */
  #name(): void {
    for (const [s, n] of this.#named) s.hostname = this.#stated.namedBy(n.layout, n.bytes, n.codec, undefined) ?? s.hostname;
  }
}

/** The report of the servers' states: each server, by protocol then address and port, and the totals. */
export function reportOf(all: Iterable<ServerState>, packets: number): StatsReport {
  const rows = reportRowsOf(all, packets);
  return { servers: [...rows.servers], totals: rows.totals };
}

/**
 * {@link reportOf} with each server's report made as it is read, once: what the command line
 * writes as JSON, a row at a time (a scan's 150 000 servers' reports were 175 MB held at once,
 * and the collector's work to move them). Read before the states change again (at the end of
 * the input).
 */
export function reportRowsOf(all: Iterable<ServerState>, packets: number): StatsRows {
  const states = byServer([...all]);
  const rtt = new RttDigest();
  for (const s of states) rtt.merge(s.rtt);
  return { servers: rowsOf(states), totals: { servers: states.length, packets, ...counts(states, rtt) } };
}

/** Each state's report, made as it is asked for. */
function* rowsOf(states: readonly ServerState[]): Generator<ServerReport> {
  for (const s of states) yield serverReport(s);
}

/** One server's report. */
function serverReport(s: ServerState): ServerReport {
  return {
    server: { ip: s.ip, port: s.port },
    protocol: s.protocol,
    ...counts([s], s.rtt),
    players: s.players,
    hostname: s.hostname,
  };
}

function counts(states: readonly ServerState[], rtt: RttDigest): ServerCounts {
  const one = states.length === 1 ? states[0]! : undefined;
  // A server's own are read as they are (a scan's report is made of 150 000 of them); several are summed.
  const n = one ?? summed(states);
  // By message name: the same order whichever order the records came in. Several servers' merged by name.
  let messages: readonly MessageState[];
  if (one) messages = one.messages;
  else {
    const merged = new Map<string, MessageState>();
    for (const s of states)
      for (const m of s.messages) {
        const all = merged.get(m.name);
        if (!all) merged.set(m.name, { ...m });
        else addMessage(all, m);
      }
    messages = [...merged.values()];
  }
  const byName = messages.length > 1 ? [...messages].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : messages;
  const requests: Record<string, number> = {};
  const byMessage: Record<string, MessageCounts> = {};
  for (const m of byName) {
    if (m.requests) requests[m.name] = m.requests;
    byMessage[m.name] = {
      requests: m.requests,
      replies: m.replies,
      ...amplification(m.requestBytes, m.replyBytes, m.requestWireBytes, m.replyWireBytes),
    };
  }
  const h = rtt.histogram();
  // Its edges to the microsecond, in place (the histogram is this report's own).
  const edges = h.edges;
  for (let i = 0; i < edges.length; i++) edges[i] = Math.round(edges[i]! * 1e3) / 1e3;
  return {
    requests,
    replies: n.replies,
    answered: n.answered,
    unanswered: n.unanswered,
    duplicates: n.duplicates,
    late: n.late,
    unmatched: n.unmatched,
    malformed: n.malformed,
    rtt: {
      count: rtt.count,
      min: ms(rtt.min),
      median: ms(rtt.quantile(0.5)),
      p95: ms(rtt.quantile(0.95)),
      max: ms(rtt.max),
      exact: rtt.exact,
      histogram: { edges, counts: h.counts },
    },
    amplification: amplification(n.requestBytes, n.replyBytes, n.requestWireBytes, n.replyWireBytes),
    byMessage,
  };
}

/** A server's counts that the totals sum: its number fields but its port. */
type SummedCount = Exclude<{ [K in keyof ServerState]: ServerState[K] extends number ? K : never }[keyof ServerState], 'port'>;

/**
 * The counts of `states` summed, in one walk, each read by its name: summed by a key that
 * changed from call to call (`s[k]`, eleven walks), they were a generic load each, 0.4 s of the
 * report of a 150 000-server scan.
 */
function summed(states: readonly ServerState[]): Record<SummedCount, number> {
  const t: Record<SummedCount, number> = {
    replies: 0,
    answered: 0,
    unanswered: 0,
    duplicates: 0,
    late: 0,
    unmatched: 0,
    malformed: 0,
    requestBytes: 0,
    replyBytes: 0,
    requestWireBytes: 0,
    replyWireBytes: 0,
  };
  for (const s of states) {
    t.replies += s.replies;
    t.answered += s.answered;
    t.unanswered += s.unanswered;
    t.duplicates += s.duplicates;
    t.late += s.late;
    t.unmatched += s.unmatched;
    t.malformed += s.malformed;
    t.requestBytes += s.requestBytes;
    t.replyBytes += s.replyBytes;
    t.requestWireBytes += s.requestWireBytes;
    t.replyWireBytes += s.replyWireBytes;
  }
  return t;
}

/** Adds message state `m`'s counts to `all`'s (several servers' messages merged by name): every count, as the type says. */
function addMessage(all: MessageState, m: MessageState): void {
  const sum: Omit<MessageState, 'name'> = {
    requests: all.requests + m.requests,
    replies: all.replies + m.replies,
    requestBytes: all.requestBytes + m.requestBytes,
    replyBytes: all.replyBytes + m.replyBytes,
    requestWireBytes: all.requestWireBytes + m.requestWireBytes,
    replyWireBytes: all.replyWireBytes + m.replyWireBytes,
  };
  Object.assign(all, sum);
}

/** Seconds as milliseconds to the microsecond; null for none. */
const ms = (seconds: number): number | null => (Number.isFinite(seconds) ? Math.round(seconds * 1e6) / 1e3 : null);

/** The bytes each way and their ratios. */
export function amplification(requestBytes: number, replyBytes: number, requestWireBytes: number, replyWireBytes: number): Amplification {
  const ratio = (a: number, b: number): number | null => (b > 0 ? Math.round((a / b) * 1000) / 1000 : null);
  return {
    requestBytes,
    replyBytes,
    requestWireBytes,
    replyWireBytes,
    payload: ratio(replyBytes, requestBytes),
    wire: ratio(replyWireBytes, requestWireBytes),
  };
}

/**
 * The states by protocol (in the locale's order of their names), then address (IPv4 before
 * IPv6, IPv4 in numeric order, IPv6 in the locale's order of their text), then port. Each
 * state's key is worked out once, not in each comparison (splitting addresses and comparing
 * names by the locale for each of the 7 000 comparisons of 710 servers was a fifth of the
 * report): one number, protocol, then address and port for IPv4 (a sort of 150 000 servers
 * compares numbers), the text for IPv6.
 */
function byServer(states: ServerState[]): ServerState[] {
  const protocols = [...new Set(states.map((s) => s.protocol))].sort((a, b) => a.localeCompare(b));
  const keyed = states.map((s) => {
    const v6 = s.ip.includes(':');
    // Protocol (a handful) above 2^49; an IPv6 server above every IPv4 one of its protocol; an IPv4 one by address, then port: exact below 2^53.
    const k = protocols.indexOf(s.protocol) * 2 ** 49 + (v6 ? 2 ** 48 : v4Number(s.ip) * 2 ** 16 + s.port);
    return { s, k, v6 };
  });
  keyed.sort((a, b) => a.k - b.k || (a.v6 ? a.s.ip.localeCompare(b.s.ip) || a.s.port - b.s.port : 0));
  return keyed.map((k) => k.s);
}

/** A dotted IPv4 address as its 32-bit number. */
function v4Number(ip: string): number {
  let n = 0;
  let part = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 0x2e) {
      n = n * 256 + part;
      part = 0;
    } else part = part * 10 + c - 0x30;
  }
  return n * 256 + part;
}
