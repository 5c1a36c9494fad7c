/**
 * `gamequery dissect -V`: the Frame item and the link, IP and UDP subtrees before the game's,
 * and every frame without a query message listed with its layers, checked line by line
 * against tshark -V run on the same capture.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { root, runSync as run } from './cli.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;

/** Text of -V output, by frame number: each frame's lines. */
function byFrame(text: string): Map<number, string[]> {
  const frames = new Map<number, string[]>();
  let lines: string[] | undefined;
  for (const line of text.split('\n')) {
    const head = /^Frame (\d+):/.exec(line);
    if (head) frames.set(Number(head[1]), (lines = []));
    lines?.push(line);
  }
  return frames;
}

/**
 * tshark's line as we write it: no interface on the Frame line (the capture reader does
 * not keep interface names), and a link address without the vendor or multicast name
 * tshark's name resolution puts before it (`IPv6mcast_16 (33:33:00:00:00:16)`).
 */
const plain = (line: string): string => line.replace(/ on interface .*$/, '').replace(/\S+ \(([0-9a-f]{2}(?::[0-9a-f]{2}){5})\)/g, '$1');

describe('dissect -V: the layers under the game', () => {
  it.each([
    'veth-frag.pcap',
    'veth-frag.rawip.pcap',
    'any-sll.pcap',
    'any-sll2.pcap',
    'lo-v4.rawip4.pcap',
    'lo-v6.rawip6.pcap',
    'lo-snap60.pcap',
    'lo.pcapng',
  ])('%s: every line above the game tree is one of tshark -V for that frame, in its order', (name) => {
    const file = captures + name;
    const ours = byFrame(run('dissect', file, '-V').stdout);
    const tshark = spawnSync('tshark', ['-r', file, '-V', '-o', 'ip.defragment:TRUE', '-o', 'ipv6.defragment:TRUE'], { encoding: 'utf8' });
    expect(tshark.status, tshark.stderr).toBe(0);
    const theirs = byFrame(tshark.stdout);
    // Every frame, as tshark lists them.
    expect([...ours.keys()]).toEqual([...theirs.keys()]);
    let compared = 0;
    for (const [frame, lines] of ours) {
      const expected = theirs.get(frame)!.map(plain);
      let at = 0;
      for (const line of lines) {
        // The game's tree is ours (checked against the Wireshark plugin elsewhere); tshark, without it, has Data there.
        if (/^(SA:MP|VC:MP|Minecraft)/.test(line) || line === '') break;
        // Without our plugin tshark ends the chain with data where we name the protocol; the fragment list is ours (tshark adds their sizes).
        const want = line.replace(/:(samp|mcquery|vcmp)\]$/, ':data]');
        if (/^\s*\[\d+ IPv[46] Fragments/.test(line)) continue;
        const found = expected.indexOf(want, at);
        expect(found, `frame ${frame}: ${JSON.stringify(line)} not in tshark's order`).toBeGreaterThanOrEqual(0);
        at = found + 1;
        compared++;
      }
      // The four layers' titles are there: Frame, the link (unless raw IPv4/IPv6), IP, UDP or what the frame carries.
      expect(
        lines.some((l) => /^(Internet Protocol Version [46])/.test(l)),
        `frame ${frame}`,
      ).toBe(true);
    }
    expect(compared).toBeGreaterThan(ours.size * 10);
  });

  it('a frame without a query message ends with its Data item, as tshark shows it', () => {
    const ours = byFrame(run('dissect', `${captures}veth-frag.pcap`, '-V').stdout);
    const tshark = byFrame(spawnSync('tshark', ['-r', `${captures}veth-frag.pcap`, '-V'], { encoding: 'utf8' }).stdout);
    // Frame 10: the first IPv4 fragment of the players reply.
    const data = ours.get(10)!.filter((l) => l.startsWith('Data') || l.startsWith('    Data:'));
    expect(data).toEqual(tshark.get(10)!.filter((l) => l.startsWith('Data') || l.startsWith('    Data:')));
    expect(data[0]).toBe('Data (1480 bytes)');
  });

  it('the summary lines list every frame: other UDP, ICMPv6, fragments, with tshark columns', () => {
    const lines = run('dissect', `${captures}veth-frag.pcap`).stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(30);
    expect(lines[1]).toMatch(/^ {4}2 +0\.000013 fe80::f40b:bcff:fec6:a3 → ff02::2 +ICMPv6 +70 Router Solicitation$/);
    expect(lines[9]).toMatch(
      /^ {3}10 +1\.543561 +10\.231\.0\.2 → 10\.231\.0\.1 +IPv4 +1514 Fragmented IP protocol \(proto=UDP 17, off=0, ID=8af6\)$/,
    );
    expect(lines[24]).toMatch(/IPv6 +1510 IPv6 fragment \(off=1448 more=y ident=0x0ba2afeb nxt=17\)$/);
    const dns = run('dissect', `${captures}dns-lo.pcap`).stdout.trimEnd().split('\n');
    expect(dns[0]).toMatch(/127\.0\.0\.1:47053 → 127\.0\.0\.1:53 +UDP +29 47053 → 53 Len=29$/);
    // JSON keeps its shape: query packets only, the rest counted.
    const json = JSON.parse(run('dissect', `${captures}dns-lo.pcap`, '-F', 'json').stdout) as {
      packets: unknown[];
      stats: { nonGame: number };
    };
    expect(json.packets).toEqual([]);
    expect(json.stats.nonGame).toBe(4);
  });
});
