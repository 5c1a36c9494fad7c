/**
 * The commands of the README and of docs/ as a newcomer runs them: through `pnpm -s` (pnpm's own
 * banner would land in a redirected file), with output that parses.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { root } from './cli.ts';

/** README.md and every page of docs/, by path from the root. */
const pages = [
  'README.md',
  ...readdirSync(`${root}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const lines = pages.flatMap((page) =>
  readFileSync(`${root}${page}`, 'utf8')
    .split('\n')
    .map((line) => ({ page, line })),
);
const pnpm = (args: readonly string[]) => spawnSync('pnpm', args, { cwd: root, encoding: 'utf8' });

describe('the README and docs/', () => {
  it('run gamequery through pnpm -s everywhere', () => {
    const runs = lines.filter(({ line }) => /\bpnpm\b.*\bgamequery\b/.test(line) && !/`pnpm -s`/.test(line));
    expect(runs.length).toBeGreaterThan(10);
    expect(runs.filter(({ line }) => !/pnpm -s gamequery/.test(line))).toEqual([]);
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
