/**
 * A protocol declaration: one value per protocol holding its facts beside its layouts, as
 * Scapy binds a layer to its port and gopacket registers a layer type once. Its one name and
 * the aliases people may use for it, its title (and the title's short form, for columns), its
 * default and registered ports, its message table (name → request and response layout), its
 * recognition rule and its pairing key. The magics are not restated: they are read from the
 * leading `magic` field of its layouts.
 *
 * Everything that needs a protocol fact reads it from here: `packet.ts` dispatches over the
 * declarations, the pairer takes magics and keys, the client its default ports, the CLI and
 * the dissector names, aliases and titles, the Wireshark and Kaitai exports ports, byte
 * order and hints.
 */
import type { CodecError } from '../errors.ts';
import type { Charset } from './charset.ts';
import type { DecodeWarning } from './annotate.ts';
import type { ExpertInfo } from './expert.ts';
import { declareNaming } from './naming.ts';
import { buildRegistry } from './registry.ts';
import { DEFAULT_CHARSET, internals, type AnyLayout, type CodecOptions, type Direction, type Layout } from './layout.ts';
import { UnknownOpcodeError, UnrecognizedPacketError } from '../errors.ts';

/** A message's two layouts; `symmetric` when request and reply are the same bytes. */
export interface MessagePair {
  readonly request: Layout<any, string>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a table of layouts of every value type
  readonly response: Layout<any, string>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
  readonly symmetric?: boolean;
}

/** What the caller knows about a packet that its bytes may not tell. */
export interface PacketHint<P extends string = string> {
  readonly protocol?: P;
  readonly direction?: Direction;
  /** Message name, for what the bytes cannot tell (a magic-less reply to one message or another). */
  readonly message?: string;
}

/** What recognition found a packet to be: protocol, direction, message and its layout. */
export interface Recognized<P extends string = string> {
  readonly protocol: P;
  readonly direction: Direction | 'either';
  readonly message: string;
  readonly layout: Layout<any, P>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any message of the protocol
}

/**
 * What to do where recognition fails: `recognize` throws the error, `identify` returns
 * undefined without building it (a capture may be mostly replies that carry no magic, and
 * non-game traffic: an exception each would dominate the cost).
 */
export type Fail<E> = (error: () => CodecError) => E;

/** A protocol's recognition rule: the layout `bytes` hold, told by their bytes and the hint. */
export type RecognitionRule = <E>(bytes: Uint8Array, hint: PacketHint, options: CodecOptions | undefined, fail: Fail<E>) => Recognized | E;

/**
 * How a reply names its request, as data the pairer compiles into constants:
 * - `echo`: the reply repeats request bytes `from`–`to` (past the magic); `longer` lists the
 *   messages (by opcode at `opcodeAt`, and a request length where the opcode alone does not
 *   tell) whose echo runs on to `longer.to`; `server`, where the echo names the server.
 * - `session`: request and reply carry a type byte and a session id at their own offsets. A
 *   request that quotes a token (a layout field named `token`) is also filed under the
 *   session id of the request whose reply issued that token (a reply layout with a `token`).
 *   A reply of another type than its request's is a near miss, named by the value table of
 *   the reply layouts' type field; `answeredAgain` tells a known server's habit apart.
 */
export type PairingKey =
  | {
      readonly kind: 'echo';
      readonly from: number;
      readonly to: number;
      readonly opcodeAt: number;
      readonly longer: { readonly to: number; readonly messages: readonly { readonly opcode: string; readonly length?: number }[] };
      /**
       * Where the echoed bytes name the server as the client addressed it: an IPv4 address
       * and a port in the protocol's byte order. A reply from another address is matched to
       * its request by these (a near miss, not a pair).
       */
      readonly server?: { readonly address: number; readonly port: number };
    }
  | {
      readonly kind: 'session';
      readonly request: { readonly type: number; readonly session: readonly [number, number] };
      readonly response: { readonly type: number; readonly session: readonly [number, number] };
      /**
       * A reply of type `type` to a request of message `message` that was answered already,
       * as a server is known to send: `note` says so in the near miss's words.
       */
      readonly answeredAgain?: { readonly message: string; readonly type: number; readonly note: string };
    };

/**
 * Where an echo key's echo ends in a datagram: `to`, or `longer.to` for the messages listed
 * there (by opcode, and by length where the opcode alone does not tell). Compiled once: a
 * table by opcode.
 */
export function echoEnd(key: Extract<PairingKey, { kind: 'echo' }>): (b: Uint8Array) => number {
  const { to, opcodeAt } = key;
  const long = key.longer.to;
  // By opcode: 0 echoes to `to`, -1 to `long` whatever the length, n to `long` when the datagram is n bytes.
  const longer = new Int16Array(256);
  for (const m of key.longer.messages) longer[m.opcode.charCodeAt(0)] = m.length ?? -1;
  return (b) => {
    const w = longer[b[opcodeAt]!] ?? 0;
    return w !== 0 && (w < 0 || w === b.length) ? long : to;
  };
}

/** A byte pattern at a fixed offset that tells one layout from its siblings (for the Wireshark heuristics). */
export interface RecognitionHint {
  readonly offset: number;
  readonly bytes: readonly number[];
  /** Datagram lengths (inclusive) the layout takes. */
  readonly lengths?: readonly [number, number];
}

/** What a protocol declares: see the module comment. */
export interface ProtocolSpec<P extends string = string, Port extends number = number> {
  /**
   * The protocol's one name (`acme`): first part of every layout id and abbreviation, its
   * display-filter name, and what the command line calls it.
   */
  readonly name: P;
  /** More names the command line and display filters accept for it (`acme2`), each meaning `name`. */
  readonly aliases?: readonly string[];
  /**
   * Its title (`ACME Query Protocol`), as Wireshark names a protocol: the top item of a
   * packet's tree, the Wireshark plugin's protocol, documents and help texts.
   */
  readonly title: string;
  /**
   * The title's short form (`ACME`), as Wireshark's short name: where a column or a line
   * names the protocol before a message (the Info column's `ACME status response`, the
   * plugin's Protocol column, messages such as `no ACME signature`). Its layouts'
   * `protocolName`. Default: the title.
   */
  readonly shortTitle?: string;
  /** Charset of its strings where the caller names none: its layouts' (default: windows-1252). */
  readonly charset?: Charset;
  /** The port a server listens on unless told otherwise. */
  readonly defaultPort: Port;
  /** Ports the Wireshark plugin registers (Decode As); default: the default port. */
  readonly ports?: readonly number[];
  /** Byte order of most multi-byte integers (the .ksy `meta/endian`). */
  readonly endian: 'le' | 'be';
  /** Every message by name, older forms included. */
  readonly messages: Readonly<Record<string, MessagePair>>;
  /** Bytes a datagram must have for its magic to count as this protocol's signature (default: the magic's length). */
  readonly signatureMinLength?: number;
  readonly recognize: RecognitionRule;
  /**
   * A reply without magic this protocol may send. The pairer reads such a reply within its
   * conversation, where `mayBe` says it may be one.
   */
  readonly magicless?: {
    /** Whether bytes may be such a reply (a cheap test: the pairer then looks for its request). */
    readonly mayBe: (bytes: Uint8Array) => boolean;
    /** What to tell a caller who passed one without a hint. */
    readonly advice: string;
    /**
     * The message whose reply the bytes have the shape of, tested strictly enough that other
     * UDP does not pass: what names such a reply read without its request (a hex dump of a
     * reply, a capture started mid-conversation). Undefined when they have none.
     */
    readonly shape?: (bytes: Uint8Array) => string | undefined;
    /** The warning on such a reply read without its request (by its shape, or because the caller named the protocol). */
    readonly alone?: DecodeWarning;
  };
  readonly pairing?: PairingKey;
  /**
   * Messages answered by several datagrams and no end marker (a command's output, a line a
   * datagram): the pairer collects the replies to one until the conversation is quiet.
   */
  readonly answeredInLines?: readonly string[];
  /**
   * Why a request of a message may have gone unanswered, by message name: the reason an
   * unanswered request is given (a request quoting a token: the token was wrong or expired).
   */
  readonly unansweredBecause?: Readonly<Record<string, string>>;
  /** Byte patterns beyond the declarations that tell layouts apart, by layout id (the Wireshark heuristics). */
  readonly recognitionHints?: Readonly<Record<string, RecognitionHint>>;
  /** The protocol's own expert items, beyond the grammar's generic ones (the Wireshark plugin registers both). */
  readonly experts?: readonly ExpertInfo[];
  /**
   * Where its replies state a server's player count and name, as per-server statistics read
   * them: the fields that hold each (abbreviations, checked), and the replies that state them
   * as key/value pairs instead (by layout id: the list of pairs, and the two keys).
   */
  readonly stated?: ServerFacts;
}

/** See {@link ProtocolSpec.stated}. */
export interface ServerFacts {
  readonly players?: readonly string[];
  readonly hostname?: readonly string[];
  readonly byKey?: Readonly<Record<string, { readonly list: string; readonly players: string; readonly hostname: string }>>;
}

/** A leading magic of a protocol's layouts, and the directions whose layouts start with it. */
export interface Signature {
  readonly bytes: Uint8Array;
  readonly directions: readonly Direction[];
}

/** A declared protocol: its spec, and what is derived from its layouts. */
export interface ProtocolDeclaration<P extends string = string, Port extends number = number> extends ProtocolSpec<P, Port> {
  readonly shortTitle: string;
  readonly charset: Charset;
  readonly aliases: readonly string[];
  readonly ports: readonly number[];
  /** Every layout, requests and responses, each once. */
  readonly layouts: readonly AnyLayout[];
  /** The distinct leading magics of its layouts, in declaration order. */
  readonly signatures: readonly Signature[];
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Declares a protocol: checks that every layout names it, shows its short title and has its
 * charset, and derives its layouts and signatures.
 */
export function defineProtocol<const P extends string, const Port extends number>(
  spec: ProtocolSpec<P, Port>,
): ProtocolDeclaration<P, Port> {
  const layouts = [...new Set(Object.values(spec.messages).flatMap((m) => [m.request, m.response]))] as AnyLayout[];
  const signatures: { bytes: Uint8Array; directions: Direction[] }[] = [];
  const charset = spec.charset ?? DEFAULT_CHARSET;
  const shortTitle = spec.shortTitle ?? spec.title;
  for (const l of layouts) {
    if (l.protocol !== spec.name) throw new Error(`protocol ${spec.name}: layout ${l.id} names protocol ${l.protocol}`);
    if (l.protocolName !== shortTitle) throw new Error(`protocol ${spec.name}: layout ${l.id} shows ${l.protocolName}, not ${shortTitle}`);
    if (l.defaultCharset !== charset) throw new Error(`protocol ${spec.name}: layout ${l.id} reads ${l.defaultCharset}, not ${charset}`);
    const f = l.fields[0];
    if (f?.kind !== 'magic') continue;
    const seen = signatures.find((s) => sameBytes(s.bytes, f.bytes));
    if (!seen) signatures.push({ bytes: f.bytes, directions: [l.direction] });
    else if (!seen.directions.includes(l.direction)) seen.directions.push(l.direction);
  }
  if (spec.stated) checkStated(spec.name, spec.stated, layouts);
  declareNaming(spec.name, { title: spec.title, shortTitle, charset });
  return Object.freeze({
    ...spec,
    shortTitle,
    charset,
    aliases: spec.aliases ?? [],
    ports: spec.ports ?? [spec.defaultPort],
    layouts,
    signatures,
  });
}

/** Throws unless every field and layout `stated` names is one of `layouts`'. */
function checkStated(name: string, stated: ServerFacts, layouts: readonly AnyLayout[]): void {
  const fields = new Set(buildRegistry(layouts).map((f) => f.abbrev));
  for (const abbrev of [...(stated.players ?? []), ...(stated.hostname ?? [])])
    if (!fields.has(abbrev)) throw new Error(`protocol ${name}: stated field ${abbrev} is in none of its layouts`);
  for (const id of Object.keys(stated.byKey ?? {}))
    if (!layouts.some((l) => l.id === id)) throw new Error(`protocol ${name}: stated layout ${id} is not one of its layouts`);
}

/** The magic of `p`'s `direction` layouts as one big-endian number (4-byte magics), for a single comparison. */
export function magicNumber(p: ProtocolDeclaration, direction: Direction): number {
  const s = p.signatures.find((x) => x.directions.includes(direction) && x.bytes.length === 4);
  if (!s) throw new Error(`protocol ${p.name} has no 4-byte ${direction} magic`);
  return ((s.bytes[0]! << 24) | (s.bytes[1]! << 16) | (s.bytes[2]! << 8) | s.bytes[3]!) >>> 0;
}

/** The first four bytes as one big-endian number; -1 when shorter. */
export const first4 = (b: Uint8Array): number => (b.length < 4 ? -1 : ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0);

/** The value of a layout's first `const` field (its opcode or type byte). */
export function selectorOf(layout: AnyLayout): number {
  const f = layout.fields.find((x) => x.kind === 'const');
  if (f?.kind !== 'const') throw new Error(`${layout.id} has no selector`);
  return f.value;
}

/** Recognitions are few (a layout and a direction): made once each, not per datagram. */
const recognitions = new Map<AnyLayout, Partial<Record<Direction | 'either', Recognized>>>();

/** The (shared, frozen) recognition of `layout` in `direction`. */
export function found(direction: Direction | 'either', layout: AnyLayout): Recognized {
  let byDirection = recognitions.get(layout);
  if (!byDirection) recognitions.set(layout, (byDirection = {}));
  return (byDirection[direction] ??= Object.freeze({ protocol: layout.protocol, direction, message: layout.message, layout }));
}

/**
 * The first layout in `candidates` that decodes `bytes` exactly, else the first that decodes
 * at all, else the first. Told by each layout's `measure` (its length prefixes and counts,
 * not a decode, and no exception where one does not fit).
 */
export function bestFit(candidates: readonly AnyLayout[], bytes: Uint8Array, options?: CodecOptions): AnyLayout {
  let fallback: AnyLayout | undefined;
  for (const l of candidates) {
    const n = internals(l).measure(bytes, options);
    if (n === bytes.length) return l;
    if (n >= 0) fallback ??= l;
  }
  return fallback ?? candidates[0]!;
}

const hexByte = (b: number): string => `0x${b.toString(16).padStart(2, '0')}`;

/** A message of an opcode table, with its recognitions made once: {@link byOpcode} gives them without a lookup. */
export interface Opcode {
  readonly pair: MessagePair;
  readonly request: Recognized;
  readonly response: Recognized;
  /** For a symmetric message (either direction alike). */
  readonly either: Recognized;
}

/** A table keyed by opcode character (`{ i: …, r: … }`) as {@link byOpcode} reads it: by the opcode's byte. */
export function opcodeTable(table: Readonly<Record<string, MessagePair>>): readonly (Opcode | undefined)[] {
  const out = new Array<Opcode | undefined>(256).fill(undefined);
  for (const [c, pair] of Object.entries(table)) {
    out[c.charCodeAt(0)] = {
      pair,
      request: found('request', pair.request),
      response: found('response', pair.response),
      either: found('either', pair.request),
    };
  }
  return out;
}

/**
 * The message whose opcode is the byte at `at` (a table made by {@link opcodeTable}: an
 * array read by the byte, where a table keyed by the opcode's character cost a string and a
 * megamorphic lookup each), or the failure: too short to hold the opcode, or an opcode the
 * table lacks. The failures' errors are made by the functions below: a closure here over its
 * parameters would cost every call a context object (some 50 bytes a datagram, measured),
 * found or not.
 */
export function byOpcode<E>(
  p: { readonly name: string; readonly shortTitle: string },
  table: readonly (Opcode | undefined)[],
  at: number,
  bytes: Uint8Array,
  fail: Fail<E>,
): Opcode | E {
  if (bytes.length <= at) return fail(tooShortForOpcode(p, at, bytes.length));
  return table[bytes[at]!] ?? fail(unknownOpcode(p.name, at, bytes[at]!));
}

/** Whether `o` is an opcode's entry (not a failure value). */
export const isOpcode = (o: unknown): o is Opcode => typeof o === 'object' && o !== null && 'pair' in o;

/** The error of a datagram of `length` bytes, too short for the opcode at `at`. */
const tooShortForOpcode = (p: { readonly name: string; readonly shortTitle: string }, at: number, length: number) => (): CodecError =>
  new UnrecognizedPacketError(`${p.name}: a ${p.shortTitle} query is at least ${at + 1} bytes, got ${length}`, {
    field: `${p.name}.opcode`,
    offset: length,
    needed: at + 1,
    available: length,
  });

/** The error of opcode `value` at `at`, which protocol `name` does not know. */
const unknownOpcode = (name: string, at: number, value: number) => (): CodecError =>
  new UnknownOpcodeError({ layout: '', field: `${name}.opcode`, offset: at, actual: hexByte(value) });

/** An unknown type byte `actual` at `offset` of protocol `name`'s field `field`. */
export const unknownType = (field: string, offset: number, actual: number | undefined): CodecError =>
  new UnknownOpcodeError({ layout: '', field, offset, actual: actual === undefined ? 'none' : hexByte(actual) });
