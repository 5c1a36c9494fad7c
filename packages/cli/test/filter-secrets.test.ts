/**
 * `gamequery dissect -Y` sees RCON secrets as the output shows them unless --show-secrets:
 * a filter on a password, on a command or reply that echoes one, or on a protocol's bytes
 * passes no packet for the clear text, in every output form. The capture was made on
 * loopback (packages/dissect/scripts/make-expert-captures.sh, tcpdump): `varlist` echoing
 * changeme, `rcon_password NEWSECRET9` and its echo, `echo hello` with NEWSECRET9.
 */
import { describe, expect, it } from 'vitest';
import { gamequery, root } from './cli.ts';

const CAPTURE = `${root}packages/dissect/test/fixtures/expert/rcon-echo-lo.pcap`;
const SECRETS = ['changeme', 'NEWSECRET9'];

/** The frame numbers of the summary lines (-P) a run printed. */
const framesOf = (stdout: string): number[] =>
  stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => Number(l.trim().split(/\s+/)[0]));

describe('dissect -Y and RCON secrets', () => {
  it('passes no packet for a secret the output hides; the same filters pass them with --show-secrets', async () => {
    const filters = [
      'samp.rcon.password == "NEWSECRET9"',
      'samp.rcon.command contains "NEWSECRET9"',
      'samp.rcon.output contains "changeme"',
      'frame contains "NEWSECRET9"',
      'samp matches "change.e"',
    ];
    const runs = await Promise.all(
      filters.flatMap((f) => [
        gamequery(['dissect', CAPTURE, '-P', '-Y', f]),
        gamequery(['dissect', CAPTURE, '-P', '-Y', f, '--show-secrets']),
      ]),
    );
    filters.forEach((f, i) => {
      const [masked, shown] = [runs[2 * i]!, runs[2 * i + 1]!];
      expect([masked.code, masked.stdout, masked.stderr], f).toEqual([0, '', '']);
      expect(shown.code, f).toBe(0);
      expect(framesOf(shown.stdout).length, f).toBeGreaterThan(0);
    });
    expect(framesOf(runs[1]!.stdout)).toEqual([7]);
    expect(framesOf(runs[7]!.stdout)).toEqual([5, 6, 7]);
  });

  it('passes the masks, in text, JSON and NDJSON, and prints no secret', async () => {
    const filter = 'samp.rcon.output contains "\\"********\\"" || samp.rcon.password == "********" || frame contains "****"';
    const [summary, tree, json, ndjson] = await Promise.all([
      gamequery(['dissect', CAPTURE, '-P', '-Y', filter]),
      gamequery(['dissect', CAPTURE, '-V', '-x', '-Y', filter]),
      gamequery(['dissect', CAPTURE, '-F', 'json', '-Y', filter]),
      gamequery(['dissect', CAPTURE, '-F', 'ndjson', '-Y', 'samp.rcon.output contains "********"']),
    ]);
    expect(framesOf(summary.stdout)).toEqual([1, 3, 5, 6, 7]);
    expect(JSON.parse(json.stdout).packets.map((p: { frame: number }) => p.frame)).toEqual([1, 3, 5, 6, 7]);
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .filter((l) => l.includes('"frame"'))
        .map((l) => JSON.parse(l).frame),
    ).toEqual([3, 6]);
    for (const r of [summary, tree, json, ndjson]) {
      expect(r.code).toBe(0);
      expect(SECRETS.filter((s) => r.stdout.includes(s) || r.stderr.includes(s))).toEqual([]);
    }
  });

  it('says so in --help', async () => {
    const help = await gamequery(['dissect', '--help']);
    expect(help.stdout).toContain('-Y sees RCON passwords as the output shows them');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('let -Y compare them in clear');
  });
});
