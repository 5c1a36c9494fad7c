/**
 * Minecraft query (GameSpy4) common fields (docs/protocols/mcquery.md; MJ QueryThreadGs4).
 *
 * Requests:  | FE FD | type | session id (4) | [token i32 BE] | [padding (4)] |
 * Responses: | type | session id (4) | ...   (no magic)
 *
 * The session id is 4 opaque bytes; vanilla mangles bytes ≥ 0x80 in the handshake
 * reply (UTF-8 round trip), hence the convention `id & 0x0F0F0F0F`.
 */
import { constant, magic, u32be, type ValueTable } from '../../grammar/fields.ts';

/**
 * What every Minecraft query layout says of its protocol: its name, short title and charset (vanilla
 * writes the low byte of each UTF-16 unit), as its declaration (protocol.ts) has them.
 */
export const mcqueryNaming = { protocol: 'mcquery', protocolName: 'Minecraft query', charset: 'latin1' } as const;

/** Names of the Minecraft query type byte's values. */
export const mcqueryTypes: ValueTable = { 0x09: 'Handshake', 0x00: 'Stat' };

/** Type byte of a handshake. */
export const HANDSHAKE = 0x09;
/** Type byte of a stat (basic or full). */
export const STAT = 0x00;

const type = (value: number) =>
  constant('u8', value, { abbrev: 'mcquery.type', label: 'Type', base: 'hex', values: mcqueryTypes, doc: 'Packet type' });

const sessionId = u32be('sessionId', {
  abbrev: 'mcquery.session_id',
  label: 'Session ID',
  base: 'hex',
  doc: 'Client-chosen id, echoed by the server',
});

/** Fields that open a Minecraft query request of type `t`: magic FE FD, type, session id. */
export const mcqueryRequestHeader = (t: number) =>
  [magic([0xfe, 0xfd], { abbrev: 'mcquery.magic', label: 'Magic', doc: 'Request signature FE FD' }), type(t), sessionId] as const;

/** Fields that open a Minecraft query response of type `t`: type and session id (responses carry no magic). */
export const mcqueryResponseHeader = (t: number) => [type(t), sessionId] as const;
