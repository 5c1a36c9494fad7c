/**
 * @gamequery/dissect — Wireshark-style dissection of SA:MP, VC:MP and Minecraft query
 * traffic from hex dumps and pcap/pcapng captures.
 */
export { dissectPayload, type DissectedPayload } from './payload.ts';
export {
  Dissector,
  DEFAULT_MAX_HELD_BYTES,
  DISSECT_BATCH,
  dissectCapture,
  dissectCaptureBatches,
  newStats,
  type DissectBatch,
  type DissectItem,
  type DissectOptions,
  type DissectStats,
} from './dissect.ts';
export { dissectHexDump, type HexDissection } from './hexdump.ts';
export {
  dissectHexDumpStream,
  NotAHexDumpError,
  GIVE_UP_AFTER,
  MAX_STREAM_PACKET,
  type HexBatch,
  type HexStreamOptions,
} from './hexdump-stream.ts';
export { LineSplitter, MAX_LINE_LENGTH, type LineSink } from './hex/lines.ts';
export type { PacketRecord, ProtocolName, RecordKind } from './packet-record.ts';
export { BLANK, FrameRecord, isFrameRecord, type DissectedRecord, type FrameReason } from './frame-record.ts';
export { frameLayers, type FrameLayers, type IpFacts, type UdpFacts, type Reassembled } from './net/layers.ts';
export { renderTree, lineOf, showOf, type TextOptions } from './render/text.ts';
export { nodeJson, type JsonNode } from '@gamequery/codec';
export { MASK } from '@gamequery/codec/internal';
/**
 * The output formats, one function each, every one a string without its final newline (the
 * JSON document a value): `packetText` the `tshark -V`-like text, `packetJson` the JSON
 * document, `packetLine` that document as one line (NDJSON), `packetSummary` the summary line
 * (tshark without -V), `FieldsLine` the `-T fields` lines; and `HtmlWriter` the HTML page, into
 * a `ByteSink`. Their byte-writing forms, for the command line, are `@gamequery/dissect/internal`.
 */
export { packetText, packetJson, generatedNodes, walkNodes, type RenderOptions } from './render/packet.ts';
export { packetLine } from './render/packet-line.ts';
/** tshark's `-O`: `RenderOptions.only` names these protocols (`onlyLines` filters `-V` lines the same way). */
export { ONLY_PROTOCOLS, onlyLines } from './render/only.ts';
export { packetSummary, type TimeColumn } from './render/summary.ts';
export { FieldsLine, UnknownFieldError, type FieldsOptions } from './render/fields-line.ts';
export { hexPane, type ByteRange } from './render/hexpane.ts';
export * from './capture/index.ts';
export * from './net/index.ts';
export * from './hex/index.ts';
export { compileFilter, FilterError, type DisplayFilter, type FilterOptions } from './filter/compile.ts';
export { filterFields, type FilterField, type FilterType } from './filter/fields.ts';
/** Edit distance between two names, as the suggestions ("did you mean") of filters and of the command's arguments use it. */
export { editDistance } from './filter/suggest.ts';
export { captureStart } from './start.ts';
export { FirstPassStats, captureStats, type CaptureStats, type StatsLimit } from './stats/first-pass.ts';
export {
  ServerStats,
  type ServerCounts,
  type ServerReport,
  type StatsReport,
  type StatsRows,
  type RttSummary,
  type Amplification,
  type MessageCounts,
} from './stats/servers.ts';
export { RttDigest } from './stats/digest.ts';
export { ProtocolHierarchy, phsLines, parsePhs, type PhsNode, type PhsReport } from './stats/phs.ts';
export {
  Conversations,
  conversationLines,
  parseConversations,
  type ConversationEnd,
  type ConversationReport,
  type ConversationRow,
  type ConversationRows,
  type ConversationTable,
  type ConversationType,
  type EndpointRow,
  type Traffic,
} from './stats/conversations.ts';
export {
  ExpertStats,
  EXPERT_LEVELS,
  expertLines,
  parseExpert,
  type ExpertItem,
  type ExpertLevel,
  type ExpertReport,
} from './stats/expert.ts';
export { IoStats, IoIntervalError, MAX_INTERVALS, MAX_SERVERS, parseIoStat, type IoReport, type IoRow } from './stats/io.ts';
export {
  SourceStats,
  DEFAULT_CAPACITY,
  GUESSING_THRESHOLD,
  type SourceCount,
  type SourcesReport,
  type RconGuesser,
} from './stats/sources.ts';
export { renderStatsTable, statsTableLines, renderSourcesTable, renderIoTable, ioRowLine, ioRowHeading } from './render/stats.ts';
export { HtmlWriter, type HtmlOptions } from './render/html.ts';
/** The growable buffer `HtmlWriter` writes its page into, as UTF-8: `sink.buf` up to `sink.at`. */
export { ByteSink } from '@gamequery/codec/internal';
