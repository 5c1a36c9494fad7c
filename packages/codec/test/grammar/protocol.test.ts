/**
 * A declaration's names (grammar/protocol.ts, naming.ts): one name, its aliases, one title and
 * its short form, each said once and read by whatever shows the protocol; and what
 * `defineProtocol` refuses, so that no copy of a name or a field can disagree with it.
 */
import { describe, expect, it } from 'vitest';
import { builtInProtocols, layouts, mcqueryProtocol } from '@gamequery/codec';
import { defineProtocol, type ProtocolSpec } from '@gamequery/codec/define';
import { exportWireshark } from '@gamequery/codec/export';
import { shortTitleOf, titleOf } from '@gamequery/codec/internal';
import { tinyqMessages, tinyqProtocol } from '../fixtures/protocols/tinyq/protocol.ts';

/** TinyQ's declaration, changed by `change` (a name of its own, so that nothing registered under `tinyq` moves). */
const tinyqAs = (change: Partial<ProtocolSpec<string>>): ProtocolSpec<string> => ({
  name: 'tinyq',
  title: 'TinyQ Query Protocol',
  shortTitle: 'TinyQ',
  defaultPort: 4999,
  endian: 'le',
  messages: tinyqMessages,
  recognize: tinyqProtocol.recognize,
  ...change,
});

describe('a protocol declaration names it once', () => {
  it('has one name, its aliases, a title and the short title its layouts show', () => {
    expect(builtInProtocols.map((p) => [p.name, p.aliases, p.title, p.shortTitle])).toEqual([
      ['samp', [], 'SA:MP Query Protocol', 'SA:MP'],
      ['vcmp', [], 'VC:MP Query Protocol', 'VC:MP'],
      ['mcquery', ['minecraft', 'mc', 'gs4'], 'Minecraft Query Protocol (GameSpy4)', 'Minecraft query'],
    ]);
    for (const l of layouts) expect(l.protocolName, l.id).toBe(shortTitleOf(l.protocol));
    for (const p of [...builtInProtocols, tinyqProtocol]) expect([titleOf(p.name), shortTitleOf(p.name)]).toEqual([p.title, p.shortTitle]);
  });

  it('gives the Wireshark plugin the title its tree shows, and the short title its columns do', () => {
    const lua = exportWireshark();
    for (const p of builtInProtocols)
      expect(lua).toContain(
        `name = "${p.name}",\n      description = "${p.title}",\n      display = "${p.shortTitle}",\n      short = "${p.shortTitle}",`,
      );
  });

  it('refuses a layout that shows another short title', () => {
    expect(() => defineProtocol(tinyqAs({ shortTitle: 'TQ' }))).toThrow('protocol tinyq: layout tinyq.status.request shows TinyQ, not TQ');
    // Without a short title, the title is it: then the layouts must show the title.
    expect(() => defineProtocol(tinyqAs({ shortTitle: undefined }))).toThrow('shows TinyQ, not TinyQ Query Protocol');
  });

  it('refuses statistics facts that name a field or a layout it does not have', () => {
    expect(() => defineProtocol(tinyqAs({ stated: { players: ['tinyq.status.players'], hostname: ['tinyq.status.name'] } }))).not.toThrow();
    expect(() => defineProtocol(tinyqAs({ stated: { players: ['tinyq.status.player_count'] } }))).toThrow(
      'protocol tinyq: stated field tinyq.status.player_count is in none of its layouts',
    );
    expect(() =>
      defineProtocol(tinyqAs({ stated: { byKey: { 'tinyq.full.response': { list: 'kv', players: 'n', hostname: 'h' } } } })),
    ).toThrow('protocol tinyq: stated layout tinyq.full.response is not one of its layouts');
    expect(mcqueryProtocol.stated?.byKey).toHaveProperty(['mcquery.full.response']);
  });
});
