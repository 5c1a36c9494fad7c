/**
 * A packet's text (`packetText`'s, and a newline) written into a byte sink: a record the fast
 * path made is written by its layout's compiled text emitter without building its tree.
 */
import { asciiBytes, titleOf as protocolTitle, type ByteSink, type InternalQueryLayout } from '@gamequery/codec/internal';
import { writeTimestamp, type Timestamp } from '../capture/timestamp.ts';
import { FrameRecord, type DissectedRecord } from '../frame-record.ts';
import { writeFrameRecordText, writeLayerLines } from './layers-text.ts';
import type { Endpoint } from '../net/types.ts';
import { Packet, type RecordKind } from '../packet-record.ts';
import { hasSecrets } from '../secrets.ts';
import { emitOptions } from './emit-options.ts';
import { emitFields, emitText } from './text-emitter/index.ts';
import { hexPane } from './hexpane.ts';
import { packetText, type RenderOptions } from './packet.ts';
import { expertLine } from './text.ts';
import { TREE_GENERATED, outerPickLines } from './fields-line.ts';
import { RenderCache } from '../tree-cache.ts';
import { keepOnly } from './only.ts';
import type { EmitTreeOptions } from './emit-options.ts';

/** Text of payloads seen lately, per set of emit options (the tree), and per selection too (its fields). */
const trees = new WeakMap<EmitTreeOptions, RenderCache>();
const picked = new WeakMap<readonly string[], WeakMap<EmitTreeOptions, RenderCache>>();

/**
 * Writes `payload`'s text as `write` would, copied from the cache when it was seen lately;
 * undefined where `write` declines (the caller renders otherwise).
 */
function cachedText(
  cache: RenderCache,
  layout: InternalQueryLayout,
  payload: Uint8Array,
  sink: ByteSink,
  write: () => number | undefined,
): number | undefined {
  if (!RenderCache.takes(payload)) return write();
  const key = RenderCache.key(payload);
  if (cache.find(key, layout, payload)) {
    sink.range(cache.found, cache.start, cache.end);
    return cache.end - cache.start;
  }
  const start = sink.at;
  const n = write();
  if (n !== undefined && cache.wants(key)) cache.set(key, layout, payload, sink.buf, start, sink.at, undefined);
  return n;
}

const NEWLINE = asciiBytes('\n');
const FRAME_TEXT = asciiBytes('Frame ');
const ARROW = new TextEncoder().encode(' → ');
const RESPONSE_IN_TEXT = asciiBytes('    [Response In: ');
const REQUEST_IN_TEXT = asciiBytes('    [Request In: ');
const TIME_TEXT = asciiBytes('    [Time: ');
const SECONDS_TEXT = asciiBytes(' seconds]\n');
const NO_RESPONSE_TEXT = asciiBytes('    [No response: ');
const DUPLICATE_TEXT = asciiBytes('    [Duplicate response to frame ');
const UNMATCHED_TEXT = asciiBytes('    [Unmatched response: ');
const INCOMPLETE_TEXT = asciiBytes('    [Pairing incomplete: ');
const AMBIGUOUS_TEXT = asciiBytes('    [Ambiguous: ');
const CLOSE_TEXT = asciiBytes(']\n');
const INDENT_TEXT = asciiBytes('    ');

/** The tree's title line of a kind of record, `SA:MP Query Protocol, info response`, made once per kind. */
const titles = new WeakMap<RecordKind, Uint8Array>();
function titleOf(kind: RecordKind): Uint8Array {
  let title = titles.get(kind);
  if (!title) titles.set(kind, (title = new TextEncoder().encode(`${protocolTitle(kind.protocol)}, ${kind.message} ${kind.direction}\n`)));
  return title;
}

/**
 * Writes {@link packetText}'s text and a newline into `sink` as UTF-8: the
 * text output of a capture of millions of packets. A record the dissector's fast path made
 * (its tree not built) is written without its tree: the header line, the tree by its
 * layout's compiled text emitter (or, for `fields` without `hex`, the selected fields by its
 * compiled extractor), the links, and the hex pane when asked. Anything else, or a hex pane
 * that marks fields or hides secrets (which needs the tree's byte ranges), goes through
 * {@link packetText}.
 */
export function writePacketText(p: DissectedRecord, sink: ByteSink, options: RenderOptions = {}, first?: Timestamp | null): void {
  if (options.only) {
    const from = sink.at;
    writePacketText(p, sink, { ...options, only: undefined }, first);
    keepOnly(sink, from, options.only);
    return;
  }
  if (p instanceof FrameRecord && !options.hex && !options.fields?.length) {
    writeFrameRecordText(p, first, sink);
    return;
  }
  const source = p instanceof Packet ? p.treeSource : undefined;
  const picks = options.fields?.length ? options.fields : undefined;
  const secrets = !!options.showSecrets;
  if (!source || p instanceof FrameRecord || (options.hex && (picks || (!secrets && hasSecrets(source.layout))))) {
    writeText(packetText(p, options, first), sink);
    return;
  }
  const q = p as Packet;
  const start = sink.at;
  if (!(options.layers && !picks && writeLayerLines(q, first, sink))) writeSummaryLine(q, sink);
  const layout = source.layout;
  const emit = emitOptions(source.codec, secrets);
  if (picks && !options.hex) {
    for (const line of outerPickLines(q, picks, first)) {
      sink.raw(line);
      sink.bytes(NEWLINE);
    }
    let byEmit = picked.get(picks);
    if (!byEmit) picked.set(picks, (byEmit = new WeakMap()));
    let cache = byEmit.get(emit);
    if (!cache) byEmit.set(emit, (cache = new RenderCache()));
    if (cachedText(cache, layout, q.payload, sink, () => emitFields(layout, q.payload, sink, picks, 'text', emit)) === undefined) {
      sink.at = start;
      writeText(packetText(p, options, first), sink);
      return;
    }
    // The generated items come last in the tree (generatedNodes), when selected.
    const [responseIn, requestIn, time] = generatedPicks(picks, q.protocol);
    if (responseIn && q.responseIn !== undefined) {
      sink.bytes(responseIn);
      sink.number(q.responseIn);
      sink.bytes(NEWLINE);
    }
    if (requestIn && q.requestIn !== undefined) {
      sink.bytes(requestIn);
      sink.number(q.requestIn);
      sink.bytes(NEWLINE);
    }
    if (time && q.responseTime !== undefined) {
      sink.bytes(time);
      sink.raw(q.responseTime);
      sink.bytes(SECONDS);
    }
    return;
  }
  sink.bytes(titleOf(q.kind));
  let cache = trees.get(emit);
  if (!cache) trees.set(emit, (cache = new RenderCache()));
  if (cachedText(cache, layout, q.payload, sink, () => emitText(layout, q.payload, sink, emit)) === undefined) {
    sink.at = start;
    writeText(packetText(p, options, first), sink);
    return;
  }
  if (q.responseIn !== undefined) {
    sink.bytes(RESPONSE_IN_TEXT);
    sink.number(q.responseIn);
    sink.bytes(CLOSE_TEXT);
  }
  if (q.requestIn !== undefined) {
    sink.bytes(REQUEST_IN_TEXT);
    sink.number(q.requestIn);
    sink.bytes(CLOSE_TEXT);
  }
  if (q.responseTime !== undefined) {
    sink.bytes(TIME_TEXT);
    sink.raw(q.responseTime);
    sink.bytes(SECONDS_TEXT);
  }
  generatedLine(sink, NO_RESPONSE_TEXT, q.unanswered);
  if (q.duplicateOf !== undefined) {
    sink.bytes(DUPLICATE_TEXT);
    sink.number(q.duplicateOf);
    sink.bytes(CLOSE_TEXT);
  }
  generatedLine(sink, UNMATCHED_TEXT, q.unmatched);
  generatedLine(sink, INCOMPLETE_TEXT, q.incomplete);
  generatedLine(sink, AMBIGUOUS_TEXT, q.ambiguous);
  if (q.warnings.length) {
    for (const w of q.warnings) {
      sink.bytes(INDENT_TEXT);
      sink.raw(expertLine(w));
      sink.bytes(NEWLINE);
    }
  }
  if (options.hex) {
    // Nothing to mark and nothing to hide (see above): the bytes as they are.
    sink.bytes(NEWLINE);
    writeText(hexPane(q.frameBytes ?? q.payload).join('\n'), sink);
  }
}

const SECONDS = asciiBytes(' seconds\n');

/** Per selection and protocol: the `-e` line heads of the generated items it selects (`    samp.response_in: `), or undefined. */
const generatedHeads = new WeakMap<readonly string[], Map<string, readonly (Uint8Array | undefined)[]>>();
function generatedPicks(picks: readonly string[], protocol: string): readonly (Uint8Array | undefined)[] {
  let byProtocol = generatedHeads.get(picks);
  if (!byProtocol) generatedHeads.set(picks, (byProtocol = new Map()));
  let heads = byProtocol.get(protocol);
  if (!heads) {
    // In generatedNodes' order, with its abbreviations.
    heads = TREE_GENERATED.map((name) => `${protocol}.${name}`).map((abbrev) =>
      picks.includes(abbrev) ? asciiBytes(`    ${abbrev}: `) : undefined,
    );
    byProtocol.set(protocol, heads);
  }
  return heads;
}

/** `    [prefix text]` and a newline, for text that is there. */
function generatedLine(sink: ByteSink, prefix: Uint8Array, text: string | undefined): void {
  if (!text) return;
  sink.bytes(prefix);
  sink.raw(text);
  sink.bytes(CLOSE_TEXT);
}

function writeText(text: string, sink: ByteSink): void {
  sink.raw(`${text}\n`);
}

/** The text's header line (packet.ts `headerLine`) and a newline. */
function writeSummaryLine(p: Packet, sink: ByteSink): void {
  sink.bytes(FRAME_TEXT);
  sink.number(p.frame);
  sink.ascii(': ');
  if (p.timestamp) {
    // The capture time as JSON writes it, without its quotes.
    const at = sink.at;
    writeTimestamp(sink, p.timestamp);
    sink.buf.copyWithin(at, at + 1, sink.at - 1);
    sink.at -= 2;
  } else {
    sink.ascii('-');
  }
  sink.ascii(' ');
  writeEndpointText(sink, p.src);
  sink.bytes(ARROW);
  writeEndpointText(sink, p.dst);
  sink.ascii(' ');
  sink.raw(p.summary);
  sink.bytes(NEWLINE);
}

/** net/address.ts `formatEndpoint`'s text (`ip:port`, `[ip]:port` for IPv6) written as bytes, without making a string: once per endpoint of a packet. */
function writeEndpointText(sink: ByteSink, e: Endpoint): void {
  if (e.ip.includes(':')) {
    sink.ascii('[');
    sink.ascii(e.ip);
    sink.ascii(']:');
  } else {
    sink.ascii(e.ip);
    sink.ascii(':');
  }
  sink.number(e.port);
}
