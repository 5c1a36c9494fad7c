/**
 * SA:MP `p` — ping (docs/protocols/samp.md). The reply is the 15-byte request, unchanged,
 * so both directions share this declaration and a dissector needs the conversation
 * to tell them apart. Any other length gets no reply.
 *
 *   | header (11) | nonce (4) |
 */
import { defineLayout } from '../../grammar/layout.ts';
import { u32be } from '../../grammar/fields.ts';
import { sampHeader, sampNaming } from './header.ts';

const fields = [
  ...sampHeader('p'),
  u32be('nonce', { abbrev: 'samp.ping.nonce', label: 'Nonce', base: 'hex', doc: 'Four arbitrary bytes, echoed' }),
] as const;

export const pingRequest = defineLayout({
  ...sampNaming,
  message: 'ping',
  direction: 'request',
  title: 'Ping',
  info: 'nonce {nonce}',
  fields,
});
export const pingResponse = defineLayout({
  ...sampNaming,
  message: 'ping',
  direction: 'response',
  title: 'Ping',
  info: 'nonce {nonce}',
  fields,
});
