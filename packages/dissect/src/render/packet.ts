/** Text and JSON renderings of a dissected packet. */
import { nodeValueToJson, protocolTitles, type FieldNode } from '@gamequery/codec';
import type { PacketRecord } from '../record.ts';
import { hexPane, type ByteRange } from './hexpane.ts';
import { MASK, renderTree } from './text.ts';

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
      if (options.fields.includes(n.abbrev)) lines.push(`    ${n.abbrev}: ${n.secret && !options.showSecrets ? MASK : n.show}`);
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

export interface JsonNode {
  abbrev: string; label: string; offset: number; length: number;
  value: string | number | boolean | null; show: string; children?: JsonNode[]; generated?: true;
}

/** A tree node as JSON, secrets masked unless `showSecrets`. */
export const nodeJson = (n: FieldNode, showSecrets: boolean): JsonNode => {
  const hidden = n.secret && !showSecrets;
  return {
    abbrev: n.abbrev, label: n.label, offset: n.offset, length: n.length,
    value: hidden ? MASK : nodeValueToJson(n.value), show: hidden ? MASK : n.show,
    ...(n.children ? { children: n.children.map((c) => nodeJson(c, showSecrets)) } : {}),
    ...(n.generated ? { generated: true as const } : {}),
  };
};

/** The JSON form of a packet (see schema/packet.schema.json). */
export function packetJson(p: PacketRecord, options: RenderOptions = {}): Record<string, unknown> {
  const secrets = !!options.showSecrets;
  let fields = p.fields.map((n) => nodeJson(n, secrets));
  if (options.fields?.length) {
    fields = [...walkNodes(p.fields)].filter((n) => options.fields!.includes(n.abbrev)).map((n) => ({ ...nodeJson(n, secrets), children: undefined })) as JsonNode[];
  }
  return {
    frame: p.frame, captureTime: p.captureTime, src: p.src, dst: p.dst,
    protocol: p.protocol, direction: p.direction, message: p.message, layout: p.layout, summary: p.summary,
    payloadOffset: p.payloadOffset, payloadLength: p.payloadLength,
    ...(p.fragments ? { fragments: p.fragments } : {}),
    fields,
    ...(p.malformed ? { malformed: p.malformed } : {}),
    ...(p.warnings.length ? { warnings: p.warnings } : {}),
    ...(p.responseIn !== undefined ? { responseIn: p.responseIn } : {}),
    ...(p.requestIn !== undefined ? { requestIn: p.requestIn } : {}),
    ...(p.responseTime !== undefined ? { time: p.responseTime } : {}),
    ...(p.unanswered ? { unanswered: p.unanswered } : {}),
    ...(p.duplicateOf !== undefined ? { duplicateOf: p.duplicateOf } : {}),
  };
}
