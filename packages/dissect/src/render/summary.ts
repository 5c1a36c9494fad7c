/**
 * Summary lines, one per packet, as tshark prints them without `-V`: frame number, time
 * since the capture's first frame, source → destination, protocol, length and the Info
 * column. The Info text is the record's summary — made from its layout's declaration
 * (`info` template) — followed by what pairing found, in brackets.
 */
import type { ByteSink } from '@gamequery/codec/internal';
import { RELATIVE, timeColumnText, type TimeColumn, type Timestamp } from '../capture/timestamp.ts';

export type { TimeColumn } from '../capture/timestamp.ts';
import { formatEndpoint } from '../net/address.ts';
import { FrameRecord, type DissectedRecord } from '../frame-record.ts';
import type { PacketRecord } from '../packet-record.ts';
import { hexPane } from './hexpane.ts';
import { packetHexPane, type RenderOptions } from './packet.ts';

const columns = new Map<string, string>();

/** The Protocol column: the protocol's name, capitalised as Wireshark's columns are (SAMP), made once per name. */
function protocolColumn(name: string): string {
  let column = columns.get(name);
  if (column === undefined) columns.set(name, (column = name.toUpperCase()));
  return column;
}

/** Exact seconds ("0.000871") as milliseconds ("0.871"), by moving the decimal point (in the text: exact at any size). */
export function secondsAsMs(seconds: string): string {
  const negative = seconds.startsWith('-');
  const unsigned = negative ? seconds.slice(1) : seconds;
  const dot = unsigned.indexOf('.');
  const whole = dot < 0 ? unsigned : unsigned.slice(0, dot);
  const digits = (dot < 0 ? '' : unsigned.slice(dot + 1)).padEnd(3, '0');
  // The whole seconds and three places, without the zeros in front (one stays for none).
  const ms = `${whole}${digits.slice(0, 3)}`;
  let lead = 0;
  while (lead < ms.length - 1 && ms.charCodeAt(lead) === 0x30) lead++;
  const rest = digits.slice(3);
  return `${negative ? '-' : ''}${ms.slice(lead)}${rest ? `.${rest}` : ''}`;
}

/** What pairing found, as the Info column's bracketed notes: `[Response In 12]`, `[Request In 5] [RTT 0.871 ms]`, … */
export function pairingNotes(p: PacketRecord): string {
  let out = '';
  if (p.responseIn !== undefined) out += ` [Response In ${p.responseIn}]`;
  if (p.unanswered) out += ' [No response]';
  if (p.duplicateOf !== undefined) out += ` [Duplicate of ${p.duplicateOf}]`;
  if (p.unmatched) out += ` [Unmatched: ${p.unmatched.split(',')[0]}]`;
  if (p.requestIn !== undefined) out += ` [Request In ${p.requestIn}]`;
  if (p.responseTime !== undefined) out += ` [RTT ${secondsAsMs(p.responseTime)} ms]`;
  if (p.ambiguous) out += ' [Ambiguous]';
  if (p.incomplete) out += ' [Incomplete]';
  return out;
}

/** The columns of a packet's summary line. */
export interface SummaryColumns {
  readonly frame: number;
  /** Seconds since the capture's first frame, exact at its resolution (or as `-t` asks); '-' without a time (a hex dump). */
  readonly time: string;
  readonly source: string;
  readonly destination: string;
  readonly protocol: string;
  /** Bytes of the query message (the UDP payload); for a frame without one, of the UDP payload, else of the frame. */
  readonly length: number;
  readonly info: string;
}

const timeOf = (p: DissectedRecord): Timestamp | null =>
  'timestamp' in p ? (p as { readonly timestamp: Timestamp | null }).timestamp : null;

/**
 * A packet's columns. `start` is the capture's first frame's time (`captureStart(stats)`);
 * without it, times count from the packet's own time (0). A frame without a query message
 * (listed with `allFrames`) has tshark's columns for it: `UDP` and `42595 → 53 Len=29`,
 * `ICMPv6` and `Neighbor Solicitation`, its IP addresses (with the ports for UDP, as ours are).
 * `time`: the time column's format (tshark's `-t`; by default, seconds since the first frame).
 */
export function summaryColumns(p: DissectedRecord, start?: Timestamp | null, time: TimeColumn = RELATIVE): SummaryColumns {
  const t = timeOf(p);
  const column = t ? timeColumnText(t, start, (p as { readonly previousTimestamp?: Timestamp | null }).previousTimestamp, time) : '-';
  if (p instanceof FrameRecord) {
    const l = p.layers;
    const { ip, udp } = l;
    return {
      frame: p.frame,
      time: column,
      source: ip && udp ? formatEndpoint({ ip: ip.src ?? l.source, port: udp.srcPort }) : l.source || '-',
      destination: ip && udp ? formatEndpoint({ ip: ip.dst ?? l.destination, port: udp.dstPort }) : l.destination || '-',
      protocol: l.column,
      length: l.udp || p.linkType === undefined ? p.payload.length : p.frameLength,
      info: l.info,
    };
  }
  // A hex dump of a bare payload has no addresses (0.0.0.0:0 at both ends in its record).
  const bare = p.src.port === 0 && p.dst.port === 0 && p.src.ip === '0.0.0.0' && p.dst.ip === '0.0.0.0';
  return {
    frame: p.frame,
    time: column,
    source: bare ? '-' : formatEndpoint(p.src),
    destination: bare ? '-' : formatEndpoint(p.dst),
    protocol: protocolColumn(p.protocol),
    length: p.payloadLength,
    info: p.summary + pairingNotes(p),
  };
}

/** The summary line of a packet, columns padded as tshark pads them (without a newline). */
export function packetSummary(p: DissectedRecord, start?: Timestamp | null, time?: TimeColumn): string {
  const c = summaryColumns(p, start, time);
  return `${String(c.frame).padStart(5)} ${c.time.padStart(11)} ${c.source.padStart(21)} → ${c.destination.padEnd(21)} ${c.protocol.padEnd(7)} ${String(c.length).padStart(5)} ${c.info}`;
}

/**
 * {@link packetSummary} and a newline, into `sink` as UTF-8; with `options.hex`, the hex
 * pane after it (tshark -x without -V), the `fields` marked, a blank line after the pane.
 */
export function writePacketSummary(
  p: DissectedRecord,
  sink: ByteSink,
  start?: Timestamp | null,
  options: RenderOptions = {},
  time?: TimeColumn,
): void {
  sink.raw(packetSummary(p, start, time));
  sink.ascii('\n');
  if (!options.hex) return;
  for (const line of p instanceof FrameRecord ? hexPane(p.frameBytes, [], options.colour) : packetHexPane(p, options)) {
    sink.raw(line);
    sink.ascii('\n');
  }
  sink.ascii('\n');
}
