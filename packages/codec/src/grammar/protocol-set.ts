/**
 * Recognition over a set of protocol declarations: the signature at the start of a datagram
 * (or the hint) picks the protocol, whose own rule names the layout. The built-in protocols
 * are one such set (`packet.ts`); a caller's own declarations make another.
 *
 * On the per-packet path: the signatures are compiled at creation into parallel arrays
 * (4-byte magics as numbers), so a datagram costs a few comparisons and one call.
 */
import type { CodecOptions, Direction, Layout } from './layout.ts';
import { UnrecognizedPacketError, type CodecError } from '../errors.ts';
import { first4, found, type Fail, type PacketHint, type ProtocolDeclaration, type Recognized, type RecognitionRule } from './protocol.ts';
import { toHex } from './kinds/bytes.ts';

/** Recognition, decoding and encoding over the messages of a set of protocols. */
export interface ProtocolSet<P extends string = string> {
  readonly protocols: readonly ProtocolDeclaration<P>[];
  /** The protocol whose signature (leading magic) the bytes start with, whether or not the rest is a message of it. */
  signatureOf(bytes: Uint8Array): P | undefined;
  /** The layout the bytes (and hint) name; throws a typed CodecError where none fits ({@link ProtocolSet.identify} does not). */
  recognize(bytes: Uint8Array, hint?: PacketHint<P>, options?: CodecOptions): Recognized<P>;
  /** {@link ProtocolSet.recognize} that returns undefined instead of throwing. */
  identify(bytes: Uint8Array, hint?: PacketHint<P>, options?: CodecOptions): Recognized<P> | undefined;
  /**
   * The reply without magic that bytes without a signature have the shape of (a protocol's
   * `magicless.shape`), for a reply read without its request; undefined for anything else.
   */
  shapeOf(bytes: Uint8Array): Recognized<P> | undefined;
  /** The layout of a message, e.g. `layoutFor('acme', 'status', 'response')`. */
  layoutFor(protocol: P, message: string, direction: Direction | 'either'): Layout<any, P>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any message
}

const raise: Fail<never> = (error) => {
  throw error();
};
const quietly: Fail<undefined> = () => undefined;

const preview = (b: Uint8Array): string => toHex(b.subarray(0, 8)).replace(/(..)(?!$)/g, '$1 ');

const orList = (names: readonly string[]): string =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');

/** Recognition over `protocols`; signatures are tried in their order. */
export function protocolSet<const P extends string>(protocols: readonly ProtocolDeclaration<P>[]): ProtocolSet<P> {
  // Four-byte magics compare as one number; others byte by byte.
  const magic4: number[] = [],
    magic4Min: number[] = [],
    magic4Of: number[] = [];
  const shortMagic: Uint8Array[] = [],
    shortMin: number[] = [],
    shortOf: number[] = [];
  protocols.forEach((p, i) => {
    for (const s of p.signatures) {
      const min = Math.max(s.bytes.length, p.signatureMinLength ?? 0);
      if (s.bytes.length === 4) {
        magic4.push(((s.bytes[0]! << 24) | (s.bytes[1]! << 16) | (s.bytes[2]! << 8) | s.bytes[3]!) >>> 0);
        magic4Min.push(min);
        magic4Of.push(i);
      } else {
        shortMagic.push(s.bytes);
        shortMin.push(min);
        shortOf.push(i);
      }
    }
  });
  const rules: RecognitionRule[] = protocols.map((p) => p.recognize);
  const index = new Map<string, number>(protocols.map((p, i) => [p.name, i]));
  /** The protocols that may send a reply without magic (their spec's `magicless`). */
  const magicless = protocols.filter((p) => p.magicless);
  const noSignature = `no ${orList(protocols.map((p) => p.shortTitle))} signature`;

  const signatureIndex = (bytes: Uint8Array): number => {
    const m = first4(bytes);
    for (let i = 0; i < magic4.length; i++) if (m === magic4[i] && bytes.length >= magic4Min[i]!) return magic4Of[i]!;
    outer: for (let i = 0; i < shortMagic.length; i++) {
      const magic = shortMagic[i]!;
      if (bytes.length < shortMin[i]!) continue;
      for (let k = 0; k < magic.length; k++) if (bytes[k] !== magic[k]) continue outer;
      return shortOf[i]!;
    }
    return -1;
  };

  function recognizeOr<E>(bytes: Uint8Array, hint: PacketHint<P>, options: CodecOptions | undefined, fail: Fail<E>): Recognized<P> | E {
    const i = hint.protocol === undefined ? signatureIndex(bytes) : (index.get(hint.protocol) ?? -1);
    if (i < 0) return fail(hint.protocol !== undefined ? noProtocolNamed(hint.protocol) : noSignatureIn(bytes));
    return rules[i]!(bytes, hint, options, fail) as Recognized<P> | E;
  }

  // The failures' errors, made apart: a closure in recognizeOr over its parameters would cost
  // every call, recognised or not, a context object.
  const noProtocolNamed = (name: string) => (): CodecError => new UnrecognizedPacketError(`no protocol named ${JSON.stringify(name)}`);
  const noSignatureIn = (bytes: Uint8Array) => (): CodecError => {
    const maybe = magicless.find((p) => p.magicless!.mayBe(bytes));
    return new UnrecognizedPacketError(maybe ? maybe.magicless!.advice : `${noSignature} (starts ${preview(bytes)})`);
  };

  return {
    protocols,
    signatureOf: (bytes) => {
      const i = signatureIndex(bytes);
      return i < 0 ? undefined : protocols[i]!.name;
    },
    recognize: (bytes, hint = {}, options) => recognizeOr(bytes, hint, options, raise),
    identify: (bytes, hint = {}, options) => recognizeOr(bytes, hint, options, quietly),
    shapeOf(bytes) {
      if (signatureIndex(bytes) >= 0) return undefined;
      for (const p of magicless) {
        const message = p.magicless!.shape?.(bytes);
        const pair = message === undefined ? undefined : p.messages[message];
        if (pair) return found('response', pair.response) as Recognized<P>;
      }
      return undefined;
    },
    layoutFor(protocol, message, direction) {
      const pair = protocols[index.get(protocol) ?? -1]?.messages[message];
      if (!pair) throw new UnrecognizedPacketError(`${protocol}: no message named ${JSON.stringify(message)}`);
      if (direction === 'either' && !pair.symmetric) {
        throw new UnrecognizedPacketError(`${protocol}.${message}: request and response differ, name the direction`);
      }
      return pair[direction === 'either' ? 'request' : direction] as Layout<any, P>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any message
    },
  };
}

/**
 * `make` memoised by a list of declarations: the same value for the same declarations in the
 * same order, whatever array holds them (a caller spreads `[...builtInProtocols, mine]` anew).
 * For what is built once per set of protocols (a field registry, a filter's catalog); the
 * sets a program uses are few.
 */
export function perProtocols<T>(make: (protocols: readonly ProtocolDeclaration[]) => T): (protocols: readonly ProtocolDeclaration[]) => T {
  const made: { readonly protocols: readonly ProtocolDeclaration[]; readonly value: T }[] = [];
  return (protocols) => {
    const same = made.find((m) => m.protocols.length === protocols.length && m.protocols.every((p, i) => p === protocols[i]));
    if (same) return same.value;
    const value = make(protocols);
    made.push({ protocols: [...protocols], value });
    return value;
  };
}
