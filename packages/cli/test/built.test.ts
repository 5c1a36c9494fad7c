/**
 * The built command (packages/cli/bin: packages/cli/dist bundled, scripts/build.mjs), which is what
 * `gamequery` runs: `pnpm install` builds it and `pnpm gamequery` rebuilds it when a source changed.
 * Built here first when missing or older than its sources, so that `pnpm test` passes on a fresh
 * clone either way.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { build, buildArgs, main, staleness } from '../../../scripts/build.mjs';
import { root } from './cli.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;

/** Runs the built `gamequery ARGS…`. */
const runBuilt = (args: readonly string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [main, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

/** Runs `gamequery ARGS…` from what the bundle is made of: tsc's modules, unbundled. */
const runCompiled = (...args: string[]) =>
  spawnSync(process.execPath, ['packages/cli/dist/main.js', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

/** Every subcommand, in the order `gamequery --help` lists them. */
const commands = ['dissect', 'stats', 'decode', 'fields', 'serve', 'export', 'query', 'rcon', 'ping'];

beforeAll(() => {
  // A type error elsewhere is not this file's concern: tsc writes the JavaScript anyway.
  if (staleness() !== undefined) build();
}, 120_000);

describe('the built gamequery', () => {
  it('exists, built by the install or above', () => {
    expect(existsSync(main)).toBe(true);
  });

  it('is built from sources that type-check (pnpm typecheck): a type error fails `pnpm test`, not only `pnpm build`', () => {
    // The install and the tests' own build write the JavaScript whatever tsc reports, so nothing else here would
    // see a type error; tsc -b says again what it reported when nothing changed since (0.2 s when there is none).
    const tsc = spawnSync(process.execPath, buildArgs, { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);

  it.each(['text', 'ndjson'])('dissects a bundled capture as the modules it is bundled from do (-F %s)', (format) => {
    const args = ['dissect', `${captures}veth-frag.pcap`, '-F', format];
    const source = runCompiled(...args);
    const built = runBuilt(args);
    expect(built.stderr).toBe(source.stderr);
    expect(built.stdout).toBe(source.stdout);
    expect(built.status).toBe(source.status);
    expect(built.stdout.length).toBeGreaterThan(1000);
  });

  it('lists every command in its help, as the modules it is bundled from do', () => {
    const built = runBuilt(['--help']);
    expect(built.status).toBe(0);
    // The names in the Commands section (the help goes on with protocols and exit codes).
    const section = built.stdout.split('\nCommands:\n')[1]!.split('\n\n')[0]!;
    expect(section.match(/^ {2}\w+(?= )/gm)?.map((s) => s.trim())).toEqual([...commands, 'help']);
    expect(built.stdout).toBe(runCompiled('--help').stdout);
  });

  it.each(commands)('prints the help of %s with that command alone loaded as with all of them', (name) => {
    const alone = runBuilt([name, '--help']);
    const all = runBuilt(['help', name]); // `help CMD` loads every command
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(new RegExp(`^Usage: gamequery ${name} `));
    expect(alone.stdout).toBe(all.stdout);
  });

  it('loads only the module graph of the command it runs', () => {
    // rxjs comes in only with the live commands (query, rcon, serve); the dissector takes the
    // pairing core without it. NODE_DEBUG=module names each CommonJS module loaded.
    for (const args of [
      ['--version'],
      ['fields', '--protocol', 'vcmp'],
      ['dissect', 'packages/dissect/test/fixtures/captures/lo-us.pcap', '-F', 'ndjson'],
    ]) {
      const r = runBuilt(args, { NODE_DEBUG: 'module' });
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stderr, args.join(' ')).not.toContain('/rxjs/');
    }
    expect(runBuilt(['--version']).stdout).toBe('0.1.0\n');
  });

  it('suggests a command for a misspelt one, from the full list', () => {
    const r = runBuilt(['dissekt']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("error: unknown command 'dissekt'\n(Did you mean dissect?)");
  });
});
