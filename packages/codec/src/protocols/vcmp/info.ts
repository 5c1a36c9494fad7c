/**
 * VC:MP `i` — server information (docs/protocols/vcmp.md; README.md: VCB, and VCWIKI's wrong offsets).
 *
 *   0          11            23   24        26    28   32     32+n  36+n   36+n+g 40+n+g
 *   | "MP04".. | version (12) | pw | players | max | n  | name | g    | mode | m    | map |
 *
 * The version is NUL-padded and not terminated when 12 characters long (`04rel006`).
 * The third string is the map name. VCB refuses replies shorter than 32 bytes.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { bool, fixedString, prefixedString, u16le } from '../../grammar/fields.ts';
import { vcmpRequestHeader, vcmpResponseHeader, vcmpNaming } from './header.ts';

export const vcmpInfoRequest = defineLayout({
  ...vcmpNaming,
  message: 'info',
  direction: 'request',
  title: 'Server information',
  fields: vcmpRequestHeader('i'),
});

export const vcmpInfoResponse = defineLayout({
  ...vcmpNaming,
  message: 'info',
  direction: 'response',
  title: 'Server information',
  info: '"{hostname}" {players}/{maxPlayers}',
  fields: [
    ...vcmpResponseHeader('i'),
    fixedString('version', 12, { abbrev: 'vcmp.info.version', label: 'Version', doc: 'Server build, NUL-padded to 12 bytes' }),
    bool('password', { abbrev: 'vcmp.info.password', label: 'Password', doc: 'Whether joining needs a password' }),
    u16le('players', { abbrev: 'vcmp.info.players', label: 'Players' }),
    u16le('maxPlayers', { abbrev: 'vcmp.info.max_players', label: 'Max players' }),
    prefixedString('hostname', 'u32le', { abbrev: 'vcmp.info.hostname', label: 'Hostname', doc: 'Server name' }),
    prefixedString('gamemode', 'u32le', { abbrev: 'vcmp.info.gamemode', label: 'Gamemode' }),
    prefixedString('map', 'u32le', { abbrev: 'vcmp.info.map', label: 'Map', doc: 'Map name (not language)' }),
  ],
});
