/**
 * The top of a packet's `-V` text, as tshark prints it: the Frame item (lengths, times, the
 * protocols in the frame), then the link, IP and UDP subtrees (net/layers.ts); and the whole
 * text of a frame without a query message, ending with its Data item.
 */
import { ByteSink, asciiBytes } from '@gamequery/codec/internal';
import { formatTimestamp, nanoseconds, timestampDifference, type Timestamp } from '../capture/timestamp.ts';
import { FrameRecord } from '../frame-record.ts';
import { shortHex } from '../net/layers.ts';
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

/**
 * The Frame item and the layers' subtrees of a record made from a frame, as lines; `start`
 * is the capture's first frame's time. Undefined for a record of a bare payload.
 */
export function layerLines(p: Packet | FrameRecord, start: Timestamp | null | undefined): string[] | undefined {
  scratch.at = 0;
  if (!writeLayerLines(p, start, scratch)) return undefined;
  return scratch.text().slice(0, -1).split('\n');
}

const scratch = new ByteSink();
const protocolsLine = new ByteSink(256);

const FRAME = asciiBytes('Frame ');
const ON_WIRE = asciiBytes(' bytes on wire (');
const BITS_CAPTURED = asciiBytes(' bits), ');
const CAPTURED = asciiBytes(' bytes captured (');
const BITS_END = asciiBytes(' bits)\n');
const ENCAPSULATION_TEXT = asciiBytes('    Encapsulation type: ');
const ARRIVAL = asciiBytes('    Arrival Time: ');
const UTC = asciiBytes(' UTC\n');
const EPOCH = asciiBytes('    Epoch Time: ');
const SECONDS = asciiBytes(' seconds\n');
const DELTA = asciiBytes('    [Time delta from previous captured frame: ');
const SINCE = asciiBytes('    [Time since reference or first frame: ');
const SECONDS_CLOSE = asciiBytes(' seconds]\n');
const NUMBER = asciiBytes('    Frame Number: ');
const FRAME_LENGTH = asciiBytes('    Frame Length: ');
const CAPTURE_LENGTH = asciiBytes('    Capture Length: ');
const BYTES = asciiBytes(' bytes (');
const PROTOCOLS = asciiBytes('    [Protocols in frame: ');
const CLOSE = asciiBytes(']\n');
const NEWLINE = asciiBytes('\n');

/**
 * Writes {@link layerLines}' lines into `sink`, each ending in a newline, without making
 * them strings: what `-V` writes for every frame of a capture. False (nothing written) for a
 * record of a bare payload.
 */
export function writeLayerLines(p: Packet | FrameRecord, start: Timestamp | null | undefined, sink: ByteSink): boolean {
  if (p.linkType === undefined) return false;
  const from = sink.at;
  const wire = p.frameLength ?? 0;
  const captured = p.capturedLength ?? 0;
  sink.bytes(FRAME);
  sink.number(p.frame);
  sink.ascii(': ');
  sink.number(wire);
  sink.bytes(ON_WIRE);
  sink.number(wire * 8);
  sink.bytes(BITS_CAPTURED);
  sink.number(captured);
  sink.bytes(CAPTURED);
  sink.number(captured * 8);
  sink.bytes(BITS_END);
  sink.bytes(ENCAPSULATION_TEXT);
  sink.ascii(ENCAPSULATION[p.linkType] ?? `LINKTYPE ${p.linkType}`);
  sink.bytes(NEWLINE);
  const t = p.timestamp;
  if (t) {
    sink.bytes(ARRIVAL);
    writeArrival(sink, t);
    sink.bytes(UTC);
    sink.bytes(EPOCH);
    writeNanoseconds(sink, t);
    sink.bytes(SECONDS);
    if (p.previousTimestamp) {
      sink.bytes(DELTA);
      writeDifference(sink, t, p.previousTimestamp);
      sink.bytes(SECONDS_CLOSE);
    }
    if (start) {
      sink.bytes(SINCE);
      writeDifference(sink, t, start);
      sink.bytes(SECONDS_CLOSE);
    }
  }
  sink.bytes(NUMBER);
  sink.number(p.frame);
  sink.bytes(NEWLINE);
  writeLength(sink, FRAME_LENGTH, wire);
  writeLength(sink, CAPTURE_LENGTH, captured);
  // The protocols in the frame are known once its layers are read: their line goes in before those of the layers.
  const at = sink.at;
  const chain = p instanceof FrameRecord ? p.writeTreeLayers(sink)?.protocols : p.writeLayers(sink);
  if (chain === undefined) {
    sink.at = from;
    return false;
  }
  const line = protocolsLine;
  line.at = 0;
  line.bytes(PROTOCOLS);
  if (p instanceof FrameRecord) line.ascii(p.protocols);
  else {
    line.ascii(chain);
    line.ascii(':');
    line.ascii(p.protocol);
  }
  line.bytes(CLOSE);
  const n = line.at;
  sink.reserve(n);
  sink.buf.copyWithin(at + n, at, sink.at);
  sink.buf.set(line.buf.subarray(0, n), at);
  sink.at += n;
  return true;
}

/** `    Frame Length: 60 bytes (480 bits)` and a newline. */
function writeLength(sink: ByteSink, head: Uint8Array, n: number): void {
  sink.bytes(head);
  sink.number(n);
  sink.bytes(BYTES);
  sink.number(n * 8);
  sink.bytes(BITS_END);
}

/** Whether a time's ticks are the first 1 to 9 of its nine places (µs, ns, …): written without a string. */
const inNine = (t: Timestamp): boolean => t.resolution.base === 10 && t.resolution.decimals > 0 && t.resolution.decimals <= 9;

/** 10^(9 - decimals): a tick in nanoseconds, by decimals. */
const NANOS_PER_TICK = [1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 100, 10, 1];

/** A time as seconds since the epoch with nine places (`nanoseconds(formatTimestamp(t))`). */
function writeNanoseconds(sink: ByteSink, t: Timestamp): void {
  if (!inNine(t) || t.seconds < 0) {
    sink.ascii(nanoseconds(formatTimestamp(t)));
    return;
  }
  sink.number(t.seconds);
  sink.ascii('.');
  sink.padded(t.ticks * NANOS_PER_TICK[t.resolution.decimals]!, 9);
}

/** `later - earlier` in seconds with nine places (`nanoseconds(timestampDifference(later, earlier))`). */
function writeDifference(sink: ByteSink, later: Timestamp, earlier: Timestamp): void {
  const r = later.resolution;
  const apart = later.seconds - earlier.seconds;
  // Exact in a double: the same clock, seconds apart by far less than 2^53 ticks.
  if (r !== earlier.resolution || !inNine(later) || Math.abs(apart) > 4e6) {
    sink.ascii(nanoseconds(timestampDifference(later, earlier)));
    return;
  }
  let ticks = apart * r.ticksPerSecond + (later.ticks - earlier.ticks);
  if (ticks < 0) {
    sink.ascii('-');
    ticks = -ticks;
  }
  const whole = Math.floor(ticks / r.ticksPerSecond);
  sink.number(whole);
  sink.ascii('.');
  sink.padded((ticks - whole * r.ticksPerSecond) * NANOS_PER_TICK[r.decimals]!, 9);
}

/** The date and time of the last second written, `Nov 14, 2023 22:13:20`: frames arrive many a second. */
let arrivalSecond = Number.NaN;
let arrivalText = '';

/** `Nov  1, 2026 11:16:12.488013000` (then ` UTC`), as tshark writes an arrival time in UTC. */
function writeArrival(sink: ByteSink, t: Timestamp): void {
  if (!inNine(t) || t.seconds < 0) {
    sink.ascii(arrival(t));
    return;
  }
  if (t.seconds !== arrivalSecond) {
    arrivalSecond = t.seconds;
    arrivalText = dateText(t.seconds);
  }
  sink.ascii(arrivalText);
  sink.ascii('.');
  sink.padded(t.ticks * NANOS_PER_TICK[t.resolution.decimals]!, 9);
}

/** `Nov  1, 2026 11:16:12.488013000`, from the time's text. */
function arrival(t: Timestamp): string {
  const text = nanoseconds(formatTimestamp(t));
  const dot = text.indexOf('.');
  return `${dateText(Number(text.slice(0, dot)))}${text.slice(dot)}`;
}

/** `Nov  1, 2026 11:16:12` for whole seconds since the epoch. */
function dateText(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)}, ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** The `-V` text of a frame without a query message: its layers, its Data item, and the hex pane with `hex`. */
export function frameRecordText(p: FrameRecord, start: Timestamp | null | undefined, hex: boolean, colour = false): string[] {
  scratch.at = 0;
  writeFrameRecordText(p, start, scratch);
  const lines = scratch.text().slice(0, -1).split('\n');
  if (hex) lines.push('', ...hexPane(p.frameBytes, [], colour));
  return lines;
}

/** {@link frameRecordText}'s lines without the hex pane, written into `sink`, each ending in a newline. */
export function writeFrameRecordText(p: FrameRecord, start: Timestamp | null | undefined, sink: ByteSink): void {
  if (!writeLayerLines(p, start, sink)) sink.ascii(`Frame ${p.frame}: ${p.payload.length} bytes\n`);
  if (!p.payload.length) return;
  for (const line of dataLines(p.payload)) {
    sink.raw(line);
    sink.bytes(NEWLINE);
  }
}

/** tshark's Data item: the bytes in hex (cut after 36, as tshark cuts them) and their length. */
function dataLines(payload: Uint8Array): string[] {
  return [`Data (${payload.length} bytes)`, `    Data: ${shortHex(payload)}`, `    [Length: ${payload.length}]`];
}
