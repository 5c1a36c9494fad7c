/**
 * @gamequery/codec — declarative codecs for the SA:MP / open.mp, VC:MP and Minecraft
 * (GameSpy4) UDP query protocols. Every message layout is declared once; decoders,
 * the annotating decode, encoders and the field registry are derived from it.
 *
 * This entry is what decoding and encoding packets takes: the layouts by protocol
 * (`samp.infoResponse`), `decodePacket`/`encodePacket` and recognition, the typed errors,
 * the field registry. Declaring layouts and protocols of your own: `@gamequery/codec/define`.
 */
export * from './errors.ts';
export { charsets, charsetChoices, type Charset } from './grammar/charset.ts';
/** A field of a declaration (`layout.fields`); the builders and each kind's type are in `@gamequery/codec/define`. */
export type { Field } from './grammar/fields.ts';
export type { FieldNode, DecodeWarning } from './grammar/annotate.ts';
export type { NodeValue, FieldType } from './grammar/kinds/kind.ts';
// Expert items: every kind of warning declared once (code, group, severity, summary); warnings carry the code.
export { expertInfo, expertInfos, type ExpertInfo, type ExpertGroup, type ExpertSeverity } from './grammar/expert.ts';
export type { Layout, AnyLayout, Direction, CodecOptions, Decoded, Annotation } from './grammar/layout.ts';
export type { QueryLayout, BuiltInProtocol as Protocol } from './protocols/index.ts';
export type { RegisteredField } from './grammar/registry.ts';
export { samp } from './protocols/samp/index.ts';
export { vcmp } from './protocols/vcmp/index.ts';
export { mcquery } from './protocols/mcquery/index.ts';
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
export { fieldRegistry, registryOf } from './registry.ts';
// Protocols as declarations (see @gamequery/codec/define), and recognition over any set of them.
export type { ProtocolDeclaration, MessagePair } from './grammar/protocol.ts';
export { protocolSet, type ProtocolSet } from './grammar/protocol-set.ts';
export { builtInProtocols, sampProtocol, vcmpProtocol, mcqueryProtocol } from './protocols/index.ts';
export { valueToJson, valueFromJson, nodeJson, fromHex, type JsonNode } from './json.ts';
export { toHex } from './grammar/kinds/bytes.ts';
