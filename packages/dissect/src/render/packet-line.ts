/**
 * A packet as one line of JSON (NDJSON), written into a byte sink without making it a
 * string: a record the fast path made copies the tree JSON it wrote while decoding.
 */
import { nodeJson } from '@gamequery/codec';
import { ByteSink, asciiBytes } from '@gamequery/codec/internal';
import { writeTimestamp } from '../capture/timestamp.ts';
import { Packet, type PacketRecord } from '../packet-record.ts';
import { emitOptions, type TreeSource } from './emit-options.ts';
import { emitFields } from './text-emitter/index.ts';
import { packetJson, pickedJson, type RenderOptions } from './packet.ts';

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
  if (emitFields(source.layout, p.payload, sink, abbrevs, 'json', emitOptions(source.codec, secrets)) === undefined) {
    sink.at = start;
    sink.raw(JSON.stringify(pickedJson(p, abbrevs, secrets)));
    return;
  }
  // Each node ends with a comma: the last one's becomes the bracket.
  if (sink.buf[sink.at - 1] === 0x2c) sink.buf[sink.at - 1] = 0x5d;
  else sink.ascii(']');
}
