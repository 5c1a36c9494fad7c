/**
 * @gamequery/codec/define — the declaration language: the field builders, `defineLayout` and
 * `defineProtocol`, the same ones every built-in protocol is declared with (protocols/), and
 * the expert items a declaration's warnings name. A declared layout is used through
 * `@gamequery/codec` like a built-in one (`decode`, `annotate`, `encode`; `protocolSet` over
 * your protocols and the built-in ones).
 */
export {
  u8,
  u16le,
  u16be,
  i16le,
  i16be,
  u32le,
  u32be,
  i32le,
  i32be,
  u64le,
  u64be,
  f32le,
  f32be,
  f64le,
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
} from './grammar/fields.ts';
export type {
  Field,
  Meta as FieldMeta,
  MagicField,
  ConstField,
  IntField,
  BoolField,
  Ipv4Field,
  StringField,
  BytesField,
  ListField,
  GroupField,
  Entry,
  IntType,
  NumberType,
  Base,
  ValueTable,
  StringSize,
  ValueOf,
} from './grammar/fields.ts';
export { defineLayout, type LayoutSpec } from './grammar/layout.ts';
export {
  defineProtocol,
  type ProtocolDeclaration,
  type ProtocolSpec,
  type PairingKey,
  type RecognitionHint,
  type ServerFacts,
  type RecognitionRule,
  type MessagePair,
  type Signature,
  type Fail,
} from './grammar/protocol.ts';
// Expert items: every kind of warning declared once (code, group, severity, summary); a warning carries its code.
export { declareExperts, warning, type ExpertInfo, type ExpertGroup, type ExpertSeverity } from './grammar/expert.ts';
