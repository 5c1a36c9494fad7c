/**
 * A worker of `dissectCaptureParallel`: reads every chunk of the capture (for the frame
 * numbers and the capture time), dissects the conversations of its shard, and answers
 * each chunk with the pieces it completed, rendered, in frame order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ByteSink } from '@gamequery/codec';
import { CaptureParser } from '../capture/reader.ts';
import type { CaptureError, CaptureItem } from '../capture/types.ts';
import { Dissector } from '../dissect.ts';
import type { PacketRecord } from '../record.ts';
import { writePiece, type FromShard, type ShardSetup, type ToShard } from './messages.ts';

const setup = workerData as ShardSetup;
const dissector = new Dissector({ ...setup.options, shard: { index: setup.index, count: setup.count } });
const parser = new CaptureParser(setup.options.capture);
let lastFrame = 0;
let done = false;
/** Room for an answer: the last one's size and a margin, so the buffer seldom grows (a copy) while it is written. */
let room = 1 << 18;

parentPort!.on('message', (message: ToShard) => {
  const sink = new ByteSink(room);
  const frames: number[] = [];
  const ends: number[] = [];
  const put = (records: PacketRecord[]): void => {
    for (const p of records) {
      sink.raw(setup.separator);
      writePiece(p, sink, setup.as, setup.render);
      sink.raw(setup.terminator);
      frames.push(p.frame);
      ends.push(sink.at);
    }
  };
  let error: CaptureError | undefined;
  if (!done) {
    const items: Iterable<CaptureItem> = message.kind === 'chunk' ? parser.push(message.data) : parser.finish();
    for (const item of items) {
      if (item.kind === 'error') {
        error = item;
        break;
      }
      lastFrame = item.index;
      put(dissector.pushFrame(item));
    }
    if (error || message.kind === 'end') {
      put(dissector.finish());
      done = true;
    }
  }
  room = Math.max(1 << 16, sink.at + (sink.at >> 2));
  // The buffer itself goes (transferred, not copied): the next answer gets a new one.
  const reply: FromShard = {
    frames: Int32Array.from(frames), ends: Int32Array.from(ends), bytes: sink.buf.subarray(0, sink.at),
    low: done ? Infinity : dissector.heldFrom ?? lastFrame + 1, stats: dissector.stats, ...(error ? { error } : {}),
  };
  parentPort!.postMessage(reply, [reply.frames.buffer as ArrayBuffer, reply.ends.buffer as ArrayBuffer, reply.bytes.buffer as ArrayBuffer]);
});
