/**
 * open.mp `o` — extra information (PROTOCOLS.md §1.10). SA-MP servers do not answer,
 * so a reply identifies open.mp.
 *
 * Response: header, then four u32 LE-prefixed strings: Discord invite (sent empty when
 * longer than 50), light banner URL, dark banner URL, logo URL (each cut to 160).
 */
import { defineLayout } from '../grammar/layout.ts';
import { prefixedString } from '../grammar/fields.ts';
import { sampHeader } from './header.ts';

export const ompRequest = defineLayout({
  protocol: 'samp', message: 'omp', direction: 'request', title: 'open.mp extra information',
  fields: sampHeader('o'),
});

export const ompResponse = defineLayout({
  protocol: 'samp', message: 'omp', direction: 'response', title: 'open.mp extra information',
  info: '{discord}',
  fields: [
    ...sampHeader('o'),
    prefixedString('discord', 'u32le', { abbrev: 'samp.omp.discord', label: 'Discord invite' }),
    prefixedString('bannerLight', 'u32le', { abbrev: 'samp.omp.banner_light', label: 'Light banner URL' }),
    prefixedString('bannerDark', 'u32le', { abbrev: 'samp.omp.banner_dark', label: 'Dark banner URL' }),
    prefixedString('logo', 'u32le', { abbrev: 'samp.omp.logo', label: 'Logo URL' }),
  ],
});
