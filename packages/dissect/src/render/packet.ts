/** Text and JSON renderings of a dissected packet. */
import {
  ByteSink, asciiBytes, nodeJson, protocolTitles, secretFields, type CodecOptions, type FieldNode, type JsonNode, type Layout,
} from '@gamequery/codec';
import { writeTimestamp } from '../capture/timestamp.ts';
import type { Endpoint } from '../net/types.ts';
import { Packet, type PacketRecord, type RecordKind } from '../record.ts';
import { hexPane, type ByteRange } from './hexpane.ts';
import { expertLine, renderTree, showOf } from './text.ts';

/** Options of the packet renderers (text, hex pane, JSON). */
export interface RenderOptions {
  readonly showSecrets?: boolean;
  /** Append the hex pane. */
  readonly hex?: boolean;
  /** Abbreviations whose bytes the hex pane highlights (and, in text, the only fields shown). */
  readonly fields?: readonly string[];
  /** Colour for the highlight (a TTY). */
  readonly colour?: boolean;
}

const endpoint = (e: { ip: string; port: number }): string => (e.ip.includes(':') ? `[${e.ip}]:${e.port}` : `${e.ip}:${e.port}`);

/** The generated items of a packet (links and response time), as tree nodes. */
export function generatedNodes(p: PacketRecord): FieldNode[] {
  const nodes: FieldNode[] = [];
  const add = (abbrev: string, label: string, value: number | string, show: string): void => {
    nodes.push({ abbrev: `${p.protocol}.${abbrev}`, label, offset: 0, length: 0, value, show, generated: true });
  };
  if (p.responseIn !== undefined) add('response_in', 'Response In', p.responseIn, String(p.responseIn));
  if (p.requestIn !== undefined) add('response_to', 'Request In', p.requestIn, String(p.requestIn));
  if (p.responseTime !== undefined) add('time', 'Time', p.responseTime, `${p.responseTime} seconds`);
  return nodes;
}

/** Every node of a tree, depth first. */
export function* walkNodes(nodes: readonly FieldNode[]): Generator<FieldNode> {
  for (const n of nodes) {
    yield n;
    if (n.children) yield* walkNodes(n.children);
  }
}

/** The one-line summary of a packet: frame number, capture time, source → destination and the info text. */
export function summaryLine(p: PacketRecord): string {
  return `Frame ${p.frame}: ${p.captureTime ?? '-'} ${endpoint(p.src)} → ${endpoint(p.dst)} ${p.summary}`;
}

/** `tshark -V`-like text: a summary line, the protocol tree, and optionally the hex pane. */
export function renderPacketText(p: PacketRecord, options: RenderOptions = {}): string[] {
  const lines = [summaryLine(p)];
  const all = [...p.fields, ...generatedNodes(p)];
  if (options.fields?.length && !options.hex) {
    for (const n of walkNodes(all)) {
      if (options.fields.includes(n.abbrev)) lines.push(`    ${n.abbrev}: ${showOf(n, options)}`);
    }
    return lines;
  }
  lines.push(`${protocolTitles[p.protocol]}, ${p.message} ${p.direction}`);
  lines.push(...renderTree(all, { showSecrets: !!options.showSecrets, indent: 1 }));
  if (p.unanswered) lines.push(`    [No response: ${p.unanswered}]`);
  if (p.duplicateOf !== undefined) lines.push(`    [Duplicate response to frame ${p.duplicateOf}]`);
  if (p.unmatched) lines.push(`    [Unmatched response: ${p.unmatched}]`);
  if (p.incomplete) lines.push(`    [Pairing incomplete: ${p.incomplete}]`);
  if (p.ambiguous) lines.push(`    [Ambiguous: ${p.ambiguous}]`);
  for (const w of p.warnings) lines.push(`    ${expertLine(w)}`);
  if (options.hex) lines.push('', ...packetHexPane(p, options));
  return lines;
}

/** A packet's hex pane: the `fields` marked, secrets hidden unless `showSecrets`. */
export function packetHexPane(p: PacketRecord, options: RenderOptions = {}): string[] {
  const ranges: ByteRange[] = [];
  const secrets: ByteRange[] = [];
  for (const n of walkNodes(p.fields)) {
    if (options.fields?.includes(n.abbrev)) ranges.push(n);
    if (n.secret && !options.showSecrets) secrets.push(n);
  }
  // The frame's bytes when the payload lies in one frame, else the reassembled payload.
  const bytes = p.frameBytes ?? p.payload;
  const shift = (r: ByteRange): ByteRange => ({ offset: r.offset + (p.frameBytes ? p.payloadOffset : 0), length: r.length });
  return hexPane(bytes, ranges.map(shift), options.colour, secrets.map(shift));
}

/** The JSON form of a packet (see schema/packet.schema.json). */
export function packetJson(p: PacketRecord, options: RenderOptions = {}): Record<string, unknown> {
  const secrets = !!options.showSecrets;
  const fields = options.fields?.length ? pickedJson(p, options.fields, secrets) : p.fields.map((n) => nodeJson(n, secrets));
  return packetDocument(p, fields);
}

/** The JSON of the nodes of the tree that `-e` selects, without their children. */
function pickedJson(p: PacketRecord, abbrevs: readonly string[], secrets: boolean): JsonNode[] {
  return [...walkNodes(p.fields)].filter((n) => abbrevs.includes(n.abbrev)).map((n) => ({ ...nodeJson(n, secrets), children: undefined })) as JsonNode[];
}

const scratch = new ByteSink();

/** A packet as one line of JSON: `JSON.stringify(packetJson(p, options))`, written by {@link writePacketLine}. */
export function packetLine(p: PacketRecord, options: RenderOptions = {}): string {
  scratch.at = 0;
  writePacketLine(p, scratch, options);
  return scratch.text();
}

const FRAME = asciiBytes('{"frame":');
const CAPTURE_TIME = asciiBytes(',"captureTime":');
const SRC = asciiBytes(',"src":');
const DST = asciiBytes(',"dst":');
const PAYLOAD_OFFSET = asciiBytes(',"payloadOffset":');
const PAYLOAD_LENGTH = asciiBytes(',"payloadLength":');
const FRAGMENTS = asciiBytes(',"fragments":');
const FIELDS = asciiBytes(',"fields":');
const MALFORMED = asciiBytes(',"malformed":');
const WARNINGS = asciiBytes(',"warnings":');
const RESPONSE_IN = asciiBytes(',"responseIn":');
const REQUEST_IN = asciiBytes(',"requestIn":');
const TIME = asciiBytes(',"time":');
const UNANSWERED = asciiBytes(',"unanswered":');
const DUPLICATE_OF = asciiBytes(',"duplicateOf":');
const UNMATCHED = asciiBytes(',"unmatched":');
const INCOMPLETE = asciiBytes(',"incomplete":');
const AMBIGUOUS = asciiBytes(',"ambiguous":');

/**
 * Writes {@link packetLine}'s text into `sink` as UTF-8, without making it a string: the
 * NDJSON output of a capture of millions of packets. A record of the dissector's carries
 * its tree's JSON as bytes already (the fast path wrote them while decoding); any other
 * record, or a selection of fields, goes through {@link packetJson}.
 */
export function writePacketLine(p: PacketRecord, sink: ByteSink, options: RenderOptions = {}): void {
  const picks = options.fields?.length ? options.fields : undefined;
  // Selected fields: written by the layout's compiled extractor while the tree is not built.
  const source = p instanceof Packet && picks ? p.treeSource : undefined;
  if (!(p instanceof Packet) || (picks && !source)) {
    sink.raw(JSON.stringify(packetJson(p, options)));
    return;
  }
  sink.bytes(FRAME);
  sink.number(p.frame);
  sink.bytes(CAPTURE_TIME);
  if (p.timestamp) writeTimestamp(sink, p.timestamp);
  else sink.ascii('null');
  sink.bytes(SRC);
  writeEndpoint(sink, p.src);
  sink.bytes(DST);
  writeEndpoint(sink, p.dst);
  sink.bytes(p.kind.json);
  sink.string(p.summary);
  sink.bytes(PAYLOAD_OFFSET);
  sink.number(p.payloadOffset);
  sink.bytes(PAYLOAD_LENGTH);
  sink.number(p.payloadLength);
  if (p.fragments) {
    sink.bytes(FRAGMENTS);
    sink.raw(JSON.stringify(p.fragments));
  }
  sink.bytes(FIELDS);
  if (picks) writePickedJson(p, source!, picks, sink, !!options.showSecrets);
  // The fast path's JSON, unless it shows secrets otherwise than asked.
  else if (p.json && (p.secretsShown === undefined || p.secretsShown === !!options.showSecrets)) sink.range(p.json, p.jsonStart, p.jsonEnd);
  else sink.raw(JSON.stringify(p.fields.map((n) => nodeJson(n, !!options.showSecrets))));
  if (p.malformed) {
    sink.bytes(MALFORMED);
    sink.raw(JSON.stringify(p.malformed));
  }
  if (p.warnings.length) {
    sink.bytes(WARNINGS);
    sink.raw(JSON.stringify(p.warnings));
  }
  if (p.responseIn !== undefined) {
    sink.bytes(RESPONSE_IN);
    sink.number(p.responseIn);
  }
  if (p.requestIn !== undefined) {
    sink.bytes(REQUEST_IN);
    sink.number(p.requestIn);
  }
  if (p.responseTime !== undefined) {
    sink.bytes(TIME);
    sink.string(p.responseTime);
  }
  if (p.unanswered) {
    sink.bytes(UNANSWERED);
    sink.string(p.unanswered);
  }
  if (p.duplicateOf !== undefined) {
    sink.bytes(DUPLICATE_OF);
    sink.number(p.duplicateOf);
  }
  if (p.unmatched) {
    sink.bytes(UNMATCHED);
    sink.string(p.unmatched);
  }
  if (p.incomplete) {
    sink.bytes(INCOMPLETE);
    sink.string(p.incomplete);
  }
  if (p.ambiguous) {
    sink.bytes(AMBIGUOUS);
    sink.string(p.ambiguous);
  }
  sink.ascii('}');
}


const IP = asciiBytes('{"ip":"');
const PORT = asciiBytes('","port":');

/**
 * `{"ip":"…","port":N}`, written as it goes: an address is ASCII with nothing to escape
 * (dotted decimal, or IPv6 hex and colons), and writing its dozen characters cost less
 * than looking its bytes up by address and port, twice a line.
 */
function writeEndpoint(sink: ByteSink, e: { readonly ip: string; readonly port: number }): void {
  sink.bytes(IP);
  sink.ascii(e.ip);
  sink.bytes(PORT);
  sink.number(e.port);
  sink.ascii('}');
}
/** `-e` in JSON: the selected nodes' JSON, from the payload by the layout's compiled extractor (from the tree if it declines). */
function writePickedJson(p: Packet, source: TreeSource, abbrevs: readonly string[], sink: ByteSink, secrets: boolean): void {
  const start = sink.at;
  sink.ascii('[');
  if (source.layout.emitFields(p.payload, sink, abbrevs, 'json', emitOptions(source.codec, secrets)) === undefined) {
    sink.at = start;
    sink.raw(JSON.stringify(pickedJson(p, abbrevs, secrets)));
    return;
  }
  // Each node ends with a comma: the last one's becomes the bracket.
  if (sink.buf[sink.at - 1] === 0x2c) sink.buf[sink.at - 1] = 0x5d;
  else sink.ascii(']');
}

type TreeSource = NonNullable<Packet['treeSource']>;
type AnyLayout = Layout<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the compiled emitters are told (charset, secrets, the tree's indent), made once per record maker's codec options. */
const emitOptionsOf = new WeakMap<CodecOptions, readonly [masked: EmitTreeOptions, clear: EmitTreeOptions]>();
type EmitTreeOptions = CodecOptions & { readonly showSecrets: boolean; readonly indent: 1 };

function emitOptions(codec: CodecOptions, showSecrets: boolean): EmitTreeOptions {
  let both = emitOptionsOf.get(codec);
  if (!both) emitOptionsOf.set(codec, (both = [{ ...codec, showSecrets: false, indent: 1 }, { ...codec, showSecrets: true, indent: 1 }]));
  return both[showSecrets ? 1 : 0];
}

/** Whether a layout declares a secret (the RCON password), whose bytes a masked hex pane hides; answered once per layout. */
const secretive = new WeakMap<AnyLayout, boolean>();
function hasSecrets(layout: AnyLayout): boolean {
  let yes = secretive.get(layout);
  if (yes === undefined) secretive.set(layout, (yes = secretFields(layout.fields).size > 0));
  return yes;
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
  if (!title) titles.set(kind, (title = new TextEncoder().encode(`${protocolTitles[kind.protocol]}, ${kind.message} ${kind.direction}\n`)));
  return title;
}

/**
 * Writes {@link renderPacketText}'s lines, each with its newline, into `sink` as UTF-8: the
 * text output of a capture of millions of packets. A record the dissector's fast path made
 * (its tree not built) is written without its tree: the header line, the tree by its
 * layout's compiled text emitter (or, for `fields` without `hex`, the selected fields by its
 * compiled extractor), the links, and the hex pane when asked. Anything else, or a hex pane
 * that marks fields or hides secrets (which needs the tree's byte ranges), goes through
 * {@link renderPacketText}.
 */
export function writePacketText(p: PacketRecord, sink: ByteSink, options: RenderOptions = {}): void {
  const source = p instanceof Packet ? p.treeSource : undefined;
  const picks = options.fields?.length ? options.fields : undefined;
  const secrets = !!options.showSecrets;
  if (!source || (options.hex && (picks || (!secrets && hasSecrets(source.layout))))) {
    writeLines(renderPacketText(p, options), sink);
    return;
  }
  const q = p as Packet;
  const start = sink.at;
  writeSummaryLine(q, sink);
  const layout = source.layout;
  const emit = emitOptions(source.codec, secrets);
  if (picks && !options.hex) {
    if (layout.emitFields(q.payload, sink, picks, 'text', emit) === undefined) {
      sink.at = start;
      writeLines(renderPacketText(p, options), sink);
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
  if (layout.emitText(q.payload, sink, emit) === undefined) {
    sink.at = start;
    writeLines(renderPacketText(p, options), sink);
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
    writeLines(hexPane(q.frameBytes ?? q.payload), sink);
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
    heads = ['response_in', 'response_to', 'time'].map((name) => `${protocol}.${name}`).map((abbrev) => (picks.includes(abbrev) ? asciiBytes(`    ${abbrev}: `) : undefined));
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

function writeLines(lines: readonly string[], sink: ByteSink): void {
  for (const line of lines) {
    sink.raw(line);
    sink.bytes(NEWLINE);
  }
}

/** {@link summaryLine} and a newline. */
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

/** `ip:port`, or `[ip]:port` for IPv6, as {@link summaryLine} writes an endpoint. */
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

function packetDocument(p: PacketRecord, fields: unknown): Record<string, unknown> {
  // Optional keys are added in place (not spread): this runs once per packet of a capture.
  const doc: Record<string, unknown> = {
    frame: p.frame, captureTime: p.captureTime, src: { ip: p.src.ip, port: p.src.port }, dst: { ip: p.dst.ip, port: p.dst.port },
    protocol: p.protocol, direction: p.direction, message: p.message, layout: p.layout, summary: p.summary,
    payloadOffset: p.payloadOffset, payloadLength: p.payloadLength,
  };
  if (p.fragments) doc['fragments'] = p.fragments;
  doc['fields'] = fields;
  if (p.malformed) doc['malformed'] = p.malformed;
  if (p.warnings.length) doc['warnings'] = p.warnings;
  if (p.responseIn !== undefined) doc['responseIn'] = p.responseIn;
  if (p.requestIn !== undefined) doc['requestIn'] = p.requestIn;
  if (p.responseTime !== undefined) doc['time'] = p.responseTime;
  if (p.unanswered) doc['unanswered'] = p.unanswered;
  if (p.duplicateOf !== undefined) doc['duplicateOf'] = p.duplicateOf;
  if (p.unmatched) doc['unmatched'] = p.unmatched;
  if (p.incomplete) doc['incomplete'] = p.incomplete;
  if (p.ambiguous) doc['ambiguous'] = p.ambiguous;
  return doc;
}
