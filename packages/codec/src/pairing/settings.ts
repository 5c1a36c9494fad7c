/**
 * The pairer's options: what a caller may set (`QueryPairerOptions`) and the settings
 * checked, with their defaults (`settingsOf`, which the RxJS adapter also calls so that bad
 * options fail at the call, not at subscription).
 */
import type { CodecOptions } from '../grammar/layout.ts';
import type { ProtocolDeclaration } from '../grammar/protocol.ts';
import type { BuiltInProtocol } from '../protocols/index.ts';
import type { PacketDecoder } from './decoded.ts';
import type { Datagram, PairerOptions } from './types.ts';

/**
 * Options of {@link QueryPairer}: the pairing options, how a datagram is decoded (`decode`) and what is
 * kept of it.
 */
export interface QueryPairerOptions<M, P extends string = BuiltInProtocol> extends PairerOptions {
  readonly decode?: PacketDecoder<M>;
  /**
   * The protocols whose datagrams are recognised and paired, each as its declaration says
   * (its pairing key, the messages it collects, the token its replies issue, the replies it
   * sends without magic): by default the built-in ones. A datagram of a protocol that
   * declares no pairing key is reported undecodable. Their names are the events' `P`.
   */
  readonly protocols?: readonly ProtocolDeclaration<P>[];
  /**
   * What the pairer keeps of a datagram it holds on to past the call that gave it (a
   * request waiting for its reply, an RCON line while its command collects): by default
   * the datagram itself. A source whose datagrams are views into a large read buffer
   * returns one with its bytes copied, so that a request waiting seconds for its reply
   * does not hold the whole buffer.
   */
  readonly retain?: (datagram: Datagram<M>) => Datagram<M>;
}

const atLeastZero = (name: string, value: number): number => {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`pairQueries: ${name} must be a finite number ≥ 0, got ${value}`);
  return value;
};

export interface Settings {
  readonly timeoutMs: number;
  readonly rconQuietMs: number;
  readonly duplicateWindowMs: number;
  readonly tokenLifetimeMs: number;
  readonly maxPending: number;
  readonly codec: CodecOptions | undefined;
}

/** The options with their defaults; throws a RangeError on a negative or non-finite number. */
export const settingsOf = (options: PairerOptions): Settings => ({
  timeoutMs: atLeastZero('timeoutMs', options.timeoutMs ?? 1000),
  rconQuietMs: atLeastZero('rconQuietMs', options.rconQuietMs ?? 500),
  duplicateWindowMs: atLeastZero('duplicateWindowMs', options.duplicateWindowMs ?? 5000),
  tokenLifetimeMs: atLeastZero('tokenLifetimeMs', options.tokenLifetimeMs ?? 30_000),
  maxPending: Math.max(1, Math.floor(atLeastZero('maxPending', options.maxPending ?? 100_000))),
  codec: options.charset ? { charset: options.charset } : undefined,
});
