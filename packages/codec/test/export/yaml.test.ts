import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Flow, Raw, toYaml } from '../../src/export/kaitai/yaml.ts';

describe('toYaml', () => {
  it('writes strings plain only where YAML reads them back unchanged', () => {
    const tricky = [
      '',
      'plain text',
      'yes',
      'No',
      'null',
      '~',
      '0.11',
      '-1',
      '+5',
      '.5',
      '0x10',
      'a: b',
      'a #b',
      '#x',
      '- x',
      '[x]',
      '{x}',
      'ends:',
      'ends ',
      ' starts',
      "it's",
      '"quoted"',
      'back\\slash',
      'tab\there',
      'line\nbreak',
      '\u0000nul',
      'é ü €',
      'opcode::rules',
      'num_rules > 0',
      '_.to_i.to_s == _ and _.to_i >= -2147483648',
      '*alias',
      '&anchor',
      '!tag',
      '%directive',
      '@at',
      '`tick`',
      '|',
      '>',
    ];
    const doc = { list: tricky, map: Object.fromEntries(tricky.filter(Boolean).map((s, i) => [s, i])) };
    expect(parse(toYaml(doc))).toEqual(doc);
  });

  it('writes Raw text as is, Flow sequences on one line, and integer map keys from Raw', () => {
    const text = toYaml({
      seq: [{ id: 'magic', contents: new Flow([new Raw('0xfe'), 'player_', 0]) }],
      enums: { op: new Map([[new Raw('0x69'), 'information']]) },
    });
    expect(text).toBe('seq:\n  - id: magic\n    contents: [0xfe, player_, 0]\nenums:\n  op:\n    0x69: information\n');
    expect(parse(text)).toEqual({ seq: [{ id: 'magic', contents: [254, 'player_', 0] }], enums: { op: { 105: 'information' } } });
  });
});
