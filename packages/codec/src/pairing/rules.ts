/**
 * What ties a reply to its request, per protocol, and how a request's silence reads.
 *
 * A key is the conversation (client and server endpoint) plus what the reply echoes:
 *
 *   samp, vcmp   bytes 4–10 (address, port, opcode; VC:MP swaps the magic) and, for `p`
 *                and open.mp's 15-byte `o`, the 4 bytes at 11–14
 *   mcquery      type + session id (request bytes 2–6, reply bytes 0–4); a stat request is
 *                also filed under the session id of the handshake that issued its token,
 *                because vanilla replies carry that one
 *
 * The loose key drops one part, so a near miss can be explained instead of just reported:
 * the server for SA:MP/VC:MP (a reply from the wrong address), the type for Minecraft (a
 * stat reply to a handshake, as Geyser sends).
 */
import type { BuiltInProtocol as Protocol } from '../protocols/index.ts';
import { echoEnd as echoEndOf, magicNumber, selectorOf, type PairingKey } from '../grammar/protocol.ts';
import { hostPort } from '../grammar/display.ts';
import { builtInProtocols, mcqueryProtocol, sampProtocol, vcmpProtocol } from '../protocols/index.ts';
import { mayBeMinecraftReply } from '../protocols/minecraft/protocol.ts';
import type { Datagram, DecodedDatagram, Endpoint } from './types.ts';

export type Side = 'request' | 'response';

/**
 * Hashes a request is filed under, or a reply looked up by (see {@link KeyRule}): the
 * exact ones, then as many loose ones. One array, as a request keeps it for as long as
 * it is remembered.
 */
export type Keys = readonly number[];

/** A request as filed: its datagram, and the handshake request that issued its token (Minecraft stat). */
export interface Filed {
  readonly protocol: Protocol;
  readonly datagram: Datagram;
  readonly issuer: Datagram | undefined;
}

export interface KeyRule {
  /** Keys a request is filed under; `handshake` is the request that issued a stat request's token. */
  request(d: Datagram, handshake?: Datagram): Keys;
  /** Keys a reply is looked up by. */
  response(d: Datagram): Keys;
  /** Whether the reply answers the request: the identity the exact key hashes (hashes collide; this does not). */
  exact(request: Filed, reply: Datagram): boolean;
  /** The same for the loose key. */
  loose(request: Filed, reply: Datagram): boolean;
  /** Why a reply that matched `request` (pending, or `answered` already) only by its loose key was not paired. */
  nearMiss(reply: Datagram, request: DecodedDatagram, answered: boolean): string;
}

/** `1.2.3.4:7777`, `[::1]:7777`. */
export const showEndpoint = (e: Endpoint): string => hostPort(e.address, e.port);

const client = (d: Datagram, side: Side): Endpoint => (side === 'request' ? d.from : d.to);
const server = (d: Datagram, side: Side): Endpoint => (side === 'request' ? d.to : d.from);

/** The conversation a datagram belongs to, named client first whichever way it travels. */
export const conversation = (d: Datagram, side: Side): string => `${showEndpoint(client(d, side))}>${showEndpoint(server(d, side))}`;

// FNV-1a over the parts of a key, seeded per process so that a crafted capture cannot
// aim its datagrams at one bucket. Results stay below 2^30: small integers, which V8
// keeps in a Map without boxing.
const SEED = (Math.random() * 0x7fffffff) | 0;
const PRIME = 16777619;
const mix = (h: number, x: number): number => Math.imul(h ^ x, PRIME);
const text = (h: number, s: string): number => {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  return h;
};
const bytes = (h: number, b: Uint8Array, start: number, end: number): number => {
  for (let i = start; i < end && i < b.length; i++) h = Math.imul(h ^ b[i]!, PRIME);
  return mix(h, Math.max(0, Math.min(end, b.length) - start));
};
const endpoint = (h: number, e: Endpoint): number => mix(text(h, e.address), e.port);
const done = (h: number): number => (h >>> 2) & 0x3fffffff;

export const sameEndpoint = (a: Endpoint, b: Endpoint): boolean => a.port === b.port && a.address === b.address;
/** The same bytes in `a[aStart, aEnd)` and `b[bStart, bEnd)`, each range cut at its array's end. */
const sameRange = (a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): boolean => {
  const aStop = Math.min(aEnd, a.length);
  const n = aStop - aStart;
  if (n !== Math.min(bEnd, b.length) - bStart) return false;
  for (let i = 0; i < n; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
};
/** The client and server of a filed request are those of the reply. */
const sameConversation = (request: Datagram, reply: Datagram): boolean =>
  sameEndpoint(request.from, reply.to) && sameEndpoint(request.to, reply.from);

const PROTOCOL_IDS: Record<Protocol, number> = { samp: 1, vcmp: 2, mcquery: 3 };
/** Token keys hash apart from every protocol's request keys. */
const TOKENS = 4;

type EchoKey = Extract<PairingKey, { kind: 'echo' }>;
type SessionKey = Extract<PairingKey, { kind: 'session' }>;
const pairingOf = <K extends PairingKey['kind']>(
  p: { readonly name: string; readonly pairing?: PairingKey },
  kind: K,
): Extract<PairingKey, { kind: K }> => {
  if (p.pairing?.kind !== kind) throw new Error(`${p.name}: expected a pairing key of kind ${kind}`);
  return p.pairing as Extract<PairingKey, { kind: K }>;
};

/** SA:MP and VC:MP: the reply echoes bytes 4–10 (and a ping its nonce), as their declarations say. */
const echoed = (protocol: 'samp' | 'vcmp', key: EchoKey): KeyRule => {
  const id = PROTOCOL_IDS[protocol];
  const FROM = key.from;
  const echoEnd = echoEndOf(key);
  const echo = (h: number, b: Uint8Array): number => bytes(h, b, FROM, echoEnd(b));
  const sameEcho = (a: Uint8Array, b: Uint8Array): boolean => sameRange(a, FROM, echoEnd(a), b, FROM, echoEnd(b));
  const keys = (d: Datagram, side: Side): Keys => {
    const withClient = endpoint(mix(SEED, id), client(d, side));
    return [done(echo(endpoint(withClient, server(d, side)), d.bytes)), done(echo(withClient, d.bytes))];
  };
  return {
    request: (d) => keys(d, 'request'),
    response: (d) => keys(d, 'response'),
    exact: (r, reply) => r.protocol === protocol && sameConversation(r.datagram, reply) && sameEcho(r.datagram.bytes, reply.bytes),
    loose: (r, reply) => r.protocol === protocol && sameEndpoint(r.datagram.from, reply.to) && sameEcho(r.datagram.bytes, reply.bytes),
    nearMiss: (reply, request) => `reply from ${showEndpoint(reply.from)}, but the request went to ${showEndpoint(request.datagram.to)}`,
  };
};

const mcKey: SessionKey = pairingOf(mcqueryProtocol, 'session');
const MC_REQ_TYPE = mcKey.request.type,
  MC_REQ_FROM = mcKey.request.session[0],
  MC_REQ_TO = mcKey.request.session[1];
const MC_REP_TYPE = mcKey.response.type,
  MC_REP_FROM = mcKey.response.session[0],
  MC_REP_TO = mcKey.response.session[1];
const HANDSHAKE = selectorOf(mcqueryProtocol.messages.handshake!.response);
const STAT = selectorOf(mcqueryProtocol.messages.basic!.response);
const mcTypes: Record<number, string> = { [HANDSHAKE]: 'handshake', [STAT]: 'stat' };
const MC = PROTOCOL_IDS.mcquery;
const mcConversation = (d: Datagram, side: Side): number => endpoint(endpoint(mix(SEED, MC), client(d, side)), server(d, side));
/** A request's session id (bytes 3–6) is the reply's (bytes 1–4). */
const sessionOf = (request: Datagram, reply: Datagram): boolean =>
  sameRange(request.bytes, MC_REQ_FROM, MC_REQ_TO, reply.bytes, MC_REP_FROM, MC_REP_TO);
/** The session ids a request answers to: its own, and that of the handshake that issued its token. */
const sessionMatch = (r: Filed, reply: Datagram): boolean =>
  sessionOf(r.datagram, reply) || (r.issuer !== undefined && sessionOf(r.issuer, reply));

const minecraft: KeyRule = {
  request(d, handshake) {
    const conv = mcConversation(d, 'request');
    const type = bytes(conv, d.bytes, MC_REQ_TYPE, MC_REQ_TYPE + 1);
    const exact = done(bytes(type, d.bytes, MC_REQ_FROM, MC_REQ_TO));
    const loose = done(bytes(conv, d.bytes, MC_REQ_FROM, MC_REQ_TO));
    if (handshake && !sameRange(handshake.bytes, MC_REQ_FROM, MC_REQ_TO, d.bytes, MC_REQ_FROM, MC_REQ_TO)) {
      return [
        exact,
        done(bytes(type, handshake.bytes, MC_REQ_FROM, MC_REQ_TO)),
        loose,
        done(bytes(conv, handshake.bytes, MC_REQ_FROM, MC_REQ_TO)),
      ];
    }
    return [exact, loose];
  },
  response(d) {
    const conv = mcConversation(d, 'response');
    return [
      done(bytes(bytes(conv, d.bytes, MC_REP_TYPE, MC_REP_TYPE + 1), d.bytes, MC_REP_FROM, MC_REP_TO)),
      done(bytes(conv, d.bytes, MC_REP_FROM, MC_REP_TO)),
    ];
  },
  exact: (r, reply) =>
    r.protocol === 'mcquery' &&
    sameConversation(r.datagram, reply) &&
    sameRange(r.datagram.bytes, MC_REQ_TYPE, MC_REQ_TYPE + 1, reply.bytes, MC_REP_TYPE, MC_REP_TYPE + 1) &&
    sessionMatch(r, reply),
  loose: (r, reply) => r.protocol === 'mcquery' && sameConversation(r.datagram, reply) && sessionMatch(r, reply),
  nearMiss(reply, request, answered) {
    const type = reply.bytes[MC_REP_TYPE]!;
    const what = `a ${mcTypes[type] ?? 'unknown'} reply (type 0x${type.toString(16).padStart(2, '0')})`;
    // GEY: the handshake case falls through to the stat case.
    const geyser =
      answered && request.message === 'handshake' && type === STAT ? ' (Geyser answers a handshake with a token and then a full stat)' : '';
    return `${what} to a ${request.message} request${geyser}`;
  },
};

/** Key functions by protocol. */
export const keyRules: Record<Protocol, KeyRule> = {
  samp: echoed('samp', pairingOf(sampProtocol, 'echo')),
  vcmp: echoed('vcmp', pairingOf(vcmpProtocol, 'echo')),
  mcquery: minecraft,
};

/** A handshake's token within its conversation, hashed; {@link sameToken} tells. */
export const tokenKey = (request: Datagram, token: number): number =>
  done(mix(endpoint(endpoint(mix(SEED, TOKENS), request.from), request.to), token));
/** Whether a token filed for `handshake` lives in the conversation of `request` (the token itself is compared by the caller). */
export const sameClientAndServer = (handshake: Datagram, request: Datagram): boolean =>
  sameEndpoint(handshake.from, request.from) && sameEndpoint(handshake.to, request.to);

/** A Minecraft reply has no magic: type 09 or 00 and a session id is all it shows (declared with the protocol). */
export { mayBeMinecraftReply };

/** Messages that answer with several datagrams and no end marker: collected until a quiet period (`samp.rcon`). */
export const collected: ReadonlySet<string> = new Set(builtInProtocols.flatMap((p) => (p.collected ?? []).map((m) => `${p.name}.${m}`)));

/** The SA:MP/VC:MP magic at bytes 0–3, as one number. */
const first4 = (b: Uint8Array): number => (b.length < 4 ? -1 : ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0);
const MAGIC_SAMP = magicNumber(sampProtocol, 'request');
const MAGIC_VCMP = magicNumber(vcmpProtocol, 'request');
const MAGIC_MP04 = magicNumber(vcmpProtocol, 'response');

/** Whether `e` has the server port a SA:MP/VC:MP datagram carries at bytes 8–9. */
const embeddedPort = (b: Uint8Array, e: Endpoint): boolean => e.port === (b[8]! | (b[9]! << 8));
/** Whether `e` is the server address a SA:MP/VC:MP datagram carries at bytes 4–9 (as the client addressed it). */
const isEmbedded = (b: Uint8Array, e: Endpoint): boolean => embeddedPort(b, e) && isDotted(b, 4, e.address);
/**
 * Whether `text` is the dotted decimal of the four bytes at `at`, compared digit by digit:
 * a sharded dissector asks this of every datagram of the capture, and a string made
 * per datagram to compare was most of what a datagram of another shard cost.
 */
export const isDotted = (b: Uint8Array, at: number, text: string): boolean => {
  let i = 0;
  for (let k = 0; k < 4; k++) {
    if (k > 0 && text.charCodeAt(i++) !== 0x2e) return false;
    const v = b[at + k]!;
    if (v >= 100 && text.charCodeAt(i++) !== 0x30 + ((v / 100) | 0)) return false;
    if (v >= 10 && text.charCodeAt(i++) !== 0x30 + (((v / 10) | 0) % 10)) return false;
    if (text.charCodeAt(i++) !== 0x30 + (v % 10)) return false;
  }
  return i === text.length;
};
/** Either endpoint, the same one whichever way the datagram travels. */
const eitherWay = (d: Pick<Datagram, 'from' | 'to'>): Endpoint =>
  d.from.address < d.to.address || (d.from.address === d.to.address && d.from.port <= d.to.port) ? d.from : d.to;

/**
 * The client of the conversation a datagram belongs to, by its bytes alone: the sender
 * of a request, the receiver of a reply. A SA:MP or VC:MP datagram names its server at
 * bytes 4–9 (echoed by the reply), so the client is the other end — by address and
 * port, else by port (an address rewritten by NAT, a reply from another address of the
 * server); failing both, the direction its bytes show, and for a ping (the same bytes
 * both ways) either end, chosen the same whichever way it travels. A Minecraft request
 * starts fe fd; anything starting 00 or 09 may be a reply.
 */
export function clientOf(d: Pick<Datagram, 'bytes' | 'from' | 'to'>): Endpoint {
  const b = d.bytes;
  const magic = first4(b);
  if ((magic === MAGIC_SAMP || magic === MAGIC_VCMP || magic === MAGIC_MP04) && b.length >= 11) {
    if (isEmbedded(b, d.to)) return d.from;
    if (isEmbedded(b, d.from)) return d.to;
    const toServer = embeddedPort(b, d.to);
    if (toServer !== embeddedPort(b, d.from)) return toServer ? d.from : d.to;
    if (magic !== MAGIC_SAMP) return magic === MAGIC_VCMP ? d.from : d.to;
    const opcode = b[10];
    // open.mp's echo form of `o` (12–15 bytes, samp/omp.ts) is its request, like a ping.
    if (opcode === PING || opcode === RCON || (opcode === OMP && b.length > 11 && b.length <= 15)) return eitherWay(d);
    return b.length === 11 ? d.from : d.to;
  }
  if (b.length >= MC_MIN && b[0] === MC_MAGIC0 && b[1] === MC_MAGIC1) return d.from;
  if (mayBeMinecraftReply(b)) return d.to;
  return d.from;
}

const MC_MAGIC = mcqueryProtocol.signatures[0]!.bytes;
const MC_MAGIC0 = MC_MAGIC[0],
  MC_MAGIC1 = MC_MAGIC[1],
  MC_MIN = mcqueryProtocol.signatureMinLength ?? MC_MAGIC.length;
const PING = selectorOf(sampProtocol.messages.ping!.request);
const RCON = selectorOf(sampProtocol.messages.rcon!.request);
const OMP = selectorOf(sampProtocol.messages.omp!.request);

/**
 * Which of `count` shards pairs a datagram: a hash of {@link clientOf}, so that a request,
 * its replies, their copies and near misses, and the stat request quoting a handshake's
 * token all meet in one shard (every key of every rule names the client). The same in
 * every thread and process (a fixed seed, unlike the keys').
 */
export function shardOf(d: Pick<Datagram, 'bytes' | 'from' | 'to'>, count: number): number {
  if (count <= 1) return 0;
  const c = clientOf(d);
  return (mix(text(0x811c9dc5, c.address), c.port) >>> 0) % count;
}
