/**
 * VC:MP 0.4, declared once (see grammar/protocol.ts). Requests start `VCMP`, replies `MP04`
 * (header.ts): the magic tells the direction.
 */
import { byOpcode, defineProtocol, first4, isOpcode, magicNumber, opcodeTable, type ProtocolDeclaration } from '../../grammar/protocol.ts';
import { vcmpMessages } from './messages.ts';
import { vcmpNaming } from './header.ts';

const OPCODES = opcodeTable(vcmpMessages);

/** VC:MP 0.4 query. */
export const vcmpProtocol: ProtocolDeclaration<'vcmp', 8192> = defineProtocol({
  name: vcmpNaming.protocol,
  title: 'VC:MP Query Protocol',
  shortTitle: vcmpNaming.protocolName,
  defaultPort: 8192,
  endian: 'le',
  messages: Object.fromEntries(Object.values(vcmpMessages).map((m) => [m.request.message, m])),
  recognize(bytes, hint, _options, fail) {
    const opcode = byOpcode(vcmpProtocol, OPCODES, 10, bytes, fail);
    if (!isOpcode(opcode)) return opcode;
    return opcode[hint.direction ?? (first4(bytes) === REPLY ? 'response' : 'request')];
  },
  // The same header as SA:MP's: a reply echoes the request's bytes 4–10, a ping its nonce too.
  pairing: {
    kind: 'echo',
    from: 4,
    to: 11,
    opcodeAt: 10,
    longer: { to: 15, messages: [{ opcode: 'p' }] },
    server: { address: 4, port: 8 },
  },
  // What its info reply says of the server, for per-server statistics.
  stated: { players: ['vcmp.info.players'], hostname: ['vcmp.info.hostname'] },
  // Why a request may go unanswered, by message.
  unansweredBecause: { clients: 'possibly >100 players, or throttled' },
});

const REPLY = magicNumber(vcmpProtocol, 'response');
