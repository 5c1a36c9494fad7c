/**
 * SA:MP `x` — RCON command (PROTOCOLS.md §1.8).
 *
 * Request:  | header | u16 LE p | password | u16 LE m | command |
 * Response: | header | u16 LE t | one line of console output |
 *
 * A command yields zero or more response datagrams, one per output line, with no end
 * marker. A wrong password yields one line, "Invalid RCON password."; a disabled RCON
 * yields silence.
 */
import { defineLayout } from '../grammar/layout.ts';
import { prefixedString } from '../grammar/fields.ts';
import { sampHeader } from './header.ts';

export const rconRequest = defineLayout({
  protocol: 'samp', message: 'rcon', direction: 'request', title: 'RCON command',
  info: '{command}',
  fields: [
    ...sampHeader('x'),
    prefixedString('password', 'u16le', { abbrev: 'samp.rcon.password', label: 'Password', doc: 'RCON password (cleartext on the wire)', secret: true }),
    prefixedString('command', 'u16le', {
      abbrev: 'samp.rcon.command', label: 'Command', doc: 'Console command',
      // `rcon_password NEW` sets the RCON password, `password NEW` the server's join password.
      redact: /^\s*(?:rcon_password|password)\s+(\S.*)$/is,
    }),
  ],
});

export const rconResponse = defineLayout({
  protocol: 'samp', message: 'rcon', direction: 'response', title: 'RCON command',
  info: '"{output}"',
  fields: [
    ...sampHeader('x'),
    prefixedString('output', 'u16le', { abbrev: 'samp.rcon.output', label: 'Output', doc: 'One line of console output' }),
  ],
});
