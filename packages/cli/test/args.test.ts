/**
 * Arguments as a new user types them: typos are usage errors (exit 2) naming the nearest names,
 * one set of protocol names, `-c N`, `decode` of every dump `dissect` reads, and no raw control
 * bytes in human-readable output. Real tool output (packages/dissect/test/fixtures/hex/README.md).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliArgs, root, runSync as run } from './cli.ts';
import { builtInProtocols } from '@gamequery/codec';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
const hex = `${root}packages/dissect/test/fixtures/hex/`;

const usage = (r: ReturnType<typeof run>, says: RegExp): void => {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(says);
};

describe('typos are usage errors, exit 2, with the nearest names', () => {
  it('an unknown -e field', () => {
    usage(
      run('dissect', `${captures}lo-us.pcap`, '-e', 'samp.info.hostnam'),
      /unknown field 'samp\.info\.hostnam' \(did you mean samp\.info\.hostname, samp\.info\.hostname\.len, vcmp\.info\.hostname\?\)/,
    );
    usage(run('dissect', `${captures}lo-us.pcap`, '-e', 'samp.bogus'), /unknown field 'samp\.bogus'.*gamequery fields lists them all/);
  });

  it('an unknown protocol in dissect, decode, fields and query', () => {
    usage(
      run('dissect', `${captures}lo-us.pcap`, '--protocol', 'minecrft', '--port', '1'),
      /unknown protocol 'minecrft': use samp, vcmp, mcquery \(did you mean minecraft\?\)/,
    );
    usage(run('decode', '--protocol', 'sam', '00'), /unknown protocol 'sam'.*did you mean samp/);
    usage(run('fields', '--protocol', 'gs5'), /unknown protocol 'gs5'.*did you mean gs4/);
    usage(run('query', 'minecrafr', '127.0.0.1'), /unknown protocol 'minecrafr'/);
    usage(run('ping', 'minecraft', '127.0.0.1'), /this command takes samp, vcmp/);
  });

  it('--port that is no port, an unknown format, -c 0', () => {
    usage(
      run('dissect', `${captures}lo-us.pcap`, '--protocol', 'mc', '--port', 'abc'),
      /'abc' is not a UDP port: expected a whole number in 1\.\.65535/,
    );
    usage(run('dissect', `${captures}lo-us.pcap`, '--protocol', 'mc', '--port', '70000'), /'70000' is not a UDP port/);
    usage(run('dissect', `${captures}lo-us.pcap`, '-F', 'yaml'), /argument 'yaml' is invalid\. Allowed choices are text, json, ndjson/);
    usage(run('dissect', `${captures}lo-us.pcap`, '-c', '0'), /expected a whole number in 1\.\./);
  });
});

describe('one set of protocol names', () => {
  it('fields lists the same Minecraft fields as minecraft, mcquery, mc and gs4', () => {
    const lists = ['minecraft', 'mcquery', 'mc', 'gs4'].map((p) => run('fields', '--protocol', p));
    expect(lists[0]!.status).toBe(0);
    expect(lists[0]!.stdout).toContain('\tmcquery.full.splitnum\t');
    for (const l of lists) expect(l.stdout).toBe(lists[0]!.stdout);
  });

  it("names each protocol as its declaration does: its name, title and aliases, in every command's help", () => {
    const declared = builtInProtocols.map((p) => `${p.name} (${p.title}${p.aliases.length ? `; also ${p.aliases.join(', ')}` : ''})`);
    expect(declared.at(-1)).toBe('mcquery (Minecraft Query Protocol (GameSpy4); also minecraft, mc, gs4)');
    const flat = (text: string): string => text.replace(/\s+/g, ' ');
    expect(flat(run('--help').stdout)).toContain(`Protocols, in every command: ${declared.join(', ')}.`);
    for (const command of ['decode', 'fields', 'dissect', 'query'])
      expect(flat(run(command, '--help').stdout)).toContain(declared.join(', '));
    expect(flat(run('ping', '--help').stdout)).toContain(`${declared[0]} or ${declared[1]}`);
    // Display filters take the aliases as the protocol's name.
    const mcquery = run('dissect', `${captures}lo-us.pcap`, '-Y', 'mcquery', '-T', 'fields', '-e', 'frame.number').stdout;
    expect(mcquery).not.toBe('');
    for (const alias of ['minecraft', 'mc', 'gs4'])
      expect(run('dissect', `${captures}lo-us.pcap`, '-Y', alias, '-T', 'fields', '-e', 'frame.number').stdout).toBe(mcquery);
  });

  it('tells a caller who passed a reply without magic the --protocol by its one name', () => {
    // A Minecraft handshake reply cut after its session id: no shape names it, its protocol must be named.
    const r = run('decode', '0900000001');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/pass --protocol mcquery --direction response/);
  });
});

describe('dissect -c and -V', () => {
  it('-c 3 writes three packets', () => {
    const r = run('dissect', `${captures}lo-us.pcap`, '-F', 'ndjson', '-c', '3');
    expect(r.status).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).frame),
    ).toEqual([1, 2, 3]);
  });

  it('-r FILE reads the file as naming it does, as tshark -r, -n and -2 as well; both, or -a duration without -i, are usage errors', () => {
    const file = `${captures}lo.pcapng`;
    const named = run('dissect', file, '-F', 'ndjson');
    expect(named.status).toBe(0);
    expect(run('dissect', '-r', file, '-F', 'ndjson').stdout).toBe(named.stdout);
    // -n (tshark's: no name resolution) changes nothing: names are never resolved.
    expect(run('dissect', '-n', '-r', file, '-F', 'ndjson').stdout).toBe(named.stdout);
    // -2 (tshark's two passes) changes nothing: a file is always read in two passes.
    expect(run('dissect', '-2', '-r', file, '-F', 'ndjson').stdout).toBe(named.stdout);
    expect(run('stats', '-r', file).stdout).toBe(run('stats', file).stdout);
    usage(run('dissect', file, '-r', file), /^gamequery: two files to read: .*lo\.pcapng and -r .*lo\.pcapng$/m);
    // tshark: "A maximum capture time was specified, but a capture isn't being done."
    usage(run('dissect', '-r', file, '-a', 'duration:1'), /-a duration: stops a live capture \(-i INTERFACE\)/);
    usage(
      run('dissect', '-r', file, '-a', 'filesize:10'),
      /filesize: ends tshark.s capture files and their ring buffer \(-w -b\), which gamequery does not have/,
    );
    usage(run('dissect', '-r', file, '-a', 'packets:x'), /packets:x: expected a whole number of packets/);
    usage(run('dissect', '-r', file, '-a', 'bogus:1'), /'bogus:1': not a stop condition gamequery has/);
  });

  it('-a packets:N stops after N packets written, as tshark -a packets:N does with -Y (the smaller of it and -c)', () => {
    const file = `${captures}lo.pcapng`;
    const fields = ['-T', 'fields', '-e', 'frame.number'];
    const filter = 'udp.srcport == 47777';
    const ours = (...args: string[]): string[] =>
      run('dissect', '-r', file, '-Y', filter, ...fields, ...args)
        .stdout.split('\n')
        .filter(Boolean);
    const tshark = tsharkSync(['-r', file, '-Y', filter, ...fields, '-a', 'packets:2'], { encoding: 'utf8' });
    expect(tshark.status, tshark.stderr).toBe(0);
    expect(ours('-a', 'packets:2')).toEqual(tshark.stdout.split('\n').filter(Boolean));
    expect(ours('-a', 'packets:2')).toHaveLength(2);
    expect(ours('-a', 'packets:3', '-c', '1')).toHaveLength(1);
    expect(ours('-a', 'packets:1', '-a', 'packets:3')).toHaveLength(1);
  });

  it('-c N with -q and no -Y: statistics of the first N frames, as tshark -c (a reply past them does not answer)', () => {
    const file = `${captures}lo.pcapng`;
    // Frames 1-3: an info exchange, then a ping request whose reply is frame 4.
    const phs = (args: string[], tool = 'gamequery'): string =>
      tool === 'tshark' ? tsharkSync(['-r', file, ...args], { encoding: 'utf8' }).stdout : run('dissect', '-r', file, ...args).stdout;
    expect(phs(['-q', '-z', 'io,phs', '-c', '3'])).toMatch(/^eth +frames:3 bytes:223$/m);
    expect(phs(['-q', '-z', 'io,phs', '-c', '3'], 'tshark')).toMatch(/^eth +frames:3 bytes:223$/m);
    const server = (text: string): string => text.split('\n').find((l) => l.startsWith('127.0.0.1:47777 '))!;
    // Requests 2, answered 1, unanswered 1, replies 1; from a pipe the same.
    expect(server(run('stats', file, '-c', '3').stdout)).toMatch(/^127\.0\.0\.1:47777 +samp +2 +1 +1 +1 +0 +0 +0 +0$/);
    const piped = spawnSync(process.execPath, cliArgs(['stats', '-', '-c', '3']), {
      cwd: root,
      input: readFileSync(file),
      encoding: 'utf8',
    });
    expect(server(piped.stdout)).toBe(server(run('stats', file, '-c', '3').stdout));
    expect(server(run('stats', file).stdout)).toMatch(/^127\.0\.0\.1:47777 +samp +2 +2 +0 +2 /);
  });

  it('-V after the file is the tree, not the version', () => {
    const r = run('dissect', `${captures}lo-us.pcap`, '-V');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Frame 1: /);
    expect(r.stdout).not.toContain('0.1.0');
  });
});

describe('-F json, in every command that prints JSON', () => {
  it('decode and fields: -F json is --format json', () => {
    const hexText = '53414d507f0000011e6169';
    expect(run('decode', '-F', 'json', hexText).stdout).toBe(run('decode', '--format', 'json', hexText).stdout);
    expect(run('fields', '-F', 'json', '--protocol', 'vcmp').stdout).toBe(run('fields', '--format', 'json', '--protocol', 'vcmp').stdout);
  });

  it('query, ping and rcon: -F json is --json; with -F text, two formats asked: exit 2', () => {
    // Port 1 on loopback: refused at once (a connected socket hears the port unreachable).
    const json = (args: string[]) => JSON.parse(run(...args).stdout) as { server: string; error?: { type: string } }[];
    expect(json(['query', 'samp', '127.0.0.1:1', '-F', 'json'])).toEqual(json(['query', 'samp', '127.0.0.1:1', '--json']));
    expect(json(['ping', 'samp', '127.0.0.1:1', '-c', '1', '-F', 'json'])[0]).toMatchObject({ server: '127.0.0.1:1', sent: 1 });
    for (const command of [['query', 'samp'], ['ping', 'samp'], ['rcon']])
      usage(
        run(...command, '127.0.0.1:1', ...(command[0] === 'rcon' ? ['players'] : []), '--json', '-F', 'text'),
        /--json and -F text ask for two formats/,
      );
  });
});

describe('decode reads the dumps dissect reads', () => {
  const expected = JSON.parse(run('decode', '--format', 'json', readFileSync(`${hex}samp-info-response.bin`).toString('hex')).stdout);

  it.each(['xxd', 'xxd-g1', 'hexdump-C', 'hexdump', 'od-x1z', 'od-x2', 'xxd-i', 'xxd-p'])(
    'samp-info-response.%s.txt, as the bare hex of its bytes',
    (tool) => {
      const r = run('decode', '--format', 'json', '--file', `${hex}samp-info-response.${tool}.txt`);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(expected);
    },
  );

  it('a tcpdump -X dump of one frame, down to its UDP payload', () => {
    const second = readFileSync(`${hex}samp-udp.tcpdump-X.txt`, 'utf8').split('\n').slice(4).join('\n');
    const r = run('decode', '--format', 'json', second);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it('a frame tcpdump -i any -XX dumped (Linux cooked), down to its UDP payload', () => {
    const lines = spawnSync('tcpdump', ['-XX', '-c', '2', '-r', `${captures}any-sll2.pcap`], { encoding: 'utf8' }).stdout.split('\n');
    // The second frame's rows: after its header line (the one not indented).
    const reply = lines.slice(lines.findLastIndex((l) => l !== '' && !l.startsWith('\t')) + 1).join('\n');
    const r = run('decode', '--format', 'json', reply);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ layout: 'samp.info.response' });
  });

  // Those whose bytes alone read as another message, or as none: a ping reply is its request's
  // bytes, a Minecraft reply has no magic, an open.mp echo reply repeats its request.
  it.each([
    'samp/ping-response.basic',
    'samp/ompecho-response.basic',
    'samp/rcon-response.truncated-output',
    'mcquery/handshake-response.basic',
    'mcquery/full-response.vanilla',
    'mcquery/full-request.truncated-padding',
  ])('the test vector %s, as the protocol, message and direction it names', (id) => {
    const file = `${root}test-vectors/${id}.json`;
    const vector = JSON.parse(readFileSync(file, 'utf8')) as { layout: string };
    const r = run('decode', '--format', 'json', '--file', file);
    expect(r.status === 0 || r.status === 1, r.stderr).toBe(true);
    expect(JSON.parse(r.stdout).layout).toBe(vector.layout);
  });

  it('bare hex with a stray character: exit 2, naming it and its position', () => {
    usage(run('decode', '53414d50zz7f000001611e69'), /^gamequery: 'z' at position 9 is not hex/);
    usage(run('decode', '53414d50', '7f00\u001b[2J'), /^gamequery: '\\x1b' at position 14 is not hex/);
  });

  it('several arguments of bare hex are one datagram, in order (the docs/cli.md example)', () => {
    const r = run('decode', '53414d507f000001611e70', '12345678');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('SA:MP ping request: nonce 0x12345678');
    expect(run('decode', '--format', 'json', '53414d50', '7f000001', '0x61', '0x1e', '70', '12:34:56:78').stdout).toBe(
      run('decode', '--format', 'json', '53414d507f000001611e7012345678').stdout,
    );
  });

  it('a Minecraft reply (no magic) by its shape, as dissect reads it; bytes of no protocol: exit 1, why on stderr', async () => {
    // tcpdump's capture of a real exchange: the handshake reply and the full stat reply.
    const replies: string[] = [];
    for await (const batch of dissectCaptureFile(`${captures}lo-us.pcap`))
      for (const p of batch.packets)
        if (p.protocol === 'mcquery' && p.direction === 'response') replies.push(Buffer.from(p.payload).toString('hex'));
    expect(replies.length).toBeGreaterThanOrEqual(2);
    for (const hex of replies) {
      const r = run('decode', hex);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Minecraft query (handshake|basic|full) response/);
      expect(r.stderr).toMatch(/^gamequery: no signature: read as a Minecraft query \w+ response by its shape/);
      expect(run('decode', '--protocol', 'minecraft', '--direction', 'response', hex).stdout).toBe(r.stdout);
    }
    // A protocol's magic with a type byte no message has: the header it read and the opcode, as dissect shows them (exit 1).
    const unknown = run('decode', '53414d507f000001611e58');
    expect(unknown.status).toBe(1);
    expect(unknown.stdout.split('\n').slice(0, 6)).toEqual([
      'SA:MP: samp.opcode: unknown opcode 0x58 at offset 10',
      '    Magic: SAMP',
      '    Server IP: 127.0.0.1',
      '    Server port: 7777',
      '    Opcode: X (0x58)',
      '    [Malformed Packet: samp.opcode: unknown opcode 0x58 at offset 10]',
    ]);
    const unknownJson = JSON.parse(run('decode', '--format', 'json', '53414d507f000001611e58').stdout) as {
      fields: { abbrev: string }[];
      error: { type: string };
    };
    expect(unknownJson.fields.map((f) => f.abbrev)).toEqual([
      'samp.magic',
      'samp.server_ip',
      'samp.server_port',
      'samp.opcode',
      'samp.malformed',
    ]);
    expect(unknownJson.error.type).toBe('UnknownOpcodeError');
    const none = run('decode', '0a0b0c0d');
    expect(none.status).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe('gamequery: Unrecognized: no SA:MP, VC:MP or Minecraft query signature (starts 0a 0b 0c 0d)\n');
  });

  it('a dump of two packets: exit 2, saying dissect reads them', () => {
    usage(
      run('decode', '--file', `${hex}samp-udp.tshark-x.txt`),
      /2 packets in the dump \(the second at line 6\): decode takes one; gamequery dissect reads them all/,
    );
  });
});

describe('no raw control bytes in human-readable output', () => {
  // The hostname of samp-brackets is "[1,2] ESC[2J {3} [0x41, 0x42]".
  it.each([['-V'], ['-V', '-x'], ['-e', 'samp.info.hostname'], ['-P']])('dissect -F text %s shows ESC as \\x1b', (...flags) => {
    const r = run('dissect', `${hex}samp-brackets.tcpdump-X.txt`, '-F', 'text', ...flags);
    expect(r.status, r.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- no raw control may reach the terminal
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    if (!flags.includes('-x')) expect(r.stdout).toContain('[1,2] \\x1b[2J {3} [0x41, 0x42]');
  });

  it('decode, and a diagnostic that quotes the input', () => {
    const d = run('decode', readFileSync(`${hex}samp-brackets.bin`).toString('hex'));
    expect(d.stdout).toContain('Hostname: [1,2] \\x1b[2J {3} [0x41, 0x42]');
    expect(d.stdout).not.toContain('\u001b');
    const junk = `00000000: 5341 4d50 7f00 0001 611e \u001b[2J  SAMP....a.i\n`;
    const piped = spawnSync(process.execPath, cliArgs(['dissect', '-', '-F', 'text']), { cwd: root, encoding: 'utf8', input: junk });
    expect(piped.stderr).toContain('\\x1b[2J');
    expect(piped.stderr).not.toContain('\u001b');
  });
});
