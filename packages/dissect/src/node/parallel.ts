/**
 * A capture dissected on several cores. Pairing only ever looks within one client's
 * conversations (every key names the client endpoint), so the conversations split into
 * shards by client (the codec's `shardOf`), one worker thread each. Every worker reads
 * the whole file — shared memory, read once — for the frame numbers and the capture
 * time, and dissects and renders only its shard; the main thread merges the rendered
 * packets by frame number. The output is byte for byte that of one `Dissector`.
 *
 *   file ──read──► chunk (SharedArrayBuffer) ──► worker 0: parse, shard 0 ─┐
 *                                           └──► worker 1: parse, shard 1 ─┴─► merge by frame ──► bytes
 *
 * A worker says with every answer the lowest frame it may still send (the oldest record
 * it holds back for pairing, or the next frame), so the merge never waits for more
 * than it must; at most `ahead` chunks are in flight, so memory stays flat.
 */
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CaptureError } from '../capture/types.ts';
import type { DissectOptions, DissectStats } from '../dissect.ts';
import type { RenderOptions } from '../render/packet.ts';
import { addStats, type FromShard, type PieceFormat, type ShardSetup, type ToShard } from './messages.ts';

export interface ParallelOptions extends Omit<DissectOptions, 'shard'> {
  /** Worker threads, one shard each. Default: the available parallelism, at most 8. */
  readonly workers?: number;
  /** What each packet becomes: its JSON object (`writePacketLine`) or its text block (`renderPacketText`). Default json. */
  readonly as?: PieceFormat;
  readonly render?: RenderOptions;
  /** Written between two packets (`,\n` for a JSON array) and after each (`\n` for NDJSON). Default: nothing. */
  readonly separator?: string;
  readonly terminator?: string;
  /** Bytes read at a time; each chunk is shared by every worker. Default 64 KiB. */
  readonly chunkBytes?: number;
  /** Chunks in flight at most (read but not yet answered by every worker). Default 4. */
  readonly ahead?: number;
}

export interface ParallelBatch {
  /** Rendered packets in frame order, with separators and terminators. */
  readonly bytes: Uint8Array;
  readonly packets: number;
  /** The shards' stats so far, added up (at the end: those of one dissector). */
  readonly stats: DissectStats;
  /** The capture is damaged here: the last batch, after every intact packet. */
  readonly error?: CaptureError;
}

/** A shard's answers not yet merged, oldest first, and where the merge is in the first. */
interface Shard {
  readonly worker: Worker;
  readonly answers: FromShard[];
  at: number;
  low: number;
  answered: number;
  stats: DissectStats;
}

const NO_STATS: DissectStats = { frames: 0, udp: 0, game: 0, nonGame: 0, skipped: {}, exchanges: 0, unanswered: 0, unmatched: 0, duplicates: 0 };
const encoder = new TextEncoder();

/**
 * Dissects the capture at `path` with worker threads, one shard of conversations each;
 * yields the rendered packets in frame order, in batches, then (if the file is damaged)
 * a last batch with the capture error. Same output as `dissectCaptureBatches` with one
 * dissector (and its stats), as long as no limit (`maxQueue`, the pairer's `maxPending`)
 * is reached: those apply per shard.
 */
export async function* dissectCaptureParallel(path: string, options: ParallelOptions = {}): AsyncGenerator<ParallelBatch> {
  const { workers = Math.min(availableParallelism(), 8), as = 'json', render = {}, separator = '', terminator = '', chunkBytes = 1 << 16, ahead = 4, ...dissect } = options;
  const count = Math.max(1, Math.floor(workers));
  const file = await open(path, 'r');
  const shards: Shard[] = [];
  let error: CaptureError | undefined;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  try {
    for (let index = 0; index < count; index++) {
      const worker = spawn({ index, count, options: dissect, as, render, separator, terminator });
      const shard: Shard = { worker, answers: [], at: 0, low: 1, answered: 0, stats: NO_STATS };
      worker.on('message', (a: FromShard) => {
        if (a.frames.length > 0) shard.answers.push(a);
        shard.answered++;
        shard.low = a.low;
        shard.stats = a.stats;
        error ??= a.error;
        wake?.();
      });
      worker.on('error', (e) => {
        failure ??= e;
        wake?.();
      });
      worker.on('exit', (code) => {
        failure ??= new Error(`dissect worker ${index} stopped (exit code ${code}) before the end of the capture`);
        wake?.();
      });
      shards.push(shard);
    }
    /** The first piece of all comes without its separator. */
    let skip = encoder.encode(separator).length;
    let sent = 0;
    let ended = false;
    for (;;) {
      if (failure) throw failure;
      // Read ahead while every worker keeps up; a damaged capture ends the reading (every worker stops at the same byte).
      if (error) ended = true;
      while (!ended && sent - Math.min(...shards.map((s) => s.answered)) < ahead) {
        const chunk = new Uint8Array(new SharedArrayBuffer(chunkBytes));
        const { bytesRead } = await file.read(chunk, 0, chunkBytes, null);
        const message: ToShard = bytesRead > 0 ? { kind: 'chunk', data: chunk.subarray(0, bytesRead) } : { kind: 'end' };
        for (const s of shards) s.worker.postMessage(message);
        sent++;
        ended = bytesRead === 0;
      }
      // The pieces that can go out, as runs of consecutive pieces of one answer: one copy each.
      const runs: { bytes: Uint8Array; start: number; end: number }[] = [];
      let size = 0;
      let packets = 0;
      for (let next = earliest(shards); next; next = earliest(shards)) {
        const a = next.answers[0]!;
        const from = next.at;
        const bound = boundFor(shards, next);
        while (next.at < a.frames.length && a.frames[next.at]! < bound) next.at++;
        const start = (from === 0 ? 0 : a.ends[from - 1]!) + skip;
        const end = a.ends[next.at - 1]!;
        skip = 0;
        runs.push({ bytes: a.bytes, start, end });
        size += end - start;
        packets += next.at - from;
        if (next.at === a.frames.length) {
          next.answers.shift();
          next.at = 0;
        }
      }
      const waiting = shards.some((s) => s.answered < sent);
      const finished = ended && !waiting && shards.every((s) => s.low === Infinity && s.answers.length === 0);
      if (packets > 0 || finished) {
        const bytes = new Uint8Array(size);
        let at = 0;
        for (const r of runs) {
          bytes.set(r.bytes.subarray(r.start, r.end), at);
          at += r.end - r.start;
        }
        yield { bytes, packets, stats: addStats(shards.map((s) => s.stats)), ...(finished && error ? { error } : {}) };
      }
      if (finished) return;
      // Answers that came while the consumer had the batch are in already: wait only for one still out.
      if (shards.some((s) => s.answered < sent)) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    }
  } finally {
    for (const s of shards) s.worker.removeAllListeners('exit');
    await file.close();
    await Promise.all(shards.map((s) => s.worker.terminate()));
  }
}

/** Where the next piece of `shard` is in its first answer, if it has one. */
const headOf = (s: Shard): number | undefined => {
  const a = s.answers[0];
  return a && s.at < a.frames.length ? a.frames[s.at] : undefined;
};

/** The frame below which `shard`'s pieces may go out: no other shard can still send one before it. */
function boundFor(shards: readonly Shard[], shard: Shard): number {
  let bound = Infinity;
  for (const s of shards) if (s !== shard) bound = Math.min(bound, headOf(s) ?? s.low);
  return bound;
}

/** The shard whose next piece comes next in frame order, if no other shard can still send an earlier one. */
function earliest(shards: readonly Shard[]): Shard | undefined {
  let best: Shard | undefined;
  let bestFrame = Infinity;
  for (const s of shards) {
    const head = headOf(s);
    if (head !== undefined && head < bestFrame) {
      best = s;
      bestFrame = head;
    }
  }
  return best && bestFrame < boundFor(shards, best) ? best : undefined;
}

/**
 * A shard worker. From the TypeScript sources (development, the tests) it loads them
 * through tsx as this thread does: Node 20 applies no `--import` hook to a worker's
 * entry module, so the worker registers tsx itself before importing its entry.
 */
function spawn(setup: ShardSetup): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './shard.ts' : './shard.js', import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData: setup });
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`, {
    eval: true, workerData: setup, execArgv: ['--conditions=@gamequery/source'],
  });
}
