/**
 * tshark's `-O PROTOCOLS`: the `-V` text with only the named protocols' subtrees. Every
 * top-level item keeps its title line; the lines under it stay only when its protocol is
 * named, as tshark decides at the top level alone (print.c: once a subtree is printed, all of
 * it is).
 *
 * The protocol of a title line is read from the words that begin it, the ones its writer
 * builds it from (net/layers.ts `LAYER_TITLES`, the codec's protocol titles), so that one
 * pass over the finished text serves every way a packet's text is written.
 */
import { builtInProtocols } from '@gamequery/codec';
import { titleOf, type ByteSink } from '@gamequery/codec/internal';
import { LAYER_TITLES } from '../net/layers.ts';

/** Title words and their abbreviations, the longest words first (`… Protocol v6` before `… Protocol`). */
const TITLES: readonly (readonly [words: string, abbrev: string])[] = [
  ['Frame ', 'frame'] as const,
  ['Data (', 'data'] as const,
  ...Object.entries(LAYER_TITLES).map(([abbrev, words]) => [words, abbrev === 'sll2' ? 'sll' : abbrev] as const),
  ...builtInProtocols.map((p) => [titleOf(p.name), p.name] as const),
].sort((a, b) => b[0].length - a[0].length);

/** The protocols `-O` can name, for its usage message. */
export const ONLY_PROTOCOLS: readonly string[] = [...new Set(TITLES.map(([, abbrev]) => abbrev))].sort();

/** The abbreviation of the protocol whose title `line` is; undefined for any other top-level line. */
export function titleProtocol(line: string): string | undefined {
  for (const [words, abbrev] of TITLES) {
    // A title's words end at a word's end: `Frame 12:` and `Data (11 bytes)` end theirs with the delimiter.
    if (line.startsWith(words) && !(/\w$/.test(words) && /^\w/.test(line.slice(words.length)))) return abbrev;
  }
  return undefined;
}

/** `lines` of `-V` text without those under each top-level item whose protocol is not in `only`. */
export function onlyLines(lines: readonly string[], only: ReadonlySet<string>): string[] {
  const kept: string[] = [];
  let keep = true;
  for (const line of lines) {
    if (!line.startsWith(' ')) {
      kept.push(line);
      const abbrev = titleProtocol(line);
      keep = abbrev !== undefined && only.has(abbrev);
    } else if (keep) kept.push(line);
  }
  return kept;
}

const decoder = new TextDecoder();

/** {@link onlyLines} on the text written into `sink` since `from` (whole lines, as UTF-8). */
export function keepOnly(sink: ByteSink, from: number, only: ReadonlySet<string>): void {
  const lines = decoder.decode(sink.buf.subarray(from, sink.at)).split('\n');
  sink.at = from;
  sink.raw(onlyLines(lines, only).join('\n'));
}
