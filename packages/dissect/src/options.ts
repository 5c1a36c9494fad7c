/**
 * What a dissection is asked to do and what it counts: the {@link DissectOptions} every entry
 * (captures, streams, hex dumps) takes and the {@link DissectStats} it fills. A module of its own
 * so that the passes (record-maker.ts, start.ts) and the dissector share the types without importing
 * each other.
 */
import type { Charset, Protocol, ProtocolDeclaration } from '@gamequery/codec';
import type { CaptureReaderOptions } from './capture/types.ts';
import type { DisplayFilter } from './filter/compile.ts';

/** Options of the {@link Dissector} and of the functions that dissect captures and hex dumps. */
export interface DissectOptions {
  /**
   * Charset of the strings. Default `auto`: per string, UTF-8, windows-1251 or windows-1252,
   * the choice and its confidence on each non-ASCII string's node (`charset`, `confidence`).
   */
  readonly charset?: Charset;
  /**
   * The protocols whose datagrams are paired and shown, each as its declaration says: by
   * default the built-in ones. A protocol declared elsewhere (`defineProtocol`) pairs like a
   * built-in one; its datagrams that do not pair are shown as other traffic.
   */
  readonly protocols?: readonly ProtocolDeclaration[];
  /** Decode UDP to or from these ports as this protocol ("Decode As"), whatever the content says. */
  readonly decodeAs?: { readonly protocol: Protocol; readonly ports: readonly number[] };
  /** How long a request waits for its reply, in capture time. Default 5000 ms. */
  readonly timeoutMs?: number;
  /**
   * How long a finished exchange is remembered, in capture time, so that a byte-identical
   * reply is marked `duplicateOf` and a late or extra one is told from a stray. Default
   * 5000 ms; 0 remembers nothing past the exchange. Remembered as a few dozen bytes an
   * exchange.
   */
  readonly duplicateWindowMs?: number;
  /** How long a Minecraft handshake's token links later stat requests to it, in capture time. Default 30 000 ms. */
  readonly tokenLifetimeMs?: number;
  /**
   * One pass only (a stream): frames held, waiting for their exchange to settle, at most;
   * beyond it the oldest is let out with what is known and marked `incomplete`. Default:
   * no limit by count (see {@link maxHeldBytes}).
   */
  readonly maxQueue?: number;
  /**
   * One pass only: the memory frames held may take, at most (default 256 MiB): the blocks
   * their bytes are copied into, whole, and 48 bytes of bookkeeping a frame; beyond it, as
   * {@link maxQueue}. What else one pass holds is the first pass's (pairing, some dozens of
   * bytes a request waiting).
   */
  readonly maxHeldBytes?: number;
  /**
   * One pass only: the order records come out in. `capture` (the default): frame order, a
   * frame waiting for every frame before it to settle. `settled`: each frame as soon as its
   * facts are final — a reply and its request together, a request that gets no reply when
   * its timeout passes — so a live input shows an exchange as it completes and holds only
   * the requests still waiting. Frame numbers still say the capture's order.
   */
  readonly order?: 'capture' | 'settled';
  /**
   * One pass only: when the input gives nothing for this long (ms of wall time), the capture
   * clock moves on by the wall time since its last chunk, again every as long: a live
   * input's unanswered requests time out, and come out, though nothing more arrives.
   * Default: off (the clock is the frames' alone).
   */
  readonly idleMs?: number;
  readonly capture?: CaptureReaderOptions;
  /**
   * `dissectCaptureFile` and `dissectCaptureBatches`: the caller writes a batch's
   * records before it asks for the next batch and keeps none of them, so their buffers
   * (payload, frame bytes, tree JSON) are written over afterwards. What `gamequery
   * dissect` does; saves the garbage collector a megabyte per few hundred records.
   */
  readonly reuseBuffers?: boolean;
  /**
   * Whether the tree JSON written while decoding shows secrets (RCON passwords) in clear;
   * default masked. Only a matter of speed: rendering with the other choice builds the tree.
   */
  readonly showSecrets?: boolean;
  /**
   * Whether a record carries its tree's JSON, written while decoding (the default: what
   * NDJSON and JSON output copy). False where nothing will render JSON (the text tree,
   * summary lines, selected fields): a record then learns its summary and warnings by
   * decoding, several times cheaper, and a renderer that does want JSON builds the tree.
   */
  readonly treeJson?: boolean;
  /**
   * A display filter (`compileFilter`): only the records it passes are made into packets
   * and counted in `stats.displayed`; links and frame numbers stay those of the whole
   * capture. Tested once a record's links are final, before any rendering. A frame read as a
   * layout the filter cannot pass (`DisplayFilter.layouts`: `samp.info.players > 50` passes
   * only SA:MP info replies) is counted and dropped without a record.
   */
  readonly filter?: DisplayFilter;
  /**
   * List every frame, as tshark does: a frame without a query message (other UDP, other
   * protocols, an IP fragment waiting for the rest) becomes a `FrameRecord` among the
   * packets, where it would otherwise only be counted (`nonGame`, `skipped`). For text
   * output; JSON output lists query packets only.
   */
  readonly allFrames?: boolean;
  /**
   * Which records the caller needs, by the layout id a frame is read as (undefined: a frame
   * without a query message); default all. A frame whose facts say it is read as a layout the
   * caller does not need (not with Decode As, which may read a frame as another layout; with a
   * display filter, the filter's own `layouts` decide, and what it cannot pass is not displayed,
   * unless it reads the frame's layers alone and `unneeded` is `'layers'`), is
   * counted as its record would be and comes out as {@link BLANK} instead of a record: what
   * `-T fields` naming only codec fields does (render/fields-line.ts `needs`), for the frames
   * whose line is empty, most of a capture when the fields are one message's.
   */
  readonly needs?: (layout: string | undefined) => boolean;
  /**
   * With `needs`, what a frame whose record is not needed comes out as: `'blank'` (the
   * default) {@link BLANK}; `'layers'` a `FrameRecord` of the frame, its frame, IP and UDP
   * layers and no message read, as `-T fields` naming those layers' fields (filter/fields.ts
   * `layer`) beside codec fields or alone wants; a display filter of those layers alone
   * (`DisplayFilter.layers`) then tests the frame records. Where `needs` needs no layout at all, no
   * datagram's message is read: nothing is recognised or paired, every frame comes out as its
   * `FrameRecord`, and the query packets are not counted (`game` and `nonGame` stay 0).
   */
  readonly unneeded?: 'blank' | 'layers';
  /**
   * `false`: the caller reads no links, response times or verdicts (unanswered, unmatched,
   * duplicate, ambiguous) of the records, as `-T fields` naming only codec and layer fields does.
   * Where that lets it (see `readsAlone` in pairing/alone.ts: a `needs` that leaves out every layout
   * pairing may read otherwise, no display filter but one of the layers with `unneeded: 'layers'`),
   * a capture file is then read once, and a stream's frames made as they come, as
   * tshark reads one without `-2`, not twice: each frame read by recognition alone, its record
   * without those facts, and the pairing counts in the stats left at 0. Elsewhere it changes
   * nothing. Default true.
   */
  readonly links?: boolean;
}

/**
 * Counts of a dissection (frames, UDP datagrams, query packets, skipped frames, pairing outcomes), updated
 * as it goes.
 */
export interface DissectStats {
  frames: number;
  udp: number;
  /** Query packets dissected. */
  game: number;
  /** UDP datagrams that are no query traffic. */
  nonGame: number;
  /** Frames without a UDP datagram, by reason (not-udp, not-ip, fragment, …). */
  skipped: Record<string, number>;
  exchanges: number;
  unanswered: number;
  unmatched: number;
  duplicates: number;
  /** Records let out before their exchange settled (one pass, over its memory ceiling); absent when none. */
  incomplete?: number;
  /** Records a display filter passed (with `allFrames`, frames without a query message too); absent without one. */
  displayed?: number;
}

/** A {@link DissectStats} with every count at zero. */
export const newStats = (): DissectStats => ({
  frames: 0,
  udp: 0,
  game: 0,
  nonGame: 0,
  skipped: {},
  exchanges: 0,
  unanswered: 0,
  unmatched: 0,
  duplicates: 0,
});
