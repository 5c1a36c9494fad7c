/**
 * Minecraft query full stat (docs/protocols/mcquery.md; README.md, where wiki.vg is wrong).
 *
 * Request (exactly 15 bytes): | FE FD | 00 | session id | token i32 BE | padding (4) |
 * Response:
 *   | 00 | session id | split header (11) | (key\0 value\0)* | 00 |
 *   | 01 | "player_\0" | 00 | (name\0)* | 00 |
 *
 * The split header is GS3's "splitnum\0" 0x80 0x00 (last packet, index 0); Geyser writes
 * "GeyserMC\0" instead, so it is shown and kept, not validated. Key order varies by
 * server (vanilla, PocketMine, Geyser's hash map), so the pairs keep wire order.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { bytes, constant, cstring, group, magic, terminatedList } from '../../grammar/fields.ts';
import { STAT, mcqueryRequestHeader, mcqueryResponseHeader, mcqueryNaming } from './header.ts';
import { statToken } from './basic.ts';

export const fullRequest = defineLayout({
  ...mcqueryNaming,
  message: 'full',
  direction: 'request',
  title: 'Full stat',
  info: 'session {sessionId} token {token}',
  fields: [
    ...mcqueryRequestHeader(STAT),
    statToken,
    bytes('padding', 4, { abbrev: 'mcquery.padding', label: 'Padding', doc: 'Four ignored bytes that select full stat' }),
  ],
});

export const fullResponse = defineLayout({
  ...mcqueryNaming,
  message: 'full',
  direction: 'response',
  title: 'Full stat',
  fields: [
    ...mcqueryResponseHeader(STAT),
    bytes('splitnum', 11, {
      abbrev: 'mcquery.full.splitnum',
      label: 'Split header',
      doc: 'GS3 split header ("splitnum\\0" 80 00); not validated',
    }),
    terminatedList(
      'kv',
      { abbrev: 'mcquery.full.kv_end', label: 'End of key/value section' },
      {
        abbrev: 'mcquery.full.kv',
        label: 'Key/value',
        summary: '{key} = {value}',
        fields: [
          cstring('key', { abbrev: 'mcquery.full.key', label: 'Key' }),
          cstring('value', { abbrev: 'mcquery.full.value', label: 'Value' }),
        ],
      },
    ),
    group({ abbrev: 'mcquery.full.players', label: 'Players', doc: 'Player section' }, [
      constant('u8', 0x01, { abbrev: 'mcquery.full.players.marker', label: 'Section marker', doc: 'Start of the player section (01)' }),
      magic('player_\0', { abbrev: 'mcquery.full.players.key', label: 'Section key', doc: 'Field name "player_"' }),
      constant('u8', 0x00, { abbrev: 'mcquery.full.players.index', label: 'Start index', doc: 'Index of the first player (00)' }),
      terminatedList(
        'players',
        { abbrev: 'mcquery.full.players.end', label: 'End of player list' },
        {
          abbrev: 'mcquery.full.player',
          label: 'Player',
          fields: [cstring('name', { abbrev: 'mcquery.full.player', label: 'Player', doc: 'Player name' })],
        },
        { flat: true },
      ),
    ]),
  ],
});
