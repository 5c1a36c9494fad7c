/** Text and JSON renderings of a dissected packet. */
import { nodeJson, protocolTitles, type FieldNode, type JsonNode } from '@gamequery/codec';
import type { PacketRecord } from '../record.ts';
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

/** Stands in for the fields in {@link packetLine}; never a real `fields` value. */
const FIELDS_HERE = 0;
const FIELDS_KEY = ',"fields":0';

/**
 * A packet as one line of JSON: `JSON.stringify(packetJson(p, options))`, but with the
 * fields spliced in as the text the fast path wrote while decoding, when there is one.
 */
export function packetLine(p: PacketRecord, options: RenderOptions = {}): string {
  if (p.fieldsJson === undefined || options.fields?.length) return JSON.stringify(packetJson(p, options));
  const text = JSON.stringify(packetDocument(p, FIELDS_HERE));
  // Inside a JSON string every quote is escaped, so the first match is the key itself.
  const at = text.indexOf(FIELDS_KEY);
  return `${text.slice(0, at)},"fields":${p.fieldsJson}${text.slice(at + FIELDS_KEY.length)}`;
}

function packetDocument(p: PacketRecord, fields: unknown): Record<string, unknown> {
  // Optional keys are added in place (not spread): this runs once per packet of a capture.
  const doc: Record<string, unknown> = {
    frame: p.frame, captureTime: p.captureTime, src: p.src, dst: p.dst,
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
  return doc;
}
