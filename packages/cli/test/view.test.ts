/**
 * Looking at traffic from the command line: summary lines on a terminal and with -P, the
 * tree with -V, display filters (-Y), per-server statistics (-z stats, `gamequery stats`).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  captureStart,
  compileFilter,
  isFrameRecord,
  newStats,
  packetSummary,
  packetText,
  ServerStats,
  type DissectedRecord,
  type PacketRecord,
} from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { cliArgs, root, runSync as run } from './cli.ts';
import { decimalDifference, tsharkRows } from '../../dissect/test/dissect/helpers.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
const veth = `${captures}veth-frag.pcap`;

/** A capture's records, every frame as text lists them (with `filter`, those it passes), their summary lines and -V text. */
async function dissected(file: string, filter?: string): Promise<{ packets: DissectedRecord[]; lines: string[]; tree: string }> {
  const stats = newStats();
  const packets: DissectedRecord[] = [];
  const lines: string[] = [];
  const trees: string[] = [];
  for await (const b of dissectCaptureFile(file, { allFrames: true, ...(filter ? { filter: compileFilter(filter) } : {}) }, stats)) {
    for (const p of b.packets) {
      packets.push(p);
      lines.push(packetSummary(p, captureStart(stats)));
      trees.push(`${packetText(p, { layers: true }, captureStart(stats))}\n`);
    }
  }
  return { packets, lines, tree: trees.join('\n') };
}

/** The query packets among records. */
const games = (records: readonly DissectedRecord[]): PacketRecord[] => records.filter((p): p is PacketRecord => !isFrameRecord(p));

/** `gamequery ARGS…` run on a terminal (script(1)); its output with the terminal's CR LF as LF. */
function onTerminal(...args: string[]): string {
  const command = [process.execPath, ...cliArgs(args)].map((a) => `'${a}'`).join(' ');
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  expect(r.status).toBe(0);
  return r.stdout.replaceAll('\r\n', '\n');
}

describe('summary lines', () => {
  it('are the default wherever the output goes, as with tshark (a terminal, a pipe, a file); -P says so', async () => {
    const want = `${(await dissected(veth)).lines.join('\n')}\n`;
    expect(onTerminal('dissect', veth)).toBe(want);
    for (const flags of [[], ['-P']]) {
      const r = run('dissect', veth, ...flags);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toBe(want);
    }
    // JSON when asked for.
    expect((JSON.parse(run('dissect', veth, '-F', 'json').stdout) as { packets: unknown[] }).packets).toHaveLength(20);
  }, 60_000);

  it("count time from the capture's first frame, as tshark does, and carry links and round trips", () => {
    const rows = tsharkRows(veth);
    const first = rows.get(1)!['frame.time_epoch']!;
    const all = run('dissect', veth, '-P').stdout.trimEnd().split('\n');
    // Every frame: 20 query packets, 6 ICMPv6, 4 fragments.
    expect(all).toHaveLength(30);
    const lines = all.filter((l) => /SAMP|MCQUERY/.test(l));
    expect(lines).toHaveLength(20);
    for (const line of lines) {
      const [frame, time] = line.trim().split(/\s+/);
      expect(time, line).toBe(decimalDifference(rows.get(Number(frame))!['frame.time_epoch']!, first, 6));
    }
    expect(lines[0]).toBe(
      '    5    1.519795      10.231.0.1:42595 → 10.231.0.2:47777      SAMP       11 SA:MP info request [Response In 6]',
    );
    expect(lines[1]).toContain('SA:MP info response: "gamequery fixture server" 100/200 [Request In 5] [RTT 0.871 ms]');
    expect(lines[10]).toMatch(/^ {3}19 +1\.631537 +\[fd00:47::1\]:35134 → \[fd00:47::2\]:47777 +SAMP +11 SA:MP info request/);
  });

  it('-x puts the hex pane under each line; -V and -F text print the tree, also on a terminal', async () => {
    const x = run('dissect', veth, '-P', '-x', '-Y', 'frame.number == 5').stdout.split('\n');
    expect(x[0]).toBe((await dissected(veth, 'frame.number == 5')).lines[0]);
    // The frame's bytes as tshark -x shows them (its ASCII column one space further right).
    const tshark = tsharkSync(['-r', veth, '-Y', 'frame.number == 5', '-x'], { encoding: 'utf8' }).stdout.trimEnd().split('\n');
    const words = (lines: readonly string[]) => lines.map((l) => l.trim().split(/\s+/));
    expect(words(x.slice(1, 5))).toEqual(words(tshark));
    expect(x.slice(5)).toEqual(['', '']);
    const { tree } = await dissected(veth);
    expect(run('dissect', veth, '-V').stdout).toBe(tree);
    expect(run('dissect', veth, '-F', 'text').stdout).toBe(tree);
    expect(onTerminal('dissect', veth, '-V')).toBe(tree);
  }, 60_000);

  it('of a hex dump of a bare payload: no time, no addresses', () => {
    const r = run('dissect', `${root}packages/dissect/test/fixtures/hex/samp-info-response.xxd.txt`, '-P');
    expect(r.stdout).toMatch(/^ {4}1 {11}- {21}- → - {21}SAMP {7}83 SA:MP info response: /);
  });

  it('-V after a command is its option; before one it is still the version', () => {
    expect(run('-V').stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(run('dissect', veth, '-V').stdout).toMatch(/^Frame 1: 110 bytes on wire /);
  });
});

describe('-Y', () => {
  it('prints only what the filter passes, in every format', async () => {
    const filter = 'samp.info.players >= 100 || (mcquery && ipv6 && mcquery.response_to)';
    const want = games((await dissected(veth, filter)).packets).map((p) => p.frame);
    expect(want).toEqual([6, 20, 28, 30]);
    const json = JSON.parse(run('dissect', veth, '-F', 'json', '-Y', filter).stdout);
    expect(json.packets.map((p: { frame: number }) => p.frame)).toEqual(want);
    expect(json.stats).toMatchObject({ game: 20, displayed: 4 });
    expect(
      run('dissect', veth, '-F', 'ndjson', '-Y', filter)
        .stdout.trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).frame),
    ).toEqual(want);
    expect(
      run('dissect', veth, '-P', '-Y', filter)
        .stdout.trimEnd()
        .split('\n')
        .map((l) => Number(l.trim().split(' ')[0])),
    ).toEqual(want);
  });

  it('a filter that cannot be compiled is a usage error (exit 2): where, why, and the nearest names', () => {
    const r = run('dissect', veth, '-Y', 'samp.info.hostnme contains "x"');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'gamequery: -Y: "samp.info.hostnme" is neither a field nor a protocol name (did you mean samp.info.hostname, vcmp.info.hostname, samp.info.hostname.len?)',
        '    samp.info.hostnme contains "x"',
        '    ^~~~~~~~~~~~~~~~~',
        '',
      ].join('\n'),
    );
    const syntax = run('dissect', veth, '-Y', 'samp &&');
    expect([syntax.status, syntax.stderr.split('\n')[0]]).toEqual([2, 'gamequery: -Y: unexpected end of filter expression']);
  });

  it("an empty filter (-Y '', as a script passes an unset variable) is no filter, as tshark takes it", () => {
    const all = run('dissect', veth);
    for (const empty of ['', '  ']) {
      const r = run('dissect', veth, '-Y', empty);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toBe(all.stdout);
    }
  });
});

describe('statistics', () => {
  it('-z stats prints the table after the packets; -q leaves the packets out; gamequery stats is the same', async () => {
    const stats = new ServerStats();
    for (const p of games((await dissected(veth)).packets)) stats.add(p);
    const r = run('dissect', veth, '-P', '-z', 'stats');
    expect(r.status).toBe(0);
    const [packets, table] = r.stdout.split('\nPer-server statistics\n');
    expect(packets!.trimEnd().split('\n')).toHaveLength(30);
    const lines = table!.trimEnd().split('\n');
    // Blocks none wider than 120 columns: the counts, the bytes, the bytes by message, what the servers say, the requests by message.
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(120);
    expect(lines[0]).toMatch(/^Server +Protocol +Requests +Answered +Unanswered +Replies +Dup +Late +Unmatched +Malformed$/);
    expect(lines[2]).toMatch(/^10\.231\.0\.2:47778 +mcquery +2 +2 +0 +2 +0 +0 +0 +0$/);
    expect(lines[7]).toMatch(/^4 servers +10 +10 +0 +10 +0 +0 +0 +0$/);
    // Bytes each way: the players reply's three fragments are on the wire (113 + 57 + 1514 + 1514 + 495 bytes of frames).
    expect(lines[9]).toMatch(/^Server +Req bytes +Reply bytes +Amp +Req wire +Reply wire +Amp wire$/);
    expect(lines[13]).toMatch(/^10\.231\.0\.2:47777 +37 +3499 +94\.568 +163 +3693 +22\.656$/);
    expect(lines[16]).toMatch(/^all +110 +7126 +64\.782 +630 +7846 +12\.454$/);
    // The same by message over all servers: the players reply is the one a reflector would ask for.
    expect(lines[18]).toMatch(/^Message +Requests +Replies +Req bytes +Reply bytes +Amp +Req wire +Reply wire +Amp wire$/);
    expect(lines[24]).toMatch(/^players +2 +2 +22 +6826 +310\.273 +126 +7130 +56\.587$/);
    expect(lines[26]!.split(/ +/).slice(3)).toEqual(lines[16]!.split(/ +/).slice(1));
    expect(lines[28]).toMatch(/^Server +RTT ms min\/median\/p95\/max +Players +Hostname$/);
    expect(lines[30]).toMatch(/^10\.231\.0\.2:47778 +0\.164\/0\.164\/0\.431\/0\.431 +2 +A Minecraft Server$/);
    expect(lines[35]).toMatch(/^all +0\.135\/0\.431\/0\.871\/0\.871 +20 packets$/);
    expect(lines[37]).toMatch(/^Server +Requests by message$/);
    expect(lines[38]).toMatch(/^10\.231\.0\.2:47778 +basic 1, handshake 1$/);
    expect(lines.at(-1)).toMatch(/^all +basic 2, handshake 2, info 2, ping 2, players 2$/);
    const quiet = run('dissect', veth, '-q', '-z', 'stats', '-F', 'text').stdout;
    expect(quiet).toBe(`Per-server statistics\n${table}`);
    expect(run('stats', veth).stdout).toBe(quiet);
    const json = JSON.parse(run('stats', veth, '-F', 'json').stdout);
    expect(json.packets).toEqual([]);
    expect(json.serverStats).toEqual(JSON.parse(JSON.stringify(stats.report())));
    expect(JSON.parse(run('dissect', veth, '-F', 'json', '-z', 'stats').stdout).packets).toHaveLength(20);
  }, 60_000);

  it('statistics count what -Y passes', () => {
    const json = JSON.parse(run('stats', veth, '-F', 'json', '-Y', 'ip && samp').stdout);
    expect(json.serverStats.totals).toMatchObject({ servers: 1, packets: 6, requests: { info: 1, ping: 1, players: 1 }, replies: 3 });
    expect(run('dissect', veth, '-z', 'bogus').status).toBe(2);
  });
});
