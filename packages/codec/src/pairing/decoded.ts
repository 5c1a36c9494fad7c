/**
 * A datagram read as a query message, as the pairer's events carry it: decoded now
 * (`DecodedMessage`, one object that is both the event's record and its packet), read again
 * from remembered bytes only when asked (`Recalled`), or no message at all, its error built
 * only when asked (`Unrecognized`), with the decoders the pairer calls per datagram.
 */
import { CodecError } from '../errors.ts';
import type { CodecOptions, Decoded, Direction } from '../grammar/layout.ts';
import type { BuiltInProtocol as Protocol, QueryLayout } from '../protocols/index.ts';
import type { ProtocolSet } from '../grammar/protocol-set.ts';
import type { Recognized } from '../grammar/protocol.ts';
import type { AnyDecodedPacket, DecodedPacket } from '../packet.ts';
import type { CodecErrorJson, Datagram, DecodedDatagram, PairingEvent, UndecodableEvent } from './types.ts';

/**
 * How a recognised datagram is decoded: `layout.decode` unless the pairer's owner wants
 * more from the same read (the dissector keeps the annotated tree). Throws a CodecError.
 * The value it returns is what the events carry; the pairer itself reads only a
 * `token` from it (a session key's, see rules.ts).
 */
export type PacketDecoder<M> = (
  datagram: Datagram<M>,
  layout: QueryLayout,
  codec: CodecOptions | undefined,
) => Decoded<Record<string, unknown>>;

export const decodeByLayout: PacketDecoder<unknown> = (d, layout, codec) => layout.decode(d.bytes, codec);

const NO_VALUE: Record<string, unknown> = Object.freeze({});

/**
 * The part of a decoded value the pairer reads (a token): what a decoder that
 * keeps the whole value elsewhere may hand it, since it holds on to values for its
 * duplicate window.
 */
export const pairingPart = (value: Record<string, unknown>): Record<string, unknown> =>
  value['token'] === undefined ? NO_VALUE : { token: value['token'] };

/**
 * A datagram read as a message. One object serves as both the event's `DecodedDatagram`
 * and its `packet` (the codec's `DecodedPacket`): the pairer keeps these for its
 * duplicate window, and every object kept is one the garbage collector moves.
 */
export class DecodedMessage<M> implements DecodedDatagram<M>, AnyDecodedPacket {
  constructor(
    readonly datagram: Datagram<M>,
    readonly protocol: Protocol,
    readonly direction: Direction,
    readonly message: string,
    readonly layout: QueryLayout,
    readonly value: Record<string, unknown>,
    readonly bytesRead: number,
    readonly warnings: Decoded<unknown>['warnings'],
  ) {}

  get packet(): DecodedPacket {
    return this as AnyDecodedPacket as DecodedPacket;
  }
}

export const decorate = <M>(datagram: Datagram<M>, r: Recognized, d: Decoded<Record<string, unknown>>): DecodedDatagram<M> =>
  new DecodedMessage(
    datagram,
    r.protocol as Protocol,
    r.direction as Direction,
    r.message,
    r.layout as QueryLayout,
    d.value,
    d.bytesRead,
    d.warnings,
  );

export const errorJson = (e: unknown): CodecErrorJson =>
  e instanceof CodecError
    ? e.toJSON()
    : {
        type: e instanceof Error ? e.name : 'Error',
        message: e instanceof Error ? e.message : String(e),
        layout: '',
        field: '',
        offset: 0,
      };

export const undecodable = <M>(datagram: Datagram<M>, error: unknown): PairingEvent<M> => ({
  kind: 'undecodable',
  datagram,
  error: errorJson(error),
});

/**
 * A datagram that is no query message, its error made when asked: most of a capture's
 * other traffic (DNS, QUIC) is read by consumers that never look, and building the error
 * (a decode that throws, a hex preview) cost more than the rest of its pairing.
 */
export class Unrecognized<M> implements UndecodableEvent<M> {
  readonly kind = 'undecodable';
  #error: CodecErrorJson | undefined;
  constructor(
    readonly datagram: Datagram<M>,
    private readonly codec: CodecOptions | undefined,
    private readonly protocols: ProtocolSet,
  ) {}

  get error(): CodecErrorJson {
    return (this.#error ??= errorJson(errorOf(this.datagram.bytes, this.codec, this.protocols)));
  }

  toJSON(): { kind: 'undecodable'; datagram: Datagram<M>; error: CodecErrorJson } {
    return { kind: this.kind, datagram: this.datagram, error: this.error };
  }
}

/**
 * A remembered datagram, read again as `layout` (what it decoded as the first time) when
 * its value is first asked for: a dissector only wants its frame, and decoding every
 * handshake again for the stat request that quotes its token was a good part of pairing.
 */
export class Recalled<M> implements DecodedDatagram<M>, AnyDecodedPacket {
  readonly protocol: Protocol;
  readonly direction: Direction;
  readonly message: string;
  #decoded: Decoded<Record<string, unknown>> | undefined;

  constructor(
    readonly datagram: Datagram<M>,
    readonly layout: QueryLayout,
    private readonly codec: CodecOptions | undefined,
  ) {
    this.protocol = layout.protocol;
    this.direction = layout.direction === 'response' ? 'response' : 'request';
    this.message = layout.message;
  }

  get packet(): DecodedPacket {
    return this as AnyDecodedPacket as DecodedPacket;
  }

  get value(): Record<string, unknown> {
    return this.#read().value;
  }

  get bytesRead(): number {
    return this.#read().bytesRead;
  }

  get warnings(): Decoded<unknown>['warnings'] {
    return this.#read().warnings;
  }

  #read(): Decoded<Record<string, unknown>> {
    if (this.#decoded) return this.#decoded;
    try {
      this.#decoded = this.layout.decode(this.datagram.bytes, this.codec);
    } catch {
      // A reply the capture cut short was paired with what it had: so it is recalled.
      const a = this.layout.annotate(this.datagram.bytes, this.codec);
      this.#decoded = { value: a.partial as Record<string, unknown>, bytesRead: a.bytesRead, warnings: a.warnings };
    }
    return this.#decoded;
  }

  toJSON(): Record<string, unknown> {
    return { datagram: this.datagram, protocol: this.protocol, direction: this.direction, message: this.message, value: this.value };
  }
}

export const decodedAgain = <M>(datagram: Datagram<M>, layout: QueryLayout, codec: CodecOptions | undefined): DecodedDatagram<M> =>
  new Recalled(datagram, layout, codec);

/** `like`, read from another datagram with the same bytes (the first copy of a repeated reply). */
export const redecorate = <M>(datagram: Datagram<M>, like: DecodedDatagram<M>): DecodedDatagram<M> =>
  new DecodedMessage(
    datagram,
    like.protocol,
    like.direction,
    like.message,
    like.packet.layout,
    like.value,
    like.packet.bytesRead,
    like.packet.warnings,
  );

/** Why bytes are no query message of `protocols`: the error recognising and decoding them throws (built only when needed). */
export function errorOf(bytes: Uint8Array, codec: CodecOptions | undefined, protocols: ProtocolSet): unknown {
  try {
    protocols.recognize(bytes, {}, codec).layout.decode(bytes, codec);
  } catch (error) {
    return error;
  }
  return new Error('decodes, yet was not recognised');
}
