/**
 * SA:MP `r` — server rules (docs/protocols/samp.md).
 *
 * Response: header, u16 LE rule count N, then N × ( u8 k | name | u8 v | value ).
 * open.mp sends them sorted by name (an ordered map); stock rules are lagcomp,
 * mapname, version, weather, weburl, worldtime; open.mp adds allowed_clients, artwork.
 */
import { defineLayout } from '../../grammar/layout.ts';
import { countedList, prefixedString } from '../../grammar/fields.ts';
import { sampHeader, sampNaming } from './header.ts';

export const rulesRequest = defineLayout({
  ...sampNaming,
  message: 'rules',
  direction: 'request',
  title: 'Rules',
  fields: sampHeader('r'),
});

export const rulesResponse = defineLayout({
  ...sampNaming,
  message: 'rules',
  direction: 'response',
  title: 'Rules',
  fields: [
    ...sampHeader('r'),
    countedList(
      'rules',
      { type: 'u16le', abbrev: 'samp.rules.count', label: 'Rule count' },
      {
        abbrev: 'samp.rule',
        label: 'Rule',
        summary: '{name} = {value}',
        fields: [
          prefixedString('name', 'u8', { abbrev: 'samp.rule.name', label: 'Name', doc: 'Rule name' }),
          prefixedString('value', 'u8', { abbrev: 'samp.rule.value', label: 'Value', doc: 'Rule value' }),
        ],
      },
      { tolerateShort: true },
    ),
  ],
});
