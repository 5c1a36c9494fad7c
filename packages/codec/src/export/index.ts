/**
 * Exports of the layout declarations to third-party tools: a Wireshark Lua plugin and
 * Kaitai Struct definitions. Browser-safe: each returns text.
 */
export { exportWireshark, wiresharkExpertAbbrev, wiresharkPorts, type WiresharkOptions } from './wireshark/plugin.ts';
export { exportKaitai, type KaitaiOptions } from './kaitai/ksy.ts';
