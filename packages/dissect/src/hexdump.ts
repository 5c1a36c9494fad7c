/**
 * Dissects a hex dump: each packet in the text is a whole frame (Ethernet, Linux cooked
 * v1 or v2, or raw IP) walked down to UDP, or a bare payload dissected directly.
 */
import type { ProtocolSet } from '@gamequery/codec';
import { parseHexDump, preferReassembled, type HexDumpDiagnostic, type HexDumpOptions } from './hex/index.ts';
import { UdpDecoder } from './net/decoder.ts';
import { LINKTYPE } from './net/link.ts';
import { Dissector, type DissectOptions, type DissectStats } from './dissect.ts';
import type { DissectedRecord, ListedBy } from './frame-record.ts';
import type { PacketRecord } from './packet-record.ts';
import { recognitionOf } from './record-maker.ts';

/**
 * What {@link dissectHexDump} returns: the dissected packets, the hex dump parser's diagnostics and the
 * counts.
 */
export interface HexDissection<R extends DissectedRecord = PacketRecord> {
  readonly packets: R[];
  readonly diagnostics: readonly HexDumpDiagnostic[];
  readonly stats: DissectStats;
}

/** A query message of `protocols` by its signature, or a reply without magic by its shape: a payload, not a frame to walk down. */
const isQueryPayload = (bytes: Uint8Array, protocols: ProtocolSet): boolean =>
  protocols.shapeOf(bytes) !== undefined || protocols.identify(bytes) !== undefined;

/**
 * The link types a dumped frame is tried as, in order: Ethernet (`tcpdump -XX`, `tshark -x`),
 * Linux cooked v1 and v2 (`tcpdump -i any -XX`), raw IP (`tcpdump -X`). No frame of one reads as
 * UDP as another: Ethernet's type field is where an SLL header holds the last bytes of its
 * address (zero on loopback, the padding after a MAC), SLL's protocol where Ethernet has the IP
 * header's first bytes (45 00), and SLL2's first, before raw IP's version nibble.
 */
const DUMPED_LINK_TYPES = [LINKTYPE.ETHERNET, LINKTYPE.LINUX_SLL, LINKTYPE.LINUX_SLL2, LINKTYPE.RAW];

/** Which link type a dumped frame is, if it is a frame at all. */
function frameLinkType(bytes: Uint8Array, protocols: ProtocolSet): number | undefined {
  if (isQueryPayload(bytes, protocols)) return undefined;
  for (const linkType of DUMPED_LINK_TYPES) {
    const probe = new UdpDecoder({ reassembly: false }).decode({ index: 0, linkType, data: bytes, timestamp: null });
    if (probe.kind === 'udp') return linkType;
  }
  return undefined;
}

/** The UDP payload of a dumped frame (of a link type {@link DUMPED_LINK_TYPES} names), or undefined where it is none. */
export function dumpedPayload(bytes: Uint8Array): Uint8Array | undefined {
  for (const linkType of DUMPED_LINK_TYPES) {
    const d = new UdpDecoder({ reassembly: false }).decode({ index: 0, linkType, data: bytes, timestamp: null });
    if (d.kind === 'udp') return d.payload;
  }
  return undefined;
}

/**
 * Dissects one dumped buffer as frame `index`: a frame down to UDP if it is one, else a bare
 * payload (a message of the dissector's `protocols`).
 */
export function pushDumped<R extends DissectedRecord>(
  dissector: Dissector<R>,
  index: number,
  bytes: Uint8Array,
  protocols: ProtocolSet,
): R[] {
  const linkType = frameLinkType(bytes, protocols);
  return linkType === undefined
    ? dissector.pushPayload(index, bytes)
    : dissector.pushFrame({ index, linkType, data: bytes, timestamp: null });
}

/**
 * Parses a hex dump (text) and dissects every packet in it, in order; problems in the text come back as
 * diagnostics, not errors.
 */
export function dissectHexDump<A extends boolean = false>(
  text: string,
  options: DissectOptions & { hex?: HexDumpOptions; readonly allFrames?: A } = {},
): HexDissection<ListedBy<A>> {
  const parsed = parseHexDump(text, options.hex);
  const dissector = new Dissector<ListedBy<A>>(options);
  const packets: ListedBy<A>[] = [];
  const protocols = recognitionOf(options).set;
  preferReassembled(parsed.packets).forEach((p, i) => {
    for (const x of pushDumped(dissector, i + 1, p.bytes, protocols)) packets.push(x);
  });
  // One by one: what a dump's end settles may be every packet of it, too many to pass as arguments.
  for (const x of dissector.finish()) packets.push(x);
  return { packets, diagnostics: parsed.diagnostics, stats: dissector.stats };
}
