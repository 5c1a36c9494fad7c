/**
 * Minecraft query handshake (docs/protocols/mcquery.md).
 *
 * Request (7 bytes):  | FE FD | 09 | session id |
 * Response:           | 09 | session id | token as decimal text | 00 |
 *
 * Vanilla tokens are 0…16 777 215; PocketMine, Geyser and Velocity send the whole
 * signed 32-bit range, so the token is parsed as a signed 32-bit integer.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { decimalCstring } from '../../grammar/fields.ts';
import { HANDSHAKE, mcqueryRequestHeader, mcqueryResponseHeader, mcqueryNaming } from './header.ts';

export const handshakeRequest = defineLayout({
  ...mcqueryNaming,
  message: 'handshake',
  direction: 'request',
  title: 'Handshake',
  info: 'session {sessionId}',
  fields: mcqueryRequestHeader(HANDSHAKE),
});

export const handshakeResponse = defineLayout({
  ...mcqueryNaming,
  message: 'handshake',
  direction: 'response',
  title: 'Handshake',
  info: 'token {token}',
  fields: [
    ...mcqueryResponseHeader(HANDSHAKE),
    decimalCstring('token', 'i32', {
      abbrev: 'mcquery.handshake.token',
      label: 'Challenge token',
      doc: 'Challenge token as decimal text (signed 32-bit)',
    }),
  ],
});
