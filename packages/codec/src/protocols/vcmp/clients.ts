/**
 * VC:MP `c` — player names, no scores (docs/protocols/vcmp.md; README.md).
 *
 * Response: header, u16 LE count N, then N × ( u8 n | name ).
 * gamedig HEAD reads a 4-byte score here, which is wrong for VC:MP.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { countedList, prefixedString } from '../../grammar/fields.ts';
import { vcmpRequestHeader, vcmpResponseHeader, vcmpNaming } from './header.ts';

export const vcmpClientsRequest = defineLayout({
  ...vcmpNaming,
  message: 'clients',
  direction: 'request',
  title: 'Client list',
  fields: vcmpRequestHeader('c'),
});

export const vcmpClientsResponse = defineLayout({
  ...vcmpNaming,
  message: 'clients',
  direction: 'response',
  title: 'Client list',
  fields: [
    ...vcmpResponseHeader('c'),
    countedList(
      'clients',
      { type: 'u16le', abbrev: 'vcmp.clients.count', label: 'Client count' },
      {
        abbrev: 'vcmp.client',
        label: 'Client',
        summary: '{name}',
        fields: [prefixedString('name', 'u8', { abbrev: 'vcmp.client.name', label: 'Name', doc: 'Nickname' })],
      },
      { tolerateShort: true },
    ),
  ],
});
