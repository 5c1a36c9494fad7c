/**
 * The dissector: frames (from a capture) or payloads (from a hex dump) in, annotated
 * packet records out, in frame order, with request/response links and response times
 * taken from the capture's timestamps.
 *
 * Two passes over every frame. The first (pairing/links.ts) reads only what pairing
 * needs and runs the codec's `QueryPairer` — the same state machine a live query client
 * uses — in capture time, leaving each frame's links as compact facts. The second
 * (records.ts) reads the frame again once its facts are final and builds its record, so
 * a record is complete when it is made and nothing rendered ever waits.
 *
 * A file is read twice (`dissectCaptureFile`, node/file.ts): between the passes only the
 * facts are held, about one request timeout of capture at a few dozen bytes a frame. A
 * stream cannot be read twice, so {@link Dissector} keeps a copy of each frame's bytes
 * until its facts are final: memory bounded by capture time (the timeout), and by
 * `maxHeldBytes` — past that the oldest frame is let out with what is known, and its
 * record says so (`incomplete`).
 */
import { ByteRing, EntryRing, float64s, int32s, refs } from '@gamequery/codec/pairing';
import { CaptureParser } from './capture/reader.ts';
import type { CaptureError, CaptureItem } from './capture/types.ts';
import type { TimeResolution } from './capture/timestamp.ts';
import type { FrameInput } from './net/types.ts';
import { LinkPass } from './pairing/links.ts';
import { RecordMaker } from './records.ts';
import type { PacketRecord } from './record.ts';

import { newStats, type DissectOptions, type DissectStats } from './options.ts';

export { newStats, type DissectOptions, type DissectStats };

/** The two passes' options, from the dissector's. */
export const linkOptions = (options: DissectOptions): ConstructorParameters<typeof LinkPass>[0] => ({
  timeoutMs: options.timeoutMs ?? 5000,
  ...(options.duplicateWindowMs !== undefined ? { duplicateWindowMs: options.duplicateWindowMs } : {}),
  ...(options.tokenLifetimeMs !== undefined ? { tokenLifetimeMs: options.tokenLifetimeMs } : {}),
  ...(options.charset ? { charset: options.charset } : {}),
});

/** The record maker's options: the charset `auto` unless one is named. */
export const recordOptions = (options: DissectOptions): DissectOptions => (options.charset ? options : { ...options, charset: 'auto' });

const DEFAULT_MAX_HELD_BYTES = 256 << 20;

/** Frames held for the second pass of a stream: their bytes in one ring, their parts in typed arrays. */
class HeldFrames {
  readonly #ring = new EntryRing(1024, (from, to) => this.#grow(from, to));
  readonly #bytes = new ByteRing(1 << 20);
  #at = float64s(1024);
  #length = int32s(1024);
  /** The link type, or -1 for a bare payload. */
  #linkType = int32s(1024);
  #seconds = float64s(1024);
  #ticks = float64s(1024);
  #resolution = refs<TimeResolution>(1024);
  #held = 0;

  get size(): number {
    return this.#ring.size;
  }

  /** Bytes of frames held. */
  get bytes(): number {
    return this.#held;
  }

  put(frame: FrameInput | { readonly index: number; readonly payload: Uint8Array }): void {
    const ring = this.#ring;
    const data = 'payload' in frame ? frame.payload : frame.data;
    if (ring.size === 0) ring.first = ring.next = frame.index;
    const s = ring.slot(ring.add());
    this.#at[s] = this.#bytes.put(data);
    this.#length[s] = data.length;
    this.#held += data.length;
    const ts = 'payload' in frame ? null : frame.timestamp;
    this.#linkType[s] = 'payload' in frame ? -1 : frame.linkType;
    this.#resolution[s] = ts?.resolution;
    if (ts) {
      this.#seconds[s] = ts.seconds;
      this.#ticks[s] = ts.ticks;
    }
  }

  /** The oldest frame, which leaves: a frame (its bytes copied out of the ring), or a bare payload. */
  shift(): FrameInput & { readonly payload: boolean } {
    const ring = this.#ring;
    const index = ring.first;
    const s = ring.slot(index);
    const data = this.#bytes.view(this.#at[s]!, this.#length[s]!).slice();
    const resolution = this.#resolution[s];
    const frame = {
      index,
      linkType: this.#linkType[s]!,
      data,
      payload: this.#linkType[s] === -1,
      timestamp: resolution ? { seconds: this.#seconds[s]!, ticks: this.#ticks[s]!, resolution } : null,
    };
    this.#resolution[s] = undefined;
    this.#held -= data.length;
    ring.first++;
    this.#bytes.release(ring.size ? this.#at[ring.slot(ring.first)]! : this.#bytes.end);
    return frame;
  }

  #grow(from: number, to: number): void {
    const ring = this.#ring;
    this.#at = ring.regrow(this.#at, from, to, float64s);
    this.#length = ring.regrow(this.#length, from, to, int32s);
    this.#linkType = ring.regrow(this.#linkType, from, to, int32s);
    this.#seconds = ring.regrow(this.#seconds, from, to, float64s);
    this.#ticks = ring.regrow(this.#ticks, from, to, float64s);
    this.#resolution = ring.regrow(this.#resolution, from, to, refs<TimeResolution>);
  }
}

/**
 * Incremental dissector, one pass (for streams and hex dumps): push frames, collect
 * records in frame order. A frame's record comes out once its facts are final (for a
 * request, once it is answered or times out in capture time); until then its bytes are
 * held, with everything after it.
 */
export class Dissector {
  readonly stats: DissectStats = newStats();
  readonly #links: LinkPass;
  readonly #maker: RecordMaker;
  readonly #held = new HeldFrames();
  readonly #maxQueue: number;
  readonly #maxHeldBytes: number;

  constructor(options: DissectOptions = {}) {
    this.#links = new LinkPass(linkOptions(options), this.stats);
    this.#maker = new RecordMaker(recordOptions(options), this.stats);
    this.#maxQueue = options.maxQueue ?? Infinity;
    this.#maxHeldBytes = options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
  }

  /** Takes one captured frame; returns the records now complete, in frame order. */
  pushFrame(frame: FrameInput): PacketRecord[] {
    this.#held.put(frame);
    this.#links.push(frame);
    return this.#drain(false);
  }

  /** Takes a bare UDP payload (a hex dump of a payload): endpoints unknown. */
  pushPayload(index: number, payload: Uint8Array): PacketRecord[] {
    this.#held.put({ index, payload });
    this.#links.pushPayload(index, payload);
    return this.#drain(false);
  }

  /** Ends the input: pending requests are settled as unanswered; returns the remaining records. */
  finish(): PacketRecord[] {
    this.#links.finish();
    const out = this.#drain(true);
    this.#maker.finish();
    return out;
  }

  /** Builds the records of the frames at the front whose facts are final (all of them at the end). */
  #drain(all: boolean): PacketRecord[] {
    const out: PacketRecord[] = [];
    const facts = this.#links.facts;
    const held = this.#held;
    while (held.size) {
      if (!all && !facts.isFinal(facts.first) && held.size <= this.#maxQueue && held.bytes <= this.#maxHeldBytes) break;
      const frame = held.shift();
      const f = facts.shift();
      const p = frame.payload ? this.#maker.payload(frame.index, frame.data, f) : this.#maker.frame(frame, f);
      if (p) out.push(p);
    }
    return out;
  }
}

/** What {@link dissectCapture} yields: a dissected packet, or the error that stopped reading the capture. */
export type DissectItem = { readonly kind: 'packet'; readonly packet: PacketRecord } | CaptureError;

/** What a chunk of capture completed: packets in frame order, then the error if the file is damaged there. */
export interface DissectBatch {
  readonly packets: PacketRecord[];
  readonly error?: CaptureError;
}

/**
 * Dissects a pcap or pcapng capture, streamed, in one pass (a file is better read with
 * `dissectCaptureFile`, in two): yields the packets each chunk of input completed (one
 * await per chunk, not per packet) and, if the file is damaged, every intact packet
 * followed by one capture error.
 */
export async function* dissectCaptureBatches(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions = {},
  dissector: Dissector = new Dissector(options),
): AsyncGenerator<DissectBatch> {
  const parser = new CaptureParser(options.capture);
  const take = (items: Iterable<CaptureItem>): DissectBatch => {
    const packets: PacketRecord[] = [];
    for (const item of items) {
      if (item.kind === 'error') {
        for (const p of dissector.finish()) packets.push(p);
        return { packets, error: item };
      }
      for (const p of dissector.pushFrame(item)) packets.push(p);
    }
    return { packets };
  };
  for await (const chunk of source) {
    const batch = take(parser.push(chunk));
    if (batch.packets.length || batch.error) yield batch;
    if (batch.error) return;
  }
  const last = take(parser.finish());
  yield last.error ? last : { packets: [...last.packets, ...dissector.finish()] };
}

/**
 * Dissects a pcap or pcapng capture, streamed: yields packets in frame order and, if the
 * file is damaged, every intact packet followed by one capture error.
 */
export async function* dissectCapture(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions = {},
  dissector: Dissector = new Dissector(options),
): AsyncGenerator<DissectItem> {
  for await (const batch of dissectCaptureBatches(source, options, dissector)) {
    for (const packet of batch.packets) yield { kind: 'packet', packet };
    if (batch.error) yield batch.error;
  }
}
