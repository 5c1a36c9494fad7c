/**
 * What the main thread of `dissectCaptureParallel` and its shard workers say to each
 * other, and the one rendering both sides agree on.
 */
import type { ByteSink } from '@gamequery/codec';
import type { CaptureError } from '../capture/types.ts';
import type { DissectOptions, DissectStats } from '../dissect.ts';
import type { PacketRecord } from '../record.ts';
import { renderPacketText, writePacketLine, type RenderOptions } from '../render/packet.ts';

/** What a packet becomes: its JSON object (`writePacketLine`) or its text block (`renderPacketText`, with a newline). */
export type PieceFormat = 'json' | 'text';

export interface ShardSetup {
  readonly index: number;
  readonly count: number;
  readonly options: Omit<DissectOptions, 'shard'>;
  readonly as: PieceFormat;
  readonly render: RenderOptions;
  /** Written before each piece (the merge drops it before the very first) and after each. */
  readonly separator: string;
  readonly terminator: string;
}

/** A chunk of the capture (a view of shared memory: every shard reads the same bytes), or its end. */
export type ToShard = { readonly kind: 'chunk'; readonly data: Uint8Array } | { readonly kind: 'end' };

/** A shard's answer to each message: the pieces it completed, in frame order. */
export interface FromShard {
  /** Frame number of each piece. */
  readonly frames: Int32Array;
  /** Where each piece ends in `bytes` (each starts where the one before ended), its separator and terminator included. */
  readonly ends: Int32Array;
  readonly bytes: Uint8Array;
  /** No piece this shard sends later has a frame number below this (Infinity once it is done). */
  readonly low: number;
  readonly stats: DissectStats;
  readonly error?: CaptureError;
}

export function writePiece(p: PacketRecord, sink: ByteSink, as: PieceFormat, render: RenderOptions): void {
  if (as === 'json') writePacketLine(p, sink, render);
  else sink.raw(renderPacketText(p, render).join('\n') + '\n');
}

/** Stats of several shards, added up. */
export function addStats(all: readonly DissectStats[]): DissectStats {
  const sum: DissectStats = { frames: 0, udp: 0, game: 0, nonGame: 0, skipped: {}, exchanges: 0, unanswered: 0, unmatched: 0, duplicates: 0 };
  for (const s of all) {
    for (const key of ['frames', 'udp', 'game', 'nonGame', 'exchanges', 'unanswered', 'unmatched', 'duplicates'] as const) sum[key] += s[key];
    for (const [reason, n] of Object.entries(s.skipped)) sum.skipped[reason] = (sum.skipped[reason] ?? 0) + n;
  }
  return sum;
}
