/**
 * What `pnpm bench dissect` judges: the issue's floors, each a rate or a multiple of tshark's frame
 * walk on the same file in the same run (a slow or busy machine slows both, so the ratio says what
 * the rate cannot on it), peak RSS, and the flood's counts against the generator's truth.
 */
import type { Format } from './dissect.ts';
import type { FloodSummary } from './flood.ts';
import { DEFAULT_MAX_HELD_BYTES } from '@gamequery/dissect';
import { formatRate } from './harness.ts';
import { showPeak, type Figure } from './measure.ts';

/** Met when the command reaches `rate` packets/s, or `ratio` times tshark's frame walk on the same file. */
export interface RateFloor {
  readonly rate: number;
  readonly ratio: number;
}

/** A run of `pnpm bench dissect`: an output format, or `stats -` or `dissect -F ndjson -` fed the capture through a pipe. */
export type Mode = Format | 'stats-pipe' | 'ndjson-pipe';

/** On the real mix, at 1 M and 5 M frames. JSON has none. */
export const MIX_FLOORS: Readonly<Partial<Record<Mode, RateFloor>>> = {
  ndjson: { rate: 150_000, ratio: 4 },
  text: { rate: 150_000, ratio: 4 },
  fields: { rate: 300_000, ratio: 8 },
  stats: { rate: 500_000, ratio: 12 },
};

/** On the flood. */
export const FLOOD_FLOORS: Readonly<Partial<Record<Mode, RateFloor>>> = {
  stats: { rate: 500_000, ratio: 12 },
  ndjson: { rate: 150_000, ratio: 4 },
};

/** Peak RSS at most, in bytes (200 MB): every format on the real mix, `stats`, NDJSON and `stats -` on the flood. */
export const RSS_FLOOR = 200e6;
/** How far apart the peaks at 1 M and 5 M frames may be. */
export const RSS_SPREAD = 0.1;
export const FLOOD_RSS: readonly Mode[] = ['stats', 'ndjson', 'stats-pipe'];
/**
 * NDJSON from a pipe holds each request's frame until its reply or its timeout: its bound is the
 * others' and the held frames' (the dissector's `maxHeldBytes`, docs/design.md), past which it writes
 * the oldest as incomplete and says so on stderr.
 */
export const PIPE_RSS: Bound = {
  bytes: RSS_FLOOR + DEFAULT_MAX_HELD_BYTES,
  text: `200 MB + maxHeldBytes (${showPeak(RSS_FLOOR + DEFAULT_MAX_HELD_BYTES)})`,
};

/** A peak RSS bound and how it reads. */
export interface Bound {
  readonly bytes: number;
  readonly text: string;
}

export const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');

/** Prints whether `figure` meets `floor`, judged against `walk` (tshark's frame walk) when there is one. */
export function judgeRate(label: string, floor: RateFloor, figure: Figure | undefined, walk: Figure | undefined): void {
  const goal = `≥ ${formatRate(floor.rate).padStart(5)} packets/s or ≥ ${String(floor.ratio).padStart(2)}× the frame walk`;
  if (!figure) {
    console.log(`  ${label.padEnd(40)} ${goal}: no figure`);
    return;
  }
  const ratio = walk ? figure.rate / walk.rate : undefined;
  const ok = figure.rate >= floor.rate || (ratio !== undefined && ratio >= floor.ratio);
  const shown = `${formatRate(figure.rate)}, ${ratio === undefined ? 'no tshark figure' : `${ratio.toFixed(2)}×`}`;
  console.log(`  ${label.padEnd(40)} ${goal}: ${met(ok)} (${shown})`);
}

/** Prints whether the peak RSS of `figure` is within {@link RSS_FLOOR}, and within {@link RSS_SPREAD} of `base`'s when given. */
export function judgePeak(
  label: string,
  figure: Figure | undefined,
  base?: Figure,
  bound: Bound = { bytes: RSS_FLOOR, text: '200 MB' },
): void {
  const peak = figure?.peak;
  if (peak === undefined) {
    console.log(`  peak RSS ${label.padEnd(31)} ≤ ${bound.text}: no figure`);
    return;
  }
  const spread = base?.peak !== undefined ? Math.abs(peak - base.peak) / Math.min(peak, base.peak) : undefined;
  console.log(
    `  peak RSS ${label.padEnd(31)} ≤ ${bound.text}: ${met(peak <= bound.bytes)} (${showPeak(peak)})` +
      (spread === undefined ? '' : `; within 10 % of 1 M: ${met(spread <= RSS_SPREAD)} (${(100 * spread).toFixed(0)} %)`),
  );
}

/** The totals of `gamequery stats -F json` (its `serverStats.totals`) that the flood's truth states. */
interface Totals {
  readonly servers?: number;
  readonly requests: Readonly<Record<string, number>>;
  readonly answered: number;
  readonly unanswered: number;
  readonly replies: number;
  readonly duplicates?: number;
  readonly late?: number;
  readonly unmatched?: number;
  readonly malformed?: number;
}

/** What a generated capture's statistics must say: a flood's (bench/flood.ts) or a scan's (bench/scan.ts, which also says how many servers). */
export interface CountsTruth {
  readonly requests: Readonly<Record<string, number>>;
  readonly answered: number;
  readonly unanswered: number;
  readonly replies: number;
  readonly servers?: number;
}

/**
 * Compares the document `gamequery stats FILE -F json` wrote with a generated capture's truth:
 * requests by message, answered, unanswered and replies (and servers, where the truth says),
 * each exactly. Returns whether all match, and a line per difference (and the duplicates, late,
 * unmatched and malformed it counted, which the generated captures have none of, when it counted any).
 */
export function truthCounts(truth: CountsTruth, document: string): { readonly exact: boolean; readonly lines: readonly string[] } {
  let totals: Totals | undefined;
  try {
    totals = (JSON.parse(document) as { serverStats?: { totals?: Totals } }).serverStats?.totals;
  } catch (error) {
    return { exact: false, lines: [`its output is not JSON: ${(error as Error).message}`] };
  }
  if (!totals) return { exact: false, lines: ['its output has no serverStats.totals'] };
  const lines: string[] = [];
  const compare = (name: string, expected: number, got: number | undefined): void => {
    if (got !== expected) lines.push(`${name}: ${expected} in the capture, ${got ?? 'none'} counted`);
  };
  for (const m of new Set([...Object.keys(truth.requests), ...Object.keys(totals.requests ?? {})]))
    compare(`requests ${m}`, truth.requests[m] ?? 0, totals.requests?.[m] ?? 0);
  compare('answered', truth.answered, totals.answered);
  compare('unanswered', truth.unanswered, totals.unanswered);
  compare('replies', truth.replies, totals.replies);
  if (truth.servers !== undefined) compare('servers', truth.servers, totals.servers);
  const exact = lines.length === 0;
  const extra = (['duplicates', 'late', 'unmatched', 'malformed'] as const).filter((k) => (totals[k] ?? 0) > 0);
  if (extra.length) lines.push(`also counted (the capture has none): ${extra.map((k) => `${k} ${totals[k]}`).join(', ')}`);
  return { exact, lines };
}

/**
 * What `gamequery stats --by source -z io,stat,1 -F json` says of the flood against its truth:
 * the five unspoofed hosts first with exact counts, the RCON guesser with its exact guesses,
 * and every request in the per-second rows.
 */
export function attackCounts(truth: FloodSummary, document: string): { readonly exact: boolean; readonly lines: readonly string[] } {
  interface Doc {
    readonly sourceStats?: {
      readonly sources: readonly { address: string; requests: number; error: number }[];
      readonly rconGuessers: readonly { address: string; denied: number; distinctPasswords: number }[];
    };
    readonly ioStats?: { readonly rows: readonly { requests: number }[] };
  }
  let doc: Doc;
  try {
    doc = JSON.parse(document) as Doc;
  } catch (error) {
    return { exact: false, lines: [`its output is not JSON: ${(error as Error).message}`] };
  }
  const lines: string[] = [];
  const heavy = [...truth.heavyHosts].sort((a, b) => b.requests - a.requests);
  const top = doc.sourceStats?.sources.slice(0, heavy.length) ?? [];
  heavy.forEach((h, i) => {
    const s = top[i];
    if (!s || s.address !== h.address || s.requests !== h.requests || s.error !== 0)
      lines.push(
        `source ${i + 1}: ${h.address} ${h.requests} in the capture, ${s ? `${s.address} ${s.requests} ±${s.error}` : 'none'} listed`,
      );
  });
  const g = doc.sourceStats?.rconGuessers[0];
  const want = truth.guesser;
  if (!g || g.address !== want.address || g.denied !== want.guesses || g.distinctPasswords !== want.distinctPasswords)
    lines.push(
      `guesser: ${want.address} ${want.guesses} guesses in the capture, ${g ? `${g.address} ${g.denied} (${g.distinctPasswords} distinct)` : 'none'} found`,
    );
  const requests = Object.values(truth.requests).reduce((a, b) => a + b, 0);
  const perSecond = doc.ioStats?.rows.reduce((n, r) => n + r.requests, 0);
  if (perSecond !== requests) lines.push(`requests per second: ${requests} in the capture, ${perSecond ?? 'none'} in the rows`);
  return { exact: lines.length === 0, lines };
}
