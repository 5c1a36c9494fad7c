/**
 * @gamequery/dissect — Wireshark-style dissection of SA:MP, VC:MP and Minecraft query
 * traffic from hex dumps and pcap/pcapng captures.
 */
export { dissectPayload, type DissectedPayload } from './payload.ts';
export { Dissector, dissectCapture, type DissectItem, type DissectOptions, type DissectStats } from './dissect.ts';
export { dissectHexDump, type HexDissection } from './hexdump.ts';
export type { PacketRecord } from './record.ts';
export { renderTree, lineOf, showOf, MASK, type TextOptions } from './render/text.ts';
export { renderPacketText, packetJson, nodeJson, summaryLine, generatedNodes, walkNodes, type RenderOptions, type JsonNode } from './render/packet.ts';
export { hexPane, type ByteRange } from './render/hexpane.ts';
export * from './capture/index.ts';
export * from './net/index.ts';
export * from './hex/index.ts';
