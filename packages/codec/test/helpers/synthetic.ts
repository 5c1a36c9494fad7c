/**
 * Layouts that put every kind of field where the real layouts do not, for the tests of
 * what is compiled from a declaration (the JSON emitter, the measurer).
 */
import {
  bool,
  bytes,
  constant,
  countedList,
  cstring,
  decimalCstring,
  f32be,
  f32le,
  f64le,
  fixedString,
  group,
  i16be,
  i16le,
  i32be,
  ipv4,
  magic,
  prefixedString,
  terminatedList,
  u16be,
  u64be,
  u64le,
  u8,
} from '../../src/grammar/fields.ts';
import { defineLayout } from '../../src/grammar/layout.ts';
import type { QueryLayout } from '@gamequery/codec';

type AnyLayout = QueryLayout;

// Every kind of field in the places the real layouts do not put them: a list first in its
// array, a group of plain fields after a variable-length one, a summary naming a flag,
// bytes and a name that is not declared, constants inside an entry, an empty group, a
// layout summary naming text that other text precedes.
export const synthetic: AnyLayout = defineLayout({
  protocol: 'samp',
  message: 'synthetic',
  direction: 'response',
  title: 'Every kind of field',
  // A summary of text after other text (read but not decoded by a summary's reader), a flag in a group, an address.
  info: '"{note}" {on} {delta} {addr}',
  fields: [
    terminatedList(
      'tags',
      { abbrev: 'samp.synthetic.tags_end', label: 'End of tags' },
      {
        abbrev: 'samp.synthetic.tag',
        label: 'Tag',
        fields: [cstring('tag', { abbrev: 'samp.synthetic.tag', label: 'Tag' })],
      },
      { flat: true },
    ),
    cstring('name', { abbrev: 'samp.synthetic.name', label: 'Name' }),
    group({ abbrev: 'samp.synthetic.flags', label: 'Flags' }, [
      bool('on', { abbrev: 'samp.synthetic.on', label: 'On' }),
      u16be('mask', { abbrev: 'samp.synthetic.mask', label: 'Mask', base: 'hex' }),
      u8('kind', { abbrev: 'samp.synthetic.kind', label: 'Kind', base: 'char', values: { 0x41: 'A "quoted" \\ kind' } }),
    ]),
    prefixedString('note', 'u8', { abbrev: 'samp.synthetic.note', label: 'Note' }),
    fixedString('code', 4, { abbrev: 'samp.synthetic.code', label: 'Code' }),
    i32be('delta', { abbrev: 'samp.synthetic.delta', label: 'Delta' }),
    bytes('raw', 3, { abbrev: 'samp.synthetic.raw', label: 'Raw' }),
    ipv4('addr', { abbrev: 'samp.synthetic.addr', label: 'Address' }),
    countedList(
      'items',
      { type: 'u8', abbrev: 'samp.synthetic.count', label: 'Count' },
      {
        abbrev: 'samp.synthetic.item',
        label: 'Item',
        summary: '#{id} {on} {raw} {missing} "{name}"',
        fields: [
          magic([0xab], { abbrev: 'samp.synthetic.item.magic', label: 'Item magic' }),
          u8('id', { abbrev: 'samp.synthetic.item.id', label: 'ID' }),
          bool('on', { abbrev: 'samp.synthetic.item.on', label: 'On' }),
          bytes('raw', 2, { abbrev: 'samp.synthetic.item.raw', label: 'Raw' }),
          constant('u8', 7, { abbrev: 'samp.synthetic.item.seven', label: 'Seven' }),
          cstring('name', { abbrev: 'samp.synthetic.item.name', label: 'Name' }),
        ],
      },
    ),
    group({ abbrev: 'samp.synthetic.tail', label: 'Tail' }, [
      decimalCstring('total', 'i32', { abbrev: 'samp.synthetic.total', label: 'Total' }),
      terminatedList(
        'pairs',
        { abbrev: 'samp.synthetic.pairs_end', label: 'End of pairs' },
        {
          abbrev: 'samp.synthetic.pair',
          label: 'Pair',
          summary: '{key}={value}',
          fields: [
            cstring('key', { abbrev: 'samp.synthetic.key', label: 'Key' }),
            decimalCstring('value', 'u32', { abbrev: 'samp.synthetic.value', label: 'Value' }),
          ],
        },
      ),
      group({ abbrev: 'samp.synthetic.empty', label: 'Empty' }, []),
    ]),
  ],
});
// Secrets of every shape, and what decodes with a warning: a whole secret, one redacted
// where a pattern matches (an empty capture group, a group that takes no part), both at
// once, a secret decimal number, a summary naming a secret, and a list shorter than its
// count with flags in it.
export const secretive: AnyLayout = defineLayout({
  protocol: 'samp',
  message: 'secretive',
  direction: 'request',
  title: 'Secrets and warnings',
  fields: [
    magic('SX', { abbrev: 'samp.secretive.magic', label: 'Magic' }),
    prefixedString('password', 'u16le', { abbrev: 'samp.secretive.password', label: 'Password', secret: true }),
    cstring('note', { abbrev: 'samp.secretive.note', label: 'Note', redact: /^.(.*)$/s }),
    fixedString('code', 6, { abbrev: 'samp.secretive.code', label: 'Code', secret: true, redact: /^(?:k(.+)|q)/s }),
    { ...decimalCstring('pin', 'u32', { abbrev: 'samp.secretive.pin', label: 'PIN' }), secret: true },
    bool('flag', { abbrev: 'samp.secretive.flag', label: 'Flag' }),
    countedList(
      'users',
      { type: 'u16le', abbrev: 'samp.secretive.count', label: 'Users' },
      {
        abbrev: 'samp.secretive.user',
        label: 'User',
        summary: '{name}: {key} {admin}',
        fields: [
          cstring('name', { abbrev: 'samp.secretive.user.name', label: 'Name' }),
          prefixedString('key', 'u8', { abbrev: 'samp.secretive.user.key', label: 'Key', secret: true }),
          bool('admin', { abbrev: 'samp.secretive.user.admin', label: 'Admin' }),
        ],
      },
      { tolerateShort: true },
    ),
  ],
});

// Every numeric wire type beyond the 32-bit integers, where the real layouts put numbers: at the
// top, hexadecimal, a constant checked inside a group, in list entries whose summary names them,
// and in the summary of the layout.
export const numeric: AnyLayout = defineLayout({
  protocol: 'samp',
  message: 'numeric',
  direction: 'response',
  title: 'Every number type',
  info: '{small} {big} {id} {ratio} {precise}',
  fields: [
    magic('NUM', { abbrev: 'samp.numeric.magic', label: 'Magic' }),
    i16le('small', { abbrev: 'samp.numeric.small', label: 'Small' }),
    i16be('mask', { abbrev: 'samp.numeric.mask', label: 'Mask' }),
    u64le('big', { abbrev: 'samp.numeric.big', label: 'Big' }),
    u64be('id', { abbrev: 'samp.numeric.id', label: 'ID', base: 'hex' }),
    f32le('ratio', { abbrev: 'samp.numeric.ratio', label: 'Ratio' }),
    f32be('ratioBe', { abbrev: 'samp.numeric.ratio_be', label: 'Ratio (BE)' }),
    f64le('precise', { abbrev: 'samp.numeric.precise', label: 'Precise' }),
    group({ abbrev: 'samp.numeric.block', label: 'Block' }, [
      constant('i16be', -2, { abbrev: 'samp.numeric.block.marker', label: 'Marker' }),
      f64le('weight', { abbrev: 'samp.numeric.block.weight', label: 'Weight' }),
    ]),
    countedList(
      'samples',
      { type: 'u16be', abbrev: 'samp.numeric.count', label: 'Samples' },
      {
        abbrev: 'samp.numeric.sample',
        label: 'Sample',
        summary: '{at}: {level} {tick} {delta}',
        fields: [
          u64be('tick', { abbrev: 'samp.numeric.sample.tick', label: 'Tick' }),
          f32le('level', { abbrev: 'samp.numeric.sample.level', label: 'Level' }),
          i16be('delta', { abbrev: 'samp.numeric.sample.delta', label: 'Delta' }),
          cstring('at', { abbrev: 'samp.numeric.sample.at', label: 'At' }),
        ],
      },
    ),
  ],
});
