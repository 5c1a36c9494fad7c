/**
 * VC:MP 0.4 query header (docs/protocols/vcmp.md; VCWIKI, VCB ServerQueryUtil.h).
 *
 * Same shape as SA:MP's: requests start `VCMP`, responses `MP04` followed by the
 * request's bytes 4–10, so the magic tells the direction.
 */
import type { ValueTable } from '../../grammar/fields.ts';
import { queryHeader } from '../samp/header.ts';

/** What every VC:MP layout says of its protocol: its name and short title, as its declaration (protocol.ts) has them. */
export const vcmpNaming = { protocol: 'vcmp', protocolName: 'VC:MP' } as const;

/** VC:MP opcodes (VCWIKI): no `r`, `d` or `x`. */
export const vcmpOpcodes: ValueTable = { 0x69: 'Information', 0x63: 'Client list', 0x70: 'Ping' };

/** Fields that open a VC:MP request with opcode `op`: `VCMP`, server IP, server port, opcode. */
export const vcmpRequestHeader = (op: string) => queryHeader('vcmp', 'VCMP', op, vcmpOpcodes);
/**
 * Fields that open a VC:MP response with opcode `op`: `MP04`, then the request's server IP, server port and
 * opcode.
 */
export const vcmpResponseHeader = (op: string) => queryHeader('vcmp', 'MP04', op, vcmpOpcodes);
