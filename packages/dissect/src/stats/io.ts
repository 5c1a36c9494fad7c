/**
 * The rate over time (`-z io,stat,INTERVAL`, tshark's syntax): per interval of capture time,
 * the frames and their bytes (tshark's own columns), and the query traffic — requests,
 * replies, how many of the interval's requests were answered, and bytes each way — in total
 * and for each server (the first {@link MAX_SERVERS} seen; the rest are in the total and
 * counted as omitted). An interval with no traffic is a row of zeros. Memory: seven numbers
 * per interval per series, whatever the traffic.
 */
import { timestampDifference, type Timestamp } from '../capture/timestamp.ts';
import type { Endpoint } from '../net/types.ts';
import type { ProtocolName } from '../packet-record.ts';

/** Servers given a series of their own, at most. */
export const MAX_SERVERS = 16;

/** Intervals a series holds at most (56 MiB each): past it an interval too short for the capture is an error, not a slow death. */
export const MAX_INTERVALS = 1 << 20;

/** `-z io,stat`'s interval is too short for the capture: more than {@link MAX_INTERVALS} rows. */
export class IoIntervalError extends Error {
  constructor(
    readonly interval: number,
    readonly seconds: number,
  ) {
    super(
      `-z io,stat,${interval}: the capture runs past ${seconds.toFixed(3)} s, more than ${MAX_INTERVALS} intervals of ${interval} s; choose a longer interval`,
    );
    this.name = 'IoIntervalError';
  }
}

const COLUMNS = 7;
const FRAMES = 0,
  BYTES = 1,
  REQUESTS = 2,
  REPLIES = 3,
  ANSWERED = 4,
  REQUEST_BYTES = 5,
  REPLY_BYTES = 6;

/** One interval's counts. */
export interface IoRow {
  /** Seconds since the capture's first frame: the interval's start and end (the last ends at the last frame). */
  readonly start: number;
  readonly end: number;
  /** Every frame in the interval (as tshark counts them) and their bytes on the wire. */
  readonly frames: number;
  readonly bytes: number;
  readonly requests: number;
  readonly replies: number;
  /** Requests sent in the interval that got a reply (whenever it came). */
  readonly answered: number;
  /** UDP payload bytes of the requests and of the replies in the interval. */
  readonly requestBytes: number;
  readonly replyBytes: number;
}

/** What {@link IoStats.report} returns. */
export interface IoReport {
  /** The interval in seconds (0: the whole capture as one). */
  readonly interval: number;
  /** Seconds from the first frame to the last. */
  readonly duration: number;
  readonly rows: readonly IoRow[];
  /** Per server (its frames and bytes: its query datagrams'), the first ones seen. */
  readonly servers: readonly { readonly server: Endpoint; readonly protocol: ProtocolName; readonly rows: readonly IoRow[] }[];
  /** Servers seen past {@link MAX_SERVERS}: in the total rows only. */
  readonly serversOmitted: number;
}

/** Growable columns of counts, by interval. */
class Series {
  counts = new Float64Array(COLUMNS * 64);
  length = 0;

  /** Neighbouring intervals summed in pairs: the series at twice the interval. */
  coarsen(): void {
    const half = Math.ceil(this.length / 2);
    const c = this.counts;
    for (let i = 0; i < half; i++)
      for (let k = 0; k < COLUMNS; k++)
        c[COLUMNS * i + k] = c[COLUMNS * 2 * i + k]! + (2 * i + 1 < this.length ? c[COLUMNS * (2 * i + 1) + k]! : 0);
    c.fill(0, COLUMNS * half, COLUMNS * this.length);
    this.length = half;
  }

  /** Where interval `i`'s counts start in `counts` (made room for). */
  row(i: number): number {
    if (i >= this.length) {
      if (COLUMNS * (i + 1) > this.counts.length) {
        let size = this.counts.length;
        while (size < COLUMNS * (i + 1)) size *= 2;
        const grown = new Float64Array(size);
        grown.set(this.counts);
        this.counts = grown;
      }
      this.length = i + 1;
    }
    return COLUMNS * i;
  }
}

/** The server a series is for. */
export interface IoServer {
  readonly ip: string;
  readonly port: number;
  readonly protocol: ProtocolName;
}

/** Counts by interval, fed frame by frame (times in nanoseconds since the capture's first frame). */
export class IoStats {
  readonly #total = new Series();
  /** Each server's series; null for one seen past {@link MAX_SERVERS} (counted in the total only). */
  readonly #servers = new Map<IoServer, Series | null>();
  #omitted = 0;
  #last = 0;
  /**
   * The interval of the latest frame counted: one earlier in time (a capture of two
   * interfaces) counts in it, as in tshark. (A request's answer counts in its request's own
   * time's interval, so in such a capture the answered share of an interval can pass 100 %.)
   */
  #current = 0;
  /** The time the times given count from, in their clock: the capture's first frame's. */
  #origin = 0;
  /** The interval in nanoseconds (0: one interval). */
  #ns: number;
  /** Seconds; doubles when `maxRows` is set and the capture outgrows them. */
  interval: number;

  /**
   * `interval` in seconds, as tshark takes it (`1`, `0.5`, `0`: the whole capture). With
   * `maxRows` (a chart's), the interval doubles whenever the capture would need more than that
   * many (neighbours summed): any length of capture in the same few rows.
   */
  constructor(
    interval: number,
    readonly maxRows?: number,
  ) {
    this.interval = interval;
    this.#ns = Math.round(interval * 1e9);
  }

  /**
   * The capture's first frame is at `t` of the clock the times are given in (the first pass
   * counts from the start of its first frame's second); by default 0.
   */
  origin(t: number): void {
    this.#origin = t;
  }

  /** The time last given to {@link #index} and its interval: a frame's request or reply asks again for the frame's. */
  #lastT = NaN;
  #lastI = 0;

  #index(t: number): number {
    if (t === this.#lastT) return this.#lastI;
    const i = this.#indexOf(t);
    this.#lastT = t;
    return (this.#lastI = i);
  }

  #indexOf(t: number): number {
    t -= this.#origin;
    if (t > this.#last) this.#last = t;
    let i = this.#ns > 0 ? Math.max(this.#current, Math.floor(t / this.#ns)) : 0;
    while (this.maxRows !== undefined && i >= this.maxRows) {
      this.#coarsen();
      i = Math.max(this.#current, Math.floor(t / this.#ns));
    }
    if (i >= MAX_INTERVALS) throw new IoIntervalError(this.interval, t / 1e9);
    return (this.#current = i);
  }

  /** Twice the interval: every series' neighbours summed. */
  #coarsen(): void {
    this.#lastT = NaN;
    this.#ns *= 2;
    this.interval *= 2;
    this.#current = Math.floor(this.#current / 2);
    this.#total.coarsen();
    for (const s of this.#servers.values()) s?.coarsen();
  }

  /** The interval of a request's time, for its answer: not moved on to the current one. */
  #at(t: number): number {
    // Never past the current interval (its reply's): a request comes before its reply.
    return this.#ns > 0 ? Math.min(this.#current, Math.max(0, Math.floor((t - this.#origin) / this.#ns))) : 0;
  }

  /** A frame at `t` that is not counted (a column filter did not pass it): the intervals still run to it. */
  seen(t: number): void {
    t -= this.#origin;
    if (t > this.#last) this.#last = t;
  }

  #series(server: IoServer): Series | undefined {
    let s = this.#servers.get(server);
    if (s === undefined) {
      s = this.#servers.size >= MAX_SERVERS ? null : new Series();
      if (!s) this.#omitted++;
      this.#servers.set(server, s);
    }
    return s ?? undefined;
  }

  /** A frame at `t`, `wire` bytes long. */
  frame(t: number, wire: number): void {
    const total = this.#total;
    const r = total.row(this.#index(t));
    total.counts[r + FRAMES]!++;
    total.counts[r + BYTES]! += wire;
  }

  /** A request to `server` at `t` (its frame counted with {@link frame}). */
  request(t: number, server: IoServer, bytes: number, wire: number): void {
    const i = this.#index(t);
    const total = this.#total;
    const r = total.row(i);
    total.counts[r + REQUESTS]!++;
    total.counts[r + REQUEST_BYTES]! += bytes;
    const s = this.#series(server);
    if (!s) return;
    const q = s.row(i);
    const c = s.counts;
    c[q + FRAMES]!++;
    c[q + BYTES]! += wire;
    c[q + REQUESTS]!++;
    c[q + REQUEST_BYTES]! += bytes;
  }

  /** A reply from `server` at `t`; `requestAt`: the time of the request it is the first reply to. */
  reply(t: number, server: IoServer, bytes: number, wire: number, requestAt: number | undefined): void {
    const i = this.#index(t);
    const total = this.#total;
    const r = total.row(i);
    total.counts[r + REPLIES]!++;
    total.counts[r + REPLY_BYTES]! += bytes;
    const s = this.#series(server);
    if (s) {
      const q = s.row(i);
      const c = s.counts;
      c[q + FRAMES]!++;
      c[q + BYTES]! += wire;
      c[q + REPLIES]!++;
      c[q + REPLY_BYTES]! += bytes;
    }
    if (requestAt === undefined) return;
    const a = this.#at(requestAt);
    total.counts[total.row(a) + ANSWERED]!++;
    if (s) s.counts[s.row(a) + ANSWERED]!++;
  }

  /** Interval `i` of a series; its end is `duration` at the latest. */
  #row(s: Series, i: number, duration: number): IoRow {
    const at = (c: number): number => (i < s.length ? s.counts[COLUMNS * i + c]! : 0);
    return {
      start: this.#ns > 0 ? (i * this.#ns) / 1e9 : 0,
      end: this.#ns > 0 ? Math.min(((i + 1) * this.#ns) / 1e9, duration) : duration,
      frames: at(FRAMES),
      bytes: at(BYTES),
      requests: at(REQUESTS),
      replies: at(REPLIES),
      answered: at(ANSWERED),
      requestBytes: at(REQUEST_BYTES),
      replyBytes: at(REPLY_BYTES),
    };
  }

  /** Total rows handed out by {@link closed} so far. */
  #emitted = 0;

  /**
   * The total's intervals that ended since the last call (a frame came after them): what a live
   * capture writes as it goes. Their answered counts are as they stand (a request answered
   * after its interval closed is counted in the report, not here).
   */
  closed(): IoRow[] {
    const out: IoRow[] = [];
    for (; this.#ns > 0 && this.#emitted < this.#current; this.#emitted++) out.push(this.#row(this.#total, this.#emitted, Infinity));
    return out;
  }

  report(): IoReport {
    const duration = this.#last / 1e9;
    const n = this.#ns > 0 ? Math.floor(this.#last / this.#ns) + 1 : 1;
    const rows = (s: Series): IoRow[] => Array.from({ length: n }, (_, i) => this.#row(s, i, duration));
    return {
      interval: this.interval,
      duration,
      rows: rows(this.#total),
      servers: [...this.#servers].flatMap(([server, s]) =>
        s ? [{ server: { ip: server.ip, port: server.port }, protocol: server.protocol, rows: rows(s) }] : [],
      ),
      serversOmitted: this.#omitted,
    };
  }
}

/** Nanoseconds from `start` to `t`, exactly (for a capture shorter than 104 days). */
export function nanosecondsSince(t: Timestamp, start: Timestamp): number {
  return secondsToNs(timestampDifference(t, start));
}

/** Exact seconds as text (`1.000871`) in nanoseconds. */
export function secondsToNs(d: string): number {
  const negative = d.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? d.slice(1) : d).split('.');
  const ns = Number(whole) * 1e9 + Number(fraction.padEnd(9, '0').slice(0, 9));
  return negative ? -ns : ns;
}

/** An `-z io,stat,INTERVAL[,FILTER]` argument, as tshark takes it; undefined if it is none. */
export function parseIoStat(arg: string): { readonly interval: number; readonly filter?: string } | undefined {
  const m = /^io,stat,([0-9]*\.?[0-9]+)(?:,(.*))?$/.exec(arg);
  if (!m) return undefined;
  const interval = Number(m[1]);
  if (!Number.isFinite(interval) || interval < 0) return undefined;
  return m[2] !== undefined && m[2] !== '' ? { interval, filter: m[2] } : { interval };
}
