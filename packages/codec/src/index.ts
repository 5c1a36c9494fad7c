/**
 * @gamequery/codec — declarative codecs for the SA:MP / open.mp, VC:MP and Minecraft
 * (GameSpy4) UDP query protocols. Every message layout is declared once; decoders,
 * the annotating decode, encoders and the field registry are derived from it.
 */
export * from './errors.ts';
export type { Charset, TextCodec } from './grammar/charset.ts';
export { charsets, charsetChoices, textCodec } from './grammar/charset.ts';
export { detect, type Detection } from './grammar/detect.ts';
export { decodeSamp6, encodeSamp6, ipv6Text, SAMP6_HEADER, type Samp6Packet } from './protocols/samp/samp6.ts';
export type * from './grammar/fields.ts';
export type { Meta as FieldMeta } from './grammar/fields.ts';
// The declaration API: the builders every built-in layout is declared with, and defineLayout.
export {
  u8,
  u16le,
  u16be,
  u32le,
  u32be,
  i32le,
  i32be,
  bool,
  ipv4,
  bytes,
  prefixedString,
  fixedString,
  cstring,
  decimalCstring,
  magic,
  constant,
  countedList,
  terminatedList,
  group,
  secretFields,
} from './grammar/fields.ts';
export type { FieldNode, NodeValue, DecodeWarning } from './grammar/annotate.ts';
// Expert items: every kind of warning declared once (code, group, severity, summary); warnings carry the code.
export {
  declareExperts,
  expertInfo,
  expertInfos,
  grammarExperts,
  warning,
  FLAG_BYTE,
  SHORT_LIST,
  TRAILING_BYTES,
  type ExpertInfo,
  type ExpertGroup,
  type ExpertSeverity,
} from './grammar/expert.ts';
export type {
  Layout,
  AnyLayout,
  QueryLayout,
  LayoutSpec,
  Protocol,
  Direction,
  CodecOptions,
  EmitOptions,
  TextEmitOptions,
  Decoded,
  Described,
  Annotation,
} from './grammar/layout.ts';
export { defineLayout, interpretedLayout, protocolNames, protocolTitles, malformedNode } from './grammar/layout.ts';
/** Text with control characters (C0, DEL, C1) and backslashes escaped, as Wireshark's format_text: for terminals and logs. */
export { escapeControls, hostPort, showText } from './grammar/display.ts';
export { codeGeneration, setCodeGeneration } from './grammar/interpreted.ts';
/** The JavaScript a layout's JSON and text emitters are compiled to, for review (the golden files) and debugging. */
export { emitterSource } from './grammar/emit.ts';
export { textEmitterSource, type TextMode } from './grammar/emit-text.ts';
export type { RegisteredField, FieldType } from './grammar/registry.ts';
export { toHex } from './grammar/wire.ts';
export { ByteSink, asciiBytes } from './grammar/sink.ts';
export * from './protocols/samp/index.ts';
export * from './protocols/vcmp/index.ts';
export * from './protocols/minecraft/index.ts';
export {
  decodePacket,
  encodePacket,
  recognize,
  identify,
  signatureOf,
  layoutFor,
  layouts,
  messages,
  type DecodedPacket,
  type AnyDecodedPacket,
  type BuiltInLayout,
  type PacketOf,
  type PacketHint,
  type PacketToEncode,
  type Recognized,
} from './packet.ts';
export { fieldRegistry } from './registry.ts';
// Protocol declarations: each protocol's facts beside its layouts, and recognition over any set of them.
export {
  defineProtocol,
  type ProtocolDeclaration,
  type ProtocolSpec,
  type PairingKey,
  type RecognitionHint,
  type RecognitionRule,
  type MessagePair,
  type Signature,
  type Fail,
} from './grammar/protocol.ts';
export { protocolSet, type ProtocolSet } from './grammar/protocol-set.ts';
export { builtInProtocols, sampProtocol, vcmpProtocol, mcqueryProtocol } from './protocols/index.ts';
export { valueToJson, valueFromJson, nodeValueToJson, nodeJson, fromHex, MASK, type JsonNode } from './json.ts';
