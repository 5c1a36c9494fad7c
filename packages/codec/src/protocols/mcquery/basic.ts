/**
 * Minecraft query basic stat (docs/protocols/mcquery.md; README.md, where wiki.vg is wrong).
 *
 * Request (11 bytes): | FE FD | 00 | session id | token i32 BE |
 * Response: | 00 | session id | motd\0 | gametype\0 | map\0 | numplayers\0 | maxplayers\0 |
 *           | hostport u16 LE | hostip\0 |
 *
 * hostport is little-endian (vanilla writes Short.reverseBytes with a BE writer) and the
 * last string is the host IP, not the hostname.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { cstring, decimalCstring, i32be, u16le } from '../../grammar/fields.ts';
import { STAT, mcqueryRequestHeader, mcqueryResponseHeader, mcqueryNaming } from './header.ts';

/**
 * The challenge token (i32 BE) that ends the basic and full stat requests: the number the handshake
 * response gave.
 */
export const statToken = i32be('token', { abbrev: 'mcquery.token', label: 'Challenge token', doc: 'Token from the handshake, i32 BE' });

export const basicRequest = defineLayout({
  ...mcqueryNaming,
  message: 'basic',
  direction: 'request',
  title: 'Basic stat',
  info: 'session {sessionId} token {token}',
  fields: [...mcqueryRequestHeader(STAT), statToken],
});

export const basicResponse = defineLayout({
  ...mcqueryNaming,
  message: 'basic',
  direction: 'response',
  title: 'Basic stat',
  info: '"{motd}" {numPlayers}/{maxPlayers}',
  fields: [
    ...mcqueryResponseHeader(STAT),
    cstring('motd', { abbrev: 'mcquery.basic.motd', label: 'MOTD', doc: 'Message of the day' }),
    cstring('gametype', { abbrev: 'mcquery.basic.gametype', label: 'Game type', doc: 'SMP (PocketMine: SMP/CMP)' }),
    cstring('map', { abbrev: 'mcquery.basic.map', label: 'Map', doc: 'World name' }),
    decimalCstring('numPlayers', 'u32', { abbrev: 'mcquery.basic.num_players', label: 'Players', doc: 'Players online, decimal text' }),
    decimalCstring('maxPlayers', 'u32', { abbrev: 'mcquery.basic.max_players', label: 'Max players', doc: 'Player slots, decimal text' }),
    u16le('hostPort', { abbrev: 'mcquery.basic.host_port', label: 'Host port', doc: 'Game port, u16 LE' }),
    cstring('hostIp', { abbrev: 'mcquery.basic.host_ip', label: 'Host IP', doc: 'server-ip, or the machine address' }),
  ],
});
// XXX - vanilla writes characters above U+00FF as their low byte, which can put a NUL
// inside the MOTD; such a reply decodes as a shifted, malformed one.
