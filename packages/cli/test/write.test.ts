/**
 * `dissect FILE -Y FILTER -w OUT` (and from a pipe): the packets the filter passes written to a
 * pcapng file, as tshark -r FILE -Y FILTER -w OUT writes them: the same frames, link types, bytes,
 * times (exactly) and lengths on the wire, with tshark's filter meaning ours (our Lua plugin
 * loaded) or needing no plugin; and tshark reads ours back as it reads its own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCaptureSync } from '@gamequery/dissect';
import { cliArgs, root, runSync as run } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
let dir: string;
let plugin: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gamequery-write-'));
  plugin = join(dir, 'gamequery.lua');
  writeFileSync(plugin, run('export', 'wireshark').stdout);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The frames of a capture file as our reader reads them: link type, time, length on the wire and bytes. */
function frames(file: string): string[] {
  return [...readCaptureSync(readFileSync(file))].map((item) => {
    if (item.kind === 'error') throw new Error(`${file}: ${item.message}`);
    const t = item.timestamp;
    // The instant, exactly (tshark writes every time in nanoseconds; ours keeps the capture's resolution).
    const ns = t && BigInt(t.seconds) * 1_000_000_000n + (BigInt(t.ticks) * 1_000_000_000n) / BigInt(t.resolution.ticksPerSecond);
    return JSON.stringify([item.linkType, ns?.toString(), item.originalLength, Buffer.from(item.data).toString('hex')]);
  });
}

/** What tshark reads of a capture file: each frame's time, lengths and protocols. */
function tsharkReads(file: string): string {
  const r = spawnSync(
    'tshark',
    ['-r', file, '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'frame.len', '-e', 'frame.cap_len', '-e', 'frame.protocols'],
    {
      encoding: 'utf8',
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('dissect -w OUT: the packets the display filter passes, as tshark -w writes them', () => {
  it.each([
    ['veth-frag.pcap', 'samp || mcquery'],
    ['lo-any.pcapng', 'samp.info.players || mcquery.full.kv'],
    ['two-sections.pcapng', 'frame.len > 60'],
    ['dns-lo.pcap', 'udp && !samp'],
    ['lo-us.pcap', 'samp.response_to'],
  ])('%s -Y %s', (name, filter) => {
    const file = captures + name;
    const ours = join(dir, `ours-${name}.pcapng`);
    const theirs = join(dir, `theirs-${name}.pcapng`);
    const r = run('dissect', file, '-Y', filter, '-w', ours, '-q');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const t = tsharkSync(['-X', `lua_script:${plugin}`, '-r', file, '-Y', filter, '-w', theirs], { encoding: 'utf8' });
    expect(t.status, t.stderr).toBe(0);
    const got = frames(ours);
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(got).toEqual(frames(theirs));
    // tshark reads it: every frame, its time to the capture's resolution, its lengths and layers.
    expect(tsharkReads(ours).split('\n').filter(Boolean)).toHaveLength(got.length);
    // From a pipe (read once): the same file, in capture order.
    const piped = join(dir, `piped-${name}.pcapng`);
    const p = spawnSync(process.execPath, cliArgs(['dissect', '-', '-Y', filter, '-w', piped, '-q']), {
      cwd: root,
      input: readFileSync(file),
      encoding: 'utf8',
    });
    expect(p.status, p.stderr).toBe(0);
    expect(readFileSync(piped)).toEqual(readFileSync(ours));
  });

  it('writes the packets and prints them too (-q for none); a file it cannot make is a usage error', () => {
    const out = join(dir, 'both.pcapng');
    const r = run('dissect', `${captures}lo.pcapng`, '-Y', 'samp', '-w', out);
    expect(r.status, r.stderr).toBe(0);
    const shown = r.stdout.split('\n').filter(Boolean);
    expect(shown.length).toBeGreaterThanOrEqual(4);
    expect(frames(out)).toHaveLength(shown.length);
    const bad = run('dissect', `${captures}lo.pcapng`, '-w', join(dir, 'no-such-dir', 'x.pcapng'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^gamequery: -w .*x\.pcapng: cannot write it \(ENOENT\)$/m);
    // An input that cannot be read leaves no file behind.
    const left = join(dir, 'left.pcapng');
    expect(run('dissect', join(dir, 'no-such.pcap'), '-w', left).status).toBe(2);
    expect(existsSync(left)).toBe(false);
  });

  it("a hex dump's bare payloads have no frame: counted on stderr, none written", () => {
    const out = join(dir, 'hex.pcapng');
    const dump = join(dir, 'payload.txt');
    // A SA:MP info request's UDP payload, as xxd writes it.
    writeFileSync(dump, '00000000: 5341 4d50 7f00 0001 611e 69              SAMP....a.i\n');
    const r = run('dissect', dump, '-w', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/-w .*hex\.pcapng: 1 packets not written: a hex dump of a UDP payload has no frame to write/);
    expect(frames(out)).toEqual([]);
  });
});
