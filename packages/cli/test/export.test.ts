import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layouts } from '@gamequery/codec';
import { exportKaitai, exportWireshark } from '@gamequery/codec/export';

import { runSync as run } from './cli.ts';

const work = mkdtempSync(join(tmpdir(), 'gamequery-export-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('gamequery export', () => {
  it('prints the Wireshark plugin, or writes it with -o', () => {
    const printed = run('export', 'wireshark');
    expect(printed.status).toBe(0);
    expect(printed.stdout).toBe(exportWireshark());
    const file = join(work, 'gamequery.lua');
    expect(run('export', 'wireshark', '-o', file).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(exportWireshark());
  });

  it('writes one .ksy per layout into the -o directory, or prints them as one YAML stream', () => {
    const dir = join(work, 'ksy');
    expect(run('export', 'kaitai', '-o', dir).status).toBe(0);
    const written = readdirSync(dir).sort();
    expect(written).toEqual(layouts.map((l) => `${l.id.replace(/\./g, '_')}.ksy`).sort());
    for (const [name, text] of exportKaitai()) expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
    const printed = run('export', 'kaitai');
    expect(printed.stdout.match(/^--- # \w+\.ksy$/gm)).toHaveLength(layouts.length);
  });
});
