/**
 * A capture file dissected in two passes, as `tshark -2` does: the first reads the whole
 * file for the links (pairing/first-pass.ts), the second reads it again behind the first and
 * writes each frame's record as soon as its links are final. What is held between them
 * is the links of the frames in between (about one request timeout of capture, a few
 * dozen bytes a frame): memory does not grow with the capture's length.
 *
 * Both passes read the file in order with plain positional reads, each through its own
 * capture parser; the second reads only as far as the first has settled. Where the caller
 * reads no links (`links: false`) and needs no layout that pairing reads otherwise
 * (pairing/alone.ts), the file is read once, each frame by recognition alone.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { CaptureParser } from '../capture/reader.ts';
import type { CaptureError, CapturePacket } from '../capture/types.ts';
import { linkOptions, newStats, recordOptions, type DissectBatch, type DissectOptions, type DissectStats } from '../dissect.ts';
import type { ListedBy } from '../frame-record.ts';
import { RecordMaker } from '../record-maker.ts';
import { ALONE, readsAlone } from '../pairing/alone.ts';
import { FirstPass } from '../pairing/first-pass.ts';

/**
 * Bytes the second pass reads at a time. A chunk's frames are alive together while their
 * records are made, and small chunks let them die young: with 1 MiB the collector moved them
 * into the old generation by the thousand, and the heap grew to hundreds of megabytes between
 * its full collections. With 16 KiB, though, a read cost some 20 µs whatever its size (node's
 * call and this machine's system call): 10 000 of them a pass over 1 M frames of the mix, an
 * eighth of `-T fields`. 64 KiB: those reads 440 → 220 ms, the collector's share and the peaks
 * as before (28 November, the 2-core AMD machine).
 */
const CHUNK = 1 << 16;
/**
 * Bytes the first pass reads at a time (unless a chunk size is given): it keeps nothing of a chunk (one buffer is
 * read into again and again), so its reads need not be small. With the second pass's 64 KiB,
 * `-T fields` on 1 M frames of the mix took 3.29–4.72 s against 3.66–5.26 with 16 KiB for
 * both (six runs each, alternating); NDJSON and text the same or a little less.
 */
const FIRST_CHUNK = 1 << 18;
/**
 * Records in one batch at most: when a request that waited its whole timeout settles,
 * every frame behind it (seconds of capture) is ready at once, and is written a batch at
 * a time rather than made into records all together. Small, for the same reason.
 */
const BATCH = 64;

/** Reads a file in order, a chunk at a time, through a capture parser. */
class Reader {
  readonly #fd: number;
  readonly #parser: CaptureParser;
  #position = 0;
  #ended = false;

  /** The buffer read into again and again, when the reader's caller keeps nothing of a chunk past the next read. */
  readonly #reused: Buffer | undefined;
  /** Buffers read into since the last {@link recycle} (the newest last), and buffers free for reuse. */
  #used: Buffer[] = [];
  #free: Buffer[] = [];

  constructor(
    path: string,
    options: DissectOptions,
    readonly chunk: number,
    reuse: boolean,
  ) {
    this.#fd = openSync(path, 'r');
    this.#parser = new CaptureParser(options.capture);
    this.#reused = reuse ? Buffer.allocUnsafe(chunk) : undefined;
  }

  /** Nothing made from the chunks read so far is held any more, but from the newest: their buffers are read into again. */
  recycle(): void {
    const newest = this.#used.pop();
    for (const b of this.#used) this.#free.push(b);
    this.#used = newest ? [newest] : [];
  }

  /** The items of the next chunk (the parser's last ones at the end of the file); undefined once ended. */
  next(): (CapturePacket | CaptureError)[] | undefined {
    if (this.#ended) return undefined;
    // Else a fresh or recycled buffer: the packets are views into it, and the records made of them outlive this call.
    let buf = this.#reused;
    if (!buf) {
      buf = this.#free.pop() ?? Buffer.allocUnsafe(this.chunk);
      this.#used.push(buf);
    }
    const n = readSync(this.#fd, buf, 0, this.chunk, this.#position);
    this.#position += n;
    if (n === 0) {
      this.#ended = true;
      return [...this.#parser.finish()];
    }
    // A plain view: a frame cut from a Buffer is a Buffer, and Node makes those slowly.
    return [...this.#parser.push(new Uint8Array(buf.buffer, buf.byteOffset, n))];
  }

  close(): void {
    closeSync(this.#fd);
  }
}

/**
 * A file's bytes in order, a chunk at a time, for a caller that keeps nothing of a chunk
 * past the next (one buffer is read into again and again: `captureStats`); a chunk of a
 * quarter mebibyte by default, as nothing of it lives on (reads of 16 KiB were a
 * sixteenth of the first pass).
 */
export function* fileChunks(path: string, chunk = 1 << 18): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(chunk);
    for (let position = 0; ;) {
      const n = readSync(fd, buf, 0, chunk, position);
      if (n === 0) return;
      position += n;
      yield new Uint8Array(buf.buffer, buf.byteOffset, n);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Dissects a pcap or pcapng file in two passes: yields the packets each chunk of the
 * first pass settled, in frame order, and, if the file is damaged, every intact packet
 * followed by one capture error. `stats` is filled in as it goes; `chunk` is how many
 * bytes each pass reads at a time (by default 64 KiB the second, 256 KiB the first).
 */
export async function* dissectCaptureFile<A extends boolean = false>(
  path: string,
  options: DissectOptions & { readonly allFrames?: A } = {},
  stats: DissectStats = newStats(),
  chunk = CHUNK,
): AsyncGenerator<DissectBatch<ListedBy<A>>> {
  if (readsAlone(options)) {
    yield* onePass<A>(path, options, stats, chunk);
    return;
  }
  const links = new FirstPass(linkOptions(options), stats);
  const maker = new RecordMaker(recordOptions(options), stats);
  // The first pass keeps nothing of a chunk (the pairer copies what it holds, the capture
  // parser and the reassembler theirs): one buffer serves, instead of a megabyte of
  // garbage per read that only a collection lets go of.
  // A chunk size given (a test's small one) is both passes'.
  const first = new Reader(path, options, chunk === CHUNK ? FIRST_CHUNK : chunk, true);
  const second = new Reader(path, options, chunk, false);
  /** The second pass's frames read but not rendered yet, from `head`. */
  let behind: (CapturePacket | CaptureError)[] = [];
  let head = 0;
  const facts = links;

  /** Records of the frames whose links are final (all of them once the first pass is done), {@link BATCH} at most. */
  const settle = (all: boolean): ListedBy<A>[] => {
    const out: ListedBy<A>[] = [];
    while (facts.size && out.length < BATCH && (all || facts.isFinal(facts.first))) {
      while (head === behind.length) {
        const items = second.next();
        if (!items) throw new Error(`${path}: the second pass ended before frame ${facts.first}: was the file changed while it was read?`);
        behind = items;
        head = 0;
      }
      const item = behind[head++]!;
      if (item.kind === 'error')
        throw new Error(
          `${path}: the second pass met an error the first did not (${item.message}): was the file changed while it was read?`,
        );
      if (item.index !== facts.first)
        throw new Error(`${path}: the second pass read frame ${item.index} where the first read ${facts.first}`);
      const p = maker.frame(item, facts.shift());
      if (p) out.push(p as ListedBy<A>);
    }
    return out;
  };

  const resumed = resumer(options, maker, second);
  try {
    for (let items = first.next(); items; items = first.next()) {
      let error: CaptureError | undefined;
      for (const item of items) {
        if (item.kind === 'error') {
          error = item;
          break;
        }
        links.push(item);
      }
      if (error) links.finish();
      for (let packets = settle(!!error); packets.length; packets = settle(!!error)) {
        yield { packets };
        resumed();
      }
      // Frames settled into no record (other traffic, or all a display filter dropped) hold
      // nothing either: without this their buffers would pile up until a record came.
      resumed();
      if (error) {
        maker.finish();
        yield { packets: [], error };
        return;
      }
    }
    links.finish();
    for (let packets = settle(true); packets.length; packets = settle(true)) {
      yield { packets };
      resumed();
    }
    maker.finish();
    yield { packets: [] };
  } finally {
    first.close();
    second.close();
  }
}

/**
 * What a reader does when the caller asks for the next batch: with `reuseBuffers`, the caller
 * holds none of the records before it, so their buffers are used again.
 */
const resumer =
  (options: DissectOptions, ...recycled: { recycle(): void }[]) =>
  (): void => {
    if (!options.reuseBuffers) return;
    for (const r of recycled) r.recycle();
  };

/**
 * A file read once, each frame by recognition alone, where nothing the caller reads needs
 * pairing ({@link readsAlone}): what {@link dissectCaptureFile} does then, {@link BATCH}
 * records a batch.
 */
async function* onePass<A extends boolean>(
  path: string,
  options: DissectOptions,
  stats: DissectStats,
  chunk: number,
): AsyncGenerator<DissectBatch<ListedBy<A>>> {
  const maker = new RecordMaker(recordOptions(options), stats);
  const reader = new Reader(path, options, chunk, false);
  const resumed = resumer(options, maker, reader);
  try {
    for (let items = reader.next(); items; items = reader.next()) {
      let packets: ListedBy<A>[] = [];
      for (const item of items) {
        if (item.kind === 'error') {
          if (packets.length) yield { packets };
          maker.finish();
          yield { packets: [], error: item };
          return;
        }
        const p = maker.frame(item, ALONE);
        if (p) packets.push(p as ListedBy<A>);
        if (packets.length < BATCH) continue;
        yield { packets };
        packets = [];
        resumed();
      }
      if (packets.length) yield { packets };
      resumed();
    }
    maker.finish();
    yield { packets: [] };
  } finally {
    reader.close();
  }
}
