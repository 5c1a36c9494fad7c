/**
 * Minecraft query (GameSpy4), declared once (see grammar/protocol.ts). Requests start FE FD
 * (header.ts); replies carry no magic, so a reply is told by its shape (heuristic.ts) or by
 * the request it answers.
 */
import { defineProtocol, found, unknownType, type ProtocolDeclaration } from '../../grammar/protocol.ts';
import { UnrecognizedPacketError } from '../../errors.ts';
import { mcqueryMessages } from './messages.ts';
import { HANDSHAKE, STAT, mcqueryNaming } from './header.ts';
import { minecraftExperts, minecraftRequestNotSeen } from './expert.ts';
import { minecraftReplyShape } from './heuristic.ts';

/** Where a request's and a reply's type byte are. */
const TYPE_AT = { request: 2, response: 0 } as const;

const isRequest = (b: Uint8Array): boolean => b.length >= 3 && b[0] === 0xfe && b[1] === 0xfd;

/**
 * A full-stat reply has an 11-byte split header after the session id whose last two
 * bytes are 80 00 (any 9 bytes before them: "splitnum\0", Geyser's "GeyserMC\0").
 */
const looksLikeFullStat = (bytes: Uint8Array): boolean => bytes.length >= 16 && bytes[13] === 0 && bytes[14] === 0x80 && bytes[15] === 0;

/** A Minecraft reply has no magic: type 09 or 00 and a session id is all it shows. */
export const mayBeMinecraftReply = (b: Uint8Array): boolean => b.length >= 5 && (b[0] === HANDSHAKE || b[0] === STAT);

/** Minecraft query (GameSpy4). */
export const mcqueryProtocol: ProtocolDeclaration<'mcquery', 25565> = defineProtocol({
  name: mcqueryNaming.protocol,
  // The names `gamequery` took for it before `mcquery` was its one name.
  aliases: ['minecraft', 'mc', 'gs4'],
  title: 'Minecraft Query Protocol (GameSpy4)',
  shortTitle: mcqueryNaming.protocolName,
  charset: mcqueryNaming.charset,
  defaultPort: 25565,
  // 19132: Bedrock servers (and Geyser) answer the same query there.
  ports: [25565, 19132],
  endian: 'be',
  messages: mcqueryMessages,
  // The magic FE FD and the type byte.
  signatureMinLength: 3,
  experts: minecraftExperts,
  recognize(bytes, hint, _options, fail) {
    const direction = hint.direction ?? (isRequest(bytes) ? 'request' : 'response');
    if (hint.message) {
      const pair = (mcqueryMessages as Partial<Record<string, (typeof mcqueryMessages)[keyof typeof mcqueryMessages]>>)[hint.message];
      if (!pair) return fail(() => new UnrecognizedPacketError(`mcquery: no message named ${JSON.stringify(hint.message)}`));
      return found(direction, pair[direction]);
    }
    const typeAt = TYPE_AT[direction];
    const type = bytes[typeAt];
    if (type === HANDSHAKE) return found(direction, mcqueryMessages.handshake[direction]);
    if (type !== STAT) return fail(() => unknownType('mcquery.type', typeAt, type));
    if (direction === 'request') {
      // Servers choose basic or full by length alone: 15 bytes is full (MJ).
      return found(direction, bytes.length === 15 ? mcqueryMessages.full.request : mcqueryMessages.basic.request);
    }
    return found(direction, looksLikeFullStat(bytes) ? mcqueryMessages.full.response : mcqueryMessages.basic.response);
  },
  // Replies carry no magic (they start with the type byte): how one may look, what a caller who
  // passed one without a hint is told, the strict shape that names one read without its request
  // (heuristic.ts), and the warning it then carries.
  magicless: {
    mayBe: mayBeMinecraftReply,
    advice:
      'this may be a Minecraft query response, which carries no magic: pass the hint { protocol: "mcquery", direction: "response" } or decode it within its conversation',
    shape: minecraftReplyShape,
    alone: minecraftRequestNotSeen,
  },
  // The session id: request bytes 3–6, reply bytes 1–4; the type byte before it.
  pairing: {
    kind: 'session',
    request: { type: TYPE_AT.request, session: [3, 7] },
    response: { type: TYPE_AT.response, session: [1, 5] },
    // GEY: its handshake case falls through to the stat case.
    answeredAgain: { message: 'handshake', type: STAT, note: 'Geyser answers a handshake with a token and then a full stat' },
  },
  // What its replies say of the server, for per-server statistics: the basic stat in fields of its
  // own, the full stat among its key/value pairs (GameSpy4: `hostname`, `numplayers`).
  stated: {
    players: ['mcquery.basic.num_players'],
    hostname: ['mcquery.basic.motd'],
    byKey: { 'mcquery.full.response': { list: 'kv', players: 'numplayers', hostname: 'hostname' } },
  },
  // Why a request may go unanswered, by message.
  unansweredBecause: { basic: 'wrong or expired challenge token', full: 'wrong or expired challenge token' },
  recognitionHints: {
    // What looksLikeFullStat reads: a full-stat reply's split header ends 00 80 00 at offset 13.
    'mcquery.full.response': { offset: 13, bytes: [0x00, 0x80, 0x00] },
  },
});
