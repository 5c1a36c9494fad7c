/** Text and JSON renderings of a dissected packet. */
import { ByteSink, asciiBytes, nodeJson, protocolTitles, type FieldNode, type JsonNode } from '@gamequery/codec';
import { writeTimestamp } from '../capture/timestamp.ts';
import { Packet, type PacketRecord } from '../record.ts';
import { hexPane, type ByteRange } from './hexpane.ts';
import { renderTree, showOf } from './text.ts';

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
  if (options.hex) {
    const ranges: ByteRange[] = [];
    const secrets: ByteRange[] = [];
    for (const n of walkNodes(p.fields)) {
      if (options.fields?.includes(n.abbrev)) ranges.push(n);
      if (n.secret && !options.showSecrets) secrets.push(n);
    }
    // The frame's bytes when the payload lies in one frame, else the reassembled payload.
    const bytes = p.frameBytes ?? p.payload;
    const shift = (r: ByteRange): ByteRange => ({ offset: r.offset + (p.frameBytes ? p.payloadOffset : 0), length: r.length });
    lines.push('', ...hexPane(bytes, ranges.map(shift), options.colour, secrets.map(shift)));
  }
  return lines;
}

/** The JSON form of a packet (see schema/packet.schema.json). */
export function packetJson(p: PacketRecord, options: RenderOptions = {}): Record<string, unknown> {
  const secrets = !!options.showSecrets;
  let fields = p.fields.map((n) => nodeJson(n, secrets));
  if (options.fields?.length) {
    fields = [...walkNodes(p.fields)].filter((n) => options.fields!.includes(n.abbrev)).map((n) => ({ ...nodeJson(n, secrets), children: undefined })) as JsonNode[];
  }
  return packetDocument(p, fields);
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

/**
 * Writes {@link packetLine}'s text into `sink` as UTF-8, without making it a string: the
 * NDJSON output of a capture of millions of packets. A record of the dissector's carries
 * its tree's JSON as bytes already (the fast path wrote them while decoding); any other
 * record, or a selection of fields, goes through {@link packetJson}.
 */
export function writePacketLine(p: PacketRecord, sink: ByteSink, options: RenderOptions = {}): void {
  if (!(p instanceof Packet) || options.fields?.length) {
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
  // The fast path's JSON, unless it shows secrets otherwise than asked.
  if (p.json && (p.secretsShown === undefined || p.secretsShown === !!options.showSecrets)) sink.range(p.json, p.jsonStart, p.jsonEnd);
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
  return doc;
}
