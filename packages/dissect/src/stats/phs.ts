/**
 * Protocol hierarchy statistics (`-z io,phs[,FILTER]`, as tshark takes it): every frame's
 * protocols, outermost first, as a tree, with the frames each protocol appears in at its
 * place and their bytes on the wire. What a capture holds at a glance (how much of it is
 * query traffic, fragments, other UDP, TCP), in the words and layout of tshark's table.
 *
 * A frame's protocols are its `frame.protocols` chain as tshark's tree shows them at its top
 * level: `ethertype` and an IPv6 extension header (`ipv6.fraghdr`) sit inside another
 * protocol's tree there, and are left out; a frame cut short by the snapshot length before
 * its transport's payload ends in tshark's `_ws.short`. The tree keeps a node per distinct
 * path (a few dozen in any capture), so memory does not grow with the capture.
 */

import { FrameRecord, protocolsOf, type DissectedRecord } from '../frame-record.ts';
import { Packet } from '../packet-record.ts';

/** A protocol at its place in the hierarchy. */
export interface PhsNode {
  /** tshark's filter name of the protocol: `eth`, `ip`, `udp`, `samp`, `data`, `_ws.short` … */
  readonly protocol: string;
  readonly frames: number;
  /** Bytes of those frames on the wire (`frame.len`). */
  readonly bytes: number;
  /** The protocols inside it, in the order they were first seen. */
  readonly children: readonly PhsNode[];
}

/** The hierarchy: the filter its frames passed (empty: every frame), and its outermost protocols. */
export interface PhsReport {
  readonly filter: string;
  readonly frames: number;
  readonly bytes: number;
  readonly protocols: readonly PhsNode[];
}

interface Counted {
  protocol: string;
  frames: number;
  bytes: number;
  children: Counted[];
}

/** A filter that names `frame` or one of its fields (`frame.len`). */
const FRAME_FIELD = /(?:^|[^\w.])frame(?![\w])/;

/** The words of a chain tshark's hierarchy shows (see the module comment). */
const shown = (word: string): boolean => word !== 'ethertype' && !word.includes('.');

/** Where a chain ends without a payload's protocol: a frame cut there by the snapshot length ends in `_ws.short`, as tshark's tree. */
const TRANSPORTS = new Set(['udp', 'tcp', 'ip', 'ipv6', 'eth', 'sll', 'sll2']);

/** What tshark's tree shows after a transport whose payload the snapshot length cut. */
const SHORT = '_ws.short';

/**
 * A frame's place in the hierarchy: the protocols of its `frame.protocols` chain that the
 * hierarchy shows, outermost first, and `_ws.short` after a transport where `cut` (see the
 * module comment).
 */
export function phsPath(chain: string, cut: boolean): string[] {
  const words = chain.split(':').filter(shown);
  if (cut && words.length && TRANSPORTS.has(words[words.length - 1]!)) words.push(SHORT);
  return words;
}

/** A record's chain, its length on the wire (a bare payload's own length) and whether the snapshot length cut it. */
function placeOf(p: DissectedRecord): { readonly chain: string; readonly wire: number; readonly cut: boolean } {
  const framed = p instanceof Packet || p instanceof FrameRecord ? p : undefined;
  const wire = framed?.frameLength;
  const captured = framed?.capturedLength;
  return {
    chain: protocolsOf(p),
    wire: wire ?? (p instanceof FrameRecord ? 0 : p.payloadLength),
    cut: wire !== undefined && captured !== undefined && captured < wire,
  };
}

/** A record's place in the hierarchy ({@link phsPath}), its words joined by colons: `eth:ip:udp:samp`. */
export function recordPhsPath(p: DissectedRecord): string {
  const { chain, cut } = placeOf(p);
  return phsPath(chain, cut).join(':');
}

/** A protocol hidden from the hierarchy between two it shows: `ethertype`, an IPv6 extension header (`ipv6.fraghdr`). */
const HIDDEN = '(:ethertype|:[^:]*[.][^:]*)*';

/**
 * The display filter that passes the frames at a node of the hierarchy and below it (with the
 * hierarchy's own filter, render/charts.ts `within`, the frames the node counts): those whose
 * `frame.protocols` shows `path` (the node's protocols from the outermost, as {@link phsPath}
 * gives them) at its start, with what the hierarchy hides between them; `_ws.short`, which no
 * chain holds, as the chain's end and a frame shorter than on the wire. The empty path is the
 * `frame` node (every frame).
 */
export function phsDisplay(path: readonly string[]): string {
  const short = path[path.length - 1] === SHORT;
  const words = short ? path.slice(0, -1) : path;
  if (!words.length) return 'frame';
  const re = `^${words.map((w) => w.replace(/[^\w]/g, (c) => `[${c}]`)).join(`${HIDDEN}:`)}${short ? `${HIDDEN}$` : '(:|$)'}`;
  return `frame.protocols matches "${re}"${short ? ' && frame.cap_len < frame.len' : ''}`;
}

/**
 * Counts frames into the hierarchy ({@link addRecord} a record, or {@link add} a chain) and
 * reports it ({@link report}; {@link phsLines} writes it as tshark does).
 */
export class ProtocolHierarchy {
  /** Frames and bytes by chain (and whether cut short), added into the tree when it is reported. */
  readonly #chains = new Map<string, { frames: number; bytes: number }>();
  #frames = 0;
  #bytes = 0;

  constructor(readonly filter = '') {}

  /**
   * A frame: its `frame.protocols` chain, its length on the wire, and whether the snapshot
   * length cut it (its captured bytes fewer).
   */
  add(chain: string, bytes: number, cut: boolean): void {
    this.#frames++;
    this.#bytes += bytes;
    const key = cut ? `${chain}\n` : chain;
    const c = this.#chains.get(key);
    if (c) {
      c.frames++;
      c.bytes += bytes;
    } else this.#chains.set(key, { frames: 1, bytes });
  }

  /** A record's frame: its protocols, its length on the wire (a bare payload's own length) and whether it was cut. */
  addRecord(p: DissectedRecord): void {
    const { chain, wire, cut } = placeOf(p);
    this.add(chain, wire, cut);
  }

  report(): PhsReport {
    const top: Counted[] = [];
    for (const [key, { frames, bytes }] of this.#chains) {
      const cut = key.endsWith('\n');
      const words = phsPath(cut ? key.slice(0, -1) : key, cut);
      let level = top;
      for (const protocol of words) {
        let node = level.find((n) => n.protocol === protocol);
        if (!node) level.push((node = { protocol, frames: 0, bytes: 0, children: [] }));
        node.frames += frames;
        node.bytes += bytes;
        level = node.children;
      }
    }
    // tshark's hierarchy starts at `frame` where its filter reads a frame field (the frame's item is then in the tree), else at the link layer.
    const protocols =
      FRAME_FIELD.test(this.filter) && top.length ? [{ protocol: 'frame', frames: this.#frames, bytes: this.#bytes, children: top }] : top;
    return { filter: this.filter, frames: this.#frames, bytes: this.#bytes, protocols };
  }
}

/** The hierarchy as tshark prints it: a blank line, a rule, the heading and filter, a protocol a line, a rule. */
export function* phsLines(r: PhsReport): Generator<string> {
  const rule = '='.repeat(67);
  yield '';
  yield rule;
  yield 'Protocol Hierarchy Statistics';
  yield `Filter: ${r.filter}`;
  yield '';
  const walk = function* (nodes: readonly PhsNode[], depth: number): Generator<string> {
    for (const n of nodes) {
      // tshark writes at most 16 levels of indent, then an ellipsis.
      const indent = depth > 16 ? `${'  '.repeat(16)}...` : '  '.repeat(depth);
      yield `${`${indent}${n.protocol}`.padEnd(40)} frames:${n.frames} bytes:${n.bytes}`;
      yield* walk(n.children, depth + 1);
    }
  };
  yield* walk(r.protocols, 0);
  yield rule;
}

/** `io,phs` or `io,phs,FILTER` (tshark's syntax): the filter, empty for none; undefined for another statistic. */
export function parsePhs(arg: string): { readonly filter: string } | undefined {
  const m = /^io,phs(?:,(.*))?$/.exec(arg);
  return m ? { filter: m[1] ?? '' } : undefined;
}
