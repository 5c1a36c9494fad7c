/**
 * @gamequery/codec/internal — NOT API. What @gamequery/dissect and @gamequery/cli share with
 * the codec beyond its public entries: the layouts' machinery (the emitters and the measurer
 * every layout has beside its public methods, the code-generation switches), the byte sink
 * the emitters write into, display helpers, the protocols' details the dissector reads, and
 * the capture pairer with the facts it keeps per frame.
 *
 * No semver promise: anything here may change or go in any release, a patch release too. It is
 * an entry of the package's `exports` only so that the packages built on the codec reach it
 * when installed from the registry. Use `@gamequery/codec` and its other entries instead.
 */
import { internals } from './grammar/layout.ts';
import { samp } from './protocols/samp/index.ts';

/** The title (a tree's top item) and the short title (before a message's name) of any declared protocol, by its name. */
export { titleOf, shortTitleOf, editDistance } from './grammar/naming.ts';
/** What is built once per set of protocols (a filter's catalog, recognition), memoised by the declarations. */
export { perProtocols } from './grammar/protocol-set.ts';
// A layout's machinery: `internals(layout)` is the layout, typed with its emitters, measurer and `describe`.
export {
  internals,
  interpretedLayout,
  malformedNode,
  type InternalLayout,
  type InternalAnyLayout,
  type EmitOptions,
  type Described,
} from './grammar/layout.ts';
export type { InternalQueryLayout } from './protocols/index.ts';
export { codeGeneration, setCodeGeneration } from './grammar/interpreted.ts';
/** The JavaScript a layout's JSON emitter is compiled to, for review (the golden files) and debugging. */
export { emitterSource } from './grammar/emit.ts';
// The emitters' code generation, which the dissector's compiled text output (its render/text-emitter/) extends.
export { DECLINE, EmitterCode, RELOAD, checkedSize, compiled, encoder, head, jsonText, type CodeShow } from './grammar/emit-code.ts';
export { decimalText, hiddenText, runtime as jsonRuntime } from './grammar/emit-runtime.ts';
/** What each kind of field is (grammar/kinds/): what the dissector's text emitter, filters and the protocol reference take of it. */
export { kinds, fieldKind, leafKind, secretFields } from './grammar/kinds/index.ts';
export { numericRange } from './grammar/kinds/string.ts';
export { flagJson, shownFlag } from './grammar/kinds/bool.ts';
export { toHex } from './grammar/kinds/bytes.ts';
export type { Entry, Field, ListField, StringField } from './grammar/fields.ts';
export { ByteSink, asciiBytes } from './grammar/sink.ts';
export { withoutStacks } from './grammar/stacks.ts';
// Byte writers of the generated emitters, at a buffer position (the caller reserves room): `-V`'s layers use them too.
export { dotted, hexInt } from './grammar/emit-runtime.ts';
// Display: what a secret shows instead of itself, text with control characters escaped (Wireshark's format_text), host:port.
export { MASK, escapeControls, hostPort, showInt, showText, unshowText } from './grammar/display.ts';
export { textCodec, type TextCodec } from './grammar/charset.ts';
/** The field registry of any layouts (the built-in ones' is `fieldRegistry`): what the dissector's filters name for a declared protocol. */
export { buildRegistry } from './grammar/registry.ts';
/** Every numeric wire type and what is derived from it (size, Wireshark type, …). */
export { numbers, type NumberKind } from './grammar/numbers.ts';

// The protocols' details the dissector reads.
/** SA:MP's RCON request and reply, as the dissector's first pass keeps an RCON exchange's secrets. */
export const rconRequest = internals(samp.rconRequest);
/** See {@link rconRequest}. */
export const rconResponse = internals(samp.rconResponse);
export { rconSecrets, maskSecrets, INVALID_RCON_PASSWORD } from './protocols/samp/rcon.ts';
export { decodeSamp6, ipv6Text, type Samp6Packet } from './protocols/samp/samp6.ts';
/** The expert items of the grammar's own warnings (a flag byte, a short list, trailing bytes). */
export { expertAbbrev, grammarExperts, protocolExperts } from './grammar/expert.ts';

// The capture pairer (pairing/capture/): the pairing rules on numbers, and what it keeps per frame.
export { CapturePairer, type CapturePairerOptions, type PairingCounts } from './pairing/capture/pairer.ts';
/** `hashBytes(b)` leaves a 64-bit hash of `b` in `hashed.lo` and `hashed.hi`: what copies of a datagram are told by. */
export { Endpoints, hashBytes, key as hashed } from './pairing/capture/keys.ts';
export { objectList } from './pairing/capture/columns.ts';
export {
  FrameFacts,
  Why,
  DECODED,
  RAW,
  NONE,
  RESPONSE,
  FINAL,
  AMBIGUOUS,
  HAS_TIME,
  TIMED,
  kindOf,
  layoutOf,
  whyOf,
  namedOf,
  type WhyCode,
} from './pairing/capture/facts.ts';
export { layoutAt, layoutNumber } from './pairing/capture/layouts.ts';
export { keyedReader, numberReader } from './pairing/capture/token.ts';
export {
  isUnmatched,
  unansweredReason,
  unmatchedCause,
  unmatchedReason,
  type UnmatchedReply,
  type VerdictOptions,
} from './pairing/capture/verdicts.ts';
