/**
 * The top of a packet's `-V` text, as tshark prints it: the Frame item (lengths, times, the
 * protocols in the frame), then the link, IP and UDP subtrees (net/layers.ts); and the whole
 * text of a frame without a query message, ending with its Data item.
 */
import { formatTimestamp, nanoseconds, timestampDifference, type Timestamp } from '../capture/timestamp.ts';
import { FrameRecord } from '../frame-record.ts';
import { LINKTYPE } from '../net/link.ts';
import type { Packet } from '../packet-record.ts';
import { hexPane } from './hexpane.ts';

/** tshark's words for the link types, with its own (wiretap) numbers for them. */
const ENCAPSULATION: Record<number, string> = {
  [LINKTYPE.ETHERNET]: 'Ethernet (1)',
  [LINKTYPE.LINUX_SLL]: 'Linux cooked-mode capture v1 (25)',
  [LINKTYPE.LINUX_SLL2]: 'Linux cooked-mode capture v2 (210)',
  [LINKTYPE.RAW]: 'Raw IP (7)',
  [LINKTYPE.RAW_DLT12]: 'Raw IP (7)',
  [LINKTYPE.RAW_DLT14]: 'Raw IP (7)',
  [LINKTYPE.IPV4]: 'Raw IPv4 (129)',
  [LINKTYPE.IPV6]: 'Raw IPv6 (130)',
  [LINKTYPE.NULL]: 'NULL/Loopback (15)',
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Nov  1, 2026 11:16:12.488013000 UTC`, as tshark writes an arrival time in UTC. */
function arrival(t: Timestamp): string {
  const text = nanoseconds(formatTimestamp(t));
  const dot = text.indexOf('.');
  const d = new Date(Number(text.slice(0, dot)) * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)}, ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}${text.slice(dot)} UTC`;
}

const bytes = (n: number): string => `${n} bytes (${n * 8} bits)`;

/**
 * The Frame item and the layers' subtrees of a record made from a frame, as lines; `start`
 * is the capture's first frame's time. Undefined for a record of a bare payload.
 */
export function layerLines(p: Packet | FrameRecord, start: Timestamp | null | undefined): string[] | undefined {
  const layers = p instanceof FrameRecord ? p.treeLayers() : p.layers(true);
  if (!layers || p.linkType === undefined) return undefined;
  const wire = p.frameLength ?? 0;
  const captured = p.capturedLength ?? 0;
  const t = p.timestamp;
  const protocols = p instanceof FrameRecord ? p.protocols : `${layers.protocols}:${p.protocol}`;
  const lines = [`Frame ${p.frame}: ${wire} bytes on wire (${wire * 8} bits), ${captured} bytes captured (${captured * 8} bits)`];
  lines.push(`    Encapsulation type: ${ENCAPSULATION[p.linkType] ?? `LINKTYPE ${p.linkType}`}`);
  if (t) {
    lines.push(`    Arrival Time: ${arrival(t)}`, `    Epoch Time: ${nanoseconds(formatTimestamp(t))} seconds`);
    if (p.previousTimestamp)
      lines.push(`    [Time delta from previous captured frame: ${nanoseconds(timestampDifference(t, p.previousTimestamp))} seconds]`);
    if (start) lines.push(`    [Time since reference or first frame: ${nanoseconds(timestampDifference(t, start))} seconds]`);
  }
  lines.push(`    Frame Number: ${p.frame}`, `    Frame Length: ${bytes(wire)}`, `    Capture Length: ${bytes(captured)}`);
  lines.push(`    [Protocols in frame: ${protocols}]`);
  lines.push(...layers.lines);
  return lines;
}

/** The `-V` text of a frame without a query message: its layers, its Data item, and the hex pane with `hex`. */
export function frameRecordText(p: FrameRecord, start: Timestamp | null | undefined, hex: boolean, colour = false): string[] {
  const lines = layerLines(p, start) ?? [`Frame ${p.frame}: ${p.payload.length} bytes`];
  if (p.payload.length) lines.push(...dataLines(p.payload));
  if (hex) lines.push('', ...hexPane(p.frameBytes, [], colour));
  return lines;
}

/** tshark's Data item: the bytes in hex (cut after 36, as tshark cuts them) and their length. */
function dataLines(payload: Uint8Array): string[] {
  const shown = Array.from(payload.subarray(0, 36), (b) => b.toString(16).padStart(2, '0')).join('');
  return [`Data (${payload.length} bytes)`, `    Data: ${shown}${payload.length > 36 ? '…' : ''}`, `    [Length: ${payload.length}]`];
}
