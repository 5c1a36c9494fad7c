/**
 * `gamequery dissect -V`: the Frame item and the link, IP and UDP subtrees before the game's,
 * and every frame without a query message listed with its layers, checked line by line
 * against tshark -V run on the same capture.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePcap } from '../../dissect/test/capture/helpers.ts';
import { root, runSync as run } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

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
    // Cut to 200 bytes: the first IPv4 fragment read on (its UDP header, no bad-length expert), the IPv6 one a fragment.
    'veth-frag.snap200.pcap',
    // Its IPv4 frames cut to 38 bytes: UDP headers cut after the ports (the ports, no length), fragments cut.
    'veth-frag.snap38.pcap',
    // Cut to 30 bytes: IPv4 headers after their source address, IPv6 ones 16 bytes in: what there is of them, as tshark.
    'veth-frag.snap30.pcap',
    'any-sll.pcap',
    'any-sll2.pcap',
    'lo-v4.rawip4.pcap',
    'lo-v6.rawip6.pcap',
    'lo-snap60.pcap',
    'lo.pcapng',
  ])('%s: every line above the game tree is one of tshark -V for that frame, in its order', (name) => {
    const file = captures + name;
    const ours = byFrame(run('dissect', file, '-V').stdout);
    const tshark = tsharkSync(['-r', file, '-V', '-o', 'ip.defragment:TRUE', '-o', 'ipv6.defragment:TRUE'], { encoding: 'utf8' });
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
        // Without our plugin tshark ends the chain with data where we name the protocol.
        const want = line.replace(/:(samp|mcquery|vcmp)\]$/, ':data]');
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
    const tshark = byFrame(tsharkSync(['-r', `${captures}veth-frag.pcap`, '-V'], { encoding: 'utf8' }).stdout);
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

describe('dissect -V: subtrees tshark draws inside the IP layer', () => {
  const file = `${captures}veth-frag.pcap`;
  const ours = byFrame(run('dissect', file, '-V').stdout);
  const tshark = tsharkSync(['-r', file, '-V', '-o', 'ip.defragment:TRUE', '-o', 'ipv6.defragment:TRUE'], { encoding: 'utf8' });
  const theirs = byFrame(tshark.stdout);

  /** A subtree's title line and its items one level under it, from `lines`. */
  const subtree = (lines: readonly string[], title: string): string[] => {
    const at = lines.indexOf(title);
    if (at < 0) return [];
    const depth = title.length - title.trimStart().length + 4;
    const out = [title];
    for (let i = at + 1; i < lines.length && lines[i]!.length - lines[i]!.trimStart().length >= depth; i++) {
      if (lines[i]!.length - lines[i]!.trimStart().length === depth) out.push(lines[i]!);
    }
    return out;
  };

  it('each IPv6 extension header is a subtree of the IPv6 one, with its items as tshark writes them', () => {
    expect(tshark.status, tshark.stderr).toBe(0);
    let fragmentHeaders = 0;
    let hopByHop = 0;
    for (const [frame, lines] of ours) {
      const expected = theirs.get(frame)!.map(plain);
      const fragment = subtree(expected, '    Fragment Header for IPv6');
      // Every item tshark writes under the fragment header, in its order.
      expect(subtree(lines, '    Fragment Header for IPv6'), `frame ${frame}`).toEqual(fragment);
      if (fragment.length) fragmentHeaders++;
      // Under a hop-by-hop header tshark goes on to its options, which are not drawn here: ours are its first items.
      const options = subtree(expected, '    IPv6 Hop-by-Hop Option');
      const drawn = subtree(lines, '    IPv6 Hop-by-Hop Option');
      expect(drawn, `frame ${frame}`).toEqual(options.slice(0, drawn.length));
      expect(drawn.length > 0, `frame ${frame}`).toBe(options.length > 0);
      if (drawn.length) {
        expect(drawn).toHaveLength(4);
        hopByHop++;
      }
    }
    expect(fragmentHeaders).toBe(3);
    expect(hopByHop).toBe(3);
  });

  it('the frame that completes a datagram lists its fragments inside the IP subtree, where tshark does, line for line', () => {
    let listed = 0;
    for (const [frame, lines] of ours) {
      const expected = theirs.get(frame)!.map(plain);
      const at = lines.findIndex((l) => /^ {4}\[\d+ IPv[46] Fragments/.test(l));
      const theirsAt = expected.findIndex((l) => /^ {4}\[\d+ IPv[46] Fragments/.test(l));
      expect(at >= 0, `frame ${frame}`).toBe(theirsAt >= 0);
      if (at < 0) continue;
      // The list with each fragment's size, each fragment's frame and bytes, their count, the datagram's length and bytes.
      expect(lines.slice(at, at + 7)).toEqual(expected.slice(theirsAt, theirsAt + 7));
      expect(lines[at + 6]).toMatch(/^ {8}\[Reassembled IPv[46] data: [0-9a-f]{72}…\]$/);
      // After the same line: the last one of the IPv4 subtree, or the fragment header's last item.
      expect(lines[at - 1]).toBe(expected[theirsAt - 1]);
      // The reassembled datagram's UDP checksum, read from its first fragment's bytes.
      const checksum = (l: readonly string[]) => l.find((x) => /^ {4}Checksum: 0x[0-9a-f]{4} \[unverified\]$/.test(x));
      expect(checksum(lines), `frame ${frame}`).toBeDefined();
      expect(checksum(lines)).toBe(checksum(expected));
      listed++;
    }
    expect(listed).toBe(2);
  });
});

describe('dissect -V: a UDP checksum of zero', () => {
  /** One frame of raw IP: `ip` header bytes then a UDP header with checksum 0 and an SA:MP `i` request. */
  const capture = (linkType: number, ip: Uint8Array): Uint8Array => {
    const payload = Buffer.from('SAMP\x7f\x00\x00\x01\x61\x1ei', 'latin1');
    const udp = Buffer.alloc(8 + payload.length);
    udp.writeUInt16BE(40000, 0);
    udp.writeUInt16BE(7777, 2);
    udp.writeUInt16BE(udp.length, 4);
    payload.copy(udp, 8);
    return writePcap([{ seconds: 1700000000, ticks: 0, data: Buffer.concat([ip, udp]) }], { linkType });
  };
  const v4 = (): Uint8Array => {
    const ip = Buffer.alloc(20);
    ip[0] = 0x45;
    ip.writeUInt16BE(20 + 19, 2);
    ip[8] = 64;
    ip[9] = 17;
    ip.set([127, 0, 0, 1], 12);
    ip.set([127, 0, 0, 1], 16);
    return ip;
  };
  /** IPv6, then a destination options header (one PadN option) before UDP. */
  const v6 = (): Uint8Array => {
    const ip = Buffer.alloc(48);
    ip[0] = 0x60;
    ip.writeUInt16BE(8 + 19, 4);
    ip[6] = 60;
    ip[7] = 64;
    ip[23] = 1;
    ip[39] = 1;
    ip.set([17, 0, 1, 4], 40);
    return ip;
  };

  it.each([
    ['IPv4', 228, v4, 'Checksum: 0x0000 [zero-value ignored]'],
    ['IPv6', 229, v6, 'Checksum: 0x0000 [zero-value illegal]'],
  ] as const)('over %s is shown as tshark shows it', (_, linkType, ip, line) => {
    const dir = mkdtempSync(join(tmpdir(), 'gq-zero-'));
    const file = join(dir, 'zero.pcap');
    writeFileSync(file, capture(linkType, ip()));
    const ours = byFrame(run('dissect', file, '-V').stdout).get(1)!;
    const theirs = byFrame(tsharkSync(['-r', file, '-V'], { encoding: 'utf8' }).stdout).get(1)!;
    expect(ours).toContain(`    ${line}`);
    expect(theirs).toContain(`    ${line}`);
    // The destination options header is drawn as tshark begins it.
    if (linkType === 229) {
      const at = ours.indexOf('    Destination Options for IPv6');
      expect(ours.slice(at, at + 4)).toEqual(theirs.slice(theirs.indexOf('    Destination Options for IPv6')).slice(0, 4));
    }
  });
});

describe('dissect -O: the subtrees of the protocols named, as tshark -O', () => {
  /** A frame's top-level lines (tshark's titles, as `plain` writes them), each with the lines under it. */
  const blocks = (lines: readonly string[]): [string, string[]][] => {
    const out: [string, string[]][] = [];
    for (const line of lines) {
      if (line === '') continue;
      if (!line.startsWith(' ')) out.push([plain(line), []]);
      else out.at(-1)?.[1].push(line);
    }
    return out;
  };
  /** The game's title is ours (`SA:MP Query Protocol, info response`), tshark's without our plugin `Data (N bytes)`. */
  const layer = ([title]: [string, string[]]): boolean => !/^(SA:MP|VC:MP|Minecraft|Data \()/.test(title);

  it.each([
    ['veth-frag.pcap', 'ip,udp'],
    ['any-sll2.pcap', 'sll,frame'],
  ])('%s -O %s: the same titles as tshark, the same protocols drawn, and what is drawn is -V', (name, only) => {
    const file = captures + name;
    const ours = byFrame(run('dissect', file, '-O', only).stdout);
    const whole = byFrame(run('dissect', file, '-V').stdout);
    const tshark = tsharkSync(['-r', file, '-O', only, '-o', 'ip.defragment:TRUE', '-o', 'ipv6.defragment:TRUE'], {
      encoding: 'utf8',
    });
    expect(tshark.status, tshark.stderr).toBe(0);
    const theirs = byFrame(tshark.stdout);
    expect([...ours.keys()]).toEqual([...theirs.keys()]);
    const named = new Set(only.split(','));
    let drawn = 0;
    for (const [frame, lines] of ours) {
      const mine = blocks(lines);
      const want = blocks(theirs.get(frame)!);
      // Every top-level line, in order, and which of them have lines under them: tshark's, but for the game's.
      expect(mine.filter(layer).map(([t, under]) => [t, under.length > 0])).toEqual(
        want.filter(layer).map(([t, under]) => [t, under.length > 0]),
      );
      // A protocol named is drawn whole, as -V draws it; every other is its title alone.
      const full = new Map(blocks(whole.get(frame)!));
      for (const [title, under] of mine) {
        if (under.length) drawn++;
        const protocol = title.startsWith('Frame ') ? 'frame' : undefined;
        if (protocol === 'frame') expect(under.length > 0, `frame ${frame}`).toBe(named.has('frame'));
        expect(under.length === 0 || under.join('\n') === full.get(title)!.join('\n'), `frame ${frame}: ${title}`).toBe(true);
      }
    }
    expect(drawn).toBeGreaterThan(0);
  });

  it('draws the game protocol alone with -O samp, the layers as their titles', () => {
    const file = `${captures}veth-frag.pcap`;
    const ours = byFrame(run('dissect', file, '-O', 'samp').stdout);
    const whole = byFrame(run('dissect', file, '-V').stdout);
    // Frame 12 completes the players reply: its whole tree, under the layers' four titles.
    const twelve = ours.get(12)!;
    expect(twelve.slice(0, 5).map(plain)).toEqual([
      'Frame 12: 495 bytes on wire (3960 bits), 495 bytes captured (3960 bits)',
      'Ethernet II, Src: f6:0b:bc:c6:00:a3, Dst: 2e:f9:ef:a7:59:fb',
      'Internet Protocol Version 4, Src: 10.231.0.2, Dst: 10.231.0.1',
      'User Datagram Protocol, Src Port: 47777, Dst Port: 45130',
      'SA:MP Query Protocol, players response',
    ]);
    const game = whole.get(12)!;
    expect(twelve.slice(4)).toEqual(game.slice(game.indexOf('SA:MP Query Protocol, players response')));
    // A Minecraft frame shows no subtree at all; a fragment its titles and Data's.
    const minecraft = [...ours.values()].filter((lines) => lines.some((l) => l.startsWith('Minecraft Query Protocol')));
    expect(minecraft).toHaveLength(8);
    for (const lines of minecraft) expect(lines.filter((l) => l.startsWith(' '))).toEqual([]);
    expect(ours.get(10)!.filter((l) => l !== '')).toEqual([
      'Frame 10: 1514 bytes on wire (12112 bits), 1514 bytes captured (12112 bits)',
      'Ethernet II, Src: f6:0b:bc:c6:00:a3, Dst: 2e:f9:ef:a7:59:fb',
      'Internet Protocol Version 4, Src: 10.231.0.2, Dst: 10.231.0.1',
      'Data (1480 bytes)',
    ]);
  });

  it('is the text tree only, and names protocols it knows', () => {
    const file = `${captures}veth-frag.pcap`;
    for (const [args, message] of [
      [['-O', 'samp', '-F', 'json'], /-O shapes the text tree \(-V\): it does not apply to -F json/],
      [['-O', 'samp', '-T', 'json'], /does not apply to -T json/],
      [['-O', 'samp', '-e', 'ip.src'], /-O shows whole protocols in the tree; -e picks fields/],
      [['-O', 'samp,dns'], /no protocol "dns": -O takes .*\bip\b.*\bsamp\b/],
      [['-O', ','], /no protocol named/],
    ] as const) {
      const r = run('dissect', file, ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    // With -P each tree follows its summary line; with -x the hex pane follows it, as with -V.
    const both = run('dissect', file, '-O', 'udp', '-P', '-x', '-c', '9');
    expect(both.status).toBe(0);
    expect(both.stdout).toMatch(/^ {4}9 +1\.542832 +10\.231\.0\.1:45130 → 10\.231\.0\.2:47777 +SAMP .*\n(.*\n)*?Frame 9: /m);
    expect(both.stdout).toMatch(/User Datagram Protocol, Src Port: 45130, Dst Port: 47777\n {4}Source Port: 45130\n/);
    expect(both.stdout).toMatch(/\n0000 {2}f6 0b bc c6 00 a3 2e f9/);
    // The hex pane once a packet, after its tree (as tshark -P -V -x): not after the summary line too.
    expect(both.stdout.match(/^0000 {2}/gm)).toHaveLength(9);
    expect(both.stdout).not.toMatch(/SAMP .*\n0000/);
  });
});
