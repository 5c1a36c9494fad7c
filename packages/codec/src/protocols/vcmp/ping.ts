/**
 * VC:MP `p` — ping (docs/protocols/vcmp.md). Listed by VCWIKI; its reply layout is
 * unconfirmed. By lineage it follows SA:MP: the request carries 4 arbitrary bytes and
 * the reply echoes them behind the `MP04` header.
 */
// XXX - does a VC:MP server need the 4 nonce bytes, and does it echo them? (needs a capture)
import { defineLayout } from '../../grammar/layout.ts';
import { u32be } from '../../grammar/fields.ts';
import { vcmpRequestHeader, vcmpResponseHeader, vcmpNaming } from './header.ts';

const nonce = u32be('nonce', { abbrev: 'vcmp.ping.nonce', label: 'Nonce', base: 'hex', doc: 'Four arbitrary bytes, echoed' });

export const vcmpPingRequest = defineLayout({
  ...vcmpNaming,
  message: 'ping',
  direction: 'request',
  title: 'Ping',
  info: 'nonce {nonce}',
  fields: [...vcmpRequestHeader('p'), nonce],
});

export const vcmpPingResponse = defineLayout({
  ...vcmpNaming,
  message: 'ping',
  direction: 'response',
  title: 'Ping',
  info: 'nonce {nonce}',
  fields: [...vcmpResponseHeader('p'), nonce],
});
