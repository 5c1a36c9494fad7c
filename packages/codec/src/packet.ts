/**
 * Packet-level entry points that need no prior knowledge of the message:
 * `decodePacket` recognises protocol, direction and message from the bytes where the
 * bytes allow it (and says so where they don't), `encodePacket` is its inverse.
 */
import type { Layout, Direction, CodecOptions } from './grammar/layout.ts';
import type { BuiltInProtocol as Protocol, QueryLayout } from './protocols/index.ts';
import type { DecodeWarning } from './grammar/annotate.ts';
import type { MessagePair, PacketHint as ProtocolHint, Recognized as Found } from './grammar/protocol.ts';
import type { sampMessages, sampOlderForms } from './protocols/samp/messages.ts';
import type { vcmpMessages } from './protocols/vcmp/messages.ts';
import type { mcqueryMessages } from './protocols/mcquery/messages.ts';
import { builtInProtocols } from './protocols/index.ts';
import { protocolSet, type ProtocolSet } from './grammar/protocol-set.ts';

/** A message's two layouts; `symmetric` when request and reply are the same bytes. */
type Pair = MessagePair;

/** Every message of every protocol, by protocol and message name. */
export const messages: Record<Protocol, Record<string, Pair>> = Object.fromEntries(
  builtInProtocols.map((p) => [p.name, p.messages]),
) as Record<Protocol, Record<string, Pair>>;

/** Every layout, requests and responses of all protocols. */
export const layouts: readonly QueryLayout[] = builtInProtocols.flatMap((p) => p.layouts) as QueryLayout[];

/** What the caller knows about a packet that its bytes may not tell. */
export type PacketHint = ProtocolHint<Protocol>;

/**
 * Any decoded packet, its value untyped: what every member of {@link DecodedPacket} is, and
 * (with `P` its name) a packet of a protocol declared elsewhere.
 */
export interface AnyDecodedPacket<P extends string = Protocol> {
  readonly protocol: P;
  /** `either` for a SA:MP/VC:MP `p` without a hint: request and reply are byte-identical. */
  readonly direction: Direction | 'either';
  readonly message: string;
  readonly layout: Layout<any, P>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any message's value: Layout is invariant in it
  readonly value: Record<string, unknown>;
  readonly bytesRead: number;
  readonly warnings: readonly DecodeWarning[];
}

type Tables = typeof sampMessages | typeof sampOlderForms | typeof vcmpMessages | typeof mcqueryMessages;
type LayoutsOf<T> = T extends unknown
  ? { [K in keyof T]: T[K] extends { readonly request: infer Q; readonly response: infer R } ? Q | R : never }[keyof T]
  : never;

/** Every built-in layout, each with its own value type and literal protocol, message and direction. */
export type BuiltInLayout = LayoutsOf<Tables>;

/** A message of `L` as {@link decodePacket} returns it: `L`'s protocol, message, direction (or `D`) and value type. */
export type PacketOf<L, D = never> =
  L extends Layout<infer V, infer P, infer M, infer Dir>
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
 * A decoded packet of protocol `P`: of a built-in protocol, its members of {@link DecodedPacket}
 * (which narrow on message and direction); of another (declared with `defineProtocol`), an
 * {@link AnyDecodedPacket} of that name. A union of names gives the union of their packets.
 */
export type PacketOfProtocol<P extends string> = P extends Protocol
  ? Extract<DecodedPacket, { readonly protocol: P }>
  : AnyDecodedPacket<P>;

/**
 * What {@link recognize} and {@link identify} found a packet to be: protocol, direction, message and its
 * layout.
 */
export type Recognized = Found<Protocol>;

/** The built-in protocols as one recogniser (see {@link protocolSet}). */
export const builtInSet: ProtocolSet<Protocol> = protocolSet(builtInProtocols);

/** Names the layout of the bytes (and hint) without decoding them fully; throws a typed CodecError where none fits ({@link identify} does not). */
export function recognize(bytes: Uint8Array, hint: PacketHint = {}, options?: CodecOptions): Recognized {
  return builtInSet.recognize(bytes, hint, options);
}

/** {@link recognize} that returns undefined instead of throwing, for callers that only ask whether the bytes are a message. */
export function identify(bytes: Uint8Array, hint: PacketHint = {}, options?: CodecOptions): Recognized | undefined {
  return builtInSet.identify(bytes, hint, options);
}

/**
 * The protocol whose signature the bytes start with (SAMP; VCMP or MP04; FE FD), whether
 * or not the rest is a message of it. Minecraft replies have none.
 */
export function signatureOf(bytes: Uint8Array): Protocol | undefined {
  return builtInSet.signatureOf(bytes);
}

/** Decodes a datagram of any of the three protocols. Throws a typed CodecError. */
export function decodePacket(bytes: Uint8Array, hint: PacketHint = {}, options?: CodecOptions): DecodedPacket {
  const r = recognize(bytes, hint, options);
  const d = r.layout.decode(bytes, options);
  const packet: AnyDecodedPacket = {
    protocol: r.protocol,
    direction: r.direction,
    message: r.message,
    layout: r.layout,
    value: d.value,
    bytesRead: d.bytesRead,
    warnings: d.warnings,
  };
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
export function layoutFor(protocol: Protocol, message: string, direction: Direction | 'either'): QueryLayout {
  return builtInSet.layoutFor(protocol, message, direction);
}
