/**
 * Charset auto-detection on a real capture (fixtures/charset/charset-lo.pcap: tcpdump on lo while
 * the emulator served a SA-MP 0.3.7 server in windows-1251, one in windows-1252 and an open.mp
 * server in UTF-8, and `gamequery query samp` asked each; scripts/make-query-captures.sh).
 */
import { describe, expect, it } from 'vitest';
import { nodeJson, type FieldNode } from '@gamequery/codec';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import type { PacketRecord } from '@gamequery/dissect';
import type { PacketOptions } from './helpers.ts';

const file = new URL('../fixtures/charset/charset-lo.pcap', import.meta.url).pathname;

async function packets(options: PacketOptions = {}): Promise<PacketRecord[]> {
  const out: PacketRecord[] = [];
  for await (const batch of dissectCaptureFile(file, options)) out.push(...batch.packets);
  return out;
}

const strings = (nodes: readonly FieldNode[]): FieldNode[] =>
  nodes.flatMap((n) => [
    ...(typeof n.value === 'string' && n.abbrev !== 'samp.magic' && n.abbrev !== 'samp.server_ip' ? [n] : []),
    ...strings(n.children ?? []),
  ]);

/** abbrev = value [charset] of every string the servers sent (replies only), in frame order. */
async function shown(options: PacketOptions = {}): Promise<string[]> {
  return (await packets(options))
    .filter((p) => p.direction === 'response')
    .flatMap((p) => {
      // The fast path's JSON is what the CLI prints; the tree must agree with it.
      const tree = JSON.stringify(p.fields.map((n) => nodeJson(n, false)));
      if (p.fieldsJson !== undefined) expect(p.fieldsJson).toBe(tree);
      return strings(p.fields)
        .filter((n) => /[^\x20-\x7e]/.test(String(n.value)) || n.charset)
        .map((n) => `${n.abbrev} = ${String(n.value)}${n.charset ? ` [${n.charset}]` : ''}`);
    });
}

describe('charset auto on a capture of three servers', () => {
  it('shows Cyrillic, Latin and UTF-8 names right with no option, saying what it chose', async () => {
    expect(await shown()).toEqual([
      'samp.info.hostname = Русский сервер | Москва RP [windows-1251]',
      'samp.info.gamemode = Ролевая игра [windows-1251]',
      'samp.info.language = Русский [windows-1251]',
      'samp.rule.value = Сан-Андреас [windows-1251]',
      'samp.info.hostname = Straßenrennen Köln – Größter Server [windows-1252]',
      'samp.info.hostname = Київ RP | Łódź – Ελλάδα [utf8]',
      'samp.info.gamemode = Рольова гра [utf8]',
      'samp.info.language = Українська [utf8]',
      'samp.omp.logo = https://example.com/лого.png [utf8]',
      // A lone "Я" (df) would read as windows-1252 "ß", a lone "Ü" either way: their replies decide.
      'samp.player.name = Вася [windows-1251]',
      'samp.player.name = Я [windows-1251]',
      'samp.player.name = Jürgen [windows-1252]',
      'samp.player.name = José [windows-1252]',
      'samp.player.name = Ü [windows-1252]',
      'samp.client.name = Zażółć [utf8]',
      'samp.client.name = Їжак [utf8]',
    ]);
  });

  it('lets --charset win: windows-1252 everywhere, nothing detected', async () => {
    const lines = await shown({ charset: 'windows-1252' });
    expect(lines).toContain('samp.info.hostname = Ðóññêèé ñåðâåð | Ìîñêâà RP');
    expect(lines.some((l) => l.includes('['))).toBe(false);
  });
});
