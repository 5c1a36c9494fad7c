/**
 * Dissects a hex dump: each packet in the text is a whole frame (Ethernet, or raw IP)
 * walked down to UDP, or a bare payload dissected directly.
 */
import { CodecError, recognize } from '@gamequery/codec';
import { parseHexDump, preferReassembled, type HexDumpDiagnostic, type HexDumpOptions } from './hex/index.ts';
import { UdpDecoder } from './net/decoder.ts';
import { LINKTYPE } from './net/link.ts';
import { Dissector, type DissectOptions, type DissectStats } from './dissect.ts';
import type { PacketRecord } from './record.ts';

export interface HexDissection {
  readonly packets: PacketRecord[];
  readonly diagnostics: readonly HexDumpDiagnostic[];
  readonly stats: DissectStats;
}

const isQueryPayload = (bytes: Uint8Array): boolean => {
  try {
    recognize(bytes);
    return true;
  } catch (e) {
    if (e instanceof CodecError) return false;
    throw e;
  }
};

/** Which link type a dumped frame is, if it is a frame at all. */
function frameLinkType(bytes: Uint8Array): number | undefined {
  if (isQueryPayload(bytes)) return undefined;
  for (const linkType of [LINKTYPE.ETHERNET, LINKTYPE.RAW]) {
    const probe = new UdpDecoder({ reassembly: false }).decode({ index: 0, linkType, data: bytes, timestamp: null });
    if (probe.kind === 'udp') return linkType;
  }
  return undefined;
}

export function dissectHexDump(text: string, options: DissectOptions & { hex?: HexDumpOptions } = {}): HexDissection {
  const parsed = parseHexDump(text, options.hex);
  const dissector = new Dissector(options);
  const packets: PacketRecord[] = [];
  preferReassembled(parsed.packets).forEach((p, i) => {
    const linkType = frameLinkType(p.bytes);
    packets.push(...(linkType === undefined
      ? dissector.pushPayload(i + 1, p.bytes)
      : dissector.pushFrame({ index: i + 1, linkType, data: p.bytes, timestamp: null })));
  });
  packets.push(...dissector.finish());
  return { packets, diagnostics: parsed.diagnostics, stats: dissector.stats };
}
