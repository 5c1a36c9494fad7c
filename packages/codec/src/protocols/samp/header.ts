/**
 * SA:MP / open.mp query header: the 11 bytes every request starts with and every
 * response echoes (docs/protocols/samp.md; OMP query.cpp, YSF Hooks.cpp).
 *
 *   0      4       8      10   11
 *   | "SAMP" | ip (4) | port LE | op |
 *
 * Servers do not validate bytes 4–9; they echo them back. VC:MP uses the same shape
 * with its own magic (see vcmp/header.ts).
 */
import { constant, ipv4, magic, u16le, type ValueTable } from '../../grammar/fields.ts';

/** What every SA:MP layout says of its protocol: its name and short title, as its declaration (protocol.ts) has them. */
export const sampNaming = { protocol: 'samp', protocolName: 'SA:MP' } as const;

/** Opcodes of SA:MP (and open.mp's `o`), by byte value. */
export const sampOpcodes: ValueTable = {
  0x69: 'Information',
  0x72: 'Rules',
  0x63: 'Client list',
  0x64: 'Detailed player list',
  0x78: 'RCON command',
  0x70: 'Ping',
  0x6f: 'open.mp extra information',
};

/**
 * The header fields for protocol `proto` with `magicText` and the opcode `op`.
 * Shared by SA:MP and VC:MP, whose headers differ only in magic and opcode table.
 */
export const queryHeader = <const P extends 'samp' | 'vcmp'>(proto: P, magicText: string, op: string, opcodes: ValueTable) =>
  [
    magic(magicText, { abbrev: `${proto}.magic`, label: 'Magic', doc: 'Protocol signature' }),
    ipv4('serverIp', {
      abbrev: `${proto}.server_ip`,
      label: 'Server IP',
      doc: 'Server IPv4 address as the client addressed it (echoed, not validated)',
    }),
    u16le('serverPort', {
      abbrev: `${proto}.server_port`,
      label: 'Server port',
      doc: 'Server port as the client addressed it (echoed, not validated)',
    }),
    constant('u8', op.charCodeAt(0), { abbrev: `${proto}.opcode`, label: 'Opcode', base: 'char', values: opcodes, doc: 'Query type' }),
  ] as const;

/** The SA:MP header fields (magic `SAMP`, server IP, port, opcode) for the opcode `op`. */
export const sampHeader = (op: string) => queryHeader('samp', 'SAMP', op, sampOpcodes);
