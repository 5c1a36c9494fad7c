/**
 * @gamequery/dissect/internal — NOT API. What @gamequery/cli (and the benchmarks) take from
 * the dissector beyond its public entries: the output formats written as UTF-8 into the
 * codec's byte sink, without making a string, for captures of millions of packets. Each
 * writes what its public function gives (`packetText`, `packetLine`, `packetSummary`) and a
 * newline; `writeTimestamp` a capture time as its JSON string (`formatTimestamp`'s, quoted).
 *
 * No semver promise: anything here may change or go in any release, a patch release too. It is
 * an entry of the package's `exports` only so that the CLI reaches it when installed from the
 * registry. Use `@gamequery/dissect` and its other entries instead.
 */
export { writePacketText } from './render/packet-text.ts';
export { writePacketLine } from './render/packet-line.ts';
export { writePacketSummary } from './render/summary.ts';
export { writeTimestamp } from './capture/timestamp.ts';
export { dumpedPayload } from './hexdump.ts';
