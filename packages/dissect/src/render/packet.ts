/**
 * A dissected packet rendered from its tree: its text (`tshark -V`), the hex pane and the
 * JSON document. The byte writers for millions of packets, which skip building the tree,
 * are packet-line.ts (NDJSON) and packet-text.ts (text); they fall back on these.
 */
import { nodeJson, type FieldNode, type JsonNode } from '@gamequery/codec';
import { titleOf } from '@gamequery/codec/internal';
import { formatEndpoint } from '../net/address.ts';
import type { Timestamp } from '../capture/timestamp.ts';
import { Packet, type PacketRecord } from '../packet-record.ts';
import { frameRecordText, layerLines } from './layers-text.ts';
import { FrameRecord, type DissectedRecord } from '../frame-record.ts';
import { secretRanges } from '../secrets.ts';
import { hexPane, type ByteRange } from './hexpane.ts';
import { expertLine, renderTree, showOf } from './text.ts';
import { outerPickLines } from './fields-line.ts';
import { onlyLines } from './only.ts';

/** Options of the packet renderers (text, hex pane, JSON). */
export interface RenderOptions {
  readonly showSecrets?: boolean;
  /** Append the hex pane. */
  readonly hex?: boolean;
  /** Abbreviations whose bytes the hex pane highlights (and, in text, the only fields shown). */
  readonly fields?: readonly string[];
  /** Colour for the highlight (a TTY). */
  readonly colour?: boolean;
  /**
   * Text (`-V`): begin a packet made from a frame with tshark's Frame item and the layers
   * under the message (link, IP, UDP: render/layers-text.ts) instead of the one-line header.
   */
  readonly layers?: boolean;
  /**
   * Text (`-V`), as tshark's `-O`: the subtrees of these protocols alone (`frame`, `eth`, `ip`,
   * `udp`, `samp`, …); every other top-level item is its title line (render/only.ts).
   */
  readonly only?: ReadonlySet<string>;
}

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

/** The text's first line: frame number, capture time, source → destination and the info text (packet-text.ts writes it as bytes). */
function headerLine(p: PacketRecord): string {
  return `Frame ${p.frame}: ${p.captureTime ?? '-'} ${formatEndpoint(p.src)} → ${formatEndpoint(p.dst)} ${p.summary}`;
}

/**
 * A packet as `tshark -V`-like text, its lines joined by newlines (none after the last): a
 * header line (with `layers`, the Frame item and the layers under the message), the protocol
 * tree, and optionally the hex pane. A frame without a query message (listed with
 * `allFrames`): its layers and its Data item. `start`: the capture's first frame's time, for
 * the Frame item's time since it.
 */
export function packetText(p: DissectedRecord, options: RenderOptions = {}, start?: Timestamp | null): string {
  const lines = textLines(p, options, start);
  return (options.only ? onlyLines(lines, options.only) : lines).join('\n');
}

function textLines(p: DissectedRecord, options: RenderOptions, start: Timestamp | null | undefined): string[] {
  const picks = options.fields?.length && !options.hex ? options.fields : undefined;
  if (p instanceof FrameRecord) {
    const text = frameRecordText(p, start, !!options.hex, options.colour);
    // The selected fields under its first line, as a packet's.
    return picks ? [text[0]!, ...outerPickLines(p, picks, start)] : text;
  }
  const lines = (options.layers && p instanceof Packet && !picks && layerLines(p, start)) || [headerLine(p)];
  const all = [...p.fields, ...generatedNodes(p)];
  if (picks) {
    lines.push(...outerPickLines(p, picks, start));
    for (const n of walkNodes(all)) {
      if (picks.includes(n.abbrev)) lines.push(`    ${n.abbrev}: ${showOf(n, options)}`);
    }
    return lines;
  }
  lines.push(`${titleOf(p.protocol)}, ${p.message} ${p.direction}`);
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
  if (options.fields?.length) for (const n of walkNodes(p.fields)) if (options.fields.includes(n.abbrev)) ranges.push(n);
  const secrets = options.showSecrets ? [] : secretRanges(p.fields);
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
export function pickedJson(p: PacketRecord, abbrevs: readonly string[], secrets: boolean): JsonNode[] {
  return [...walkNodes(p.fields)]
    .filter((n) => abbrevs.includes(n.abbrev))
    .map((n) => ({ ...nodeJson(n, secrets), children: undefined })) as JsonNode[];
}

function packetDocument(p: PacketRecord, fields: unknown): Record<string, unknown> {
  // Optional keys are added in place (not spread): this runs once per packet of a capture.
  const doc: Record<string, unknown> = {
    frame: p.frame,
    captureTime: p.captureTime,
    src: { ip: p.src.ip, port: p.src.port },
    dst: { ip: p.dst.ip, port: p.dst.port },
    protocol: p.protocol,
    direction: p.direction,
    message: p.message,
    layout: p.layout,
    summary: p.summary,
    payloadOffset: p.payloadOffset,
    payloadLength: p.payloadLength,
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
