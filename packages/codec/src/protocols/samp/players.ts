/**
 * SA:MP `d` — detailed player list (docs/protocols/samp.md). SA-MP only: open.mp does not
 * answer `d` at all (open.mp#619).
 *
 * Response: header, u16 LE count N, then N × ( u8 id | u8 n | name | i32 LE score | u32 LE ping ).
 * The id is the low 8 bits of the 16-bit player id (YSF copies one byte), so ids ≥ 256
 * wrap. Same short-list tolerance as `c`.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { countedList, i32le, prefixedString, u32le, u8 } from '../../grammar/fields.ts';
import { sampHeader, sampNaming } from './header.ts';

export const playersRequest = defineLayout({
  ...sampNaming,
  message: 'players',
  direction: 'request',
  title: 'Detailed player list',
  fields: sampHeader('d'),
});

export const playersResponse = defineLayout({
  ...sampNaming,
  message: 'players',
  direction: 'response',
  title: 'Detailed player list',
  fields: [
    ...sampHeader('d'),
    countedList(
      'players',
      { type: 'u16le', abbrev: 'samp.players.count', label: 'Player count' },
      {
        abbrev: 'samp.player',
        label: 'Player',
        summary: '#{id} {name} ({score}, {ping} ms)',
        fields: [
          u8('id', { abbrev: 'samp.player.id', label: 'ID', doc: 'Player id, low 8 bits only' }),
          prefixedString('name', 'u8', { abbrev: 'samp.player.name', label: 'Name', doc: 'Nickname' }),
          i32le('score', { abbrev: 'samp.player.score', label: 'Score', doc: 'Score (signed)' }),
          u32le('ping', { abbrev: 'samp.player.ping', label: 'Ping', doc: 'Ping in milliseconds' }),
        ],
      },
      { tolerateShort: true },
    ),
  ],
});
// XXX - ping of a player not yet measured may be 0xFFFFFFFF (needs a capture).
