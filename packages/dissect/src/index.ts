/**
 * @gamequery/dissect — Wireshark-style dissection of SA:MP, VC:MP and Minecraft query
 * traffic from hex dumps and pcap/pcapng captures.
 */
export { dissectPayload, type DissectedPayload } from './payload.ts';
export { renderTree, lineOf, showOf, MASK, type TextOptions } from './render/text.ts';
