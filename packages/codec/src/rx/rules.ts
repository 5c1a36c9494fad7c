/**
 * What ties a reply to its request, per protocol (PROTOCOLS.md §1.3, §2.1, §3.7), and
 * how a request's silence reads (§1.3, §1.7, §1.8, §4).
 *
 * A key is the conversation (client and server endpoint) plus what the reply echoes:
 *
 *   samp, vcmp   bytes 4–10 (address, port, opcode; VC:MP swaps the magic) and, for `p`,
 *                the 4-byte nonce at 11–14
 *   mcquery      type + session id (request bytes 2–6, reply bytes 0–4); a stat request is
 *                also filed under the session id of the handshake that issued its token,
 *                because vanilla replies carry that one
 *
 * The loose key drops one part, so a near miss can be explained instead of just reported:
 * the server for SA:MP/VC:MP (a reply from the wrong address), the type for Minecraft (a
 * stat reply to a handshake, as Geyser sends).
 */
import type { Protocol } from '../grammar/layout.ts';
import { toHex } from '../grammar/wire.ts';
import { HANDSHAKE, STAT } from '../mcquery/header.ts';
import type { Datagram, DecodedDatagram, Endpoint } from './types.ts';

export type Side = 'request' | 'response';

export interface Keys {
  readonly exact: readonly string[];
  readonly loose: readonly string[];
}

export interface KeyRule {
  /** Keys a request is filed under; `handshake` is the request that issued a stat request's token. */
  request(d: Datagram, handshake?: Datagram): Keys;
  /** Keys a reply is looked up by. */
  response(d: Datagram): Keys;
  /** Why a reply that matched `request` (pending, or `answered` already) only by its loose key was not paired. */
  nearMiss(reply: Datagram, request: DecodedDatagram, answered: boolean): string;
}

/** `1.2.3.4:7777`, `[::1]:7777`. */
export const showEndpoint = (e: Endpoint): string => (e.address.includes(':') ? `[${e.address}]:${e.port}` : `${e.address}:${e.port}`);

const client = (d: Datagram, side: Side): Endpoint => (side === 'request' ? d.from : d.to);
const server = (d: Datagram, side: Side): Endpoint => (side === 'request' ? d.to : d.from);

/** The conversation a datagram belongs to, named client first whichever way it travels. */
export const conversation = (d: Datagram, side: Side): string =>
  `${showEndpoint(client(d, side))}>${showEndpoint(server(d, side))}`;

const PING = 0x70;

/** SA:MP and VC:MP: the reply echoes bytes 4–10 (and a ping its nonce). */
const echoed = (protocol: 'samp' | 'vcmp'): KeyRule => {
  const echo = (b: Uint8Array) => toHex(b.subarray(4, b[10] === PING ? 15 : 11));
  const keys = (d: Datagram, side: Side): Keys => ({
    exact: [`${protocol} ${conversation(d, side)} ${echo(d.bytes)}`],
    loose: [`${protocol} ${showEndpoint(client(d, side))} ${echo(d.bytes)}`],
  });
  return {
    request: (d) => keys(d, 'request'),
    response: (d) => keys(d, 'response'),
    nearMiss: (reply, request) =>
      `reply from ${showEndpoint(reply.from)}, but the request went to ${showEndpoint(request.datagram.to)}`,
  };
};

const mcTypes: Record<number, string> = { [HANDSHAKE]: 'handshake', [STAT]: 'stat' };

const minecraft: KeyRule = {
  request(d, handshake) {
    const conv = conversation(d, 'request');
    const sessions = [d.bytes.subarray(3, 7)];
    if (handshake) sessions.push(handshake.bytes.subarray(3, 7));
    const ids = [...new Set(sessions.map(toHex))];
    const type = toHex(d.bytes.subarray(2, 3));
    return {
      exact: ids.map((id) => `mcquery ${conv} ${type} ${id}`),
      loose: ids.map((id) => `mcquery ${conv} ${id}`),
    };
  },
  response(d) {
    const conv = conversation(d, 'response');
    const id = toHex(d.bytes.subarray(1, 5));
    return { exact: [`mcquery ${conv} ${toHex(d.bytes.subarray(0, 1))} ${id}`], loose: [`mcquery ${conv} ${id}`] };
  },
  nearMiss(reply, request, answered) {
    const type = reply.bytes[0]!;
    const what = `a ${mcTypes[type] ?? 'unknown'} reply (type 0x${type.toString(16).padStart(2, '0')})`;
    // GEY: the handshake case falls through to the stat case (PROTOCOLS.md §3.7).
    const geyser = answered && request.message === 'handshake' && type === STAT ? ' (Geyser answers a handshake with a token and then a full stat)' : '';
    return `${what} to a ${request.message} request${geyser}`;
  },
};

/** Key functions by protocol. */
export const keyRules: Record<Protocol, KeyRule> = { samp: echoed('samp'), vcmp: echoed('vcmp'), mcquery: minecraft };

/** A Minecraft reply has no magic: type 09 or 00 and a session id is all it shows. */
export const mayBeMinecraftReply = (b: Uint8Array): boolean => b.length >= 5 && (b[0] === HANDSHAKE || b[0] === STAT);

/** Messages that answer with several datagrams and no end marker: collected until a quiet period. */
export const collected: ReadonlySet<string> = new Set(['samp.rcon']);

/** Why a request may have gone unanswered, for the messages whose silence means something. */
export const silenceReasons: Readonly<Record<string, string>> = {
  'samp.clients': '>100 players, open.mp `d`, or throttled',
  'samp.players': '>100 players, open.mp `d`, or throttled',
  'samp.omp': 'not an open.mp server: SA-MP ignores `o`',
  'samp.rcon': 'RCON or query disabled, or a malformed request',
  'vcmp.clients': 'possibly >100 players, or throttled',
  'mcquery.basic': 'wrong or expired challenge token',
  'mcquery.full': 'wrong or expired challenge token',
};
