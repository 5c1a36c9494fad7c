/**
 * What a display filter can name: every field of the registry of the protocols dissected
 * (read from a packet's annotated tree), the protocols by name and alias, the frame, IP and
 * UDP fields a capture gives (`ip.src`, `udp.port`, …), and the dissector's generated items
 * per protocol — the registry's links and response time, and the pairing outcomes
 * (`samp.unanswered`, …). One catalog per set of protocols: the built-in ones by default, a
 * caller's own (`defineProtocol`) when the dissector is given them.
 */
import {
  builtInProtocols,
  fromHex,
  registryOf,
  type AnyLayout,
  type Field,
  type FieldNode,
  type FieldType,
  type ProtocolDeclaration,
} from '@gamequery/codec';
import { MASK, expertAbbrev, fieldKind, perProtocols, protocolExperts, secretFields, unshowText } from '@gamequery/codec/internal';
import {
  RELATIVE,
  nanoseconds,
  timeColumnText,
  timestampDifference,
  timestampToNumber,
  type TimeColumn,
  type Timestamp,
} from '../capture/timestamp.ts';
import { FrameRecord, protocolsOf, type DissectedRecord } from '../frame-record.ts';
import { Packet, type PacketRecord } from '../packet-record.ts';
import { shownBytes } from '../secrets.ts';
import { EXPERT_LEVELS, SEVERITY_OF, expertItemText, expertItemsOf, type ExpertItemOf, type ExpertLevel } from '../stats/expert.ts';
import { RenderCache } from '../tree-cache.ts';
import { ipv4Number, ipv6Number } from './addresses.ts';
import type { IpFacts } from '../net/layers.ts';

/** How a field's values compare. Time is a number of seconds; an IPv4 address a number, an IPv6 one a bigint; a 64-bit integer is a bigint of type `number`. */
export type FilterType = 'number' | 'bool' | 'ipv4' | 'ipv6' | 'string' | 'bytes' | 'none' | 'protocol';

export type FilterValue = number | boolean | bigint | string | Uint8Array | null;

/** What a filter is evaluated with besides the packet. */
export interface FilterContext {
  /** The capture's first frame's time: `frame.time_relative` is counted from it (absent without it). */
  readonly start: Timestamp | null | undefined;
  /** Secrets (RCON passwords) are compared in clear only when shown in clear; else as their mask. */
  readonly showSecrets: boolean;
  /** How `_ws.col.Time` is written (`-t`); default seconds since the first frame. */
  readonly time?: TimeColumn;
}

/** A field a display filter can name: its name, its type and where its value comes from. */
export interface FilterField {
  readonly name: string;
  readonly type: FilterType;
  /** Where it comes from, for the field listing of the README and errors. */
  readonly doc: string;
  /** Its values in the packet (several for a repeated field), none when absent. */
  values(p: DissectedRecord, ctx: FilterContext): readonly FilterValue[];
  /** Whether its values are read from the packet's annotated tree (codec fields). */
  readonly fromTree?: boolean;
  /**
   * Whether its values are read from the frame's own layers (frame, IP, UDP) alone: the same
   * for a frame record of a datagram (`unneeded: 'layers'`) as for its query packet.
   */
  readonly layer?: boolean;
  /**
   * A codec field's: the layouts that declare it. Only their records hold it (and, read by its
   * tree, a record of an unknown message of its protocol).
   */
  readonly layouts?: ReadonlySet<string>;
  /**
   * Its values as `-T fields` prints them, where the compared value does not show as tshark
   * shows it (a time exactly to the nanosecond, an IPv6 address as text). Else the values
   * are formatted by type (render/fields-line.ts).
   */
  readonly text?: (p: DissectedRecord, ctx: FilterContext) => readonly string[];
  /**
   * A whole number of so many bits (a port, a TTL, a frame number, a grammar's u16): a value
   * compared with it must be whole and fit (tshark's "70000 too big for this field"), so that a
   * typo is an error, not a filter that passes nothing. Signed: from -2^(bits-1).
   */
  readonly integer?: { readonly bits: number; readonly signed: boolean };
  /** A number's names (tshark's value strings, lower case): `_ws.expert.severity == warning`. */
  readonly names?: ReadonlyMap<string, number>;
}

/** `f`, a whole number of `bits` bits, unsigned (see {@link FilterField.integer}). */
const unsigned = (bits: number, f: FilterField): FilterField => ({ ...f, integer: { bits, signed: false } });

/** The whole-number width of a Wireshark integer type (FT_UINT16 → 16 bits, unsigned), if it is one. */
function integerOf(t: FieldType): FilterField['integer'] {
  const m = /^FT_(U?)INT(\d+)$/.exec(t);
  return m ? { bits: Number(m[2]), signed: m[1] === '' } : t === 'FT_FRAMENUM' ? { bits: 32, signed: false } : undefined;
}

const NONE: readonly FilterValue[] = Object.freeze([]);

/** The filter type of a registered field's Wireshark type: every integer and float (FT_UINT8 … FT_DOUBLE) a number. */
const typeOf = (t: FieldType): FilterType =>
  t === 'FT_NONE'
    ? 'none'
    : t === 'FT_BOOLEAN'
      ? 'bool'
      : t === 'FT_IPv4'
        ? 'ipv4'
        : t === 'FT_STRING' || t === 'FT_STRINGZ'
          ? 'string'
          : t === 'FT_BYTES'
            ? 'bytes'
            : 'number';

/** Whether an endpoint is a real one: a hex dump of a bare payload has 0.0.0.0:0 at both ends, and no IP or UDP. */
const hasEndpoints = (p: PacketRecord): boolean =>
  !(p.src.port === 0 && p.dst.port === 0 && p.src.ip === '0.0.0.0' && p.dst.ip === '0.0.0.0');
const isV6 = (ip: string): boolean => ip.includes(':');
/** A query packet (not a frame listed without one). */
const isGame = (p: DissectedRecord): p is PacketRecord => !(p instanceof FrameRecord);

/** A record's IP address on one side, when its frame has an IP header of that version. */
function ipAddress(p: DissectedRecord, side: 'src' | 'dst', v6: boolean): string | undefined {
  let a: string;
  if (p instanceof FrameRecord) {
    // A UDP datagram's ends, as the decoder read them (a query packet's too): its layers are not read for them.
    const end = p[side];
    if (!end) {
      const ip = p.layers.ip;
      return ip && (ip.version === 6) === v6 ? ip[side] : undefined;
    }
    a = end.ip;
  } else {
    if (!hasEndpoints(p)) return undefined;
    a = p[side].ip;
  }
  return isV6(a) === v6 ? a : undefined;
}

/** A record's UDP port on one side, when it is a UDP datagram. */
function udpPort(p: DissectedRecord, side: 'src' | 'dst'): number | undefined {
  if (p instanceof FrameRecord) {
    const end = p[side];
    if (end) return end.port;
    const u = p.layers.udp;
    return u && (side === 'src' ? u.srcPort : u.dstPort);
  }
  return hasEndpoints(p) ? p[side].port : undefined;
}

/** A tree node's value as the filter compares it. */
function nodeValue(n: FieldNode, type: FilterType, ctx: FilterContext): FilterValue {
  // A masked secret's text as a value (what it shows is escaped: `-T fields` and the filter read values).
  const v = n.secret && !ctx.showSecrets ? (n.masked === undefined ? MASK : unshowText(n.masked)) : n.value;
  switch (type) {
    case 'ipv4':
      return typeof v === 'string' ? (ipv4Number(v) ?? null) : null;
    case 'bytes':
      // A bytes node valued as text is a magic shown in hex (`fefd`, the tree's value for it): those bytes.
      return typeof v === 'string' ? fromHex(v) : v;
    case 'number':
      return typeof v === 'string' ? Number(v) : v;
    default:
      return v;
  }
}

function field(name: string, type: FilterType, doc: string, values: FilterField['values'], text?: FilterField['text']): FilterField {
  return text ? { name, type, doc, values, text } : { name, type, doc, values };
}

const one = <T extends FilterValue>(v: T | undefined): readonly FilterValue[] => (v === undefined ? NONE : [v]);

/** The fields {@link captureFields} gives that read more than the frame's layers: the protocols in it, and its payload when no query protocol claims it. */
const BEYOND_LAYERS = new Set(['frame.protocols', 'data.len', 'data.data']);

/** The frame, IP and UDP fields, as tshark names them; all but {@link BEYOND_LAYERS} {@link FilterField.layer} fields. */
function captureFields(): FilterField[] {
  return frameFields().map((f) => (BEYOND_LAYERS.has(f.name) ? f : { ...f, layer: true }));
}

function frameFields(): FilterField[] {
  const ip =
    (side: 'src' | 'dst', v6: boolean) =>
    (p: DissectedRecord): readonly FilterValue[] => {
      const a = ipAddress(p, side, v6);
      return a === undefined ? NONE : one(v6 ? ipv6Number(a) : ipv4Number(a));
    };
  const v4Text =
    (side: 'src' | 'dst') =>
    (p: DissectedRecord): readonly string[] => {
      const a = ipAddress(p, side, false);
      return a === undefined ? [] : [a];
    };
  const address =
    (side: 'src' | 'dst') =>
    (p: DissectedRecord): readonly string[] => {
      const a = ipAddress(p, side, true);
      return a === undefined ? [] : [a];
    };
  const both =
    (a: FilterField['values'], b: FilterField['values']): FilterField['values'] =>
    (p, c) => [...a(p, c), ...b(p, c)];
  const port =
    (side: 'src' | 'dst') =>
    (p: DissectedRecord): readonly FilterValue[] =>
      one(udpPort(p, side));
  /** A value of the frame's IP header, for a record of a frame of that IP version. */
  /** A number of the IP header, of `bits` bits: a query packet's (`get`), a frame record's (`other`), of IPv6 or IPv4. */
  const ipHeader = (
    name: string,
    bits: number,
    doc: string,
    v6: boolean,
    get: (p: Packet) => number | undefined,
    other: (ip: IpFacts) => number | undefined,
  ): FilterField =>
    unsigned(
      bits,
      field(name, 'number', doc, (p) => {
        if (p instanceof FrameRecord) {
          const ip = p.layers.ip;
          return ip && (ip.version === 6) === v6 ? one(other(ip)) : NONE;
        }
        return p instanceof Packet && p.frameLength !== undefined && hasEndpoints(p) && isV6(p.src.ip) === v6 ? one(get(p)) : NONE;
      }),
    );
  const time = (p: DissectedRecord): Timestamp | null => ('timestamp' in p ? (p as { timestamp: Timestamp | null }).timestamp : null);
  /** A frame's own value (a query packet made from a frame, or a frame record). */
  const framed =
    (get: (p: Packet | FrameRecord) => number | undefined) =>
    (p: DissectedRecord): readonly FilterValue[] =>
      one(p instanceof Packet || p instanceof FrameRecord ? get(p) : undefined);
  return [
    unsigned(
      32,
      field('frame.number', 'number', 'Frame number in the capture (packet number in a hex dump)', (p) => [p.frame]),
    ),
    field(
      'frame.time_epoch',
      'number',
      'Capture time, seconds since 1970',
      (p) => {
        const t = time(p);
        return t ? [timestampToNumber(t)] : p.captureTime ? [Number(p.captureTime)] : NONE;
      },
      (p) => (p.captureTime ? [nanoseconds(p.captureTime)] : []),
    ),
    field(
      'frame.time_relative',
      'number',
      "Seconds since the capture's first frame",
      (p, c) => {
        const t = time(p);
        return t && c.start ? [Number(timestampDifference(t, c.start))] : NONE;
      },
      (p, c) => {
        const t = time(p);
        return t && c.start ? [nanoseconds(timestampDifference(t, c.start))] : [];
      },
    ),
    // Written as the record has them (dotted decimal, as tshark writes them), not read into a number and back.
    field('ip.src', 'ipv4', 'IPv4 source address', ip('src', false), v4Text('src')),
    field('ip.dst', 'ipv4', 'IPv4 destination address', ip('dst', false), v4Text('dst')),
    field('ip.addr', 'ipv4', 'IPv4 source or destination address', both(ip('src', false), ip('dst', false))),
    field('ipv6.src', 'ipv6', 'IPv6 source address', ip('src', true), address('src')),
    field('ipv6.dst', 'ipv6', 'IPv6 destination address', ip('dst', true), address('dst')),
    field('ipv6.addr', 'ipv6', 'IPv6 source or destination address', both(ip('src', true), ip('dst', true)), (p) => [
      ...address('src')(p),
      ...address('dst')(p),
    ]),
    unsigned(16, field('udp.srcport', 'number', 'UDP source port', port('src'))),
    unsigned(16, field('udp.dstport', 'number', 'UDP destination port', port('dst'))),
    unsigned(16, field('udp.port', 'number', 'UDP source or destination port', both(port('src'), port('dst')))),
    unsigned(
      16,
      field(
        'udp.length',
        'number',
        'UDP length: the query message and the 8-byte header (as the header says, where the capture cut the frame)',
        (p) => {
          if (p instanceof FrameRecord) return one(p.layers.udp?.length);
          return hasEndpoints(p) ? [(p instanceof Packet ? p.udpLength : undefined) ?? p.payloadLength + 8] : NONE;
        },
      ),
    ),
    field(
      'frame.time_delta',
      'number',
      "Seconds since the capture's frame before it",
      framed((p) => (p.timeDelta !== undefined ? Number(p.timeDelta) : undefined)),
      (p) => ((p instanceof Packet || p instanceof FrameRecord) && p.timeDelta !== undefined ? [nanoseconds(p.timeDelta)] : []),
    ),
    unsigned(
      32,
      field(
        'frame.len',
        'number',
        'Frame length on the wire',
        framed((p) => p.frameLength),
      ),
    ),
    unsigned(
      32,
      field(
        'frame.cap_len',
        'number',
        'Frame length as captured',
        framed((p) => p.capturedLength),
      ),
    ),
    field('frame.protocols', 'string', 'The protocols in the frame, outermost first (eth:ethertype:ip:udp:samp)', (p) => [protocolsOf(p)]),
    ipHeader(
      'ip.ttl',
      8,
      'IPv4 time to live',
      false,
      (p) => p.ipTtl,
      (ip) => ip.ttl,
    ),
    ipHeader(
      'ip.len',
      16,
      'IPv4 total length (header included)',
      false,
      (p) => p.ipLength,
      (ip) => ip.length,
    ),
    ipHeader(
      'ip.proto',
      8,
      'IPv4 protocol (17 UDP, 1 ICMP, 6 TCP, …)',
      false,
      () => 17,
      (ip) => ip.protocol,
    ),
    ipHeader(
      'ipv6.hlim',
      8,
      'IPv6 hop limit',
      true,
      (p) => p.ipTtl,
      (ip) => ip.ttl,
    ),
    ipHeader(
      'ipv6.plen',
      16,
      'IPv6 payload length',
      true,
      (p) => p.ipLength,
      (ip) => ip.length,
    ),
    unsigned(
      32,
      field('data.len', 'number', 'Length of a payload no query protocol claims (other UDP, a bare payload)', (p) =>
        p instanceof FrameRecord && p.payload.length ? [p.payload.length] : NONE,
      ),
    ),
    field('data.data', 'bytes', 'A payload no query protocol claims', (p) =>
      p instanceof FrameRecord && p.payload.length ? [p.payload] : NONE,
    ),
  ];
}

/** The generated items of one protocol: links, response time, pairing outcomes, the malformed item, warnings. */
function generatedFields(protocol: string): FilterField[] {
  const of =
    (f: (p: PacketRecord) => FilterValue | undefined) =>
    (p: DissectedRecord): readonly FilterValue[] =>
      isGame(p) && p.protocol === protocol ? one(f(p) ?? undefined) : NONE;
  const text = (s: string | undefined): string | undefined => (s ? s : undefined);
  return [
    unsigned(
      32,
      field(
        `${protocol}.response_in`,
        'number',
        'Frame of the response to this request',
        of((p) => p.responseIn),
      ),
    ),
    unsigned(
      32,
      field(
        `${protocol}.response_to`,
        'number',
        'Frame of the request this responds to',
        of((p) => p.requestIn),
      ),
    ),
    field(
      `${protocol}.time`,
      'number',
      'Seconds between request and response',
      of((p) => (p.responseTime === undefined ? undefined : Number(p.responseTime))),
      (p) => (isGame(p) && p.protocol === protocol && p.responseTime !== undefined ? [nanoseconds(p.responseTime)] : []),
    ),
    field(
      `${protocol}.unanswered`,
      'string',
      'Why a request got no reply (present only then)',
      of((p) => text(p.unanswered)),
    ),
    unsigned(
      32,
      field(
        `${protocol}.duplicate_of`,
        'number',
        'Frame of the reply this one repeats byte for byte',
        of((p) => p.duplicateOf),
      ),
    ),
    field(
      `${protocol}.unmatched`,
      'string',
      'Why a reply is paired with no request (late, extra, wrong address, none pending)',
      of((p) => text(p.unmatched)),
    ),
    field(
      `${protocol}.ambiguous`,
      'string',
      'Why the links may be crossed with an identical twin exchange',
      of((p) => text(p.ambiguous)),
    ),
    field(
      `${protocol}.incomplete`,
      'string',
      'Why the record was written before its exchange settled (one pass over its memory ceiling)',
      of((p) => text(p.incomplete)),
    ),
    field(
      `${protocol}.malformed`,
      'string',
      'Where and why decoding stopped (present only then)',
      of((p) => p.malformed?.message),
    ),
    field(`${protocol}.warning`, 'string', 'Something odd that did not stop decoding (one value per warning)', (p) =>
      isGame(p) && p.protocol === protocol ? p.warnings.map((w) => w.message) : NONE,
    ),
  ];
}

/** Abbreviations of strings that hold decimal numbers (a Minecraft player count): their values are numbers. */
function numericStrings(layouts: readonly AnyLayout[]): Set<string> {
  const out = new Set<string>();
  const walk = (fields: readonly Field[]): void => {
    for (const f of fields) {
      const inner = fieldKind(f).inner?.(f);
      if (inner) walk(inner);
      else if (f.kind === 'string' && f.numeric) out.add(f.abbrev);
    }
  };
  for (const l of layouts) walk(l.fields);
  return out;
}

/**
 * Where a field's values lie in a layout's decoded value: the property names down to it,
 * each marked when it is a list (whose entries are objects, or for a flat list the values).
 * Only for fields that carry a value of their own and hold no secret (a secret's value is
 * compared as it is shown: from the tree, masked). Groups add no level. A constant outside
 * a list (an opcode) is not in the value: its declared number stands for the path.
 */
type ValuePath = readonly { readonly name: string; readonly list: boolean; readonly flat: boolean }[];

function valuePaths(layouts: readonly AnyLayout[]): Map<string, Map<string, ValuePath | number>> {
  const byAbbrev = new Map<string, Map<string, ValuePath | number>>();
  const walk = (layout: string, fields: readonly Field[], path: ValuePath): void => {
    for (const f of fields) {
      if (f.kind === 'group') walk(layout, f.fields, path);
      else if (f.kind === 'list') {
        if (f.flat && f.entry.fields.length === 1) {
          const only = f.entry.fields[0]!;
          if (only.kind === 'string' && secretFields([only]).size === 0)
            add(only.abbrev, layout, [...path, { name: f.name, list: true, flat: true }]);
        } else {
          walk(layout, f.entry.fields, [...path, { name: f.name, list: true, flat: false }]);
        }
      } else if ('name' in f && secretFields([f]).size === 0) {
        add(f.abbrev, layout, [...path, { name: f.name, list: false, flat: false }]);
      } else if (f.kind === 'const' && !path.some((s) => s.list)) {
        // Not in the decoded value, and the same in every record the layout decoded: its declared value.
        add(f.abbrev, layout, f.value);
      }
    }
  };
  const add = (abbrev: string, layout: string, path: ValuePath | number): void => {
    let m = byAbbrev.get(abbrev);
    if (!m) byAbbrev.set(abbrev, (m = new Map()));
    m.set(layout, path);
  };
  for (const l of layouts) walk(l.id, l.fields, []);
  return byAbbrev;
}

/** The decoded value of the record last asked about (a filter that names several fields decodes once). */
let lastRecord: PacketRecord | undefined;
let lastValue: Record<string, unknown> | undefined;

/**
 * Values of payloads decoded lately, by the codec options they were decoded with (one per
 * dissection): a reply repeated byte for byte, as a server's are while nothing changes, is
 * decoded once. The values are shared: what reads them (`collect`) never changes them.
 */
const decodedLately = new WeakMap<object, RenderCache<Record<string, unknown>>>();
const NO_BYTES = new Uint8Array(0);

/**
 * A record's decoded value, for a record the dissector decoded cleanly and whose tree is not
 * built: the layout's compiled decoder, several times faster than annotating. Undefined otherwise.
 */
function decodedValue(p: PacketRecord): Record<string, unknown> | undefined {
  if (p === lastRecord) return lastValue;
  const source = p instanceof Packet && !p.malformed ? p.treeSource : undefined;
  let value: Record<string, unknown> | undefined;
  if (source) {
    const bytes = p.payload;
    let cache: RenderCache<Record<string, unknown>> | undefined;
    let key = 0;
    if (RenderCache.takes(bytes)) {
      cache = decodedLately.get(source.codec);
      if (!cache) decodedLately.set(source.codec, (cache = new RenderCache()));
      key = RenderCache.key(bytes);
      if (cache.find(key, source.layout, bytes)) value = cache.extra;
    }
    if (!value) {
      try {
        value = source.layout.decode(bytes, source.codec).value as Record<string, unknown>;
        if (cache?.wants(key)) cache.set(key, source.layout, bytes, NO_BYTES, 0, 0, value);
      } catch {
        value = undefined;
      }
    }
  }
  lastRecord = p;
  lastValue = value;
  return value;
}

function collect(value: unknown, path: ValuePath, at: number, type: FilterType, out: FilterValue[]): void {
  const step = path[at]!;
  const v = (value as Record<string, unknown>)[step.name];
  if (v === undefined) return;
  if (step.list) {
    for (const entry of v as unknown[]) {
      if (step.flat) out.push(plain(entry, type));
      else collect(entry, path, at + 1, type, out);
    }
  } else {
    out.push(plain(v, type));
  }
}

function plain(v: unknown, type: FilterType): FilterValue {
  if (type === 'ipv4') return typeof v === 'string' ? (ipv4Number(v) ?? null) : null;
  return v as FilterValue;
}

/** The fields of `protocols`, read from a record's decoded value where they can be, else from its annotated tree. */
function treeFields(protocols: readonly ProtocolDeclaration[], generated: ReadonlySet<string>): FilterField[] {
  const out: FilterField[] = [];
  const layouts = protocols.flatMap((p) => p.layouts);
  const numeric = numericStrings(layouts);
  const paths = valuePaths(layouts);
  for (const r of registryOf(protocols)) {
    if (generated.has(r.abbrev)) continue;
    const type = numeric.has(r.abbrev) ? 'number' : typeOf(r.type);
    const integer = numeric.has(r.abbrev) ? undefined : integerOf(r.type);
    const declaring = new Set(r.layouts);
    const unknown = `${r.protocol}.unknown`;
    const abbrev = r.abbrev;
    const byLayout = paths.get(abbrev);
    out.push({
      name: abbrev,
      type,
      ...(integer && { integer }),
      doc: r.doc || r.label,
      fromTree: true,
      layouts: declaring,
      values(p, ctx) {
        // Only a layout that declares the field can hold it: the tree of any other is never built for it.
        if (!isGame(p) || (!declaring.has(p.layout) && p.layout !== unknown)) return NONE;
        const path = byLayout?.get(p.layout);
        if (typeof path === 'number') {
          if (p instanceof Packet && !p.malformed && p.treeSource) return [path];
        }
        const value = path && typeof path !== 'number' ? decodedValue(p) : undefined;
        if (value) {
          const found: FilterValue[] = [];
          collect(value, path as ValuePath, 0, type, found);
          return found;
        }
        const found: FilterValue[] = [];
        const walk = (nodes: readonly FieldNode[]): void => {
          for (const n of nodes) {
            if (n.abbrev === abbrev) found.push(nodeValue(n, type, ctx));
            if (n.children) walk(n.children);
          }
        };
        walk(p.fields);
        return found;
      },
    });
  }
  return out;
}

/**
 * A protocol's field: present when `test` passes, its value the payload's bytes (`frame`:
 * the frame's). Unless secrets are shown, a record that holds one reads as the hex pane
 * shows it, each byte of a secret a `*`: `frame contains "hunter2"` finds no password the
 * output hides.
 */
function protocolField(
  name: string,
  test: (p: DissectedRecord) => boolean,
  doc: string,
  /** As `-T fields` prints it: tshark writes a protocol's tree line (ours, registered from Lua: its name). */
  line: (p: DissectedRecord) => string,
  frame = false,
): FilterField {
  return field(
    name,
    'protocol',
    doc,
    (p, c) => {
      if (!test(p)) return NONE;
      const bytes = frame ? (p.frameBytes ?? p.payload) : p.payload;
      if (!isGame(p) || c.showSecrets) return [bytes];
      return [shownBytes(p, bytes, frame && p.frameBytes ? p.payloadOffset : 0)];
    },
    (p) => (test(p) ? [line(p)] : []),
  );
}

/** Protocols below or beside the query protocols that a filter can name (as tshark names them). */
const OTHER_PROTOCOLS: readonly (readonly [word: string, doc: string])[] = [
  ['eth', 'Ethernet frames'],
  ['sll', 'Linux cooked captures (v1 and v2)'],
  ['vlan', '802.1Q VLAN-tagged frames'],
  ['arp', 'ARP'],
  ['icmp', 'ICMP'],
  ['icmpv6', 'ICMPv6'],
  ['tcp', 'TCP'],
  ['igmp', 'IGMP'],
];

/**
 * tshark's columns as fields (`-T fields -e _ws.col.Info`), with its names (tshark 4.0) and its
 * values, which are those of tshark with our Lua plugin: No., Time (as `-t` writes it), the IP
 * addresses (else the link's), the Protocol column (a query protocol's short title: `SA:MP`, as
 * the plugin sets it; else the frame's, `UDP`, `ICMPv6`), the frame's Length, and the Info column
 * (a query message's summary, as the plugin writes it; a frame's as the summary lines word it).
 * Strings, as tshark's column fields are.
 */
function columnFields(protocols: readonly ProtocolDeclaration[]): FilterField[] {
  const short = new Map(protocols.map((p) => [p.name, p.shortTitle ?? p.title]));
  const column = (name: string, doc: string, get: (p: DissectedRecord, ctx: FilterContext) => string | undefined): FilterField => {
    const values = (p: DissectedRecord, ctx: FilterContext): readonly FilterValue[] => one(get(p, ctx));
    return { name: `_ws.col.${name}`, type: 'string', doc, values };
  };
  const bare = (p: PacketRecord): boolean => p.src.port === 0 && p.dst.port === 0 && p.src.ip === '0.0.0.0' && p.dst.ip === '0.0.0.0';
  return [
    column('No.', 'The No. column: the frame number', (p) => String(p.frame)),
    column('Time', "The Time column, as -t writes it (seconds since the capture's first frame by default)", (p, ctx) => {
      const t = 'timestamp' in p ? (p as { readonly timestamp: Timestamp | null }).timestamp : null;
      const previous = (p as { readonly previousTimestamp?: Timestamp | null }).previousTimestamp;
      return t ? timeColumnText(t, ctx.start, previous, ctx.time ?? RELATIVE) : undefined;
    }),
    column('Source', 'The Source column: the IP source address, else the link source', (p) =>
      p instanceof FrameRecord ? p.layers.source || undefined : bare(p) ? undefined : p.src.ip,
    ),
    column('Destination', 'The Destination column: the IP destination address, else the link destination', (p) =>
      p instanceof FrameRecord ? p.layers.destination || undefined : bare(p) ? undefined : p.dst.ip,
    ),
    column('Protocol', "The Protocol column: a query protocol's short title (SA:MP), else the frame's (UDP, ICMPv6)", (p) =>
      p instanceof FrameRecord ? p.layers.column : (short.get(p.protocol) ?? p.protocol),
    ),
    column('Length', 'The Length column: the frame length on the wire', (p) => {
      const wire = p instanceof FrameRecord ? p.frameLength : p instanceof Packet ? p.frameLength : undefined;
      return String(wire ?? p.payload.length);
    }),
    column('Info', "The Info column: a query message's summary, else the frame's", (p) =>
      p instanceof FrameRecord ? p.layers.info : p.summary,
    ),
  ];
}

/**
 * Wireshark's expert severities and groups as its fields hold them (epan/proto.h, Wireshark v4.0.17:
 * PI_COMMENT … PI_ERROR, PI_CHECKSUM … PI_DEPRECATED), by the names its value strings give them.
 */
const PI_SEVERITY: Readonly<Record<ExpertLevel, number>> = {
  error: 0x00800000,
  warn: 0x00600000,
  note: 0x00400000,
  chat: 0x00200000,
  comment: 0x00100000,
};
/** By value, lowest first, as Wireshark lists them. */
const SEVERITIES: ReadonlyMap<string, number> = new Map(
  [...EXPERT_LEVELS].reverse().map((l) => [SEVERITY_OF[l].toLowerCase(), PI_SEVERITY[l]]),
);
const GROUPS: ReadonlyMap<string, number> = new Map(
  [
    'checksum',
    'sequence',
    'response',
    'request',
    'undecoded',
    'reassemble',
    'malformed',
    'debug',
    'protocol',
    'security',
    'comment',
    'decryption',
    'assumption',
    'deprecated',
  ].map((name, i) => [name, (i + 1) << 24]),
);

/**
 * tshark's expert fields, from a record's expert items as `-z expert` counts them (stats/expert.ts):
 * `_ws.expert` (a protocol, one per item; `-T fields` writes its line, `Expert Info (Error/Malformed):
 * …`), its message, severity and group (numbers, named as tshark names them: `== warning`,
 * `== "Malformed"`), `_ws.malformed` where an item is of the Malformed group (Wireshark adds it to
 * each), and each item a protocol may raise by its own abbreviation (`samp.expert.short_list`), as
 * the Wireshark plugin registers them.
 */
function expertFields(protocols: readonly ProtocolDeclaration[]): FilterField[] {
  const items = (p: DissectedRecord): readonly FilterValue[] => expertItemsOf(p).map(() => p.payload);
  const each =
    (get: (i: ExpertItemOf) => FilterValue) =>
    (p: DissectedRecord): readonly FilterValue[] =>
      expertItemsOf(p).map(get);
  const number = (name: string, doc: string, names: ReadonlyMap<string, number>, get: (i: ExpertItemOf) => number): FilterField => ({
    ...unsigned(32, field(name, 'number', doc, each(get))),
    names,
  });
  const present = (name: string, doc: string, test: (i: ExpertItemOf) => boolean, line: string): FilterField =>
    field(
      name,
      'protocol',
      doc,
      (p) => (expertItemsOf(p).some(test) ? [p.payload] : NONE),
      (p) => (expertItemsOf(p).some(test) ? [line] : []),
    );
  return [
    field('_ws.expert', 'protocol', 'Expert items: a warning, or where decoding stopped (one per item)', items, (p) =>
      expertItemsOf(p).map(expertItemText),
    ),
    field(
      '_ws.expert.message',
      'string',
      "An expert item's words",
      each((i) => i.message),
    ),
    number('_ws.expert.severity', "An expert item's severity (comment, chat, note, warning, error)", SEVERITIES, (i) =>
      SEVERITIES.get(i.severity.toLowerCase())!,
    ),
    number('_ws.expert.group', "An expert item's group (malformed, sequence, protocol, …)", GROUPS, (i) =>
      GROUPS.get(i.group.toLowerCase())!,
    ),
    present('_ws.malformed', 'Packets with an expert item of the Malformed group', (i) => i.group === 'Malformed', '_ws.malformed'),
    ...protocols.flatMap((declared) =>
      protocolExperts(declared).map((e) =>
        present(
          expertAbbrev(declared.name, e.code),
          `${e.severity}/${e.group}: ${e.summary}`,
          (i) => i.code === e.code && i.protocol === declared.name,
          '1',
        ),
      ),
    ),
  ];
}

function buildCatalog(protocols: readonly ProtocolDeclaration[]): Map<string, FilterField> {
  const names = protocols.map((p) => p.name);
  const generated = names.flatMap(generatedFields);
  const all = [
    protocolField(
      'frame',
      () => true,
      'Every packet; its bytes are the frame (the payload when reassembled)',
      (p) => `Frame ${p.frame}`,
      true,
    ),
    protocolField(
      'ip',
      (p) => ipAddress(p, 'src', false) !== undefined,
      'IPv4 packets',
      (p) => `Internet Protocol Version 4, Src: ${ipAddress(p, 'src', false)}, Dst: ${ipAddress(p, 'dst', false)}`,
    ),
    protocolField(
      'ipv6',
      (p) => ipAddress(p, 'src', true) !== undefined,
      'IPv6 packets',
      (p) => `Internet Protocol Version 6, Src: ${ipAddress(p, 'src', true)}, Dst: ${ipAddress(p, 'dst', true)}`,
    ),
    protocolField(
      'udp',
      (p) => udpPort(p, 'src') !== undefined,
      'UDP packets; its bytes are the payload',
      (p) => `User Datagram Protocol, Src Port: ${udpPort(p, 'src')}, Dst Port: ${udpPort(p, 'dst')}`,
    ),
    ...names.map((proto) =>
      protocolField(
        proto,
        (p) => isGame(p) && p.protocol === proto,
        `${proto} packets; its bytes are the payload`,
        () => proto,
      ),
    ),
    protocolField(
      'data',
      (p) => p instanceof FrameRecord && p.payload.length > 0,
      'A payload no query protocol claims (other UDP, a bare payload); its bytes are the payload',
      (p) => `Data (${p.payload.length} bytes)`,
    ),
    // The other protocols a frame's layers name (frame.protocols' words): present or not, their bytes the frame's.
    ...OTHER_PROTOCOLS.map(([word, doc]) =>
      protocolField(
        word,
        (p) => protocolsOf(p).split(':').includes(word),
        doc,
        () => word,
        true,
      ),
    ),
    ...captureFields(),
    ...columnFields(protocols),
    ...expertFields(protocols),
    ...generated,
    ...treeFields(protocols, new Set(generated.map((f) => f.name))),
  ];
  const catalog = new Map(all.map((f) => [f.name, f]));
  // A protocol's aliases name it too (`minecraft` is mcquery).
  for (const p of protocols) for (const alias of p.aliases) catalog.set(alias, { ...catalog.get(p.name)!, name: alias });
  return catalog;
}

const catalogs = perProtocols(buildCatalog);

/**
 * Every name a display filter knows, by name, when the dissector knows `protocols` (default:
 * the built-in ones; give the dissector's `protocols` for a protocol of your own): built once
 * per set of protocols.
 */
export function filterFields(protocols: readonly ProtocolDeclaration[] = builtInProtocols): ReadonlyMap<string, FilterField> {
  return catalogs(protocols);
}
