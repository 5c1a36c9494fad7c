/**
 * What ties a reply to its request, per protocol, read from its declared pairing key
 * (grammar/protocol.ts), and what else the live pairer reads of a declaration: the messages
 * it collects, the token its replies issue, the replies it sends without magic.
 *
 * A key is the conversation (client and server endpoint) plus what the reply echoes:
 *
 *   echo      the request's bytes `from`–`to` (or `longer.to`, for the messages the key lists)
 *   session   the type byte and the session id, at the request's and the reply's offsets; a
 *             request quoting a token is also filed under the session id of the request
 *             whose reply issued the token, because servers may answer with that one
 *
 * The loose key drops one part, so a near miss can be explained instead of just reported:
 * the server for an echo key (a reply from the wrong address), the type for a session key
 * (a reply of another type than its request's).
 */
import type { AnyLayout } from '../grammar/layout.ts';
import { echoEnd as echoEndOf, type PacketHint, type PairingKey, type ProtocolDeclaration } from '../grammar/protocol.ts';
import { hostPort } from '../grammar/display.ts';
import { builtInProtocols, type BuiltInProtocol } from '../protocols/index.ts';
import { noRequestIn, otherType } from './reasons.ts';
import type { Datagram, DecodedDatagram, Endpoint } from './types.ts';

export type Side = 'request' | 'response';

/**
 * Hashes a request is filed under, or a reply looked up by (see {@link KeyRule}): the
 * exact ones, then as many loose ones. One array, as a request keeps it for as long as
 * it is remembered.
 */
export type Keys = readonly number[];

/** A request as filed: its datagram, and the request whose reply issued the token it quotes. */
export interface Filed {
  readonly protocol: string;
  readonly datagram: Datagram;
  readonly issuer: Datagram | undefined;
}

export interface KeyRule {
  /** Keys a request is filed under; `issuer` is the request whose reply issued the token it quotes. */
  request(d: Datagram, issuer?: Datagram): Keys;
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

/** Token keys hash apart from every protocol's request keys (protocols are numbered from 1). */
const TOKENS = 0;

type EchoKey = Extract<PairingKey, { kind: 'echo' }>;
type SessionKey = Extract<PairingKey, { kind: 'session' }>;

/** An echo key: the reply repeats the request's bytes `from`–`to` (longer for some messages). */
function echoRule(protocol: string, id: number, key: EchoKey): KeyRule {
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
}

/**
 * The names of a protocol's reply types, by type byte: the value table of its reply layouts'
 * type field (lower case), as a near miss names them.
 */
function typeNames(p: ProtocolDeclaration): Readonly<Record<number, string>> {
  const names: Record<number, string> = {};
  for (const m of Object.values(p.messages)) {
    const f = m.response.fields.find((x) => x.kind === 'const');
    if (f?.kind !== 'const') continue;
    for (const [value, name] of Object.entries(f.values ?? {})) names[Number(value)] ??= name.toLowerCase();
  }
  return names;
}

/** A session key: request and reply carry a type byte and a session id, at offsets of their own. */
function sessionRule(p: ProtocolDeclaration, id: number, key: SessionKey): KeyRule {
  const protocol = p.name;
  const REQ_TYPE = key.request.type,
    REQ_FROM = key.request.session[0],
    REQ_TO = key.request.session[1];
  const REP_TYPE = key.response.type,
    REP_FROM = key.response.session[0],
    REP_TO = key.response.session[1];
  const names = typeNames(p);
  const habit = key.answeredAgain;
  const conversationOf = (d: Datagram, side: Side): number => endpoint(endpoint(mix(SEED, id), client(d, side)), server(d, side));
  /** A request's session id is the reply's. */
  const sessionOf = (request: Datagram, reply: Datagram): boolean =>
    sameRange(request.bytes, REQ_FROM, REQ_TO, reply.bytes, REP_FROM, REP_TO);
  /** The session ids a request answers to: its own, and that of the request whose reply issued its token. */
  const sessionMatch = (r: Filed, reply: Datagram): boolean =>
    sessionOf(r.datagram, reply) || (r.issuer !== undefined && sessionOf(r.issuer, reply));
  return {
    request(d, issuer) {
      const conv = conversationOf(d, 'request');
      const type = bytes(conv, d.bytes, REQ_TYPE, REQ_TYPE + 1);
      const exact = done(bytes(type, d.bytes, REQ_FROM, REQ_TO));
      const loose = done(bytes(conv, d.bytes, REQ_FROM, REQ_TO));
      if (issuer && !sameRange(issuer.bytes, REQ_FROM, REQ_TO, d.bytes, REQ_FROM, REQ_TO)) {
        return [exact, done(bytes(type, issuer.bytes, REQ_FROM, REQ_TO)), loose, done(bytes(conv, issuer.bytes, REQ_FROM, REQ_TO))];
      }
      return [exact, loose];
    },
    response(d) {
      const conv = conversationOf(d, 'response');
      return [
        done(bytes(bytes(conv, d.bytes, REP_TYPE, REP_TYPE + 1), d.bytes, REP_FROM, REP_TO)),
        done(bytes(conv, d.bytes, REP_FROM, REP_TO)),
      ];
    },
    exact: (r, reply) =>
      r.protocol === protocol &&
      sameConversation(r.datagram, reply) &&
      sameRange(r.datagram.bytes, REQ_TYPE, REQ_TYPE + 1, reply.bytes, REP_TYPE, REP_TYPE + 1) &&
      sessionMatch(r, reply),
    loose: (r, reply) => r.protocol === protocol && sameConversation(r.datagram, reply) && sessionMatch(r, reply),
    nearMiss(reply, request, answered) {
      const type = reply.bytes[REP_TYPE]!;
      const known = habit !== undefined && answered && request.message === habit.message && type === habit.type;
      return otherType(type, names[type], request.message, known ? habit.note : undefined);
    },
  };
}

/** The key rule of declaration `p`, numbered `id` (≥ 1) so that its keys hash apart from other protocols'. */
export function keyRuleOf(p: ProtocolDeclaration, id: number): KeyRule | undefined {
  const key = p.pairing;
  if (!key) return undefined;
  return key.kind === 'echo' ? echoRule(p.name, id, key) : sessionRule(p, id, key);
}

/** What the live pairer reads of one protocol's declaration. */
export interface Plan {
  readonly protocol: ProtocolDeclaration;
  readonly rule: KeyRule;
  /** Request layouts answered by several datagrams and no end marker, collected until a quiet period. */
  readonly collects: ReadonlySet<AnyLayout>;
  /** Whether a request may quote a token a reply issued (a session key, and a layout with a `token` field). */
  readonly quotes: boolean;
  /** Messages whose reply issues a token (a reply layout with a `token` field): kept for the requests that quote it. */
  readonly issues: ReadonlySet<string>;
  /** The hints a reply without magic is read by: as a reply to each message, and by its shape. */
  readonly replyAs: ReadonlyMap<string, PacketHint>;
  readonly reply: PacketHint;
  /** Why a reply without magic has no request: none of this protocol in its conversation. */
  readonly noRequest: string;
}

const hasToken = (l: AnyLayout): boolean => l.fields.some((f) => 'name' in f && f.name === 'token');

/** The plan of declaration `p` (numbered `id`), or undefined where it declares no pairing key. */
function planOf(p: ProtocolDeclaration, id: number): Plan | undefined {
  const rule = keyRuleOf(p, id);
  if (!rule) return undefined;
  const session = p.pairing?.kind === 'session';
  const messages = Object.entries(p.messages);
  return {
    protocol: p,
    rule,
    collects: new Set((p.answeredInLines ?? []).map((m) => p.messages[m]!.request)),
    quotes: session && messages.some(([, m]) => hasToken(m.request)),
    issues: new Set(session ? messages.flatMap(([name, m]) => (hasToken(m.response) ? [name] : [])) : []),
    replyAs: new Map(messages.map(([message]) => [message, { protocol: p.name, direction: 'response', message }])),
    reply: { protocol: p.name, direction: 'response' },
    noRequest: noRequestIn(p.shortTitle),
  };
}

/** The plans of `protocols` by name (those with a pairing key), numbered in their order from 1. */
export function plansOf(protocols: readonly ProtocolDeclaration[]): Readonly<Record<string, Plan>> {
  const plans: Record<string, Plan> = {};
  protocols.forEach((p, i) => {
    const plan = planOf(p, i + 1);
    if (plan) plans[p.name] = plan;
  });
  return plans;
}

/** The plans of the built-in protocols. */
export const builtInPlans: Readonly<Record<string, Plan>> = plansOf(builtInProtocols);

/** The key rules of the built-in protocols, by name. */
export const keyRules: Readonly<Record<BuiltInProtocol, KeyRule>> = Object.fromEntries(
  builtInProtocols.map((p) => [p.name, builtInPlans[p.name]!.rule]),
) as Record<BuiltInProtocol, KeyRule>;

/** A token within the conversation its request names, hashed; the token memory tells by the token and endpoints. */
export const tokenKey = (request: Datagram, token: number): number =>
  done(mix(endpoint(endpoint(mix(SEED, TOKENS), request.from), request.to), token));
