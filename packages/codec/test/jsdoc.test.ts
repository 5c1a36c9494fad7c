// Every public export of the codec and the dissector (each entry of their `exports` maps, values and
// types) carries JSDoc at its declaration; scripts/jsdoc-coverage.mjs does the reading and, run by hand,
// prints the report.
import { describe, expect, it } from 'vitest';
import { entriesOf, publicExports } from '../../../scripts/jsdoc-coverage.mjs';

// Undocumented exports of files that were being edited when the rest were documented (issue 19,
// item 7), as `file name`. This list may only shrink: a name documented since must leave it.
const notYetDocumented = new Set<string>([]);

describe('JSDoc on public exports', () => {
  const rows = publicExports();
  const undocumented = new Set(rows.filter((r) => !r.documented).map((r) => `${r.file} ${r.name}`));

  it('reads every entry of both packages', () => {
    expect(entriesOf('codec').map((e) => e.specifier)).toEqual([
      '@gamequery/codec',
      '@gamequery/codec/define',
      '@gamequery/codec/rx',
      '@gamequery/codec/pairing',
      '@gamequery/codec/node',
      '@gamequery/codec/client',
      '@gamequery/codec/emulator',
      '@gamequery/codec/export',
      '@gamequery/codec/internal',
    ]);
    expect(entriesOf('dissect').map((e) => e.specifier)).toEqual([
      '@gamequery/dissect',
      '@gamequery/dissect/node',
      '@gamequery/dissect/internal',
    ]);
    for (const e of [...entriesOf('codec'), ...entriesOf('dissect')]) expect(rows.some((r) => r.specifier === e.specifier)).toBe(true);
    // A name with JSDoc reads as documented (the allow-listed ones as undocumented: the last test).
    expect(rows.find((r) => r.specifier === '@gamequery/codec' && r.name === 'decodePacket')?.documented).toBe(true);
  });

  it('finds JSDoc on every public export not in the allow-list', () => {
    expect([...undocumented].filter((k) => !notYetDocumented.has(k)).sort()).toEqual([]);
  });

  it('keeps no name in the allow-list that is documented now or no longer exported', () => {
    expect([...notYetDocumented].filter((k) => !undocumented.has(k)).sort()).toEqual([]);
  });
});
