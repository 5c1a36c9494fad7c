/**
 * Packet-level entry points that need no prior knowledge of the message:
 * `decodePacket` recognises protocol, direction and message from the bytes where the
 * bytes allow it (and says so where they don't), `encodePacket` is its inverse.
 */
import type { Layout, Protocol, Direction, CodecOptions } from './grammar/layout.ts';
import type { DecodeWarning } from './grammar/annotate.ts';
import { UnknownOpcodeError, UnrecognizedPacketError, CodecError } from './errors.ts';
import { sampMessages, sampOlderForms } from './protocols/samp/messages.ts';
import { ompForms } from './protocols/samp/omp.ts';
import { vcmpMessages } from './protocols/vcmp/messages.ts';
import { mcqueryMessages } from './protocols/minecraft/messages.ts';
import { HANDSHAKE, STAT } from './protocols/minecraft/header.ts';
import { toHex } from './grammar/wire.ts';

/** A message's two layouts; `symmetric` when request and reply are the same bytes. */
type Pair = { readonly request: Layout<any>; readonly response: Layout<any>; readonly symmetric?: boolean }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every message of every protocol, by protocol and message name. */
export const messages: Record<Protocol, Record<string, Pair>> = {
  samp: Object.fromEntries([...Object.values(sampMessages), ...Object.values(sampOlderForms)].map((m) => [m.response.message, m])),
  vcmp: Object.fromEntries(Object.values(vcmpMessages).map((m) => [m.request.message, m])),
  mcquery: mcqueryMessages,
};

/** Every layout, requests and responses of all protocols. */
export const layouts: readonly Layout<any>[] = [...new Set(Object.values(messages).flatMap((byName) => // eslint-disable-line @typescript-eslint/no-explicit-any
  Object.values(byName).flatMap((m) => [m.request, m.response])))];

/** What the caller knows about a packet that its bytes may not tell. */
export interface PacketHint {
  readonly protocol?: Protocol;
  readonly direction?: Direction;
  /** Message name, for what the bytes cannot tell (Minecraft basic vs full response). */
  readonly message?: string;
}

/** Any decoded packet, its value untyped: what every member of {@link DecodedPacket} is. */
export interface AnyDecodedPacket {
  readonly protocol: Protocol;
  /** `either` for a SA:MP/VC:MP `p` without a hint: request and reply are byte-identical. */
  readonly direction: Direction | 'either';
  readonly message: string;
  readonly layout: Layout<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly value: Record<string, unknown>;
  readonly bytesRead: number;
  readonly warnings: readonly DecodeWarning[];
}

type Tables = typeof sampMessages | typeof sampOlderForms | typeof vcmpMessages | typeof mcqueryMessages;
type LayoutsOf<T> = T extends unknown ? { [K in keyof T]: T[K] extends { readonly request: infer Q; readonly response: infer R } ? Q | R : never }[keyof T] : never;

/** Every built-in layout, each with its own value type and literal protocol, message and direction. */
export type BuiltInLayout = LayoutsOf<Tables>;

/** A message of `L` as {@link decodePacket} returns it: `L`'s protocol, message, direction (or `D`) and value type. */
export type PacketOf<L, D = never> = L extends Layout<infer V, infer P, infer M, infer Dir>
  ? {
    readonly protocol: P;
    readonly direction: [D] extends [never] ? Dir : D;
    readonly message: M;
    readonly layout: L;
    readonly value: V;
    readonly bytesRead: number;
    readonly warnings: readonly DecodeWarning[];
  }
  : never;

/**
 * What {@link decodePacket} returns: a union over every built-in message, so that checking
 * `protocol`, `direction` and `message` narrows `value` to that layout's own type. A SA:MP or
 * VC:MP `p` decoded without a direction is `either` (request and reply are the same bytes).
 *
 * @example
 * const p = decodePacket(bytes);
 * if (p.protocol === 'samp' && p.message === 'info' && p.direction === 'response') p.value.hostname; // string
 */
export type DecodedPacket =
  | PacketOf<BuiltInLayout>
  | PacketOf<typeof sampMessages.p.request | typeof sampOlderForms.ompecho.request | typeof vcmpMessages.p.request, 'either'>;

/**
 * What {@link recognize} and {@link identify} found a packet to be: protocol, direction, message and its
 * layout.
 */
export interface Recognized {
  readonly protocol: Protocol;
  readonly direction: Direction | 'either';
  readonly message: string;
  readonly layout: Layout<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The four bytes of a magic as one big-endian number, for a single comparison. */
const magicOf = (text: string): number => ((text.charCodeAt(0) << 24) | (text.charCodeAt(1) << 16) | (text.charCodeAt(2) << 8) | text.charCodeAt(3)) >>> 0;
const SAMP = magicOf('SAMP');
const VCMP = magicOf('VCMP');
const MP04 = magicOf('MP04');
const first4 = (b: Uint8Array): number => (b.length < 4 ? -1 : ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0);

const preview = (b: Uint8Array): string => toHex(b.subarray(0, 8)).replace(/(..)(?!$)/g, '$1 ');

/**
 * What to do where recognition fails: `recognize` throws the error, `identify` returns
 * undefined without building it (a capture is mostly Minecraft replies, which carry no
 * magic, and non-game traffic: an exception each would dominate the cost).
 */
type Fail<E> = (error: () => CodecError) => E;
const raise: Fail<never> = (error) => { throw error(); };
const quietly: Fail<undefined> = () => undefined;

function opcodeOf<E>(protocol: 'samp' | 'vcmp', bytes: Uint8Array, fail: Fail<E>): Pair | E {
  if (bytes.length < 11) {
    return fail(() => new UnrecognizedPacketError(`${protocol}: a ${protocol === 'samp' ? 'SA:MP' : 'VC:MP'} query is at least 11 bytes, got ${bytes.length}`,
      { field: `${protocol}.opcode`, offset: bytes.length, needed: 11, available: bytes.length }));
  }
  const table: Readonly<Record<string, Pair>> = protocol === 'samp' ? sampMessages : vcmpMessages;
  const pair = table[String.fromCharCode(bytes[10]!)];
  return pair ?? fail(() => new UnknownOpcodeError({ layout: '', field: `${protocol}.opcode`, offset: 10, actual: `0x${bytes[10]!.toString(16).padStart(2, '0')}` }));
}

/**
 * The first layout in `candidates` that decodes `bytes` exactly, else the first that decodes
 * at all, else the first. Told by each layout's `measure` (its length prefixes and counts,
 * not a decode, and no exception where one does not fit).
 */
function bestFit(candidates: readonly Layout<any>[], bytes: Uint8Array, options?: CodecOptions): Layout<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  let fallback: Layout<any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const l of candidates) {
    const n = l.measure(bytes, options);
    if (n === bytes.length) return l;
    if (n >= 0) fallback ??= l;
  }
  return fallback ?? candidates[0]!;
}

/** Looks at the bytes (and the hint) and names the layout, without decoding fully. Throws a typed CodecError. */
export function recognize(bytes: Uint8Array, hint: PacketHint = {}, options?: CodecOptions): Recognized {
  return recognizeOr(bytes, hint, options, raise);
}

/** {@link recognize} without the error: undefined where it would throw (call `recognize` to learn why). */
export function identify(bytes: Uint8Array, hint: PacketHint = {}, options?: CodecOptions): Recognized | undefined {
  return recognizeOr(bytes, hint, options, quietly);
}

const isMinecraftRequest = (b: Uint8Array): boolean => b.length >= 3 && b[0] === 0xfe && b[1] === 0xfd;

/**
 * The protocol whose signature the bytes start with (SAMP; VCMP or MP04; FE FD), whether
 * or not the rest is a message of it. Minecraft replies have none.
 */
export function signatureOf(bytes: Uint8Array): Protocol | undefined {
  const magic = first4(bytes);
  if (magic === SAMP) return 'samp';
  if (magic === VCMP || magic === MP04) return 'vcmp';
  return isMinecraftRequest(bytes) ? 'mcquery' : undefined;
}

/** Recognitions are few (a layout and a direction): made once each, not per datagram. */
const recognitions = new Map<Layout<any>, Partial<Record<Direction | 'either', Recognized>>>(); // eslint-disable-line @typescript-eslint/no-explicit-any

function found(direction: Direction | 'either', layout: Layout<any>): Recognized { // eslint-disable-line @typescript-eslint/no-explicit-any
  let byDirection = recognitions.get(layout);
  if (!byDirection) recognitions.set(layout, (byDirection = {}));
  return (byDirection[direction] ??= Object.freeze({ protocol: layout.protocol, direction, message: layout.message, layout }));
}

function recognizeOr<E>(bytes: Uint8Array, hint: PacketHint, options: CodecOptions | undefined, fail: Fail<E>): Recognized | E {
  const protocol = hint.protocol ?? signatureOf(bytes);
  if (!protocol) {
    return bytes.length >= 5 && (bytes[0] === HANDSHAKE || bytes[0] === STAT)
      ? fail(() => new UnrecognizedPacketError('this may be a Minecraft query response, which carries no magic: pass the hint { protocol: "mcquery", direction: "response" } or decode it within its conversation'))
      : fail(() => new UnrecognizedPacketError(`no SA:MP, VC:MP or Minecraft query signature (starts ${preview(bytes)})`));
  }
  switch (protocol) {
    case 'samp': {
      const pair = opcodeOf('samp', bytes, fail);
      if (!isPair(pair)) return pair;
      if (pair === sampMessages.o) return recognizeOmp(bytes, hint, options);
      if (hint.direction) return found(hint.direction, pair[hint.direction]);
      if (pair.symmetric) return found('either', pair.request);
      if (pair.request.message === 'rcon') return recognizeRcon(bytes, pair, options);
      return bytes.length === 11 ? found('request', pair.request) : found('response', pair.response);
    }
    case 'vcmp': {
      const pair = opcodeOf('vcmp', bytes, fail);
      if (!isPair(pair)) return pair;
      const direction = hint.direction ?? (first4(bytes) === MP04 ? 'response' : 'request');
      return found(direction, pair[direction]);
    }
    case 'mcquery': {
      const direction = hint.direction ?? (isMinecraftRequest(bytes) ? 'request' : 'response');
      if (hint.message) {
        const pair = mcqueryMessages[hint.message as keyof typeof mcqueryMessages];
        if (!pair) return fail(() => new UnrecognizedPacketError(`mcquery: no message named ${JSON.stringify(hint.message)}`));
        return found(direction, pair[direction]);
      }
      const typeAt = direction === 'request' ? 2 : 0;
      const type = bytes[typeAt];
      if (type === HANDSHAKE) return found(direction, mcqueryMessages.handshake[direction]);
      if (type !== STAT) {
        return fail(() => new UnknownOpcodeError({ layout: '', field: 'mcquery.type', offset: typeAt, actual: type === undefined ? 'none' : `0x${type.toString(16).padStart(2, '0')}` }));
      }
      if (direction === 'request') {
        // Servers choose basic or full by length alone: 15 bytes is full (MJ).
        return found(direction, bytes.length === 15 ? mcqueryMessages.full.request : mcqueryMessages.basic.request);
      }
      return found(direction, looksLikeFullStat(bytes) ? mcqueryMessages.full.response : mcqueryMessages.basic.response);
    }
  }
}

const isPair = (p: unknown): p is Pair => typeof p === 'object' && p !== null && 'request' in p;

function recognizeRcon(bytes: Uint8Array, pair: Pair, options?: CodecOptions): Recognized {
  // A request (two u16-prefixed strings) and a reply line (one) can never both fit a
  // datagram exactly, so the one that consumes it all is the answer.
  const layout = bestFit([pair.request, pair.response], bytes, options);
  return found(layout.direction, layout);
}

/**
 * open.mp `o`, whose three forms share the opcode (samp/omp.ts): 12 to 15 bytes is the echo
 * form (either way, like `p`; shorter than 15 it is cut), 11 a request, anything longer the
 * reply whose declaration the lengths add up to exactly: the logo form, else the banners
 * form; where neither does, the logo form's (today's) error or trailing bytes.
 */
const OMP_MESSAGES: ReadonlySet<string> = new Set(ompForms.map((f) => f.message));

function recognizeOmp(bytes: Uint8Array, hint: PacketHint, options?: CodecOptions): Recognized {
  // The pairer names the message when it settles an echo's direction.
  if (hint.direction && hint.message !== undefined && OMP_MESSAGES.has(hint.message)) return found(hint.direction, messages.samp[hint.message]![hint.direction]);
  const n = bytes.length;
  if (n > 11 && n <= 15) return hint.direction ? found(hint.direction, sampOlderForms.ompecho[hint.direction]) : found('either', sampOlderForms.ompecho.request);
  const direction = hint.direction ?? (n === 11 ? 'request' : 'response');
  if (direction === 'request') return found(direction, sampMessages.o.request);
  const banners = sampOlderForms.ompbanners.response;
  return found(direction, sampMessages.o.response.measure(bytes, options) !== n && banners.measure(bytes, options) === n ? banners : sampMessages.o.response);
}

/**
 * A full-stat reply has an 11-byte split header after the session id whose last two
 * bytes are 80 00 (any 9 bytes before them: "splitnum\0", Geyser's "GeyserMC\0").
 */
function looksLikeFullStat(bytes: Uint8Array): boolean {
  return bytes.length >= 16 && bytes[13] === 0 && bytes[14] === 0x80 && bytes[15] === 0;
}

/** Decodes a datagram of any of the three protocols. Throws a typed CodecError. */
export function decodePacket(bytes: Uint8Array, hint: PacketHint = {}, options?: CodecOptions): DecodedPacket {
  const r = recognize(bytes, hint, options);
  const d = r.layout.decode(bytes, options);
  const packet: AnyDecodedPacket = { protocol: r.protocol, direction: r.direction, message: r.message, layout: r.layout, value: d.value, bytesRead: d.bytesRead, warnings: d.warnings };
  return packet as DecodedPacket;
}

/**
 * A message for {@link encodePacket}: the protocol, direction and message that name its layout, and the
 * value to encode.
 */
export interface PacketToEncode {
  readonly protocol: Protocol;
  readonly direction: Direction | 'either';
  readonly message: string;
  readonly value: Record<string, unknown>;
}

/** Encodes a message of any protocol; the inverse of {@link decodePacket}. */
export function encodePacket(packet: PacketToEncode, options?: CodecOptions): Uint8Array {
  return layoutFor(packet.protocol, packet.message, packet.direction).encode(packet.value, options);
}

/** The layout of a message, e.g. `layoutFor('samp', 'info', 'response')`. */
export function layoutFor(protocol: Protocol, message: string, direction: Direction | 'either'): Layout<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const pair = messages[protocol]?.[message];
  if (!pair) throw new UnrecognizedPacketError(`${protocol}: no message named ${JSON.stringify(message)}`);
  if (direction === 'either' && !pair.symmetric) {
    throw new UnrecognizedPacketError(`${protocol}.${message}: request and response differ, name the direction`);
  }
  return pair[direction === 'either' ? 'request' : direction];
}
