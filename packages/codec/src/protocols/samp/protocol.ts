/**
 * SA:MP / open.mp, declared once: names, ports, the message table, how its datagrams are
 * recognised and how a reply names its request (see grammar/protocol.ts). The magic `SAMP`
 * is the header's (header.ts), read from the layouts.
 */
import {
  bestFit,
  byOpcode,
  defineProtocol,
  found,
  isOpcode,
  opcodeTable,
  type ProtocolDeclaration,
  type Recognized,
} from '../../grammar/protocol.ts';
import { internals, type CodecOptions, type Direction } from '../../grammar/layout.ts';
import type { PacketHint } from '../../grammar/protocol.ts';
import { sampMessages, sampOlderForms } from './messages.ts';
import { ompForms } from './omp.ts';
import { sampNaming } from './header.ts';

/** The opcode is the 11th byte, after magic, server address and port. */
const OPCODE_AT = 10;

/** Messages by name: the current ones (named by their reply) and the older forms sharing an opcode. */
const byName = Object.fromEntries([...Object.values(sampMessages), ...Object.values(sampOlderForms)].map((m) => [m.response.message, m]));

const OMP_MESSAGES: ReadonlySet<string> = new Set(ompForms.map((f) => f.message));

/**
 * open.mp `o`, whose three forms share the opcode (omp.ts): 12 to 15 bytes is the echo
 * form (either way, like `p`; shorter than 15 it is cut), 11 a request, anything longer the
 * reply whose declaration the lengths add up to exactly: the logo form, else the banners
 * form; where neither does, the logo form's (today's) error or trailing bytes.
 */
function recognizeOmp(bytes: Uint8Array, hint: PacketHint, options?: CodecOptions): Recognized {
  // The pairer names the message when it settles an echo's direction.
  if (hint.direction && hint.message !== undefined && OMP_MESSAGES.has(hint.message))
    return found(hint.direction, byName[hint.message]![hint.direction]);
  const n = bytes.length;
  if (n > 11 && n <= 15)
    return hint.direction ? found(hint.direction, sampOlderForms.ompecho[hint.direction]) : found('either', sampOlderForms.ompecho.request);
  const direction: Direction = hint.direction ?? (n === 11 ? 'request' : 'response');
  if (direction === 'request') return found(direction, sampMessages.o.request);
  const banners = sampOlderForms.ompbanners.response;
  return found(
    direction,
    internals(sampMessages.o.response).measure(bytes, options) !== n && internals(banners).measure(bytes, options) === n
      ? banners
      : sampMessages.o.response,
  );
}

const OPCODES = opcodeTable(sampMessages);

/** SA:MP / open.mp query. */
export const sampProtocol: ProtocolDeclaration<'samp', 7777> = defineProtocol({
  name: sampNaming.protocol,
  title: 'SA:MP Query Protocol',
  shortTitle: sampNaming.protocolName,
  defaultPort: 7777,
  endian: 'le',
  messages: byName,
  recognize(bytes, hint, options, fail) {
    const opcode = byOpcode(sampProtocol, OPCODES, OPCODE_AT, bytes, fail);
    if (!isOpcode(opcode)) return opcode;
    const pair = opcode.pair;
    if (pair === sampMessages.o) return recognizeOmp(bytes, hint, options);
    if (hint.direction) return opcode[hint.direction];
    if (pair.symmetric) return opcode.either;
    // A request (two u16-prefixed strings) and a reply line (one) can never both fit a
    // datagram exactly, so the one that consumes it all is the answer.
    if (pair === sampMessages.x) {
      const layout = bestFit([pair.request, pair.response], bytes, options);
      return found(layout.direction, layout);
    }
    return bytes.length === 11 ? opcode.request : opcode.response;
  },
  // A ping, and open.mp's 15-byte echo form of `o`, echo their 4 trailing bytes too: the echo
  // pairs with its 15-byte request, not with an unanswered 11-byte `o` to the same server.
  pairing: {
    kind: 'echo',
    from: 4,
    to: 11,
    opcodeAt: OPCODE_AT,
    longer: { to: 15, messages: [{ opcode: 'p' }, { opcode: 'o', length: 15 }] },
    // Bytes 4–9: the server's IPv4 address and port (little-endian), as the client addressed it.
    server: { address: 4, port: 8 },
  },
  // RCON answers with any number of lines and no end marker: its replies are gathered until a quiet period.
  answeredInLines: ['rcon'],
  // What its info reply says of the server, for per-server statistics.
  stated: { players: ['samp.info.players'], hostname: ['samp.info.hostname'] },
  // Why a request may go unanswered, by message.
  unansweredBecause: {
    clients: '>100 players, open.mp `d`, or throttled',
    players: '>100 players, open.mp `d`, or throttled',
    omp: 'not an open.mp server (SA-MP ignores `o`), or open.mp v1.1 or older (answers only the 15-byte `o`)',
    ompecho: 'not open.mp v1.1 or older: later releases and SA-MP ignore a 15-byte `o`',
    rcon: 'RCON or query disabled, or a malformed request',
  },
  recognitionHints: {
    // open.mp's echo form of `o` (omp.ts): 12 to 15 bytes, either way; the other forms are told by best fit.
    'samp.ompecho.request': { offset: 0, bytes: [], lengths: [12, 15] },
    'samp.ompecho.response': { offset: 0, bytes: [], lengths: [12, 15] },
  },
});
