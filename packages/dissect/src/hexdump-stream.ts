/**
 * A hex dump dissected as it is read, from a stream of bytes (a pipe, a file of any size): lines
 * are parsed as they come, each packet is dissected when its dump ends, and nothing of the text
 * is kept past its line. Memory is bounded whatever the input: a line is kept up to
 * {@link MAX_LINE_LENGTH} characters, a packet up to 1 MiB, diagnostics up to 1000, the
 * dissector's held frames up to its `maxHeldBytes`.
 *
 * An input with no dump line in its first MiB (or none at all) is not a hex dump: reading stops
 * with a {@link NotAHexDumpError}, rather than reading gigabytes of something else.
 */
import { Dissector, type DissectBatch, type DissectOptions } from './dissect.ts';
import { HexDumpParser } from './hex/parse.ts';
import { LineSplitter, MAX_LINE_LENGTH } from './hex/lines.ts';
import type { HexDumpDiagnostic, HexDumpOptions, HexPacket } from './hex/types.ts';
import { pushDumped } from './hexdump.ts';
import { recognitionOf } from './record-maker.ts';
import type { DissectedRecord, ListedBy } from './frame-record.ts';
import type { PacketRecord } from './packet-record.ts';

/** Bytes read without a single dump line before a stream is given up on. */
export const GIVE_UP_AFTER = 1 << 20;

/** Bytes one dumped packet may hold in a stream (a frame is at most 256 KiB in a capture). */
export const MAX_STREAM_PACKET = 1 << 20;

/** The input holds no hex dump (in its first MiB, or at all). */
export class NotAHexDumpError extends Error {
  override readonly name = 'NotAHexDumpError';
  readonly info: { readonly bytesRead: number; readonly lines: number };
  constructor(message: string, info: { readonly bytesRead: number; readonly lines: number }) {
    super(message);
    this.info = info;
  }
}

/**
 * Options of {@link dissectHexDumpStream}: the dissector's, the hex dump parser's (`hex`) and when to give
 * up on text that is not a dump.
 */
export interface HexStreamOptions extends DissectOptions {
  readonly hex?: HexDumpOptions;
  /** Give up after this many bytes without a dump line (default 1 MiB). */
  readonly giveUpAfter?: number;
}

/** A batch of packets; the last one carries the parser's diagnostics (errors and warnings, in line order). */
export interface HexBatch<R extends DissectedRecord = PacketRecord> extends DissectBatch<R> {
  readonly diagnostics?: readonly HexDumpDiagnostic[];
}

const lines = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;
const MiB = (n: number): string => (n % (1 << 20) === 0 ? `${n / (1 << 20)} MiB` : `${n} bytes`);

/**
 * Dissects the hex dumps in a stream of text (UTF-8), yielding packets as their dumps end. The
 * last batch carries the diagnostics. Throws {@link NotAHexDumpError} when the input has no
 * dump line in its first `giveUpAfter` bytes, or none at all.
 */
export async function* dissectHexDumpStream<A extends boolean = false>(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: HexStreamOptions & { readonly allFrames?: A } = {},
  dissector: Dissector<ListedBy<A>> = new Dissector<ListedBy<A>>(options),
): AsyncGenerator<HexBatch<ListedBy<A>>> {
  const parser = new HexDumpParser({ maxPacketBytes: MAX_STREAM_PACKET, ...options.hex });
  let lineCount = 0;
  const splitter = new LineSplitter(
    {
      line: (text, n) => {
        lineCount = n;
        parser.line(text, n);
      },
      overlong: (n, limit) => {
        lineCount = n;
        parser.overlong(n, limit);
      },
    },
    MAX_LINE_LENGTH,
  );
  const giveUpAfter = options.giveUpAfter ?? GIVE_UP_AFTER;

  // The panes of one tshark frame come one after another: the frame is dissected once a packet
  // of another frame comes (or the input ends), as its reassembled pane if it has one.
  let frame: HexPacket | undefined;
  let index = 0;
  const protocols = recognitionOf(options).set;
  const take = (packets: ListedBy<A>[], end: boolean): void => {
    for (const p of parser.take()) {
      if (frame !== undefined && p.frame === frame.frame) {
        if (p.pane?.kind === 'reassembled') frame = p;
        continue;
      }
      if (frame !== undefined) for (const r of pushDumped(dissector, ++index, frame.bytes, protocols)) packets.push(r);
      frame = p;
    }
    if (end && frame !== undefined) {
      for (const r of pushDumped(dissector, ++index, frame.bytes, protocols)) packets.push(r);
      frame = undefined;
    }
  };

  for await (const chunk of source) {
    splitter.push(chunk);
    if (parser.rows === 0 && splitter.bytes >= giveUpAfter) {
      throw new NotAHexDumpError(`no hex dump line in the first ${MiB(giveUpAfter)} (${lines(lineCount)}): not a hex dump`, {
        bytesRead: splitter.bytes,
        lines: lineCount,
      });
    }
    const packets: ListedBy<A>[] = [];
    take(packets, false);
    if (packets.length) yield { packets };
  }
  splitter.finish();
  const result = parser.finish();
  if (parser.rows === 0) {
    throw new NotAHexDumpError(`no hex dump in it (${lines(lineCount)} of text): not a hex dump`, {
      bytesRead: splitter.bytes,
      lines: lineCount,
    });
  }
  const packets: ListedBy<A>[] = [];
  take(packets, true);
  for (const p of dissector.finish()) packets.push(p);
  yield { packets, diagnostics: result.diagnostics };
}
