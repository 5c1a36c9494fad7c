/**
 * The second pass: a frame read again and its record built, its links already known
 * (pairing/first-pass.ts). Nothing waits here: a record is made when its turn in frame order
 * comes and is gone once written.
 *
 * A message whose layout the first pass settled is written by the codec's compiled JSON
 * emitter straight into a shared buffer (the fast path); one that does not decode
 * cleanly is annotated (what it could read, then a malformed item). A datagram the
 * pairer could not use is recognised here by its bytes alone.
 */
import {
  CodecError,
  UnknownOpcodeError,
  builtInProtocols,
  protocolSet,
  registryOf,
  type CodecOptions,
  type DecodeWarning,
  type Direction,
  type FieldNode,
  type PacketHint,
  type Protocol,
  type ProtocolDeclaration,
  type ProtocolSet,
  type QueryLayout,
  type RegisteredField,
} from '@gamequery/codec';
import {
  ByteSink,
  DECODED,
  RAW,
  Why,
  internals,
  isUnmatched,
  malformedNode,
  maskSecrets,
  perProtocols,
  shortTitleOf,
  unansweredReason,
  unmatchedCause,
  unmatchedReason,
  withoutStacks,
  type EmitOptions,
  type InternalQueryLayout,
  type VerdictOptions,
} from '@gamequery/codec/internal';
import { timestampDifference, type Timestamp } from './capture/timestamp.ts';
import { UdpDecoder } from './net/decoder.ts';
import { FragmentWire } from './net/fragment-wire.ts';
import type { FrameInput, UdpDatagram } from './net/types.ts';
import type { FrameFacts } from './pairing/first-pass.ts';
import { Packet, recordKind, type PacketRecord } from './packet-record.ts';
import { BLANK, FrameRecord, type DissectedRecord } from './frame-record.ts';
import type { DissectOptions, DissectStats } from './options.ts';
import { hasSecrets, shownSecrets } from './secrets.ts';
import { noteStart } from './start.ts';
import { RenderCache } from './tree-cache.ts';

const NO_WARNINGS: PacketRecord['warnings'] = Object.freeze([]);
/** Tree JSON is written into buffers of this size, shared by the records made from them. */
const ARENA_BYTES = 1 << 20;

/** Why a record was let out before its exchange was settled (one-pass input over its memory ceiling). */
export const INCOMPLETE =
  'released before its exchange was settled: the one-pass memory ceiling was reached (read a file instead of a pipe: files take two passes and never need it)';

/** Why an exchange's links may be crossed with a twin's. */
export const AMBIGUOUS =
  'an identical request from the same client to the same server was waiting at the same time: identical replies were paired first come, first served';

/** Recognition over the protocols a dissection is given, and their fields by abbreviation: made once per set. */
export const recognition = perProtocols((protocols) => ({
  set: protocolSet(protocols),
  fields: new Map(registryOf(protocols).map((f) => [f.abbrev, f])),
}));

/** {@link recognition} of the protocols `options` name (default: the built-in ones). */
export const recognitionOf = (options: DissectOptions): ReturnType<typeof recognition> =>
  recognition(options.protocols ?? builtInProtocols);

/**
 * Which frames a dissection makes records of, told by the layout a frame is read as, and what
 * the others come out as: with `needs`, those it needs (the others are BLANK, or with `unneeded:
 * 'layers'` their frame records: `layers`); with a display
 * filter that only some layouts can pass (`DisplayFilter.layouts`), those (the others are not
 * displayed: undefined). Undefined: every frame's record is made (Decode As may read a frame
 * as another layout than its facts say).
 */
export function recordsNeeded(
  options: DissectOptions,
):
  | { readonly needs: (layout: string | undefined) => boolean; readonly otherwise: typeof BLANK | undefined; readonly layers?: boolean }
  | undefined {
  if (options.decodeAs) return undefined;
  // A filter of the frame's layers alone passes a frame record as it passes the query packet: it tests the records `needs` leaves as their frames.
  if (options.filter?.layers && options.needs && options.unneeded === 'layers')
    return { needs: options.needs, otherwise: BLANK, layers: true };
  if (options.filter) {
    const passable = options.filter.layouts;
    return passable ? { needs: (layout) => layout !== undefined && passable.has(layout), otherwise: undefined } : undefined;
  }
  return options.needs ? { needs: options.needs, otherwise: BLANK, layers: options.unneeded === 'layers' } : undefined;
}

/**
 * Whether a dissection with `options` reads no datagram's message: its `needs` needs no layout,
 * and the frames it leaves come out as their frame records (`unneeded: 'layers'`): nothing is
 * recognised, and no query packet counted.
 */
function readsNoMessage(options: DissectOptions): boolean {
  const needed = recordsNeeded(options);
  return !!needed?.layers && (options.protocols ?? builtInProtocols).every((p) => p.layouts.every((l) => !needed.needs(l.id)));
}

/** The record of a captured frame without its query message; `previous`: the time of the frame before it. */
function frameRecordOf(
  input: FrameInput,
  previous: Timestamp | null | undefined,
  reason: FrameRecord['reason'],
  detail: string,
  udp?: UdpDatagram,
): FrameRecord {
  const r = new FrameRecord(
    input.index,
    input.timestamp,
    input.linkType,
    input.data,
    input.originalLength ?? input.data.length,
    reason,
    detail,
    udp,
  );
  if (input.timestamp) r.previousTimestamp = previous ?? input.timestamp;
  return r;
}

export class RecordMaker {
  readonly #options: DissectOptions;
  readonly #codec: CodecOptions;
  /** How the fast path writes secrets: masked, as the JSON output shows them unless `showSecrets`. */
  readonly #emit: EmitOptions;
  /** Whether records carry their tree's JSON (a renderer writes it). */
  readonly #json: boolean;
  readonly #udp = new UdpDecoder();
  /** The frame lengths of fragments held, for the wire bytes of their datagram (`wireLength`). */
  readonly #fragments = new FragmentWire();
  readonly #stats: DissectStats;
  /** Where the fast path writes tree JSON; records keep ranges of its buffer. */
  #arena = new ByteSink(ARENA_BYTES);
  /** Arenas written since the last {@link recycle}, and arenas free for reuse. */
  #used: ByteSink[] = [this.#arena];
  #free: ByteSink[] = [];
  /** The first frame's time (relative times count from it). */
  #start: Timestamp | null = null;
  /** The durations a verdict's words name. */
  readonly #verdicts: VerdictOptions;
  /** Trees of payloads seen lately: their JSON, with their summary and warnings. */
  readonly #trees = new RenderCache<{ readonly summary: string; readonly warnings: readonly DecodeWarning[] }>();
  /** The protocols recognised, and their fields. */
  readonly #protocols: ReturnType<typeof recognition>;

  constructor(options: DissectOptions, stats: DissectStats) {
    this.#options = options;
    this.#verdicts = { timeoutMs: options.timeoutMs ?? 5000, ...(options.protocols ? { protocols: options.protocols } : {}) };
    this.#stats = stats;
    this.#codec = options.charset ? { charset: options.charset } : {};
    this.#emit = { ...this.#codec, showSecrets: !!options.showSecrets };
    this.#json = options.treeJson !== false;
    this.#protocols = recognitionOf(options);
    const needed = recordsNeeded(options);
    this.#needs = needed?.needs;
    this.#otherwise = needed?.otherwise;
    this.#layers = !!needed?.layers;
    this.#messageless = readsNoMessage(options);
    this.#layerFilter = !!options.filter?.layers && !options.decodeAs;
  }

  /** A frame whose record is not needed comes out as its frame record (`unneeded: 'layers'`), not as {@link #otherwise}. */
  readonly #layers: boolean;
  /** No layout's record is needed, and the others are frame records: no datagram's message is read. */
  readonly #messageless: boolean;
  /** The display filter reads only the frames' layers: a datagram's frame is tested before its query packet is made. */
  readonly #layerFilter: boolean;

  /**
   * The capture's first frame is `frame` (relative times count from its time), when records
   * are made in another order than the capture's; else the first record's frame is taken.
   */
  first(frame: FrameInput): void {
    if (this.#started) return;
    this.#started = true;
    noteStart(this.#stats, (this.#start = frame.timestamp));
  }

  #started = false;

  /**
   * The record of a captured frame: undefined for one that is no query datagram (counted in the
   * stats), unless `allFrames` asks for a {@link FrameRecord} of it. `previous`: the
   * time of the capture's frame before it, for a frame handed on out of capture order; without
   * it, frames come in order and the last one's time is kept here.
   */
  frame(frame: FrameInput, facts: FrameFacts, previous?: Timestamp | null): DissectedRecord | undefined {
    const stats = this.#stats;
    stats.frames++;
    // The zero of relative times, for the display filter and the summary lines.
    if (!this.#started) this.first(frame);
    if (previous === undefined) {
      previous = this.#previous;
      this.#previous = frame.timestamp;
    }
    const needs = this.#needs;
    // Not needed (read as a layout the caller wants nothing of, or no display filter can pass): counted as its record
    // would be. A datagram reassembled here is made into its record, which lets its fragments' frames go.
    if (needs && !this.#layers && facts.kind === DECODED && !facts.reassembled && !needs(facts.layout!.id)) {
      this.#udp.pass(frame);
      stats.udp++;
      stats.game++;
      return this.#otherwise;
    }
    const decoded = this.#udp.decode(frame);
    if (decoded.kind === 'skipped') {
      stats.skipped[decoded.reason] = (stats.skipped[decoded.reason] ?? 0) + 1;
      if (decoded.reason === 'fragment') this.#fragments.hold(frame.index, frame.originalLength ?? frame.data.length);
      if (!this.#options.allFrames) return undefined;
      return needs && !needs(undefined) && !this.#layers ? this.#otherwise : this.#other(frame, previous, decoded.reason, decoded.detail);
    }
    return this.#udpRecord(frame.index, frame.timestamp, decoded, decoded.fragments ? undefined : frame.data, facts, frame, previous);
  }

  /** Which frames' records are made, and what the others come out as ({@link recordsNeeded}). */
  readonly #needs: ((layout: string | undefined) => boolean) | undefined;
  readonly #otherwise: typeof BLANK | undefined;

  /** The time of the last frame made in capture order (`frame.time_delta` of the next); null before the first. */
  #previous: Timestamp | null = null;

  /** The record of a bare UDP payload (a hex dump of a payload): endpoints unknown. */
  payload(index: number, payload: Uint8Array, facts: FrameFacts): DissectedRecord | undefined {
    this.#stats.frames++;
    const unknown = { ip: '0.0.0.0', port: 0 };
    return this.#udpRecord(
      index,
      null,
      { kind: 'udp', ipVersion: 4, src: unknown, dst: unknown, payload, payloadOffset: 0, udpLength: payload.length + 8, truncated: false },
      undefined,
      facts,
    );
  }

  /**
   * The caller holds no record made so far (it has written them): their tree JSON's
   * buffers are written over from now on. A megabyte of arena per 700 records was most of
   * the garbage a capture made, and only a collection let go of it.
   */
  recycle(): void {
    for (const a of this.#used) {
      a.at = 0;
      this.#free.push(a);
    }
    this.#arena = this.#free.pop()!;
    this.#used = [this.#arena];
  }

  /** The end of the input: fragments still held are dropped (and counted by the decoder). */
  finish(): void {
    this.#udp.finish();
  }

  #udpRecord(
    frame: number,
    timestamp: Timestamp | null,
    udp: UdpDatagram,
    frameBytes: Uint8Array | undefined,
    facts: FrameFacts,
    input?: FrameInput,
    previous?: Timestamp | null,
  ): DissectedRecord | undefined {
    const stats = this.#stats;
    stats.udp++;
    // A bare payload (a hex dump) has no frame to list it by: with `unneeded: 'layers'` its record is made, as without `needs`.
    const bare = this.#layers && input === undefined;
    const layers = this.#layers && !bare;
    if (this.#messageless && layers) return this.#unneeded(udp, input, previous);
    if (input && this.#layerFilter && !this.#layersPass(input, udp, previous)) {
      // Counted as its record would be, none made.
      this.#fragments.total(udp.fragments, input.index, input.originalLength ?? input.data.length);
      if (facts.kind === DECODED) {
        stats.game++;
        return undefined;
      }
      if (!rawRecognition(udp.payload, {}, this.#codec, this.#protocols.set)) {
        stats.nonGame++;
        return undefined;
      }
      stats.game++;
      if (facts.kind !== RAW) stats.incomplete = (stats.incomplete ?? 0) + 1;
      return undefined;
    }
    let p: Packet | undefined;
    if (facts.kind === DECODED && layers && !this.#needs!(facts.layout!.id)) {
      stats.game++;
      return this.#unneeded(udp, input, previous);
    }
    if (facts.kind === DECODED) {
      const hinted = this.#decodeAsHint(udp);
      const layout = hinted
        ? internals((this.#protocols.set.identify(udp.payload, hinted, this.#codec)?.layout as QueryLayout | undefined) ?? facts.layout!)
        : facts.layout!;
      p = facts.secrets
        ? this.#echoing(frame, timestamp, udp, frameBytes, facts.direction, layout, facts.secrets)
        : this.#record(frame, timestamp, udp, frameBytes, layout.protocol, facts.direction, layout);
    } else {
      const r = this.#raw(frame, timestamp, udp, frameBytes, facts.kind === RAW && !bare ? this.#needs : undefined);
      if (r === null) {
        stats.game++;
        return this.#unneeded(udp, input, previous);
      }
      p = r;
      if (p && facts.kind !== RAW) {
        // Not settled (let out early): say so, rather than leave it looking unanswered or unlinked.
        p.incomplete = INCOMPLETE;
        stats.incomplete = (stats.incomplete ?? 0) + 1;
      }
    }
    if (!p) {
      stats.nonGame++;
      if (!this.#options.allFrames) return undefined;
      if (this.#needs && !this.#needs(undefined) && !this.#layers) return this.#otherwise;
      if (!input) return this.#shown(new FrameRecord(frame, timestamp, undefined, udp.payload, udp.payload.length, 'data', ''));
      return this.#other(input, previous ?? null, 'data', '', udp);
    }
    stats.game++;
    if (facts.requestIn) p.requestIn = facts.requestIn;
    if (facts.responseIn) p.responseIn = facts.responseIn;
    if (facts.requestTime && timestamp) p.responseTime = timestampDifference(timestamp, facts.requestTime);
    if (facts.duplicateOf) p.duplicateOf = facts.duplicateOf;
    const why = facts.why;
    if (why !== Why.none && facts.layout) {
      if (isUnmatched(why)) {
        const reply = { bytes: udp.payload, layout: facts.layout, from: { address: udp.src.ip, port: udp.src.port } };
        p.unmatched = unmatchedReason(why, { ...reply, lateNs: facts.lateNs, named: facts.named }, this.#verdicts);
        p.unmatchedCause = unmatchedCause(why);
      } else {
        p.unanswered = unansweredReason(why, facts.layout, this.#verdicts);
      }
    }
    if (facts.ambiguous) p.ambiguous = AMBIGUOUS;
    p.udpLength = udp.udpLength;
    if (input) {
      // What the frame and its IP header say (frame.len, ip.ttl, …), before a filter tests them.
      p.frameLength = input.originalLength ?? input.data.length;
      p.wireLength = this.#fragments.total(udp.fragments, input.index, p.frameLength);
      p.ipTtl = udp.ipTtl;
      p.ipLength = udp.ipLength;
      p.linkType = input.linkType;
      p.frameData = input.data;
      // The first frame's is 0, as tshark has it.
      if (timestamp) p.previousTimestamp = previous ?? timestamp;
    }
    // A display filter (-Y): tested once the record's links are final, before anything renders it.
    const filter = this.#options.filter;
    if (filter) {
      if (!filter.matches(p, this.#start)) {
        // Its tree's JSON, last in the arena, is written over by the next record's.
        const arena = this.#arena;
        if (p.json === arena.buf && p.jsonEnd === arena.at) arena.at = p.jsonStart;
        return undefined;
      }
      stats.displayed = (stats.displayed ?? 0) + 1;
      if (this.#json) this.#withJson(p);
    }
    return p;
  }

  /**
   * Whether the display filter, which reads the frame's layers alone ({@link #layerFilter}),
   * passes the datagram's frame: tested on its frame record, as it would be on its query packet.
   */
  #layersPass(input: FrameInput, udp: UdpDatagram, previous: Timestamp | null | undefined): boolean {
    return this.#options.filter!.matches(frameRecordOf(input, previous, 'data', '', udp), this.#start);
  }

  /** What a datagram whose record is not needed comes out as: {@link #otherwise}, or its frame record (`unneeded: 'layers'`). */
  #unneeded(udp: UdpDatagram, input: FrameInput | undefined, previous: Timestamp | null | undefined): DissectedRecord | undefined {
    // A bare payload's record is always made with `unneeded: 'layers'` (see #udpRecord): here only frames come.
    return this.#layers && input ? this.#other(input, previous ?? null, 'data', '', udp) : this.#otherwise;
  }

  /** The record of a frame without a query message (`allFrames`), if the display filter passes it. */
  #other(
    input: FrameInput,
    previous: Timestamp | null | undefined,
    reason: FrameRecord['reason'],
    detail: string,
    udp?: UdpDatagram,
  ): FrameRecord | undefined {
    return this.#shown(frameRecordOf(input, previous, reason, detail, udp));
  }

  /** A frame record, if the display filter passes it (counted then). */
  #shown(r: FrameRecord): FrameRecord | undefined {
    const filter = this.#options.filter;
    if (filter) {
      if (!filter.matches(r, this.#start)) return undefined;
      this.#stats.displayed = (this.#stats.displayed ?? 0) + 1;
    }
    return r;
  }

  /** A datagram the pairer could not use: a query message cut short, or no query at all. */
  #raw(
    frame: number,
    timestamp: Timestamp | null,
    udp: UdpDatagram,
    frameBytes: Uint8Array | undefined,
    /** What the caller needs, for a settled frame: one recognised as a layout it does not need is null. */
    needs?: (layout: string | undefined) => boolean,
  ): Packet | null | undefined {
    const r = rawRecognition(udp.payload, this.#decodeAsHint(udp) ?? {}, this.#codec, this.#protocols.set);
    if (!r) return undefined;
    if (needs && r.layout && !needs(r.layout.id)) return null;
    return r.layout
      ? this.#record(frame, timestamp, udp, frameBytes, r.protocol, r.direction, r.layout, r.warning)
      : this.#unknown(frame, timestamp, udp, frameBytes, r.protocol, r.error!);
  }

  #decodeAsHint(udp: UdpDatagram): PacketHint | undefined {
    const d = this.#options.decodeAs;
    if (!d) return undefined;
    // No ports: every payload (a hex dump has none).
    if (!d.ports.length) return { protocol: d.protocol };
    const toServer = d.ports.includes(udp.dst.port);
    const fromServer = d.ports.includes(udp.src.port);
    if (!toServer && !fromServer) return undefined;
    const direction: Direction | undefined = toServer && !fromServer ? 'request' : fromServer && !toServer ? 'response' : undefined;
    return { protocol: d.protocol, ...(direction ? { direction } : {}) };
  }

  #record(
    frame: number,
    timestamp: Timestamp | null,
    udp: UdpDatagram,
    frameBytes: Uint8Array | undefined,
    protocol: Protocol,
    direction: Direction | 'either',
    layout: InternalQueryLayout,
    /** A warning of the record's own, before the decode's (a reply whose request was not seen). */
    extra?: DecodeWarning,
  ): Packet {
    const kind = recordKind(protocol, direction, layout.message, layout.id);
    const codec = this.#codec;
    const bytes = udp.payload;
    if (!udp.truncated) {
      if (this.#arena.at > ARENA_BYTES - 65536) {
        this.#arena = this.#free.pop() ?? new ByteSink(ARENA_BYTES);
        this.#used.push(this.#arena);
      }
      const arena = this.#arena;
      const start = arena.at;
      const tree = this.#tree(layout, bytes, arena, this.#json && !this.#options.filter);
      if (tree) {
        // Decoded on the fast path (warnings and all): the tree is built only if a renderer asks for it.
        const p = new Packet(
          frame,
          timestamp,
          udp,
          frameBytes,
          kind,
          tree.summary,
          { layout, codec },
          arena.at > start ? arena.buf : undefined,
          start,
          arena.at,
          undefined,
          extra ? [extra, ...tree.warnings] : tree.warnings,
        );
        if (hasSecrets(layout)) p.secretsShown = this.#emit.showSecrets;
        return p;
      }
    }
    const ann = layout.annotate(bytes, codec);
    const e = ann.error;
    return new Packet(
      frame,
      timestamp,
      udp,
      frameBytes,
      kind,
      e ? `${ann.info} [Malformed Packet]` : ann.info,
      ann.fields,
      undefined,
      0,
      0,
      e ? { type: e.name, field: e.info.field, offset: e.info.offset, message: e.message } : undefined,
      extra ? [extra, ...ann.warnings] : ann.warnings,
    );
  }

  /**
   * The fast path: the tree's JSON written into `arena` (copied, for a payload seen lately,
   * byte for byte), with the summary and warnings; undefined where the payload does not
   * decode cleanly enough for it.
   */
  #tree(
    layout: InternalQueryLayout,
    bytes: Uint8Array,
    arena: ByteSink,
    json: boolean,
  ): { readonly summary: string; readonly warnings: readonly DecodeWarning[] } | undefined {
    const cached = RenderCache.takes(bytes);
    const key = cached ? RenderCache.key(bytes) : 0;
    const trees = this.#trees;
    // The cache holds trees with their JSON (a run without any holds empty ones): a copy costs less than a summary.
    if (cached && trees.find(key, layout, bytes)) {
      arena.range(trees.found, trees.start, trees.end);
      return trees.extra;
    }
    const start = arena.at;
    // Without the JSON, where no renderer wants it (or not yet): the payload read and checked as the emitter reads it, the summary's text decoded.
    const decoded = json ? layout.emitJsonInfo(bytes, arena, this.#emit) : layout.summarize(bytes, this.#emit);
    if (!decoded) return undefined;
    const tree = { summary: decoded.info, warnings: decoded.warnings.length ? decoded.warnings : NO_WARNINGS };
    if (cached && json === this.#json && trees.wants(key)) trees.set(key, layout, bytes, arena.buf, start, arena.at, tree);
    return tree;
  }

  /**
   * A record that passed the display filter, summarised without its tree's JSON (most
   * records of a filtered run are not shown): the JSON written now.
   */
  #withJson(p: Packet): void {
    const source = p.treeSource;
    if (!source || p.json) return;
    const arena = this.#arena;
    const start = arena.at;
    this.#tree(source.layout, p.payload, arena, true);
    p.attachJson(arena.buf, start, arena.at);
  }

  /**
   * An RCON frame whose text may echo its exchange's secrets (the request's password, one its
   * command sets): its tree built, each node whose text holds one made a secret that shows
   * the text with them masked (the hex pane then hides its bytes), and its summary masked
   * unless `showSecrets`. Off the fast path: a few frames of RCON traffic.
   */
  #echoing(
    frame: number,
    timestamp: Timestamp | null,
    udp: UdpDatagram,
    frameBytes: Uint8Array | undefined,
    direction: Direction,
    layout: InternalQueryLayout,
    secrets: readonly string[],
  ): Packet {
    const ann = layout.annotate(udp.payload, this.#codec);
    // A shown text escapes a secret's backslashes and control characters: masked in that form too.
    const shown = shownSecrets(secrets);
    const hide = (nodes: FieldNode[]): FieldNode[] =>
      nodes.map((n) => {
        const children = n.children ? hide(n.children) : undefined;
        const masked = n.generated ? n.show : maskSecrets(n.masked ?? n.show, shown);
        const echoes = masked !== (n.masked ?? n.show) || (typeof n.value === 'string' && maskSecrets(n.value, secrets) !== n.value);
        if (!echoes && children === n.children) return n;
        return { ...n, ...(children ? { children } : {}), ...(echoes ? { secret: true, masked } : {}) };
      });
    const e = ann.error;
    const info = e ? `${ann.info} [Malformed Packet]` : ann.info;
    return new Packet(
      frame,
      timestamp,
      udp,
      frameBytes,
      recordKind(layout.protocol, direction, layout.message, layout.id),
      this.#options.showSecrets ? info : maskSecrets(info, shown),
      hide(ann.fields),
      undefined,
      0,
      0,
      e ? { type: e.name, field: e.info.field, offset: e.info.offset, message: e.message } : undefined,
      ann.warnings,
    );
  }

  /**
   * A datagram that carries a protocol's magic but is no message of it (an unknown opcode):
   * that protocol's malformed packet, as the Wireshark plugin shows it, rather than other
   * traffic.
   */
  #unknown(
    frame: number,
    timestamp: Timestamp | null,
    udp: UdpDatagram,
    frameBytes: Uint8Array | undefined,
    protocol: Protocol,
    e: CodecError,
  ): Packet {
    const payload = udp.payload;
    const fields = [
      ...this.#headerBefore(protocol, payload, e.info.offset),
      ...typeByte(payload, e, this.#protocols.fields),
      malformedNode(protocol, payload, e),
    ];
    const kind = recordKind(protocol, 'either', 'unknown', `${protocol}.unknown`);
    return new Packet(
      frame,
      timestamp,
      udp,
      frameBytes,
      kind,
      `${shortTitleOf(protocol)}: ${e.message}`,
      fields,
      undefined,
      0,
      0,
      { type: e.name, field: e.info.field, offset: e.info.offset, message: e.message },
      NO_WARNINGS,
    );
  }

  /** The fields every message of the protocol starts with (magic, server address), as far as they lie before `end`. */
  #headerBefore(protocol: Protocol, bytes: Uint8Array, end: number): FieldNode[] {
    const [first] = Object.values(this.#protocols.set.protocols.find((p) => p.name === protocol)!.messages);
    let best: FieldNode[] = [];
    for (const layout of [first!.request, first!.response]) {
      const nodes = layout.annotate(bytes, this.#codec).fields.filter((n) => !n.generated && n.offset + n.length <= end);
      if (nodes.length > best.length) best = nodes;
    }
    return best;
  }
}

/**
 * The type byte no message of the protocol has (`samp.opcode`, `mcquery.type`) as a field of
 * its own, shown as the Wireshark plugin shows it (`A (0x41)`), so that `-Y 'samp.opcode == 0x41'`
 * finds it; none for another error.
 */
function typeByte(bytes: Uint8Array, e: CodecError, registered: ReadonlyMap<string, RegisteredField>): FieldNode[] {
  const at = e.info.offset;
  if (!(e instanceof UnknownOpcodeError) || at >= bytes.length) return [];
  const f = registered.get(e.info.field);
  if (!f) return [];
  const byte = bytes[at]!;
  const hex = `0x${byte.toString(16).padStart(2, '0')}`;
  const shown = f.base === 'char' && byte >= 0x20 && byte < 0x7f ? `${String.fromCharCode(byte)} (${hex})` : hex;
  return [{ abbrev: f.abbrev, label: f.label, offset: at, length: 1, value: byte, show: shown }];
}

/**
 * What a datagram the pairer could not use is, by its bytes alone (and a Decode As hint),
 * among `protocols`: a message of a layout (with the warning a reply without magic carries
 * when read without its request, as its protocol declares: `magicless.alone`), a protocol's
 * datagram that is no message of it (its error), or nothing of ours.
 */
export function rawRecognition(
  payload: Uint8Array,
  hint: PacketHint,
  codec: CodecOptions,
  protocols: ProtocolSet,
):
  | { protocol: Protocol; direction: Direction | 'either'; layout?: InternalQueryLayout; warning?: DecodeWarning; error?: CodecError }
  | undefined {
  if (!hint.protocol && !protocols.signatureOf(payload)) {
    // Without a hint, only bytes with a signature, or a magic-less reply's shape, can be recognised: the rest is other traffic.
    const r = protocols.shapeOf(payload);
    return r && recognized(r, protocols);
  }
  const r = recognizeOrError(payload, hint, codec, protocols);
  if (!(r instanceof CodecError)) return recognized(r, protocols);
  const protocol = (hint.protocol as Protocol | undefined) ?? claimedBy(payload, r, protocols);
  return protocol ? { protocol, direction: 'either', error: r } : undefined;
}

/** A recognised datagram of the pairer's leftovers: a reply that may carry no magic has no request in the input. */
function recognized(
  r: Found,
  protocols: ProtocolSet,
): { protocol: Protocol; direction: Direction | 'either'; layout: InternalQueryLayout; warning?: DecodeWarning } {
  const alone = r.direction === 'response' ? declared(protocols, r.protocol)?.magicless?.alone : undefined;
  return {
    protocol: r.protocol as Protocol,
    direction: r.direction,
    layout: internals(r.layout as QueryLayout),
    ...(alone ? { warning: alone } : {}),
  };
}

/** What a set of protocols recognised a datagram as (any protocol's name, not only a built-in one's). */
type Found = ReturnType<ProtocolSet['recognize']>;

const declared = (protocols: ProtocolSet, name: string): ProtocolDeclaration | undefined =>
  protocols.protocols.find((p) => p.name === name);

/**
 * The protocol a datagram that is no message of it still belongs to: one whose signature is
 * a magic of four bytes or more (SAMP, VCMP, MP04), with the type byte there but unknown.
 * Two bytes (Minecraft's fe fd) are too weak a signature to claim a datagram with an unknown
 * type (the Wireshark plugin's heuristic agrees).
 */
function claimedBy(bytes: Uint8Array, e: CodecError, protocols: ProtocolSet): Protocol | undefined {
  const name = protocols.signatureOf(bytes);
  const strong = name !== undefined && declared(protocols, name)!.signatures.some((s) => s.bytes.length >= 4 && startsWith(bytes, s.bytes));
  return strong && e instanceof UnknownOpcodeError ? (name as Protocol) : undefined;
}

const startsWith = (bytes: Uint8Array, magic: Uint8Array): boolean => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

/** What `bytes` are recognised as, or why not: the error goes into the record, with no stack trace taken (it describes the bytes). */
function recognizeOrError(bytes: Uint8Array, hint: PacketHint, codec: CodecOptions, protocols: ProtocolSet): Found | CodecError {
  return withoutStacks(() => {
    try {
      return protocols.recognize(bytes, hint, codec);
    } catch (e) {
      if (e instanceof CodecError) return e;
      throw e;
    }
  });
}
