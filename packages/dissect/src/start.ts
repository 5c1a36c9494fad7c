/**
 * The time of a capture's first frame, the zero of relative times (`frame.time_relative`,
 * the summary lines' Time column), noted by the dissector against its stats object. Kept
 * beside the stats, not in them: the stats' JSON is public API and has no such field.
 */
import type { Timestamp } from './capture/timestamp.ts';
import type { DissectStats } from './options.ts';

const starts = new WeakMap<DissectStats, Timestamp>();

/** Notes the first frame's time of the dissection whose stats these are. */
export function noteStart(stats: DissectStats, time: Timestamp | null): void {
  if (time && !starts.has(stats)) starts.set(stats, time);
}

/** The time of the first frame of the dissection whose stats these are, once it has been read; undefined before, or without timestamps (a hex dump). */
export function captureStart(stats: DissectStats): Timestamp | undefined {
  return starts.get(stats);
}
