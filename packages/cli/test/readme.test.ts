/**
 * The README's commands as a newcomer runs them: through `pnpm -s` (pnpm's own banner would
 * land in a redirected file), with output that parses.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { root } from './cli.ts';

const readme = readFileSync(`${root}README.md`, 'utf8');
const pnpm = (args: readonly string[]) => spawnSync('pnpm', args, { cwd: root, encoding: 'utf8' });

describe('the README', () => {
  it('runs gamequery through pnpm -s everywhere', () => {
    const runs = readme.split('\n').filter((l) => /\bpnpm\b.*\bgamequery\b/.test(l) && !/`pnpm -s`/.test(l));
    expect(runs.length).toBeGreaterThan(10);
    expect(runs.filter((l) => !/pnpm -s gamequery/.test(l))).toEqual([]);
  });

  it('gives clean output when redirected: JSON that parses, an HTML page that starts as one', () => {
    const capture = 'packages/dissect/test/fixtures/captures/veth-frag.pcap';
    const json = pnpm(['-s', 'gamequery', 'dissect', capture, '-F', 'json']);
    expect(json.status, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { packets: unknown[] }).packets).toHaveLength(20);
    const html = pnpm(['-s', 'gamequery', 'dissect', capture, '-F', 'html']);
    expect(html.stdout.startsWith('<!doctype html>')).toBe(true);
    // Without -s, pnpm writes its banner first: what the README must not show.
    expect(pnpm(['gamequery', '--version']).stdout).not.toBe(pnpm(['-s', 'gamequery', '--version']).stdout);
  });
});
