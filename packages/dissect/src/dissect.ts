/**
 * The dissector: frames (from a capture) or payloads (from a hex dump) in, annotated
 * packet records out, with request/response links and response times taken from the
 * capture's timestamps.
 *
 * Two passes over every frame. The first (pairing/first-pass.ts) reads only what pairing
 * needs and runs the codec's capture pairer — the pairing rules the live query client
 * follows, executed on numbers — in capture time, leaving each frame's links as 16 bytes
 * of facts. The second (record-maker.ts) reads the frame again once its facts are final and
 * builds its record, so a record is complete when it is made and nothing rendered waits.
 *
 * A file is read twice (`dissectCaptureFile`, node/file.ts): between the passes only the
 * facts are held, about one request timeout of capture at a few dozen bytes a frame. A
 * stream cannot be read twice, so {@link Dissector} keeps a copy of a frame's bytes until
 * its facts are final — in frame order, every frame behind the oldest request waiting; in
 * settled order (a live input), only the requests waiting — memory bounded by capture time
 * (the timeout), and by `maxHeldBytes`: past that the oldest frame is let out with what is
 * known, and its record says so (`incomplete`).
 */
import { rconRequest, rconResponse } from '@gamequery/codec/internal';
import { peek } from './capture/peek.ts';
import { CaptureParser } from './capture/reader.ts';
import type { CaptureError, CaptureItem } from './capture/types.ts';
import type { FrameInput } from './net/types.ts';
import type { Timestamp } from './capture/timestamp.ts';
import { FirstPass, type FrameFacts } from './pairing/first-pass.ts';
import { ALONE, readsAlone } from './pairing/alone.ts';
import { HeldFrames } from './held.ts';
import { RecordMaker, recordsNeeded } from './record-maker.ts';
import type { DissectedRecord, ListedBy } from './frame-record.ts';
import type { PacketRecord } from './packet-record.ts';

import { newStats, type DissectOptions, type DissectStats } from './options.ts';

export { newStats, type DissectOptions, type DissectStats };

/**
 * Whether RCON frames may be rendered: unless no RCON layout's records are made (`needs`, or a
 * display filter only other layouts can pass: `recordsNeeded`), the first pass keeps RCON
 * requests' secrets for the replies that may echo them.
 */
function rendersRcon(options: DissectOptions): boolean {
  const needs = recordsNeeded(options)?.needs;
  return !needs || needs(rconRequest.id) || needs(rconResponse.id);
}

/** The first pass's options, from the dissector's. */
export const linkOptions = (options: DissectOptions): ConstructorParameters<typeof FirstPass>[0] => ({
  ...(rendersRcon(options) ? {} : { secrets: false }),
  timeoutMs: options.timeoutMs ?? 5000,
  ...(options.duplicateWindowMs !== undefined ? { duplicateWindowMs: options.duplicateWindowMs } : {}),
  ...(options.tokenLifetimeMs !== undefined ? { tokenLifetimeMs: options.tokenLifetimeMs } : {}),
  ...(options.charset ? { charset: options.charset } : {}),
  ...(options.protocols ? { protocols: options.protocols } : {}),
});

/** The record maker's options: the charset `auto` unless one is named. */
export const recordOptions = (options: DissectOptions): DissectOptions => (options.charset ? options : { ...options, charset: 'auto' });

/** One pass: what frames held may take by default ({@link DissectOptions.maxHeldBytes}), 256 MiB. */
export const DEFAULT_MAX_HELD_BYTES = 256 << 20;

/**
 * Most records one call of a {@link Dissector} makes: the rest wait, as frame numbers, for
 * the next call or {@link Dissector.drain}. A gap in a flood's capture, or its end, settles
 * millions of requests at once (as unanswered); made in one go, their records held gigabytes.
 */
export const DISSECT_BATCH = 4096;

/**
 * Incremental dissector, one pass (for streams and hex dumps): push frames, collect records.
 * A frame's record comes out once its facts are final (a request once it is answered or
 * times out in capture time); until then its bytes are held. In frame order by default
 * (a frame waits for the ones before it), or as each settles (`order: 'settled'`: only the
 * requests still waiting are held). {@link tick} moves a live input's clock on when no
 * frame has come for a while.
 *
 * Each call makes at most {@link DISSECT_BATCH} records; while {@link pending} is true more
 * are ready, and {@link drain} makes the next ones (the next push or tick does too, and
 * {@link finish} makes them all). A frame whose record is ready but not made is still held.
 */
export class Dissector<R extends DissectedRecord = PacketRecord> {
  readonly stats: DissectStats = newStats();
  readonly #first: FirstPass;
  readonly #maker: RecordMaker;
  readonly #held = new HeldFrames();
  readonly #maxQueue: number;
  readonly #maxHeldBytes: number;
  readonly #settled: boolean;
  /** Settled order: frames whose facts are final and whose records are not made yet, in the order they settled, from `#readyAt`. */
  #ready: number[] = [];
  #readyAt = 0;
  /** The input has ended ({@link end}): every frame held is made, and then the record maker ends. */
  #ending = false;
  #ended = false;
  /**
   * Nothing the caller reads needs pairing (pairing/alone.ts `readsAlone`): each frame's record
   * is made as it comes, by recognition alone, and nothing is held.
   */
  readonly #alone: boolean;

  constructor(options: DissectOptions = {}) {
    this.#first = new FirstPass(linkOptions(options), this.stats);
    this.#maker = new RecordMaker(recordOptions(options), this.stats);
    this.#maxQueue = options.maxQueue ?? Infinity;
    this.#maxHeldBytes = options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
    this.#settled = options.order === 'settled';
    this.#first.pairer.tracksSettled = this.#settled;
    this.#alone = readsAlone(options);
  }

  /** Takes one captured frame; returns records now complete (at most {@link DISSECT_BATCH}, see {@link pending}). */
  pushFrame(frame: FrameInput): R[] {
    if (this.#alone) {
      const out: R[] = [];
      this.#record(frame, false, ALONE, out);
      return out;
    }
    this.#first.push(frame);
    if (!this.#settled) {
      this.#held.put(frame);
      return this.#drain();
    }
    this.#maker.first(frame);
    const out: R[] = [];
    this.#queueSettled();
    this.#makeReady(out);
    // Records come out of capture order: each frame takes the time of the one before it along.
    const previous = this.#last;
    this.#last = frame.timestamp;
    if (this.#first.isFinal(frame.index)) {
      // Made now, unless records settled before it still wait their turn.
      if (this.#readyAt === this.#ready.length) this.#make(frame, false, out, previous);
      else {
        this.#held.put(frame, previous);
        this.#ready.push(frame.index);
      }
    } else this.#held.put(frame, previous);
    this.#let(out);
    return out;
  }

  /** Settled order: the time of the last frame pushed. */
  #last: Timestamp | null = null;

  /** Takes a bare UDP payload (a hex dump of a payload): endpoints unknown. */
  pushPayload(index: number, payload: Uint8Array): R[] {
    if (this.#alone) {
      const p = this.#maker.payload(index, payload, ALONE);
      return p ? [p as R] : [];
    }
    this.#held.put({ index, payload });
    this.#first.pushPayload(index, payload);
    return this.#drain();
  }

  /**
   * No frame has come for `ms` of wall time (a live input gone quiet): the capture clock
   * moves on by as much past the last frame, and what that settles comes out.
   */
  tick(ms: number): R[] {
    const first = this.#first;
    first.tick(first.after(ms));
    return this.drain();
  }

  /** Whether records are ready that the last call did not make: {@link drain} makes them. */
  get pending(): boolean {
    if (this.#ended) return false;
    if (this.#ending) return true;
    if (this.#settled) return this.#readyAt < this.#ready.length;
    return this.#held.size > 0 && (this.#first.isFinal(this.#first.first) || this.#overCeiling());
  }

  /** Whether the frames held are past `maxQueue` or `maxHeldBytes`: then the oldest goes out with what is known. */
  #overCeiling(): boolean {
    return this.#held.size > this.#maxQueue || this.#held.bytes > this.#maxHeldBytes;
  }

  /** The next records ready (at most {@link DISSECT_BATCH}); after {@link end}, until none is left. */
  drain(): R[] {
    if (this.#ended) return [];
    if (!this.#settled) return this.#drain();
    const out: R[] = [];
    this.#queueSettled();
    this.#makeReady(out);
    if (this.#ending) {
      // The end: the frames still held, in frame order, once those that settled are out.
      const held = this.#held;
      while (this.#readyAt === this.#ready.length && held.size && out.length < DISSECT_BATCH) {
        const frame = held.shift();
        this.#make(frame, frame.payload, out, frame.previousTimestamp);
      }
      if (this.#readyAt === this.#ready.length && !held.size) this.#close();
    }
    this.#let(out);
    return out;
  }

  /**
   * Ends the input: pending requests are settled as unanswered. Their records, and every
   * other not made yet, come out of {@link drain} (at most {@link DISSECT_BATCH} a call)
   * while {@link pending} is true.
   */
  end(): void {
    if (this.#ending) return;
    this.#first.finish();
    this.#ending = true;
  }

  /**
   * The caller holds none of the records made so far (it has written them): their buffers
   * (the tree JSON's) are written over from now on ({@link DissectOptions.reuseBuffers}).
   */
  recycle(): void {
    this.#maker.recycle();
  }

  /** Ends the input and returns every record not made yet (all at once: {@link end} and {@link drain} make them in batches). */
  finish(): R[] {
    this.end();
    const out: R[] = [];
    while (this.pending) for (const p of this.drain()) out.push(p);
    return out;
  }

  /** Every record is made: the record maker ends. */
  #close(): void {
    this.#ended = true;
    this.#maker.finish();
  }

  /** Settled order: the held requests the last frame (or tick) settled join the records ready, in frame order. */
  #queueSettled(): void {
    const settled = this.#first.pairer.settled;
    if (!settled.length) return;
    if (settled.length > 1) settled.sort((a, b) => a - b);
    for (const f of settled) this.#ready.push(f);
    settled.length = 0;
  }

  /** Settled order: makes the records ready, at most {@link DISSECT_BATCH} in all in `out`. */
  #makeReady(out: R[]): void {
    const ready = this.#ready;
    while (this.#readyAt < ready.length && out.length < DISSECT_BATCH) {
      const frame = this.#held.take(ready[this.#readyAt++]!);
      if (frame) this.#make(frame, frame.payload, out, frame.previousTimestamp);
    }
    if (this.#readyAt === ready.length) {
      ready.length = 0;
      this.#readyAt = 0;
    } else if (this.#readyAt > 65536 && this.#readyAt * 2 > ready.length) {
      this.#ready = ready.slice(this.#readyAt);
      this.#readyAt = 0;
    }
  }

  /** The record of a frame (its facts read, not yet let go). */
  #make(frame: FrameInput, payload: boolean, out: R[], previous: Timestamp | null | undefined): void {
    this.#record(frame, payload, this.#first.read(frame.index), out, previous);
  }

  /** The record of a frame, or of a bare payload, with its facts `f`, into `out` (a frame that makes none: nothing). */
  #record(frame: FrameInput, payload: boolean, f: FrameFacts, out: R[], previous?: Timestamp | null): void {
    const p = payload ? this.#maker.payload(frame.index, frame.data, f) : this.#maker.frame(frame, f, previous);
    if (p) out.push(p as R);
  }

  /**
   * Settled order: lets go of the facts of the frames at the front that are written and
   * final, and lets out the oldest held frames (with what is known) past the memory ceiling.
   */
  #let(out: R[]): void {
    const first = this.#first;
    const held = this.#held;
    while (held.size && this.#overCeiling()) {
      const frame = held.shift();
      this.#make(frame, frame.payload, out, frame.previousTimestamp);
    }
    while (first.size && first.isFinal(first.first) && !(held.size && held.oldest === first.first)) first.shift();
  }

  /**
   * Frame order: builds the records of the frames at the front whose facts are final (all
   * of them after {@link end}), at most {@link DISSECT_BATCH}.
   */
  #drain(): R[] {
    const out: R[] = [];
    const first = this.#first;
    const held = this.#held;
    while (held.size && out.length < DISSECT_BATCH) {
      if (!this.#ending && !first.isFinal(first.first) && !this.#overCeiling()) break;
      const frame = held.shift();
      this.#record(frame, frame.payload, first.shift(), out);
    }
    if (this.#ending && !held.size && !this.#ended) this.#close();
    return out;
  }
}

/** What {@link dissectCapture} yields: a dissected packet, or the error that stopped reading the capture. */
export type DissectItem<R extends DissectedRecord = PacketRecord> = { readonly kind: 'packet'; readonly packet: R } | CaptureError;

/** What a chunk of capture completed: packets in frame order, then the error if the file is damaged there. */
export interface DissectBatch<R extends DissectedRecord = PacketRecord> {
  readonly packets: R[];
  readonly error?: CaptureError;
}

/**
 * Dissects a pcap or pcapng capture, streamed, in one pass (a file is better read with
 * `dissectCaptureFile`, in two): yields the packets each chunk of input completed (one
 * await per chunk, not per packet) and, if the file is damaged, every intact packet
 * followed by one capture error.
 */
export async function* dissectCaptureBatches<A extends boolean = false>(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions & { readonly allFrames?: A } = {},
  dissector: Dissector<ListedBy<A>> = new Dissector<ListedBy<A>>(options),
): AsyncGenerator<DissectBatch<ListedBy<A>>> {
  for await (const batch of batchesOf(source, options, dissector)) {
    yield batch;
    // The next batch is asked for: with `reuseBuffers`, the caller holds none of the records before it.
    if (options.reuseBuffers) dissector.recycle();
  }
}

/** {@link dissectCaptureBatches}' batches, before any buffer is reused. */
async function* batchesOf<R extends DissectedRecord>(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions,
  dissector: Dissector<R>,
): AsyncGenerator<DissectBatch<R>> {
  const parser = new CaptureParser(options.capture);
  /** The batches of `items`, each of at most about {@link DISSECT_BATCH} packets; a capture error ends the input. */
  function* take(items: Iterable<CaptureItem>, packets: R[] = []): Generator<DissectBatch<R>, CaptureError | undefined> {
    for (const item of items) {
      if (item.kind === 'error') {
        yield* ending(packets);
        return item;
      }
      for (const p of dissector.pushFrame(item)) packets.push(p);
      if (dissector.pending || packets.length >= DISSECT_BATCH) {
        yield* more(packets);
        packets = [];
      }
    }
    if (packets.length) yield { packets };
    return undefined;
  }
  /** `packets`, then what the dissector has ready, batch by batch. */
  function* more(packets: R[]): Generator<DissectBatch<R>> {
    if (packets.length) yield { packets };
    while (dissector.pending) {
      const next = dissector.drain();
      if (next.length) yield { packets: next };
    }
  }
  /** `packets`, then the end of the input: every record still to make, batch by batch. */
  function* ending(packets: R[]): Generator<DissectBatch<R>> {
    dissector.end();
    yield* more(packets);
  }
  const unpacked = gunzipped(source);
  try {
    for await (const chunk of options.idleMs ? idling(unpacked, options.idleMs) : unpacked) {
      if (typeof chunk === 'number') {
        // Nothing came for a while: the clock moves on by as much.
        yield* more(dissector.tick(chunk));
        continue;
      }
      const error = yield* take(parser.push(chunk));
      if (error) {
        yield { packets: [], error };
        return;
      }
    }
  } catch (e) {
    if (!(e instanceof GzipError)) throw e;
    // Damaged gzip: what came before it, then why it stopped.
    yield* take(parser.finish());
    yield* ending([]);
    yield { packets: [], error: { kind: 'error', code: 'bad-gzip', offset: e.offset, message: e.message } };
    return;
  }
  const error = yield* take(parser.finish());
  yield* ending([]);
  if (error) yield { packets: [], error };
}

/** A gzip stream that cannot be unpacked: `offset` bytes of it had been read. */
class GzipError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * The source as it is, or unpacked if it is gzip (it starts 1f 8b), as the command line reads
 * `x.pcap.gz`: with `DecompressionStream` (browsers, Node 18+), chunk by chunk, never whole.
 * A damaged or cut gzip stream throws {@link GzipError} after what came before the damage.
 */
async function* gunzipped(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const { head, chunks, close } = await peek(source, 2);
  try {
    if (head[0] !== 0x1f || head[1] !== 0x8b) {
      yield* chunks;
      return;
    }
    const gz = new DecompressionStream('gzip');
    const writer = gz.writable.getWriter();
    let read = 0;
    // Fed as the reader takes (its writes wait for room); its failure ends the readable, which says why.
    const pump = (async () => {
      try {
        for await (const chunk of chunks) {
          read += chunk.length;
          await writer.write(chunk);
        }
        await writer.close();
      } catch (e) {
        await writer.abort(e).catch(() => undefined);
      }
    })();
    const reader = gz.readable.getReader();
    try {
      for (;;) {
        let r: { done: true; value?: undefined } | { done: false; value: Uint8Array };
        try {
          r = await reader.read();
        } catch (e) {
          throw new GzipError(`damaged gzip data after ${read} bytes: ${e instanceof Error ? e.message : String(e)}`, read);
        }
        if (r.done) return;
        yield r.value;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
      // Not awaited: it may be waiting on a live source that the return below ends.
      void pump;
    }
  } finally {
    // Stopped early (-c N) or done: the source is told, which ends a live capture.
    await close();
  }
}

/**
 * The source's chunks, and between them, whenever it gives nothing for `ms` of wall time,
 * the wall time since its last chunk (a number): a live input's clock while it is quiet.
 */
async function* idling(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, ms: number): AsyncGenerator<Uint8Array | number> {
  const it = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  let last = Date.now();
  let next = Promise.resolve(it.next());
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (;;) {
      const quiet = new Promise<'quiet'>((resolve) => (timer = setTimeout(resolve, ms, 'quiet')));
      const r = await Promise.race([next, quiet]);
      clearTimeout(timer);
      if (r === 'quiet') {
        yield Date.now() - last;
        continue;
      }
      if (r.done) return;
      last = Date.now();
      next = Promise.resolve(it.next());
      yield r.value;
    }
  } finally {
    clearTimeout(timer);
    await it.return?.();
  }
}

/**
 * Dissects a pcap or pcapng capture, streamed: yields packets in frame order and, if the
 * file is damaged, every intact packet followed by one capture error.
 */
export async function* dissectCapture<A extends boolean = false>(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: DissectOptions & { readonly allFrames?: A } = {},
  dissector: Dissector<ListedBy<A>> = new Dissector<ListedBy<A>>(options),
): AsyncGenerator<DissectItem<ListedBy<A>>> {
  for await (const batch of dissectCaptureBatches(source, options, dissector)) {
    for (const packet of batch.packets) yield { kind: 'packet', packet };
    if (batch.error) yield batch.error;
  }
}
