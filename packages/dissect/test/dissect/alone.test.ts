/**
 * `links: false` (DissectOptions): a caller that reads no links or verdicts, and needs only
 * layouts that pairing reads no otherwise (pairing/alone.ts), has a capture file read once.
 * Its `-T fields` lines are the two passes' lines, over every committed capture (fragments,
 * cut frames, pings, RCON, Minecraft, other UDP); where pairing might read a needed layout
 * otherwise (a ping's direction, a Minecraft reply without magic, an RCON reply's secrets),
 * the file is read twice as before. What the caller does not need is counted as recognition
 * alone tells it: a reply without magic cut short by the snapshot length is other UDP then.
 */
import { describe, expect, it } from 'vitest';
import { builtInProtocols } from '@gamequery/codec';
import { BLANK, FieldsLine, captureStart, compileFilter, newStats, type DissectOptions, type DissectedRecord } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { readByPairing, readsAlone } from '../../src/pairing/alone.ts';
import { captureFiles, captures } from './helpers.ts';

const files = [
  ...captureFiles.map((f) => captures + f),
  new URL('../fixtures/mcquery/full-stat-lo.pcap', import.meta.url).pathname,
  new URL('../../../codec/test/export/fixtures/rcon-echo-lo.pcap', import.meta.url).pathname,
];

/** Field lists: read alone (one pass), and read by pairing (two). */
const ALONE = [['samp.info.hostname', 'samp.info.players'], ['vcmp.info.hostname', 'samp.rule.value'], ['samp.client.name']];
const PAIRED = [['samp.ping.nonce'], ['mcquery.basic.motd'], ['samp.rcon.output'], ['samp.info.hostname', 'samp.ompecho.nonce']];

/** A dissection's `-T fields` lines and stats, with `links` as given. */
async function lines(file: string, names: readonly string[], links: boolean | undefined) {
  const line = new FieldsLine(names);
  const options: DissectOptions = { allFrames: true, needs: (l) => line.needs(l), ...(links === undefined ? {} : { links }) };
  const stats = newStats();
  const records: DissectedRecord[] = [];
  for await (const batch of dissectCaptureFile(file, options, stats)) records.push(...batch.packets);
  return { text: records.map((p) => (p === BLANK ? line.blank : line.line(p, captureStart(stats)))), stats };
}

describe('links: false, a file read once where nothing needed reads otherwise by pairing', () => {
  it.each(
    files.flatMap((file) => [...ALONE, ...PAIRED].map((names) => [file.split('/').pop()!, names.join(' -e '), file, names] as const)),
  )('%s, -e %s: the lines of two passes', async (_name, _e, file, names) => {
    const twice = await lines(file, names, undefined);
    const once = await lines(file, names, false);
    expect(once.text).toEqual(twice.text);
    // The frames as counted either way; what pairing counts, only where it ran.
    const { exchanges, unanswered, unmatched, duplicates, game, nonGame, ...frames } = once.stats;
    const { exchanges: e2, unanswered: u2, unmatched: m2, duplicates: d2, game: g2, nonGame: n2, ...frames2 } = twice.stats;
    expect(frames).toEqual(frames2);
    expect(game + nonGame).toBe(g2 + n2);
    // A Minecraft reply cut short by the snapshot length (frame 8 of lo-snap60) is one only in its conversation: alone, other UDP.
    expect(game).toBe(file.endsWith('lo-snap60.pcap') && once.stats.exchanges === 0 ? g2 - 1 : g2);
    const alone = ALONE.includes(names as string[]);
    expect([exchanges, unanswered, unmatched, duplicates]).toEqual(alone ? [0, 0, 0, 0] : [e2, u2, m2, d2]);
  });

  it('is taken only with links: false, a needs, no display filter and no Decode As', () => {
    const needs = (l: string | undefined): boolean => new FieldsLine(['samp.info.hostname']).needs(l);
    expect(readsAlone({ links: false, needs })).toBe(true);
    expect(readsAlone({ needs })).toBe(false);
    expect(readsAlone({ links: true, needs })).toBe(false);
    expect(readsAlone({ links: false })).toBe(false);
    expect(readsAlone({ links: false, needs, filter: compileFilter('samp.info.players > 0') })).toBe(false);
    expect(readsAlone({ links: false, needs, decodeAs: { protocol: 'samp', ports: [7777] } })).toBe(false);
    for (const names of PAIRED)
      expect(readsAlone({ links: false, needs: (l) => new FieldsLine(names).needs(l) }), names.join()).toBe(false);
  });

  it('names the layouts pairing may read otherwise: symmetric, without magic, with secrets', () => {
    const named = builtInProtocols.flatMap((p) => p.layouts.filter((l) => readByPairing(p, l)).map((l) => l.id)).sort();
    expect(named).toEqual(
      [
        'mcquery.basic.response',
        'mcquery.full.response',
        'mcquery.handshake.response',
        'samp.ompecho.request',
        'samp.ompecho.response',
        'samp.ping.request',
        'samp.ping.response',
        'samp.rcon.request',
        'samp.rcon.response',
      ].sort(),
    );
  });
});
