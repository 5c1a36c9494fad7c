/**
 * The codec's layers (scripts/layers.mjs) and the cycle check, both run by `pnpm lint`: the real
 * sources pass, and each check fails on the kind of import it exists to stop.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { layerOf, sources, violations } from '../scripts/layers.mjs';

const dpdm = new URL('../../../node_modules/.bin/dpdm', import.meta.url).pathname;

describe('the codec layers', () => {
  it('finds every import of src/ pointing an allowed way', () => {
    const files = sources();
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'index.ts',
        'grammar/layout.ts',
        'protocols/samp/info.ts',
        'client/queries.ts',
        'export/wireshark/plugin.ts',
      ]),
    );
    expect(violations(files)).toEqual([]);
  });

  it('names layers by folder, protocols/ and export/ by subfolder, top-level files by name', () => {
    expect(layerOf('protocols/samp/info.ts')).toBe('protocols/samp');
    expect(layerOf('export/wireshark/plugin.ts')).toBe('export/wireshark');
    expect(layerOf('export/index.ts')).toBe('export');
    expect(layerOf('client/queries.ts')).toBe('client');
    expect(layerOf('packet.ts')).toBe('packet.ts');
  });

  it('rejects an import up the layers, sideways between client and emulator, type-only or dynamic alike', () => {
    expect(
      violations({
        'grammar/layout.ts': "import type { QueryClient } from '../client/client.ts';",
        'protocols/samp/info.ts': "const m = import('../mcquery/full.ts');",
        'client/queries.ts': "export { MAX_LISTED_PLAYERS } from '../emulator/samp.ts';",
        'pairing/rules.ts': "import { exportWireshark } from '../export/index.ts';",
      }),
    ).toEqual([
      'grammar/layout.ts -> client/client.ts (grammar may not import client)',
      'protocols/samp/info.ts -> protocols/mcquery/full.ts (protocols/samp may not import protocols/mcquery)',
      'client/queries.ts -> emulator/samp.ts (client may not import emulator)',
      'pairing/rules.ts -> export/index.ts (pairing may not import export)',
    ]);
  });

  it('rejects a file in no layer, and lets packages and the stated exception through', () => {
    expect(violations({ 'query/client.ts': '' })).toEqual([
      'query/client.ts: in no layer (add its layer to packages/codec/scripts/layers.mjs)',
    ]);
    expect(
      violations({
        'protocols/samp/samp6.ts': "import { recognize } from '../../packet.ts';",
        'protocols/samp/rules.ts': "import { recognize } from '../../packet.ts';\nimport { Parser } from 'binary-parser';",
      }),
    ).toEqual(['protocols/samp/rules.ts -> packet.ts (protocols/samp may not import packet.ts)']);
  });
});

describe('the cycle check (dpdm, as pnpm lint:cycles runs it)', () => {
  const run = (files: Record<string, string>) => {
    const dir = mkdtempSync(`${tmpdir()}/gamequery-cycles-`);
    try {
      for (const [name, text] of Object.entries(files)) writeFileSync(`${dir}/${name}`, text);
      return spawnSync(dpdm, ['--no-tree', '--no-warning', '--exit-code', 'circular:1', `${dir}/*.ts`], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('fails on a cycle made of type-only imports, passes once it is broken', () => {
    const cyclic = run({
      'client.ts': "import type { Session } from './queries.ts';\nexport type Client = { s?: Session };\n",
      'queries.ts': "import type { Client } from './client.ts';\nexport type Session = { c?: Client };\n",
    });
    expect(cyclic.status).toBe(1);
    // dpdm names the cycle from either end, whichever file it reached first.
    expect(cyclic.stdout).toMatch(/(queries\.ts -> .*client\.ts|client\.ts -> .*queries\.ts)/);
    const broken = run({
      'session.ts': 'export type Session = { id: number };\n',
      'client.ts': "import type { Session } from './session.ts';\nexport type Client = { s?: Session };\n",
      'queries.ts': "import type { Session } from './session.ts';\nexport type Q = { s?: Session };\n",
    });
    expect(broken.status).toBe(0);
  });
});
