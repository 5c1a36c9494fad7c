/**
 * `gamequery dissect -T fields -e …` (and `-e` alone), as tshark's `-T fields`: checked
 * against tshark run on the same capture, and its -E settings, -Y and usage errors.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsharkFilterFrames } from '../../codec/test/helpers/tshark.ts';
import { cliArgs, root, runSync as run } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
const SHARED = [
  'frame.number',
  'frame.time_relative',
  'frame.time_epoch',
  'ip.src',
  'ip.dst',
  'ipv6.src',
  'ipv6.dst',
  'udp.srcport',
  'udp.dstport',
  'udp.length',
  'frame.len',
  'frame.cap_len',
  'frame.time_delta',
  'ip.ttl',
  'ip.len',
  'ip.proto',
  'ipv6.hlim',
  'ipv6.plen',
];
const e = (names: readonly string[]): string[] => names.flatMap((n) => ['-e', n]);
const lines = (s: string): string[] => s.split('\n').filter((l) => l !== '');

describe('dissect -T fields', () => {
  it.each([
    'lo-any.pcapng',
    'veth-frag.pcap',
    'veth-frag.rawip.pcap',
    'veth-frag.snap200.pcap',
    'veth-frag.snap38.pcap',
    'veth-frag.snap30.pcap',
    'any-sll2.pcap',
    'lo-snap60.pcap',
    'lo-v6.rawip6.pcap',
    'dns-lo.pcap',
  ])('%s: what tshark -T fields prints for every frame, from the file and from a pipe', (name) => {
    const file = captures + name;
    // One run each of ours and tshark's for the shared fields and frame.protocols (ours also says
    // which frames hold a query message), on three one from a pipe, and on four one each with a filter.
    const ours = run('dissect', file, '-T', 'fields', ...e(SHARED), '-e', 'frame.protocols', '-e', 'samp', '-e', 'mcquery');
    expect(ours.status, ours.stderr).toBe(0);
    const tshark = tsharkSync(['-r', file, '-T', 'fields', ...e(SHARED), '-e', 'frame.protocols'], { encoding: 'utf8' });
    expect(tshark.status, tshark.stderr).toBe(0);
    const columns = (l: string): string[] => l.split('\t');
    const shared = (l: string): string => columns(l).slice(0, SHARED.length).join('\t');
    const rows = lines(ours.stdout);
    const tsharkRows = lines(tshark.stdout);
    const got = rows.map(shared);
    // Every frame, game or not (ICMPv6, fragments, DNS), in tshark's order.
    expect(got).toEqual(tsharkRows.map(shared));
    expect(got.length).toBeGreaterThanOrEqual(4);
    // Read once from a pipe (frames held until their exchange settles, written as they settle): the same values,
    // on three captures (fragments, Linux cooked v2, a snapshot length cutting headers and payloads). The pipe's
    // packets against the file's, every field of their JSON, are pipe-file.test's (a capture of each kind through
    // the command) and the dissector's tests' (every capture, through the library).
    if (['veth-frag.pcap', 'any-sll2.pcap', 'lo-snap60.pcap'].includes(name)) {
      const piped = spawnSync(process.execPath, cliArgs(['dissect', '-', '-T', 'fields', ...e(SHARED)]), {
        cwd: root,
        input: readFileSync(file),
        encoding: 'utf8',
      });
      expect(lines(piped.stdout).sort()).toEqual([...got].sort());
    }
    // frame.protocols: tshark's words, ours naming the query protocol where tshark without our plugin says data (and data for DNS, which we do not dissect).
    rows.forEach((l, i) => {
      const [chain, samp, mcquery] = columns(l).slice(SHARED.length);
      const theirs = columns(tsharkRows[i]!)[SHARED.length]!;
      const game = samp ? 'samp' : mcquery ? 'mcquery' : undefined;
      expect(chain, `frame ${i + 1}`).toBe(game ? theirs.replace(/data$/, game) : theirs.replace(/dns$/, 'data'));
    });
    // And a filter on them passes the frames tshark's passes (on the captures of two link types, IPv6 and cut IPv4).
    if (!['veth-frag.pcap', 'any-sll2.pcap', 'lo-v6.rawip6.pcap', 'veth-frag.snap38.pcap'].includes(name)) return;
    const filter = 'frame.len > 60 && (ip.ttl == 64 || ipv6.hlim == 64) && frame.cap_len <= frame.len';
    const passed = lines(run('dissect', file, '-T', 'fields', '-e', 'frame.number', '-Y', filter).stdout);
    const tsharkPassed = new Set(
      lines(tsharkSync(['-r', file, '-Y', filter, '-T', 'fields', '-e', 'frame.number'], { encoding: 'utf8' }).stdout),
    );
    expect(passed.length).toBeGreaterThan(0);
    expect(passed).toEqual(got.map((l) => l.split('\t')[0]!).filter((n) => tsharkPassed.has(n)));
  });

  it.each(['veth-frag.pcap', 'dns-lo.pcap', 'lo-any.pcapng'])(
    '%s: -Y on the frames without a query message passes what tshark passes',
    (name) => {
      const file = captures + name;
      const numbers = (filter: string): string[] => lines(run('dissect', file, '-Y', filter, '-T', 'fields', '-e', 'frame.number').stdout);
      const filters = ['udp', 'icmpv6', 'ip.proto == 17', 'frame.len > 1000', 'eth || sll', 'ip && !udp'];
      // tshark's frames for every filter, from one run (a tap each).
      const theirs = tsharkFilterFrames(['-r', file], [...filters, 'frame', 'data || dns']);
      const tshark = (filter: string): string[] => theirs.get(filter)!.map(String);
      for (const filter of filters) expect(numbers(filter), filter).toEqual(tshark(filter));
      // What is not a query message: tshark's frames less those we list as samp or mcquery; its data
      // (and DNS, which we do not dissect: data to us) less the same.
      const game = new Set(numbers('samp || mcquery'));
      expect(numbers('!(samp || mcquery)')).toEqual(tshark('frame').filter((n) => !game.has(n)));
      expect(numbers('data')).toEqual(tshark('data || dns').filter((n) => !game.has(n)));
    },
  );

  it.each(['veth-frag.pcap', 'lo-any.pcapng', 'lo.pcapng', '../mcquery/full-stat-lo.pcap'])(
    "%s: the grammars' fields as tshark prints them with our plugin",
    (name) => {
      const file = captures + name;
      const dir = mkdtempSync(join(tmpdir(), 'gamequery-fields-'));
      try {
        const plugin = join(dir, 'gamequery.lua');
        writeFileSync(plugin, run('export', 'wireshark').stdout);
        // Every kind of value: a character opcode, text, numbers, a boolean, bytes, repeated fields, a response time.
        const names = [
          'frame.number',
          'samp',
          'mcquery',
          'udp',
          'ip',
          'ipv6',
          'samp.opcode',
          'samp.magic',
          'samp.info.hostname',
          'samp.info.players',
          'samp.info.password',
          'samp.player.name',
          'samp.player.score',
          'samp.time',
          'mcquery.magic',
          'mcquery.type',
          'mcquery.session_id',
          'mcquery.padding',
          'mcquery.basic.num_players',
          'mcquery.basic.motd',
          'mcquery.full.kv',
          'mcquery.full.player',
          'mcquery.time',
          'frame.protocols',
          // tshark's columns: with our plugin its Protocol and Info columns are the grammars' (SA:MP, the summary).
          '_ws.col.No.',
          '_ws.col.Time',
          '_ws.col.Source',
          '_ws.col.Destination',
          '_ws.col.Protocol',
          '_ws.col.Length',
          '_ws.col.Info',
        ];
        const tshark = spawnSync(
          'tshark',
          ['-X', `lua_script:${plugin}`, '-r', file, '-Y', 'samp || mcquery', '-T', 'fields', ...e(names)],
          {
            encoding: 'utf8',
          },
        );
        expect(tshark.status, tshark.stderr).toBe(0);
        const ours = run('dissect', file, '-Y', 'samp || mcquery', '-T', 'fields', ...e(names));
        expect(lines(tshark.stdout).length).toBeGreaterThanOrEqual(8);
        expect(ours.stdout).toBe(tshark.stdout);
        // The columns of the frames without a query message too, but tshark's own dissectors' words (ICMPv6's
        // addresses, DNS queries), which we do not dissect: fragments, other UDP, cut frames.
        const columns = ['-T', 'fields', ...e(names.filter((n) => n.startsWith('_ws.col.')))];
        const others = '!(samp || mcquery) && !icmpv6 && !dns';
        const theirs = tsharkSync(['-X', `lua_script:${plugin}`, '-r', file, '-Y', others, ...columns], { encoding: 'utf8' });
        expect(theirs.status, theirs.stderr).toBe(0);
        expect(run('dissect', file, '-Y', '!(samp || mcquery) && !icmpv6', ...columns).stdout).toBe(theirs.stdout);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("a secret masked in a line's text is escaped once, as in clear (tshark with our plugin: `\\t`)", () => {
    const file = `${root}packages/codec/test/export/fixtures/rcon-echo-lo.pcap`;
    const line = (...more: string[]): string => run('dissect', file, '-Y', 'frame.number == 3', '-e', 'samp.rcon.output', ...more).stdout;
    expect(line()).toBe('  rcon_password\\t= "********"  (string)\n');
    expect(line('--show-secrets')).toBe('  rcon_password\\t= "Sw0rdfish!"  (string)\n');
  });

  it('-e alone is -T fields; -E sets the header, separator, quotes and occurrences as tshark does', () => {
    const file = `${captures}lo-us.pcap`;
    const plain = run('dissect', file, '-e', 'frame.number', '-e', 'samp.info.hostname', '-c', '2');
    expect(plain.stdout).toBe('1\t\n2\tgamequery fixture server\n');
    const set = run(
      'dissect',
      file,
      '-T',
      'fields',
      '-e',
      'frame.number',
      '-e',
      'udp.srcport',
      '-e',
      'ipv6.src',
      '-E',
      'header=y',
      '-E',
      'separator=,',
      '-E',
      'quote=d',
      '-c',
      '2',
    );
    expect(set.stdout).toBe('frame.number,udp.srcport,ipv6.src\n"1","43811",\n"2","47777",\n');
    const players = run('dissect', `${captures}veth-frag.pcap`, '-e', 'samp.player.name', '-Y', "samp.opcode == 'd'", '-E', 'occurrence=f');
    expect(lines(players.stdout).length).toBeGreaterThan(0);
    expect(lines(players.stdout).every((l) => !l.includes(','))).toBe(true);
    // -Y: only the packets it passes.
    const replies = run('dissect', file, '-e', 'frame.number', '-Y', 'samp.response_to');
    expect(lines(replies.stdout)).toEqual(['2', '4', '10', '12']);
  }, 60_000);

  it('-T json is -F json, -T text the summary lines (the tree with -V)', () => {
    const file = `${captures}lo-us.pcap`;
    expect(run('dissect', file, '-T', 'json').stdout).toBe(run('dissect', file, '-F', 'json').stdout);
    expect(run('dissect', file, '-T', 'text').stdout).toBe(run('dissect', file, '-P').stdout);
    expect(run('dissect', file, '-T', 'text', '-V').stdout).toBe(run('dissect', file, '-F', 'text').stdout);
  });

  it.each([
    [['-T', 'fields'], /-T fields: name the fields with -e/],
    [['-T', 'fields', '-e', 'frame.number', '-F', 'json'], /drop -F/],
    [['-e', 'frame.number', '-E', 'quote=x'], /-E quote=x: expected d \(double\)/],
    [['-e', 'frame.number', '-E', 'bogus=1'], /the settings are header, separator/],
    [['-e', 'ip.srcc'], /unknown field 'ip.srcc'.*ip\.src/],
    [['-T', 'pdml'], /Allowed choices are fields, text, json/],
  ])('%s is a usage error (exit 2)', (args, message) => {
    const r = run('dissect', `${captures}lo-us.pcap`, ...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
