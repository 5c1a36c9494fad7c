/**
 * What every emulated server is to the socket layer: datagram in, zero or more reply
 * datagrams out. An empty array is silence — the only answer these protocols have for
 * a request they do not like.
 */
import type { Annotation } from '../grammar/layout.ts';
import type { QueryLayout } from '../protocols/index.ts';
import { BYTES } from './text.ts';

/** Where a datagram came from: the sender's IP address and port. */
export interface Source {
  readonly address: string;
  readonly port: number;
}

/** An emulated server: turns each received datagram into zero or more reply datagrams. */
export interface Responder {
  /** Replies to one datagram received at `now` (ms); `[]` is silence. */
  respond(datagram: Uint8Array, from: Source, now: number): Uint8Array[];
  /** Stops timers. */
  close(): void;
}

/** A request's annotated decode, whatever its message: each responder reads the fields of the messages it answers. */
export type AnyRequest = Annotation<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any message's value: Annotation is invariant in it

/** The 11-byte header both SA:MP and VC:MP replies echo (bytes 4–9: as the client addressed the server). */
export interface QueryHeader {
  readonly serverIp: string;
  readonly serverPort: number;
}

/** How a SA:MP-shaped server treats one opcode. */
export interface Opcode<S> {
  /** The request layout, which checks magic and opcode and reads what follows. */
  readonly request: QueryLayout;
  /** Whether a datagram of this length is answered at all. */
  readonly accepts: (length: number) => boolean;
  /** Whether the server answers this opcode in its current configuration (RCON off: no). */
  readonly enabled?: (server: S) => boolean;
  /** Subject to SA-MP 0.3.7's flood guard (YSF `CheckQueryFlood`). */
  readonly flooded?: boolean;
  /**
   * The reply datagrams. `request` is the annotated decode of the datagram: complete,
   * or (RCON) cut short with the reason in `request.error`.
   */
  readonly reply: (server: S, request: AnyRequest, header: QueryHeader, datagram: Uint8Array) => Uint8Array[];
}

export const atLeast =
  (n: number) =>
  (length: number): boolean =>
    length >= n;
export const exactly =
  (n: number) =>
  (length: number): boolean =>
    length === n;

/**
 * Dispatches a SA:MP- or VC:MP-shaped datagram through `table` (opcode character →
 * treatment). `flooding` answers whether the flood guard drops this request.
 */
export function respondByOpcode<S>(
  protocol: 'samp' | 'vcmp',
  table: Readonly<Record<string, Opcode<S>>>,
  server: S,
  datagram: Uint8Array,
  flooding: () => boolean,
): Uint8Array[] {
  if (datagram.length < 11) return [];
  const op = table[String.fromCharCode(datagram[10]!)];
  if (!op || !op.accepts(datagram.length)) return [];
  if (op.enabled && !op.enabled(server)) return [];
  const request = op.request.annotate(datagram, BYTES);
  // Magic and opcode decoded means the header did: anything else is not this protocol.
  if (!request.fields.some((f) => f.abbrev === `${protocol}.opcode`)) return [];
  if (op.flooded && flooding()) return [];
  const { serverIp, serverPort } = request.partial as QueryHeader;
  return op.reply(server, request, { serverIp, serverPort }, datagram);
}
