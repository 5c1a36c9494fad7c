/**
 * SA:MP `x` — RCON command (docs/protocols/samp.md).
 *
 * Request:  | header | u16 LE p | password | u16 LE m | command |
 * Response: | header | u16 LE t | one line of console output |
 *
 * A command yields zero or more response datagrams, one per output line, with no end
 * marker. A wrong password yields one line, "Invalid RCON password."; a disabled RCON
 * yields silence.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { prefixedString } from '../../grammar/fields.ts';
import { sampHeader, sampNaming } from './header.ts';
import { MASK } from '../../grammar/display.ts';

/** A command that sets a password: `rcon_password NEW` (the RCON password), `password NEW` (the join password); the new one is group 1. */
export const SETS_PASSWORD: RegExp = /^\s*(?:rcon_password|password)\s+(\S.*)$/is;

/**
 * The secrets of an RCON request, which its command and its replies may echo: its password,
 * and a password its command sets (trailing blanks trimmed, as the console reads it).
 * Empty ones are left out.
 */
export function rconSecrets(request: { readonly password?: string; readonly command?: string }): string[] {
  const out: string[] = [];
  if (request.password) out.push(request.password);
  const set = request.command === undefined ? undefined : SETS_PASSWORD.exec(request.command)?.[1]?.trimEnd();
  if (set && set !== request.password) out.push(set);
  return out;
}

/** `text` with every occurrence of each secret masked (the longest first); the same string when none occurs. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (secret && out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

export const rconRequest = defineLayout({
  ...sampNaming,
  message: 'rcon',
  direction: 'request',
  title: 'RCON command',
  info: '{command}',
  fields: [
    ...sampHeader('x'),
    prefixedString('password', 'u16le', {
      abbrev: 'samp.rcon.password',
      label: 'Password',
      doc: 'RCON password (cleartext on the wire)',
      secret: true,
    }),
    prefixedString('command', 'u16le', {
      abbrev: 'samp.rcon.command',
      label: 'Command',
      doc: 'Console command',
      // `rcon_password NEW` sets the RCON password, `password NEW` the server's join password.
      redact: SETS_PASSWORD,
    }),
  ],
});

export const rconResponse = defineLayout({
  ...sampNaming,
  message: 'rcon',
  direction: 'response',
  title: 'RCON command',
  info: '"{output}"',
  fields: [
    ...sampHeader('x'),
    prefixedString('output', 'u16le', { abbrev: 'samp.rcon.output', label: 'Output', doc: 'One line of console output' }),
  ],
});

/** The line a SA:MP server sends in reply to an RCON command with the wrong password. */
export const INVALID_RCON_PASSWORD = 'Invalid RCON password.';
