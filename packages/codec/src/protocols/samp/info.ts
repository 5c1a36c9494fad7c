/**
 * SA:MP `i` — server information (docs/protocols/samp.md; OMP query.cpp, YSF Hooks.cpp).
 *
 * Request: the 11-byte header. Response:
 *   0       11   12        14       16      20     20+h    24+h   24+h+g  28+h+g
 *   | header | pw | players | max LE | h LE  | host | g LE | mode | l LE  | language |
 *
 * Players excludes NPCs; max players is `maxplayers` minus NPCs. The third string is
 * the language since 0.3.7 (the map name before; 0.3.7 falls back to `mapname`).
 * open.mp caps the strings at 63/39/39 bytes, SA-MP 0.3.7 at 50/30/30 (YSF).
 */
import { defineLayout } from '../../grammar/layout.ts';
import { bool, prefixedString, u16le } from '../../grammar/fields.ts';
import { sampHeader, sampNaming } from './header.ts';

export const infoRequest = defineLayout({
  ...sampNaming,
  message: 'info',
  direction: 'request',
  title: 'Server information',
  fields: sampHeader('i'),
});

export const infoResponse = defineLayout({
  ...sampNaming,
  message: 'info',
  direction: 'response',
  title: 'Server information',
  info: '"{hostname}" {players}/{maxPlayers}',
  fields: [
    ...sampHeader('i'),
    bool('password', { abbrev: 'samp.info.password', label: 'Password', doc: 'Whether joining needs a password' }),
    u16le('players', { abbrev: 'samp.info.players', label: 'Players', doc: 'Players online, NPCs excluded' }),
    u16le('maxPlayers', { abbrev: 'samp.info.max_players', label: 'Max players', doc: 'Player slots minus NPCs' }),
    prefixedString('hostname', 'u32le', { abbrev: 'samp.info.hostname', label: 'Hostname', doc: 'Server name' }),
    prefixedString('gamemode', 'u32le', { abbrev: 'samp.info.gamemode', label: 'Gamemode', doc: 'Game mode text' }),
    prefixedString('language', 'u32le', { abbrev: 'samp.info.language', label: 'Language', doc: 'Language (map name before 0.3.7)' }),
  ],
});
