/**
 * Per-server statistics taken in the first pass alone (`gamequery stats`, `-q -z stats`
 * without a display filter): what stats/servers.ts counts of each record, counted of each
 * frame as the first pass reads it, from its facts and its payload, without a second read
 * and without a record. A capture of any length, and a pipe, in the memory of the first
 * pass and one small state per server.
 *
 * The record a frame would make is told as the renderer tells it (record-maker.ts: the layout
 * the pairer settled, or `rawRecognition` for a datagram it could not use); a reply counts
 * as it arrives, its request's outcome with it (answered, round-trip time); a request is
 * counted unanswered unless a reply answered it, which by the end of the input is so.
 * Player counts and host names are read from the replies that state them, in frame order.
 */
import { samp, type CodecOptions, type ProtocolSet } from '@gamequery/codec';
import type { ProtocolName } from '../packet-record.ts';
import { rconDenies, rconPassword } from './rcon.ts';
import { FragmentWire } from '../net/fragment-wire.ts';
import {
  DECODED,
  RESPONSE,
  TIMED,
  Why,
  isUnmatched,
  kindOf,
  layoutAt,
  layoutNumber,
  layoutOf,
  numberReader,
  objectList,
  whyOf,
  type InternalQueryLayout as QueryLayout,
} from '@gamequery/codec/internal';
import { formatIPv4, formatIPv6 } from '../net/address.ts';
import type { FrameInput } from '../net/types.ts';
import type { Located } from '../net/decoder.ts';
import { frameLayers, writeFrameChain, type Reassembled } from '../net/layers.ts';
import type { ProtocolHierarchy } from './phs.ts';
import { CaptureParser } from '../capture/reader.ts';
import type { CaptureError, CaptureItem } from '../capture/types.ts';
import { linkOptions, recordOptions } from '../dissect.ts';
import { newStats, type DissectOptions, type DissectStats } from '../options.ts';
import { FirstPass } from '../pairing/first-pass.ts';
import { rawRecognition, recognitionOf } from '../record-maker.ts';
import { captureStart, noteStart } from '../start.ts';
import type { Conversations } from './conversations.ts';
import { SourceStats, type SourcesReport } from './sources.ts';
import { ServerTable } from './server-table.ts';
import type { IoStats } from './io.ts';
import {
  countReplyIn,
  countRequestIn,
  messageState,
  reportOf,
  reportRowsOf,
  statedFields,
  type StatedFields,
  type MessageState,
  ServerState,
  type StatsReport,
  type StatsRows,
} from './servers.ts';

/** The message of a datagram recognised as its protocol's but as no message of it. */
const UNKNOWN = 'unknown';

/** How a layout states a server's player count (read off the bytes) and its name (the value's property). */
interface Stated {
  readonly players: ((bytes: Uint8Array) => number | undefined) | undefined;
  readonly hostname: string | undefined;
}

/**
 * A server's slots before its first message (never written to: a longer array replaces it).
 * The same kind of array as the slots that replace it: frozen, it was another, and reading a
 * server's slot (every datagram) went through V8's generic keyed load, 1.4 % of `stats`.
 */
const NO_SLOTS = objectList<MessageState | undefined>();

/**
 * A server state, with the requests that decoded (answered or not, by the end), and the
 * last reply that stated its name, kept as bytes (its layout, and where its payload lies in
 * {@link NameBytes}) and read once, at the end: most replies only change the count.
 */
class Filed extends ServerState {
  decoded = 0;
  named: QueryLayout | undefined = undefined;
  /** Where its name's reply is kept in the name bytes, the room there (none until a reply names it: a scan's silent servers hold none), and the reply's length. */
  nameAt = 0;
  nameRoom = 0;
  nameLength = 0;
  /** Its messages' states by slot (see {@link Counted.slot}): what `messages` holds by name, found without looking. */
  bySlot: (MessageState | undefined)[] = NO_SLOTS;
}

/** Bytes a page of {@link NameBytes} holds (a UDP payload is at most 65 527). */
const NAME_PAGE = 1 << 20;

/**
 * The replies that name the servers, kept until the end, in pages of 1 MiB shared by every
 * server: a reply takes its own length, and a longer one later new room half as large again
 * (the old room left). A buffer of its own for each server (64 bytes at least) was an array
 * buffer per server for the collector to track: 4 % of `gamequery stats`' profile on a scan of
 * 150 000 servers (and the buffer each server's address was written into, to be made text, 13 %).
 */
class NameBytes {
  readonly #pages: Uint8Array[] = [];
  /** Where the next room begins in the last page. */
  #at = NAME_PAGE;

  /** Room for `length` bytes (at least): where it begins. */
  room(length: number): number {
    if (this.#at + length > NAME_PAGE) {
      this.#pages.push(new Uint8Array(NAME_PAGE));
      this.#at = 0;
    }
    const at = (this.#pages.length - 1) * NAME_PAGE + this.#at;
    this.#at += length;
    return at;
  }

  set(at: number, bytes: Uint8Array): void {
    this.#pages[Math.floor(at / NAME_PAGE)]!.set(bytes, at % NAME_PAGE);
  }

  get(at: number, length: number): Uint8Array {
    const from = at % NAME_PAGE;
    return this.#pages[Math.floor(at / NAME_PAGE)]!.subarray(from, from + length);
  }
}

/** A server's address as bytes, for its text (one buffer for all: read at once). */
const ADDRESS = new Uint8Array(16);
const ADDRESS_VIEW = new DataView(ADDRESS.buffer);

/** What counting a frame needs of its layout, worked out once per layout (by its number), not per frame. */
interface Counted {
  readonly layout: QueryLayout;
  readonly protocol: ProtocolName;
  /** The protocol's number (from 1), part of a server's key. */
  readonly protocolNumber: number;
  /** Its message's slot in each server's `bySlot`. */
  readonly slot: number;
  /** Whether it states the player count and host name as key/value pairs (a Minecraft full stat). */
  readonly byKey: boolean;
  /** How it states them otherwise (null: not at all); read from the declaration when a reply first asks. */
  stated: Stated | null | undefined;
}

/** Per-server statistics counted by the first pass, frame by frame (see the module comment); `report()` at the end. */
export class FirstPassStats {
  readonly first: FirstPass;
  readonly stats: DissectStats;
  readonly #codec: CodecOptions;
  /** Servers, in the order first seen, and their indexes by protocol, port, address family and address. */
  readonly #servers: Filed[] = [];
  readonly #table = new ServerTable();
  /** By layout number. */
  readonly #counted: (Counted | undefined)[] = [];
  readonly #protocolNumbers = new Map<string, number>();
  readonly #slots = new Map<string, number>();
  #packets = 0;
  /** Who is asking (`-z sources`), when asked for. */
  readonly sources: SourceStats | undefined;
  /** The frame lengths of fragments held, for the wire bytes of their datagram. */
  readonly #fragments = new FragmentWire();
  /** The replies that name the servers. */
  readonly #names = new NameBytes();

  /** The rate over time (`-z io,stat`), when asked for. */
  readonly io: IoStats | undefined;
  /** The protocols recognised (what the record maker would recognise of a datagram the pairer could not use). */
  readonly #protocols: ProtocolSet;
  /** Where those protocols' replies state a server's player count and name. */
  readonly #stated: StatedFields;

  /** The protocol hierarchy (`-z io,phs`), when asked for. */
  readonly phs: ProtocolHierarchy | undefined;

  /** Conversations and endpoints (`-z conv`, `-z endpoints`), when asked for. */
  readonly conversations: readonly Conversations[];

  constructor(
    options: DissectOptions,
    stats: DissectStats,
    sources?: SourceStats,
    io?: IoStats,
    phs?: ProtocolHierarchy,
    conversations: readonly Conversations[] = [],
  ) {
    this.phs = phs;
    this.conversations = conversations;
    this.#protocols = recognitionOf(options).set;
    this.#stated = statedFields(options.protocols);
    this.stats = stats;
    this.sources = sources;
    this.io = io;
    // Nothing is rendered: no RCON request is decoded for the secrets its replies may echo.
    this.first = new FirstPass({ ...linkOptions(options), secrets: false }, stats);
    const charset = recordOptions(options).charset;
    this.#codec = charset ? { charset } : {};
  }

  /** Takes one captured frame: paired, then counted. */
  push(frame: FrameInput): void {
    const first = this.first;
    first.push(frame);
    const stats = this.stats;
    if (stats.frames++ === 0) {
      noteStart(stats, frame.timestamp);
      this.io?.origin(first.time);
    }
    const at = first.located!;
    const wire = frame.originalLength ?? frame.data.length;
    this.io?.frame(first.time, wire);
    let protocol: ProtocolName | undefined;
    if (!at.found) {
      const reason = at.skipped.reason;
      stats.skipped[reason] = (stats.skipped[reason] ?? 0) + 1;
      if (reason === 'fragment') this.#fragments.hold(frame.index, wire);
    } else {
      stats.udp++;
      protocol = this.#count(
        frame.index,
        at.truncated,
        Math.max(0, at.udpLength - 8),
        this.#fragments.total(at.fragments, frame.index, wire),
      );
    }
    if (this.phs) this.#hierarchy(frame, at, protocol, wire);
    if (this.conversations.length) this.#conversations(frame, at, wire);
    // Nothing renders here: facts go as soon as they are final.
    while (first.size && first.isFinal(first.first)) first.drop();
  }

  /**
   * A frame in the protocol hierarchy, as its record would put it there (`frame.protocols`): its
   * layers' chain, then its query protocol, or `data` for another UDP payload with bytes.
   */
  #hierarchy(frame: FrameInput, at: Located, protocol: ProtocolName | undefined, wire: number): void {
    const chain = writeFrameChain(frame.linkType, frame.data, undefined, reassembledOf(at));
    const word = protocol ?? (at.found && this.first.payload.length ? 'data' : undefined);
    this.phs!.add(word ? `${chain}:${word}` : chain, wire, frame.data.length < wire);
  }

  /** A frame in the conversation and endpoint tables: its IP and UDP headers read again (what its record would say). */
  #conversations(frame: FrameInput, at: Located, wire: number): void {
    const { ip, udp } = frameLayers(frame.linkType, frame.data, false, reassembledOf(at));
    const start = captureStart(this.stats);
    for (const c of this.conversations) c.addFrame(ip, udp, wire, frame.timestamp, start);
  }

  /** The input ended: every request still waiting is unanswered. */
  finish(): void {
    this.first.finish();
    while (this.first.size) this.first.drop();
  }

  report(): StatsReport {
    return reportOf(this.#settled(), this.#packets);
  }

  /** {@link report} with each server's report made as it is read, once (a scan's 150 000, written as they come): read it before another frame comes. */
  reportRows(): StatsRows {
    return reportRowsOf(this.#settled(), this.#packets);
  }

  /** The servers, their unanswered requests and names as of now (the names read from the bytes kept of the last reply that stated one). */
  #settled(): Filed[] {
    const all = this.#servers;
    for (const s of all) {
      s.unanswered = s.decoded - s.answered;
      if (s.named) {
        const stated = this.#statedBy(this.#countedOf(layoutNumber(s.named)));
        const hostname = this.#stated.namedBy(s.named, this.#names.get(s.nameAt, s.nameLength), this.#codec, stated?.hostname);
        if (hostname !== undefined) s.hostname = hostname;
      }
    }
    return all;
  }

  #statedBy(c: Counted): Stated | null {
    if (c.stated !== undefined) return c.stated;
    const layout = c.layout;
    const name = (abbrevs: readonly string[]): string | undefined => {
      const f = layout.fields.find((x) => 'name' in x && 'abbrev' in x && abbrevs.includes(x.abbrev as string));
      return f && 'name' in f ? (f.name as string) : undefined;
    };
    const players = name(this.#stated.players);
    const hostname = name(this.#stated.hostname);
    const read = players === undefined ? undefined : numberReader(layout, players, this.#codec);
    return (c.stated = read || hostname ? { players: read, hostname } : null);
  }

  /** What counting needs of layout number `n`. */
  #countedOf(n: number): Counted {
    return this.#counted[n] ?? this.#newCounted(n);
  }

  #newCounted(n: number): Counted {
    const layout = layoutAt(n);
    const c: Counted = {
      layout,
      protocol: layout.protocol,
      protocolNumber: this.#protocolNumber(layout.protocol),
      slot: this.#slot(layout.message),
      byKey: this.#stated.statesByKey(layout.id),
      stated: undefined,
    };
    while (this.#counted.length <= n) this.#counted.push(undefined);
    this.#counted[n] = c;
    return c;
  }

  #protocolNumber(protocol: string): number {
    let p = this.#protocolNumbers.get(protocol);
    if (p === undefined) this.#protocolNumbers.set(protocol, (p = this.#protocolNumbers.size + 1));
    return p;
  }

  #slot(message: string): number {
    let slot = this.#slots.get(message);
    if (slot === undefined) this.#slots.set(message, (slot = this.#slots.size));
    return slot;
  }

  /** Counts a frame's datagram: `bytes` its UDP payload's length (as its header says), `wire` the frame's. Its query protocol; undefined for none. */
  #count(frame: number, truncated: boolean, bytes: number, wire: number): ProtocolName | undefined {
    const first = this.first;
    const facts = first.pairer.facts;
    const payload = first.payload;
    const info = facts.info(frame);
    const kind = kindOf(info);
    let protocol: ProtocolName;
    let c: Counted | undefined;
    let response: boolean;
    let malformed: boolean;
    if (kind === DECODED) {
      c = this.#countedOf(layoutOf(info));
      protocol = c.protocol;
      response = (info & RESPONSE) !== 0;
      // Cut by the capture, or a server's malformed reply that its request's key named (the pairer measured it).
      malformed = truncated ? c.layout.measure(payload, this.#codec) < 0 : first.pairer.malformed;
    } else {
      const r = rawRecognition(payload, {}, this.#codec, this.#protocols);
      if (!r) {
        this.stats.nonGame++;
        return undefined;
      }
      protocol = r.protocol;
      c = r.layout ? this.#countedOf(layoutNumber(r.layout)) : undefined;
      response = r.direction === 'response';
      malformed = !c || c.layout.measure(payload, this.#codec) < 0;
    }
    this.stats.game++;
    this.#packets++;
    const s = this.#server(c ? c.protocolNumber : this.#protocolNumber(protocol), protocol, response);
    if (malformed) s.malformed++;
    const layout = c?.layout;
    const message = c ? (s.bySlot[c.slot] ?? this.#message(s, c.slot, c.layout.message)) : this.#message(s, this.#slot(UNKNOWN), UNKNOWN);
    const sources = this.sources;
    const e = first.endpoints;
    if (!response) {
      countRequestIn(s, message, bytes, wire);
      if (kind === DECODED) s.decoded++;
      this.io?.request(first.time, s, bytes, wire);
      if (sources) {
        sources.request(e.src, e.v6, layout ? layout.message : UNKNOWN, bytes, wire);
        if (layout === samp.rconRequest && !malformed) sources.rconRequest(e.src, e.v6, rconPassword(payload, this.#codec));
      }
      return protocol;
    }
    countReplyIn(s, message, bytes, wire);
    let answers = false;
    let requestAt: number | undefined;
    if (kind === DECODED) {
      const why = whyOf(info);
      if (why === Why.duplicate) s.duplicates++;
      else if (isUnmatched(why)) {
        if (why === Why.late) s.late++;
        else s.unmatched++;
      } else {
        const request = facts.link(frame);
        // The first reply answers its request (an RCON request's later lines do not again).
        if (facts.holds(request) && facts.link(request) === frame) {
          answers = true;
          requestAt = facts.time(frame);
          s.answered++;
          if (info & TIMED) s.rtt.add((first.time - facts.time(frame)) / 1e9);
        }
      }
    }
    this.io?.reply(first.time, s, bytes, wire, requestAt);
    if (sources) {
      sources.reply(e.dst, e.v6, answers, bytes, wire);
      if (layout === samp.rconResponse && !malformed && rconDenies(payload, this.#codec)) sources.rconDenied(e.dst, e.v6);
    }
    if (c) this.#state(s, c, payload, malformed);
    return protocol;
  }

  /** Who is asking, as counted so far. */
  sourcesReport(): SourcesReport | undefined {
    return this.sources?.report();
  }

  /** The player count and host name a reply states (what of them a malformed one has before its cut). */
  #state(s: Filed, c: Counted, payload: Uint8Array, malformed: boolean): void {
    const layout = c.layout;
    if (c.byKey) {
      // As key/value pairs (a Minecraft full stat): the count read off the bytes, the name kept as for any other.
      if (malformed) {
        const byKey = this.#stated.byKey(layout.id, layout.annotate(payload, this.#codec).partial);
        if (byKey.players !== undefined && (s.players === null || byKey.players > s.players)) s.players = byKey.players;
        if (byKey.hostname !== undefined) {
          s.hostname = byKey.hostname;
          s.named = undefined;
        }
        return;
      }
      const players = this.#stated.playersByKey(layout, payload);
      if (players !== undefined && (s.players === null || players > s.players)) s.players = players;
      this.#keep(s, layout, payload);
      return;
    }
    const stated = this.#statedBy(c);
    if (!stated) return;
    const players = stated.players?.(payload);
    if (players !== undefined && (s.players === null || players > s.players)) s.players = players;
    if (stated.hostname === undefined) return;
    if (malformed) {
      // Cut short: what it has of a name now (its bytes cannot be read again as a whole message).
      const v = layout.annotate(payload, this.#codec).partial as Record<string, unknown> | undefined;
      const hostname = v?.[stated.hostname];
      if (typeof hostname === 'string') {
        s.hostname = hostname;
        s.named = undefined;
      }
      return;
    }
    this.#keep(s, layout, payload);
  }

  /** A whole reply that names the server: its bytes kept, to be read at the end if no later reply names it. */
  #keep(s: Filed, layout: QueryLayout, payload: Uint8Array): void {
    if (s.nameRoom < payload.length) {
      s.nameRoom = Math.max(payload.length, Math.ceil(1.5 * s.nameRoom));
      s.nameAt = this.#names.room(s.nameRoom);
    }
    this.#names.set(s.nameAt, payload);
    s.nameLength = payload.length;
    s.named = layout;
  }

  /** The state of the frame's server: the destination of a request, the source of a reply. */
  #server(protocolNumber: number, protocol: ProtocolName, response: boolean): Filed {
    const e = this.first.endpoints;
    const address = response ? e.src : e.dst;
    const port = response ? e.srcPort : e.dstPort;
    // By protocol, port and family, then the IPv4 address, or a 52-bit hash of the IPv6 one
    // (two servers on one port sharing one: a chance of 2^-52).
    let a: number, b: number;
    if (!e.v6) {
      a = address[0]!;
      b = 0;
    } else {
      let h = 0x811c9dc5,
        g = 0x9e3779b1;
      for (let i = 0; i < 4; i++) {
        h = Math.imul(h ^ address[i]!, 16777619);
        g = Math.imul(g ^ address[i]! ^ (h >>> 15), 0x5bd1e995);
      }
      a = h;
      b = g & 0xfffff;
    }
    const group = (protocolNumber << 17) | (port << 1) | (e.v6 ? 1 : 0);
    const i = this.#table.find(group, a, b);
    return i >= 0 ? this.#servers[i]! : this.#newServer(group, a, b, protocol, port, address, e.v6);
  }

  #newServer(group: number, a: number, b: number, protocol: ProtocolName, port: number, address: Uint32Array, v6: boolean): Filed {
    for (let i = 0; i < (v6 ? 4 : 1); i++) ADDRESS_VIEW.setUint32(4 * i, address[i]!);
    const ip = v6 ? formatIPv6(ADDRESS, 0) : formatIPv4(ADDRESS, 0);
    const s = new Filed(ip, port, protocol);
    this.#table.add(group, a, b, this.#servers.length);
    this.#servers.push(s);
    return s;
  }

  /** Message `message`'s state at server `s`, in slot `slot`. */
  #message(s: Filed, slot: number, message: string): MessageState {
    const m = messageState(s, message);
    // As long as it needs, not pushed to (an array pushed to takes room for 17).
    if (s.bySlot.length <= slot) s.bySlot = Array.from({ length: slot + 1 }, (_, i) => s.bySlot[i]);
    s.bySlot[slot] = m;
    return m;
  }
}

/** What {@link captureStats} found: the report, and the error that stopped reading a damaged capture. */
export interface CaptureStats {
  readonly report: StatsReport;
  readonly error?: CaptureError;
}

/** Where {@link captureStats} stops before the input ends: after `frames` frames (tshark's `-c` with nothing written), `reached` called then. */
export interface StatsLimit {
  readonly frames: number;
  /** The limit was reached: what feeds the input (a live capture, a pipe) may be stopped. */
  readonly reached?: () => void;
}

/**
 * The per-server statistics of a pcap or pcapng capture, read once and streamed (a file's
 * chunks, a pipe): the first pass alone, in its memory. `pass` counts into `pass.stats`
 * as it goes; `each` is called after every chunk (a progress line, a live clock); `limit`
 * ends it after that many frames, as if the input ended there (a request whose reply comes later is unanswered).
 */
export async function captureStats(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions = {},
  pass: FirstPassStats = new FirstPassStats(options, newStats()),
  each?: () => void,
  limit?: StatsLimit,
): Promise<CaptureStats> {
  const parser = new CaptureParser(options.capture);
  let left = limit ? limit.frames : Infinity;
  const take = (items: Iterable<CaptureItem>): CaptureError | undefined => {
    for (const item of items) {
      if (item.kind === 'error') return item;
      pass.push(item);
      if (--left === 0) return undefined;
    }
    return undefined;
  };
  const ended = (error: CaptureError | undefined): CaptureStats => {
    pass.finish();
    // Made when first read (the input is over: the servers' states change no more), so that a caller
    // that writes the pass's rows as they come (`reportRows`) never holds them all.
    let report: StatsReport | undefined;
    return {
      get report(): StatsReport {
        return (report ??= pass.report());
      },
      ...(error ? { error } : {}),
    };
  };
  for await (const chunk of source) {
    const error = take(parser.push(chunk));
    each?.();
    if (left === 0) limit?.reached?.();
    if (error || left === 0) return ended(error);
  }
  return ended(take(parser.finish()));
}

/** What a frame completed, as its layers are read with it: the datagram its fragments made, if any. */
function reassembledOf(at: Located): Reassembled | undefined {
  return at.found && at.fragments
    ? { fragments: at.fragments, length: at.udpLength, srcPort: at.srcPort, dstPort: at.dstPort, udpLength: at.udpLength }
    : undefined;
}
