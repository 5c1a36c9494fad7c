/**
 * tshark's conversation and endpoint tables (`-z conv,TYPE[,FILTER]`, `-z endpoints,TYPE[,FILTER]`)
 * for IPv4 (`ip`), IPv6 (`ipv6`) and UDP (`udp`): who talked with whom, how much each way, from
 * when and for how long; and each address (with UDP, each address and port) with what it sent
 * and received. The figures are tshark 4.0's, and so is the layout (ui/cli/tap-iousers.c and
 * tap-endpoints.c, v4.0.17).
 *
 * As tshark counts them:
 * - an IP conversation counts every frame with a whole IPv4 (IPv6) header, by its length on the
 *   wire: every IPv4 fragment, but of IPv6 fragments only one that completes a datagram (tshark's
 *   IPv6 tap is not reached by the others); a UDP one every frame whose UDP header was read whole, so a datagram
 *   reassembled from fragments once, as the frame that completed it (its length, not the datagram's);
 * - a conversation is the two ends in either order (with UDP, each with its port); its A end is
 *   the source of its first frame, `->` the frames from A to B, `<-` those from B to A; its start
 *   is that first frame's time since the capture's first frame, its duration until its last;
 * - the rows go by frames, most first; rows with as many frames keep the order they began in.
 *
 * Memory grows with the conversations (or endpoints): each is a key and seven numbers, some 130
 * bytes. A flood from spoofed sources makes one per source; tshark's own tables do the same.
 */
import { timestampDifference, type Timestamp } from '../capture/timestamp.ts';
import { FrameRecord, type DissectedRecord } from '../frame-record.ts';
import { ipv4Number } from '../filter/addresses.ts';
import type { IpFacts, UdpFacts } from '../net/layers.ts';
import { Packet } from '../packet-record.ts';

/** The tables: conversations or endpoints. */
export type ConversationTable = 'conv' | 'endpoints';
/** The layers they are counted at, by tshark's names. */
export type ConversationType = 'ip' | 'ipv6' | 'udp';

/** One end: an address, with a UDP port for `udp`. */
export interface ConversationEnd {
  readonly address: string;
  readonly port?: number;
}

/** Frames and their bytes on the wire (`frame.len`). */
export interface Traffic {
  readonly frames: number;
  readonly bytes: number;
}

/** A conversation: its two ends, the traffic each way, its start (seconds since the first frame) and duration. */
export interface ConversationRow {
  readonly a: ConversationEnd;
  readonly b: ConversationEnd;
  /** From A to B (tshark's `->`). */
  readonly aToB: Traffic;
  /** From B to A (tshark's `<-`). */
  readonly bToA: Traffic;
  readonly start: number;
  readonly duration: number;
}

/** An endpoint: what it sent (`tx`) and received (`rx`). */
export interface EndpointRow extends ConversationEnd {
  readonly frames: number;
  readonly bytes: number;
  readonly tx: Traffic;
  readonly rx: Traffic;
}

/** The table of `-z conv,TYPE` or `-z endpoints,TYPE`: its filter (empty: none) and rows, most frames first. */
export type ConversationReport =
  | { readonly table: 'conv'; readonly type: ConversationType; readonly filter: string; readonly rows: readonly ConversationRow[] }
  | { readonly table: 'endpoints'; readonly type: ConversationType; readonly filter: string; readonly rows: readonly EndpointRow[] };

/** {@link ConversationReport} with its rows made as they are read (once), and how many there are. */
export type ConversationRows =
  | {
      readonly table: 'conv';
      readonly type: ConversationType;
      readonly filter: string;
      readonly count: number;
      readonly rows: Iterable<ConversationRow>;
    }
  | {
      readonly table: 'endpoints';
      readonly type: ConversationType;
      readonly filter: string;
      readonly count: number;
      readonly rows: Iterable<EndpointRow>;
    };

/** `conv,udp`, `endpoints,ip,FILTER` (tshark's syntax): the table, the type and the filter (empty for none); undefined otherwise. */
export function parseConversations(
  arg: string,
): { readonly table: ConversationTable; readonly type: ConversationType; readonly filter: string } | undefined {
  const m = /^(conv|endpoints),(ip|ipv6|udp)(?:,(.*))?$/.exec(arg);
  return m ? { table: m[1] as ConversationTable, type: m[2] as ConversationType, filter: m[3] ?? '' } : undefined;
}

/** What a frame counts as at one layer: its two ends. */
interface Ends {
  src: string;
  dst: string;
  srcPort: number;
  dstPort: number;
}

/** A frame's ends at `type`'s layer from its IP and UDP facts, where tshark's tap for that layer would see it; else undefined. */
function endsOfLayers(ip: IpFacts | undefined, udp: UdpFacts | undefined, type: ConversationType): Ends | undefined {
  if (!ip || ip.src === undefined || ip.dst === undefined) return undefined;
  if (type !== 'udp') {
    if ((ip.version === 6) !== (type === 'ipv6')) return undefined;
    // tshark's IPv6 tap is not reached by a fragment that completes no datagram (its IPv4 tap is).
    return ip.version === 6 && ip.fragment ? undefined : { src: ip.src, dst: ip.dst, srcPort: 0, dstPort: 0 };
  }
  // A UDP header the snapshot length cut (even its checksum alone) stops tshark's UDP dissector before its tap.
  return udp && !udp.truncated ? { src: ip.src, dst: ip.dst, srcPort: udp.srcPort, dstPort: udp.dstPort } : undefined;
}

/** A record's ends at `type`'s layer (see {@link endsOfLayers}). */
function endsOf(p: DissectedRecord, type: ConversationType): Ends | undefined {
  if (p instanceof FrameRecord) return endsOfLayers(p.layers.ip, p.layers.udp, type);
  // A query message: a UDP datagram with its IP header whole (a bare payload of a hex dump has no frame).
  if (!(p instanceof Packet) || p.linkType === undefined) return undefined;
  const v6 = p.src.ip.includes(':');
  if (type === 'ip' ? v6 : type === 'ipv6' ? !v6 : false) return undefined;
  return type === 'udp'
    ? { src: p.src.ip, dst: p.dst.ip, srcPort: p.src.port, dstPort: p.dst.port }
    : { src: p.src.ip, dst: p.dst.ip, srcPort: 0, dstPort: 0 };
}

/** Seconds from `start` to `t` as tshark's `nstime_to_sec` makes them: whole seconds plus nanoseconds / 1e9, in a double. */
function relativeSeconds(t: Timestamp, start: Timestamp): number {
  const text = timestampDifference(t, start);
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const seconds = Number(whole) + Number(fraction.padEnd(9, '0').slice(0, 9)) / 1e9;
  return negative ? -seconds : seconds;
}

/**
 * An end's key: an IPv4 address and port as three UTF-16 units (the address's halves, the port),
 * 32 bytes in V8 where its text was some 80 with the map's flattening of it; another address as
 * `ADDRESS PORT ` (never three units long, nor six).
 */
function endKey(address: string, port: number): string {
  const ip = ipv4Number(address);
  return ip === undefined ? `${address} ${port} ` : String.fromCharCode(Math.floor(ip / 65536), ip % 65536, port);
}

/** A row's key back into its end, or its two ends (a conversation's, in the key's order). */
function splitKey(key: string, pair: boolean): [ConversationEnd, ConversationEnd?] {
  if (key.length === (pair ? 6 : 3)) {
    const end = (at: number): ConversationEnd => {
      const ip = key.charCodeAt(at) * 65536 + key.charCodeAt(at + 1);
      return { address: `${ip >>> 24}.${(ip >>> 16) & 255}.${(ip >>> 8) & 255}.${ip & 255}`, port: key.charCodeAt(at + 2) };
    };
    return pair ? [end(0), end(3)] : [end(0)];
  }
  const [x, xp, y, yp] = key.split(' ') as [string, string, string, string];
  return pair
    ? [
        { address: x, port: Number(xp) },
        { address: y, port: Number(yp) },
      ]
    : [{ address: x, port: Number(xp) }];
}

/** Numbers kept per row: frames and bytes A→B (sent), B→A (received), first and last time, and whether A is its key's first end. */
const WIDTH = 7;

/**
 * Counts the records shown into one table ({@link add}, or {@link addFrame} without records) and
 * reports it ({@link report}; {@link conversationLines} writes it as tshark does, {@link lines} too
 * without making a row object each: a flood's table has a row per spoofed source).
 *
 * A row is its key in a map (its two ends in a fixed order, see {@link endKey}; the map keeps
 * the order the rows began) and seven numbers in one array: some 130 bytes a row.
 */
export class Conversations {
  /** Row number by key: an end's key ({@link endKey}) for an endpoint; two (higher port first, or lower address) for a conversation. */
  readonly #rows = new Map<string, number>();
  #numbers = new Float64Array(WIDTH * 64);

  constructor(
    readonly table: ConversationTable,
    readonly type: ConversationType,
    readonly filter = '',
  ) {}

  /** A record shown; `start`: the capture's first frame's time (a conversation's start counts from it). */
  add(p: DissectedRecord, start: Timestamp | null | undefined): void {
    const ends = endsOf(p, this.type);
    if (ends) this.#frame(ends, (p as Packet | FrameRecord).frameLength ?? 0, (p as Packet | FrameRecord).timestamp, start);
  }

  /**
   * A frame read without a record (the first pass of statistics alone): its layers' IP and UDP
   * facts (the UDP header of the datagram it completes, if reassembled), its length on the wire and time.
   */
  addFrame(
    ip: IpFacts | undefined,
    udp: UdpFacts | undefined,
    wire: number,
    t: Timestamp | null,
    start: Timestamp | null | undefined,
  ): void {
    const ends = endsOfLayers(ip, udp, this.type);
    if (ends) this.#frame(ends, wire, t, start);
  }

  #frame(ends: Ends, bytes: number, t: Timestamp | null, start: Timestamp | null | undefined): void {
    const time = t && start ? relativeSeconds(t, start) : 0;
    const src = endKey(ends.src, ends.srcPort);
    const dst = endKey(ends.dst, ends.dstPort);
    if (this.table === 'endpoints') {
      this.#count(src, true, bytes, time, 1);
      this.#count(dst, false, bytes, time, 1);
      return;
    }
    // tshark's order of the two ends for the key: the higher port first, or for equal ports the lower address.
    const srcFirst = ends.srcPort !== ends.dstPort ? ends.srcPort > ends.dstPort : ends.src <= ends.dst;
    const key = srcFirst ? src + dst : dst + src;
    // A new conversation's A end is its first frame's source: that frame goes A to B, and later ones from the same end.
    this.#count(key, srcFirst, bytes, time, srcFirst ? 1 : 0);
  }

  /** One frame into row `key`: from its key's first end (`first`) or its second; `aFirst` says which is A in a new row. */
  #count(key: string, first: boolean, bytes: number, time: number, aFirst: number): void {
    let row = this.#rows.get(key);
    let n = this.#numbers;
    if (row === undefined) {
      row = this.#rows.size;
      this.#rows.set(key, row);
      if (WIDTH * (row + 1) > n.length) {
        const bigger = new Float64Array(n.length * 2);
        bigger.set(n);
        this.#numbers = n = bigger;
      }
      n[WIDTH * row + 4] = time;
      n[WIDTH * row + 5] = time;
      n[WIDTH * row + 6] = aFirst;
    }
    const at = WIDTH * row;
    const fromA = first === (n[at + 6] === 1);
    const side = at + (fromA ? 0 : 2);
    n[side]!++;
    n[side + 1]! += bytes;
    if (time > n[at + 5]!) n[at + 5] = time;
    else if (time < n[at + 4]!) n[at + 4] = time;
  }

  /** The rows' numbers, most frames first, and among as many frames in the order they began (as tshark's passes). */
  #order(): Uint32Array {
    const n = this.#numbers;
    const count = this.#rows.size;
    const frames = (i: number): number => n[WIDTH * i]! + n[WIDTH * i + 2]!;
    let most = 0;
    for (let i = 0; i < count; i++) most = Math.max(most, frames(i));
    const order = new Uint32Array(count);
    if ((most + 1) * count < 2 ** 53) {
      // One exact number per row sorts them, natively: fewer frames later, then a later row later.
      const keys = new Float64Array(count);
      for (let i = 0; i < count; i++) keys[i] = (most - frames(i)) * count + i;
      keys.sort();
      for (let i = 0; i < count; i++) order[i] = keys[i]! % count;
    } else {
      for (let i = 0; i < count; i++) order[i] = i;
      order.sort((x, y) => frames(y) - frames(x) || x - y);
    }
    return order;
  }

  /** The ends of each row, by row number: the keys split (made as the rows are walked). */
  *#walk(): Generator<{ readonly row: number; readonly a: ConversationEnd; readonly b: ConversationEnd | undefined }> {
    const keys = [...this.#rows.keys()];
    const n = this.#numbers;
    const port = this.type === 'udp';
    const end = (e: ConversationEnd): ConversationEnd => (port ? e : { address: e.address });
    const conv = this.table === 'conv';
    for (const row of this.#order()) {
      const [x, y] = splitKey(keys[row]!, conv);
      if (y === undefined) yield { row, a: end(x), b: undefined };
      else if (n[WIDTH * row + 6] === 1) yield { row, a: end(x), b: end(y) };
      else yield { row, a: end(y), b: end(x) };
    }
  }

  report(): ConversationReport {
    const r = this.rows();
    return r.table === 'conv'
      ? { table: 'conv', type: r.type, filter: r.filter, rows: [...r.rows] }
      : { table: 'endpoints', type: r.type, filter: r.filter, rows: [...r.rows] };
  }

  /**
   * {@link report} with its rows made as they are read, once, and their number: what the command
   * line writes as JSON and into the page without holding a flood's millions of row objects.
   */
  rows(): ConversationRows {
    const n = this.#numbers;
    const traffic = (at: number): Traffic => ({ frames: n[at]!, bytes: n[at + 1]! });
    const head = { type: this.type, filter: this.filter, count: this.#rows.size };
    const walk = this.#walk();
    if (this.table === 'endpoints')
      return {
        table: 'endpoints',
        ...head,
        rows: (function* () {
          for (const { row, a } of walk) {
            const at = WIDTH * row;
            yield { ...a, frames: n[at]! + n[at + 2]!, bytes: n[at + 1]! + n[at + 3]!, tx: traffic(at), rx: traffic(at + 2) };
          }
        })(),
      };
    return {
      table: 'conv',
      ...head,
      rows: (function* () {
        for (const { row, a, b } of walk) {
          const at = WIDTH * row;
          yield { a, b: b!, aToB: traffic(at), bToA: traffic(at + 2), start: n[at + 4]!, duration: n[at + 5]! - n[at + 4]! };
        }
      })(),
    };
  }

  /** {@link conversationLines} of {@link report}, a row at a time (no report made). */
  *lines(): Generator<string> {
    const n = this.#numbers;
    yield* heading(this.table, this.type, this.filter);
    for (const { row, a, b } of this.#walk()) {
      const at = WIDTH * row;
      yield b === undefined
        ? endpointLine(a, n[at]!, n[at + 1]!, n[at + 2]!, n[at + 3]!)
        : conversationLine(a, b, n[at]!, n[at + 1]!, n[at + 2]!, n[at + 3]!, n[at + 4]!, n[at + 5]! - n[at + 4]!);
    }
    yield RULE;
  }
}

/** tshark's names of the layers, as its tables' titles say them. */
const TITLE: Record<ConversationType, string> = { ip: 'IPv4', ipv6: 'IPv6', udp: 'UDP' };

/**
 * A size as tshark 4.0 writes one in a conversation (wsutil's `format_size`, SI, in the C
 * locale): `9447 bytes` below ten thousand, else whole thousands, millions… from ten of them
 * (`2755 kB`, `12 MB`), cut, not rounded.
 */
export function formatSize(bytes: number): string {
  for (const [unit, power] of [
    ['TB', 1e12],
    ['GB', 1e9],
    ['MB', 1e6],
    ['kB', 1e3],
  ] as const) {
    if (Math.floor(bytes / power) >= 10) return `${Math.floor(bytes / power)} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * `x` with `places` decimals as C's printf writes it: the nearest, and of two as near (the
 * double exactly halfway, as 0.03125 is) the even one, where JavaScript's `toFixed` takes the
 * larger.
 */
export function printfFixed(x: number, places: number): string {
  const rounded = x.toFixed(places);
  // Only a double near halfway can be exactly halfway: the rest round alike.
  const scaled = Math.abs(x) * 10 ** places;
  if (Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) return rounded;
  const exact = Math.abs(x).toFixed(100);
  const dot = exact.indexOf('.');
  if (!/^50*$/.test(exact.slice(dot + 1 + places))) return rounded;
  const down = exact.slice(0, dot + 1 + places).replace(/\.$/, '');
  const last = down.charCodeAt(down.length - 1) - 48;
  return last % 2 === 0 ? `${x < 0 ? '-' : ''}${down}` : rounded;
}

const RULE = '='.repeat(80);

/** A table's lines before its rows: a rule, the title and filter, the column headings. */
function* heading(table: ConversationTable, type: ConversationType, filter: string): Generator<string> {
  const ports = type === 'udp';
  yield RULE;
  yield `${TITLE[type]} ${table === 'conv' ? 'Conversations' : 'Endpoints'}`;
  yield `Filter:${filter || '<No Filter>'}`;
  if (table === 'endpoints') {
    yield `                       |  ${ports ? 'Port  ||  ' : ''}Packets  | |  Bytes  | | Tx Packets | | Tx Bytes | | Rx Packets | | Rx Bytes |`;
    return;
  }
  const indent = ports ? ' '.repeat(12) : '';
  yield `${indent}                                               |       <-      | |       ->      | |     Total     |    Relative    |   Duration   |`;
  yield `${indent}                                               | Frames  Bytes | | Frames  Bytes | | Frames  Bytes |      Start     |              |`;
}

const pad = (n: number, width: number): string => String(n).padStart(width);
const endText = (e: ConversationEnd): string => (e.port === undefined ? e.address : `${e.address}:${e.port}`);

/** An endpoint's line: the address (and port), all it sent and received, then each. */
function endpointLine(e: ConversationEnd, txFrames: number, txBytes: number, rxFrames: number, rxBytes: number): string {
  const port = e.port === undefined ? '' : `${pad(e.port, 5)}     `;
  return (
    `${e.address.padEnd(20)}      ${port}${pad(txFrames + rxFrames, 6)}     ${pad(txBytes + rxBytes, 9)}     ` +
    `${pad(txFrames, 6)}       ${pad(txBytes, 9)}      ${pad(rxFrames, 6)}       ${pad(rxBytes, 9)}   `
  );
}

/** A conversation's line: its ends, B to A (`<-`), A to B (`->`), the total, its start and duration. */
function conversationLine(
  a: ConversationEnd,
  b: ConversationEnd,
  abFrames: number,
  abBytes: number,
  baFrames: number,
  baBytes: number,
  start: number,
  duration: number,
): string {
  const width = a.port === undefined ? 20 : 26;
  const cell = (frames: number, bytes: number): string => `  ${pad(frames, 6)} ${formatSize(bytes).padEnd(9)}`;
  return (
    `${endText(a).padEnd(width)} <-> ${endText(b).padEnd(width)}${cell(baFrames, baBytes)}${cell(abFrames, abBytes)}` +
    `${cell(abFrames + baFrames, abBytes + baBytes)}  ${printfFixed(start, 9).padStart(14)}   ${printfFixed(duration, 4).padStart(12)}`
  );
}

/** The table as tshark prints it: a rule, the title and filter, the column headings, a row a line, a rule. */
export function* conversationLines(r: ConversationReport): Generator<string> {
  yield* heading(r.table, r.type, r.filter);
  if (r.table === 'endpoints') for (const e of r.rows) yield endpointLine(e, e.tx.frames, e.tx.bytes, e.rx.frames, e.rx.bytes);
  else
    for (const c of r.rows) yield conversationLine(c.a, c.b, c.aToB.frames, c.aToB.bytes, c.bToA.frames, c.bToA.bytes, c.start, c.duration);
  yield RULE;
}
