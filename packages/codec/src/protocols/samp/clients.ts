/**
 * SA:MP `c` — client list, names and scores (docs/protocols/samp.md).
 *
 * Response: header, u16 LE count N, then N × ( u8 n | name | i32 LE score ).
 * Scores are signed (open.mp casts to int32). No reply at all above 100 players.
 * YSF can hide players while N is counted separately, so N may exceed the entries
 * present: the list stops cleanly where the datagram ends.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { countedList, i32le, prefixedString } from '../../grammar/fields.ts';
import { sampHeader, sampNaming } from './header.ts';

export const clientsRequest = defineLayout({
  ...sampNaming,
  message: 'clients',
  direction: 'request',
  title: 'Client list',
  fields: sampHeader('c'),
});

export const clientsResponse = defineLayout({
  ...sampNaming,
  message: 'clients',
  direction: 'response',
  title: 'Client list',
  fields: [
    ...sampHeader('c'),
    countedList(
      'clients',
      { type: 'u16le', abbrev: 'samp.clients.count', label: 'Client count' },
      {
        abbrev: 'samp.client',
        label: 'Client',
        summary: '{name} ({score})',
        fields: [
          prefixedString('name', 'u8', { abbrev: 'samp.client.name', label: 'Name', doc: 'Nickname' }),
          i32le('score', { abbrev: 'samp.client.score', label: 'Score', doc: 'Score (signed)' }),
        ],
      },
      { tolerateShort: true },
    ),
  ],
});

/** More players than this online and neither server sends `c` or `d` (YSF `count > 100`, OMP). */
export const MAX_LISTED_PLAYERS = 100;
