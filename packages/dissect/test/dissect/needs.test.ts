/**
 * `needs` (DissectOptions): a frame read as a layout the caller does not need comes out as
 * `BLANK`, counted as its record would be; and a display filter that only some layouts can pass
 * (`DisplayFilter.layouts`) drops the other frames untested, with the records and counts of
 * testing them all. With `-T fields` naming codec fields alone
 * (`FieldsLine.needs`), every line written, and every count, is what the records give:
 * over every committed capture (IP fragments reassembled, RCON, Minecraft, other UDP and
 * other protocols among them), through both the two-pass file reader and the one-pass
 * stream, with fields of one message, of two protocols and of none read by any frame.
 */
import { describe, expect, it } from 'vitest';
import {
  BLANK,
  FieldsLine,
  captureStart,
  compileFilter,
  dissectHexDump,
  isFrameRecord,
  packetLine,
  type DisplayFilter,
  type DissectOptions,
  type DissectStats,
  type DissectedRecord,
  newStats,
} from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { readFileSync, readdirSync } from 'node:fs';
import { captureFiles, captures, dissectFile, hexFixtures } from './helpers.ts';

const FIELDS: readonly (readonly string[])[] = [
  ['samp.info.hostname', 'samp.info.players'],
  ['samp.rcon.output', 'mcquery.basic.motd', 'samp.client.name'],
  ['vcmp.info.hostname'],
];

/** The `-T fields` lines of a dissection's records (`BLANK`: the blank line), and its stats. */
async function lines(file: string, names: readonly string[], options: DissectOptions, twoPasses: boolean) {
  const line = new FieldsLine(names);
  const records: DissectedRecord[] = [];
  let stats: DissectStats;
  if (twoPasses) {
    stats = newStats();
    for await (const batch of dissectCaptureFile(file, { ...options, allFrames: true }, stats)) records.push(...batch.packets);
  } else {
    const r = await dissectFile(file, { ...options, allFrames: true });
    records.push(...r.packets);
    stats = r.stats;
  }
  return {
    text: records.map((p) => (p === BLANK ? line.blank : line.line(p, captureStart(stats)))),
    blanks: records.filter((p) => p === BLANK).length,
    stats,
  };
}

const files = [
  ...captureFiles.map((f) => captures + f),
  new URL('../fixtures/mcquery/full-stat-lo.pcap', import.meta.url).pathname,
  // RCON whose replies echo the password: masked where a line shows them, and no secret kept where none can.
  new URL('../../../codec/test/export/fixtures/rcon-echo-lo.pcap', import.meta.url).pathname,
];

describe('needs: the records a caller wants, the rest counted and BLANK', () => {
  it.each(files.flatMap((file) => FIELDS.map((names) => [file.split('/').pop()!, names.join(' -e '), file, names] as const)))(
    '%s, -e %s: the same lines and counts as every record gives',
    async (_name, _e, file, names) => {
      const needs = (layout: string | undefined): boolean => new FieldsLine(names).needs(layout);
      for (const twoPasses of [true, false]) {
        const all = await lines(file, names, {}, twoPasses);
        const some = await lines(file, names, { needs }, twoPasses);
        expect(some.text).toEqual(all.text);
        expect(some.stats).toEqual(all.stats);
        expect(all.blanks).toBe(0);
      }
    },
  );

  it('makes no record of a frame whose layout declares none of the fields, and every other', async () => {
    const file = captures + 'lo-us.pcap';
    const line = new FieldsLine(['samp.info.hostname']);
    const made: string[] = [];
    let blanks = 0;
    for await (const batch of dissectCaptureFile(file, { allFrames: true, needs: (l) => line.needs(l) }))
      for (const p of batch.packets) {
        if (p === BLANK) blanks++;
        else made.push('layout' in p ? p.layout : 'frame');
      }
    // Two SA:MP info replies (over IPv4 and IPv6), and the frames whose facts are not a layout's (none here).
    expect(made).toEqual(['samp.info.response', 'samp.info.response']);
    expect(blanks).toBe(14);
    // The one-pass dissector (a pipe) the same.
    const streamed = await dissectFile(file, { allFrames: true, needs: (l) => line.needs(l) });
    expect(streamed.packets.filter((p) => p !== BLANK).map((p) => ('layout' in p ? p.layout : 'frame'))).toEqual(made);
    expect(streamed.packets.filter((p) => p === BLANK)).toHaveLength(14);
  });

  it('is not applied with a display filter or Decode As, which may read anything', async () => {
    const file = captures + 'lo-us.pcap';
    const needs = (): boolean => false;
    for (const options of [{ filter: compileFilter('frame.number > 0') }, { decodeAs: { protocol: 'samp' as const, ports: [] } }]) {
      const records: DissectedRecord[] = [];
      for await (const batch of dissectCaptureFile(file, { ...options, allFrames: true, needs })) records.push(...batch.packets);
      expect(records.length).toBeGreaterThan(0);
      expect(records.filter((p) => p === BLANK)).toEqual([]);
    }
  });
});

/** Fields of the frame's layers alone, then beside codec fields: every frame the dissector does not need comes out as its frame record. */
const LAYER_FIELDS: readonly (readonly string[])[] = [
  ['frame.number', 'ip.src', 'udp.srcport'],
  [
    'frame.time_relative',
    'frame.time_delta',
    'frame.time_epoch',
    'frame.len',
    'frame.cap_len',
    'ip.dst',
    'ip.addr',
    'ip.ttl',
    'ip.len',
    'ip.proto',
    'ipv6.src',
    'ipv6.dst',
    'ipv6.addr',
    'ipv6.hlim',
    'ipv6.plen',
    'udp.dstport',
    'udp.port',
    'udp.length',
  ],
  ['frame.number', 'samp.info.hostname', 'ip.src', 'mcquery.basic.motd', 'samp.rcon.output'],
];

/**
 * `-T fields` of `names` with `unneeded: 'layers'` and `links: false` (and `filter`, of the layers) against every
 * record made (with the same filter), through two passes and a stream: the same lines, none blank, and the same
 * counts but pairing's and the query packets'.
 */
async function sameAsEveryRecord(file: string, names: readonly string[], filter?: DisplayFilter): Promise<void> {
  const line = new FieldsLine(names);
  const filtered = filter ? { filter } : {};
  const options: DissectOptions = { needs: (layout) => line.needs(layout), unneeded: line.unneeded, links: false, ...filtered };
  for (const twoPasses of [true, false]) {
    const all = await lines(file, names, filtered, twoPasses);
    const some = await lines(file, names, options, twoPasses);
    expect(some.text).toEqual(all.text);
    expect(some.blanks).toBe(0);
    // Read once, unpaired (but where an RCON reply's secrets need its request: pairing/alone.ts); with no layout
    // needed, no message is read either, and no query packet counted.
    const { exchanges, unanswered, unmatched, duplicates, game, nonGame, ...counts } = some.stats;
    const { exchanges: e, unanswered: u, unmatched: m, duplicates: d, game: allGame, nonGame: allNon, ...allCounts } = all.stats;
    expect(counts).toEqual(allCounts);
    const once = !names.includes('samp.rcon.output');
    expect([exchanges, unanswered, unmatched, duplicates]).toEqual(once ? [0, 0, 0, 0] : [e, u, m, d]);
    expect([game, nonGame]).toEqual(line.layersOnly ? [0, 0] : [allGame, allNon]);
  }
}

describe("unneeded: 'layers': a frame's own layers as its frame record, no message read", () => {
  it.each(files.flatMap((file) => LAYER_FIELDS.map((names) => [file.split('/').pop()!, names.join(' -e '), file, names] as const)))(
    '%s, -e %s: the same lines as every record gives',
    async (_name, _e, file, names) => {
      const line = new FieldsLine(names);
      expect(line.linkless).toBe(true);
      await sameAsEveryRecord(file, names);
    },
  );

  it.each(
    files.flatMap((file) =>
      LAYER_FIELDS.flatMap((names) =>
        ['udp.port == 7777 || ipv6.src', 'frame.number > 4 && !(ip.dst == 10.231.0.2)'].map(
          (text) => [file.split('/').pop()!, names.join(' -e '), text, file, names] as const,
        ),
      ),
    ),
  )(
    '%s, -e %s -Y %s: a filter of the layers tests the frame records, the same lines as every record gives',
    async (_name, _e, text, file, names) => {
      const filter = compileFilter(text);
      expect(filter.layers).toBe(true);
      await sameAsEveryRecord(file, names, filter);
    },
  );

  it.each(readdirSync(hexFixtures).filter((f) => f.endsWith('.txt')))(
    'hex dump %s: a bare payload has no frame to list it by, its record made and its lines as every record gives',
    (name) => {
      const text = readFileSync(hexFixtures + name, 'utf8');
      for (const names of LAYER_FIELDS) {
        const line = new FieldsLine(names);
        const render = (r: ReturnType<typeof dissectHexDump>) =>
          r.packets.map((p) => (p === BLANK ? line.blank : line.line(p, captureStart(r.stats))));
        const all = dissectHexDump(text, { allFrames: true });
        const some = dissectHexDump(text, { allFrames: true, needs: (l) => line.needs(l), unneeded: line.unneeded, links: false });
        expect(render(some), names.join()).toEqual(render(all));
      }
    },
  );

  it('reads no message where only layer fields are named, and only the layouts declaring a codec field beside them', async () => {
    const file = captures + 'lo-us.pcap';
    for (const [names, made] of [
      [['frame.number', 'udp.port'], []],
      [
        ['frame.number', 'samp.info.hostname'],
        ['samp.info.response', 'samp.info.response'],
      ],
    ] as const) {
      const line = new FieldsLine(names);
      const kinds: string[] = [];
      for await (const batch of dissectCaptureFile(file, {
        allFrames: true,
        needs: (l) => line.needs(l),
        unneeded: line.unneeded,
        links: false,
      }))
        for (const p of batch.packets) kinds.push(isFrameRecord(p) ? 'frame' : p.layout);
      expect(kinds.filter((k) => k !== 'frame')).toEqual(made);
      // Every one of the sixteen frames has its line, none blank.
      expect(kinds).toHaveLength(16);
    }
  });
});

describe('FieldsLine.needs and blank', () => {
  it('needs a layout that declares a codec field named, and any record once a field is neither a codec nor a layer field', () => {
    const info = new FieldsLine(['samp.info.hostname', 'mcquery.basic.motd']);
    expect(info.needs('samp.info.response')).toBe(true);
    expect(info.needs('mcquery.basic.response')).toBe(true);
    expect(info.needs('samp.info.request')).toBe(false);
    expect(info.needs('samp.clients.response')).toBe(false);
    expect(info.needs(undefined)).toBe(false);
    expect(info.unneeded).toBe('blank');
    for (const other of ['samp', 'samp.response_in', 'samp.time', 'frame.protocols', 'data.len', '_ws.col.Info'])
      for (const layout of ['samp.info.request', undefined]) expect(new FieldsLine(['samp.info.hostname', other]).needs(layout)).toBe(true);
    // A layer field: a frame without the codec fields comes out as its frame record, which holds it.
    for (const layer of ['frame.number', 'ip.src', 'udp.port', 'frame.time_delta']) {
      const line = new FieldsLine(['samp.info.hostname', layer]);
      expect([line.needs('samp.info.response'), line.needs('samp.info.request'), line.needs(undefined)], layer).toEqual([
        true,
        false,
        true,
      ]);
      expect(line.unneeded).toBe('layers');
      expect(line.layersOnly).toBe(false);
      expect(new FieldsLine([layer]).layersOnly).toBe(true);
    }
  });

  it("reads a packet's own message and layers alone (linkless, links: false) where every field is a codec or layer field", () => {
    expect(new FieldsLine(['samp.info.hostname', 'mcquery.basic.motd']).linkless).toBe(true);
    expect(new FieldsLine(['samp.info.hostname', 'frame.number', 'ip.src']).linkless).toBe(true);
    // payloadOnly keeps its first meaning: codec fields alone.
    expect(new FieldsLine(['samp.info.hostname', 'mcquery.basic.motd']).payloadOnly).toBe(true);
    expect(new FieldsLine(['samp.info.hostname', 'frame.number']).payloadOnly).toBe(false);
    for (const other of ['samp', 'samp.response_in', 'samp.time', 'frame.protocols', '_ws.col.Info'])
      expect(new FieldsLine(['samp.info.hostname', other]).linkless, other).toBe(false);
  });

  it('is the separators alone, as a record without the fields writes', () => {
    expect(new FieldsLine(['samp.info.hostname', 'samp.info.players', 'samp.info.gamemode']).blank).toBe('\t\t');
    expect(new FieldsLine(['samp.info.hostname', 'samp.info.players'], { separator: '/s', quote: 'd' }).blank).toBe(' ');
    expect(new FieldsLine(['samp.info.hostname']).blank).toBe('');
  });
});

/** Filters some layouts alone can pass, and some any record may. */
const FILTERS = [
  'samp.info.players > 0',
  'samp.info.hostname contains "a" || mcquery.basic.motd',
  'samp.opcode == 105 && udp.dstport > 0',
  'samp.rcon.output contains "*"',
  'samp.rcon.output contains "changeme"',
  'samp.info.players && vcmp.info.players',
  '!(samp.info.players > 1)',
  'samp.info.players > 0 || ip.src == 127.0.0.1',
];

describe('a display filter that only some layouts can pass', () => {
  it('names them: the layouts declaring a field every passing record must hold', () => {
    const layouts = (text: string): string[] | undefined => {
      const l = compileFilter(text).layouts;
      return l && [...l].sort();
    };
    expect(layouts('samp.info.players > 5')).toEqual(['samp.info.response']);
    expect(layouts('samp.info.hostname contains "x" || vcmp.info.hostname')).toEqual(['samp.info.response', 'vcmp.info.response']);
    expect(layouts('samp.info.players && frame.number > 2')).toEqual(['samp.info.response']);
    expect(layouts('samp.info.players && vcmp.info.players')).toEqual([]);
    expect(layouts('samp.info.players == samp.info.max_players')).toEqual(['samp.info.response']);
    expect(layouts('samp.opcode in {105 114}')).toContain('samp.rcon.request');
    for (const any of ['!samp.info.players', 'samp.info.players || udp.port == 7777', 'samp', 'frame.number > 1', 'samp.time > 0'])
      expect(layouts(any), any).toBeUndefined();
  });

  it('tests only the records of the layouts it can pass', async () => {
    const filter = compileFilter('samp.info.players > 0');
    const tested: string[] = [];
    const counting = {
      ...filter,
      matches: (p: DissectedRecord, start?: Parameters<typeof filter.matches>[1]) => {
        tested.push('layout' in p ? p.layout : 'frame');
        return filter.matches(p, start);
      },
    };
    const stats = newStats();
    for await (const batch of dissectCaptureFile(captures + 'lo-us.pcap', { filter: counting, allFrames: true }, stats)) void batch;
    // Sixteen frames; the two SA:MP info replies (over IPv4 and IPv6) alone are made into records and tested.
    expect(stats.frames).toBe(16);
    expect(tested).toEqual(['samp.info.response', 'samp.info.response']);
    expect(stats.displayed).toBe(2);
  });

  it.each(files.flatMap((file) => FILTERS.map((text) => [file.split('/').pop()!, text, file] as const)))(
    '%s, -Y %s: the same records and counts as testing every record',
    async (_name, text, file) => {
      const filter = compileFilter(text);
      // The same filter, told to test every record.
      const everyRecord = { ...filter, layouts: undefined, matches: filter.matches.bind(filter) };
      for (const allFrames of [false, true]) {
        const run = async (f: typeof filter) => {
          const stats = newStats();
          const out: string[] = [];
          for await (const batch of dissectCaptureFile(file, { filter: f, allFrames }, stats))
            for (const p of batch.packets) out.push(isFrameRecord(p) ? `frame ${p.frame}` : packetLine(p));
          return { out, stats };
        };
        const [fast, slow] = [await run(filter), await run(everyRecord)];
        expect(fast.out).toEqual(slow.out);
        expect(fast.stats).toEqual(slow.stats);
      }
    },
  );
});

/** Filters of the frame's layers alone: a datagram's frame is tested as its frame record first. */
const LAYER_FILTERS = [
  'ip.src == 127.0.0.1',
  'udp.port == 7777',
  'udp.srcport > 40000 && frame.len < 100',
  '!(ip.dst == 10.231.0.2)',
  'ipv6.src',
  'frame.number in {3 5 8 9 12}',
  'frame.time_delta > 0.001 || udp.length > 300',
];

describe('a display filter of the frame layers alone', () => {
  it('says so (layers), and a filter of anything else does not', () => {
    for (const text of LAYER_FILTERS) expect(compileFilter(text).layers, text).toBe(true);
    for (const text of ['samp', 'udp', 'frame.protocols contains "samp"', 'ip.src == 127.0.0.1 && samp.info.players', 'samp.time > 0'])
      expect(compileFilter(text).layers, text).toBe(false);
  });

  it.each(files.flatMap((file) => LAYER_FILTERS.map((text) => [file.split('/').pop()!, text, file] as const)))(
    '%s, -Y %s: the same records and counts as testing every query packet',
    async (_name, text, file) => {
      const filter = compileFilter(text);
      // The same filter, told to test every record as made.
      const everyRecord = { ...filter, layers: false, matches: filter.matches.bind(filter) };
      for (const allFrames of [false, true]) {
        const line = (p: DissectedRecord): string => (isFrameRecord(p) ? `frame ${p.frame}` : packetLine(p));
        const run = async (f: typeof filter) => {
          const stats = newStats();
          const out: string[] = [];
          for await (const batch of dissectCaptureFile(file, { filter: f, allFrames }, stats))
            for (const p of batch.packets) out.push(line(p));
          const streamed = await dissectFile(file, { filter: f, allFrames });
          return { out, stats, streamed: streamed.packets.map(line), streamedStats: streamed.stats };
        };
        const [fast, slow] = [await run(filter), await run(everyRecord)];
        expect(fast.out).toEqual(slow.out);
        expect(fast.stats).toEqual(slow.stats);
        expect(fast.streamed).toEqual(slow.streamed);
        expect(fast.streamedStats).toEqual(slow.streamedStats);
      }
    },
  );
});
