/**
 * `-z expert[,LEVEL][,FILTER]`: the expert items counted, byte for byte what tshark with our Lua
 * plugin prints, on the committed captures that raise items (malformed messages, short lists, a
 * flag byte above 1, unknown opcodes) and on those that raise none; its levels, filter, JSON and
 * usage errors. Where we know more than tshark (a Minecraft reply whose request was not seen,
 * which the plugin leaves undissected), the difference is that item alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTraffic } from '../../../bench/traffic.ts';
import { requireTshark, tsharkFilterFrames, tsharkWithPlugin } from '../../codec/test/helpers/tshark.ts';
import { root, runSync as run } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

requireTshark();

const fixtures = `${root}packages/dissect/test/fixtures/`;
const tshark = tsharkWithPlugin('expert');
afterAll(() => tshark.dispose());

/** tshark's `-q -z …` output with our plugin (a cut capture exits 2 after its statistics). */
const theirs = (file: string, z: string): string => {
  const r = tsharkSync(['-X', `lua_script:${tshark.plugin}`, '-q', '-z', z, '-r', file], { encoding: 'utf8', env: tshark.env });
  expect([0, 2], r.stderr).toContain(r.status);
  return r.stdout;
};

describe('-z expert: the expert items, as tshark counts them', () => {
  it.each([
    // Items: cut messages (Error/Malformed) of two protocols, unknown opcodes, a name cut by the snapshot length.
    'captures/lo-snap60.pcap',
    'captures/unknown-lo.pcap',
    'captures/veth-frag.snap200.pcap',
    // None: every message whole.
    'expert/rcon-escape-lo.pcap',
  ])('%s: what tshark with our plugin prints', (name) => {
    const file = fixtures + name;
    const ours = run('dissect', '-q', '-z', 'expert', file);
    expect(ours.status, ours.stderr).toBe(name.includes('.cut.') ? 1 : 0);
    expect(ours.stdout).toBe(theirs(file, 'expert'));
  });

  it('Warnings by the group their code declares; a Minecraft reply without its request is ours alone', () => {
    const file = `${fixtures}expert/expert-lo.pcap`;
    const ours = run('dissect', '-q', '-z', 'expert', file).stdout;
    const notSeen = '           3   Sequence            MCQUERY  Minecraft query reply whose request was not seen';
    expect(ours).toContain(notSeen);
    const lines = ours.split('\n');
    // Without that item (and its three in the count), tshark's.
    const without = lines
      .filter((l) => !l.startsWith(notSeen))
      .join('\n')
      .replace('Warns (6)', 'Warns (3)');
    expect(without).toBe(theirs(file, 'expert'));
    expect(theirs(file, 'expert')).toMatch(/Warns \(3\)\n=+\n.*\n +1 {2}Malformed +SAMP {2}samp\.info\.password: flag byte is 2/);
  });

  it("10 000 frames of the mix: the query protocols' items and counts as tshark's, in its order", () => {
    const file = join(tshark.work, 'mix.pcap');
    const chunks: Uint8Array[] = [];
    for (const chunk of generateTraffic({ frames: 10_000, seed: 7 })) chunks.push(chunk);
    writeFileSync(file, Buffer.concat(chunks));
    /** Each item line of the query protocols, after its section's title (tshark's also has TCP, HTTP, UDP items of its own). */
    const items = (text: string): string[] => {
      let section = '';
      const out: string[] = [];
      for (const line of text.split('\n')) {
        const title = /^(\w+) \(\d+\)$/.exec(line);
        if (title) section = title[1]!;
        else if (/^ +\d+ +\S+ +(SAMP|VCMP|MCQUERY) {2}/.test(line)) out.push(`${section}: ${line}`);
      }
      return out;
    };
    const ours = items(run('dissect', '-q', '-z', 'expert', file).stdout);
    expect(ours).toEqual(items(theirs(file, 'expert')));
    expect(ours.length).toBeGreaterThan(10);
    expect(ours.some((l) => l.startsWith('Warns: '))).toBe(true);
    expect(ours.some((l) => l.startsWith('Errors: '))).toBe(true);
  });

  it.each([
    ['expert,error', 'captures/lo-snap60.pcap'],
    ['expert,warn,samp', 'expert/expert-lo.pcap'],
    ['expert,note,frame.number > 4', 'captures/unknown-lo.pcap'],
  ])('-z %s (%s): the level and filter as tshark takes them', (z, name) => {
    const file = fixtures + name;
    const ours = run('dissect', '-q', '-z', z, file);
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toBe(theirs(file, z));
  });

  it('in JSON, expertStats; in the page, a table; a level it does not know is a filter, as tshark reads it', () => {
    const file = `${fixtures}captures/lo-snap60.pcap`;
    const doc = JSON.parse(run('dissect', '-q', '-F', 'json', '-z', 'expert', file).stdout) as { expertStats: unknown };
    expect(doc.expertStats).toEqual({
      level: 'comment',
      filter: '',
      items: [
        {
          level: 'error',
          group: 'Malformed',
          protocol: 'SAMP',
          summary: 'samp.info.hostname.len: requested 4 bytes, but only 2 bytes available at offset 16',
          count: 1,
        },
        {
          level: 'error',
          group: 'Malformed',
          protocol: 'MCQUERY',
          summary: 'mcquery.basic.motd: no NUL terminator in the 13 bytes available at offset 5',
          count: 1,
        },
      ],
    });
    const schema = JSON.parse(readFileSync(`${root}packages/dissect/schema/packet.schema.json`, 'utf8'));
    const ajv = new Ajv2020({ allErrors: true });
    ajv.addSchema(schema);
    const validate = ajv.compile({ $ref: schema.$id });
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const last = JSON.parse(run('dissect', '-q', '-F', 'ndjson', '-z', 'expert', file).stdout.trim().split('\n').at(-1)!);
    expect(validate(last), JSON.stringify(validate.errors)).toBe(true);
    const page = run('dissect', '-F', 'html', '-z', 'expert', file).stdout;
    expect(page).toContain('<caption>Expert items: 2</caption>');
    // `-z expert,oops` is a filter that does not compile: a usage error naming it.
    const bad = run('dissect', '-q', '-z', 'expert,oops ==', file);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^gamequery: -z expert,/);
  });
});

describe("tshark's expert fields: -Y _ws.expert, _ws.malformed, an item's own abbreviation", () => {
  const notSeen = 'Minecraft query reply whose request was not seen';
  const FIELDS = [
    '_ws.expert',
    '_ws.expert.message',
    '_ws.expert.severity',
    '_ws.expert.group',
    '_ws.malformed',
    'samp.expert.flag_byte',
    'samp.expert.short_list',
    'samp.expert.trailing_bytes',
    'mcquery.expert.trailing_bytes',
  ];
  const FILTERS = [
    '_ws.expert',
    '!_ws.expert',
    '_ws.malformed',
    '_ws.expert.severity == error',
    '_ws.expert.severity == "Warning"',
    '_ws.expert.severity >= warning',
    '_ws.expert.group == malformed',
    '_ws.expert.group == "Sequence"',
    '_ws.expert.message contains "entries"',
    'samp.expert.flag_byte || samp.expert.short_list',
    'samp && !_ws.expert',
  ];

  it.each(['expert/expert-lo.pcap', 'captures/lo-snap60.pcap', 'captures/unknown-lo.pcap'])(
    '%s: -T fields writes what tshark with our plugin writes, and -Y passes its frames',
    (name) => {
      const file = fixtures + name;
      const e = ['frame.number', ...FIELDS].flatMap((f) => ['-e', f]);
      const ours = run('dissect', file, '-T', 'fields', ...e);
      expect(ours.status, ours.stderr).toBe(0);
      const t = tsharkSync(['-X', `lua_script:${tshark.plugin}`, '-r', file, '-T', 'fields', ...e], {
        encoding: 'utf8',
        env: tshark.env,
      });
      expect(t.status, t.stderr).toBe(0);
      const rows = ours.stdout.split('\n');
      const theirRows = t.stdout.split('\n');
      // Where we read a Minecraft reply tshark leaves undissected, our row has that item and tshark's none; else the same.
      const ourOwn = rows.flatMap((r, i) => (r.includes(notSeen) ? [i] : []));
      expect(rows.filter((_, i) => !ourOwn.includes(i))).toEqual(theirRows.filter((_, i) => !ourOwn.includes(i)));
      for (const i of ourOwn) expect(theirRows[i]).toBe(`${i + 1}${'\t'.repeat(FIELDS.length)}`);
      expect(ourOwn.length).toBe(name.startsWith('expert/') ? 3 : 0);
      // The filters, on tshark's frames from one run (a tap each); ours on each, less those Minecraft replies.
      const frames = tsharkFilterFrames(['-X', `lua_script:${tshark.plugin}`, '-r', file], FILTERS, tshark.env);
      const mine = new Set(ourOwn.map((i) => String(i + 1)));
      // Not a comparison of empty lists: on the capture of warnings most filters pass some frames and not all.
      const some = FILTERS.filter((f) => frames.get(f)!.length > 0 && frames.get(f)!.length < rows.length - 1);
      if (name.startsWith('expert/')) expect(some.length).toBeGreaterThanOrEqual(7);
      for (const filter of FILTERS) {
        const passed = run('dissect', file, '-Y', filter, '-T', 'fields', '-e', 'frame.number').stdout.split('\n').filter(Boolean);
        expect(
          passed.filter((n) => !mine.has(n)),
          filter,
        ).toEqual(
          frames
            .get(filter)!
            .map(String)
            .filter((n) => !mine.has(n)),
        );
      }
    },
  );

  it('names severities and groups as tshark does; another word is an error that lists them', () => {
    const file = `${fixtures}expert/expert-lo.pcap`;
    const numbers = (filter: string): string => run('dissect', file, '-Y', filter, '-T', 'fields', '-e', 'frame.number').stdout;
    expect(numbers('_ws.expert.severity == 0x600000')).toBe(numbers('_ws.expert.severity == WARNING'));
    expect(numbers('_ws.expert.group == 0x07000000')).toBe('2\n4\n6\n');
    const bad = run('dissect', file, '-Y', '_ws.expert.severity == warn');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      '_ws.expert.severity is a number or one of its names (comment, chat, note, warning, error); warn is not one',
    );
  });
});
