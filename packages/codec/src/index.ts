/**
 * @gamequery/codec — declarative codecs for the SA:MP / open.mp, VC:MP and Minecraft
 * (GameSpy4) UDP query protocols. Every message layout is declared once; decoders,
 * the annotating decode, encoders and the field registry are derived from it.
 */
export * from './errors.ts';
export type { Charset, TextCodec } from './grammar/charset.ts';
export { charsets, textCodec } from './grammar/charset.ts';
export type * from './grammar/fields.ts';
export { secretFields } from './grammar/fields.ts';
export type { FieldNode, NodeValue, DecodeWarning } from './grammar/annotate.ts';
export type { Layout, Protocol, Direction, CodecOptions, EmitOptions, Decoded, Annotation } from './grammar/layout.ts';
export { protocolNames, protocolTitles, malformedNode } from './grammar/layout.ts';
export type { RegisteredField, FieldType } from './grammar/registry.ts';
export { toHex } from './grammar/wire.ts';
export { ByteSink, asciiBytes } from './grammar/sink.ts';
export * from './samp/index.ts';
export * from './vcmp/index.ts';
export * from './mcquery/index.ts';
export {
  decodePacket, encodePacket, recognize, identify, signatureOf, layoutFor, layouts, messages,
  type DecodedPacket, type PacketHint, type PacketToEncode, type Recognized,
} from './packet.ts';
export { fieldRegistry } from './registry.ts';
export { valueToJson, valueFromJson, nodeValueToJson, nodeJson, fromHex, MASK, type JsonNode } from './json.ts';
