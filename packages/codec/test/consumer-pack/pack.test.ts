/**
 * The packages as a consumer gets them: `pnpm pack` of codec, dissect and cli, installed from
 * the tarballs into a project outside the repository (temp dir; the npm registry only for
 * binary-parser and @types/node, usually already in pnpm's store), then
 *
 *  - run under Node with rxjs not installed: every entry but `@gamequery/codec/rx`, the
 *    consumer of app/main.ts, require() from CommonJS, and the `gamequery` bin;
 *  - installed globally (`npm i -g` of the cli's tarball alone into a temp prefix: the command
 *    is bundled, with no dependency), `gamequery` is a command found on PATH that runs in a
 *    directory outside the repository;
 *  - type-checked with `strict`, `exactOptionalPropertyTypes` and `skipLibCheck: false` under
 *    `moduleResolution` bundler (before rxjs is installed) and node16;
 *  - checked by @arethetypeswrong/cli for the conditions we support (ESM: node16 from ESM and
 *    bundler; the `esm-only` profile leaves out node10 and node16 from CommonJS, which
 *    TypeScript's node16 cannot type as a require() of ESM);
 *  - given rxjs (the codec's optional peer), the rx entry type-checks and pairs datagrams;
 *  - bundled by esbuild for a browser (app/browser.ts, from the installed tarball), it decodes
 *    a SA:MP and a Minecraft reply in headless Chromium under `script-src 'self'`.
 *
 * The consumer's JavaScript for running is its TypeScript with the types stripped (esbuild),
 * so that the runs need not wait for tsc.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { build as bundle, transform } from 'esbuild';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, pruneStale, root, staleness } from '../../../../scripts/build.mjs';

const run = promisify(execFile);
const app = new URL('./app/', import.meta.url).pathname;
const tsc = `${root}node_modules/typescript/bin/tsc`;
const attw = `${root}node_modules/@arethetypeswrong/cli/dist/index.js`;
const names = ['codec', 'dissect', 'cli'] as const;
/** Notes kept outside the repository, which nothing shipped may cite (named in parts, so that this file names neither). */
const outsideNotes = ['PROTOCOLS', 'TRAFFIC'].map((name) => `${name}.md`);

const vector = (path: string) =>
  JSON.parse(readFileSync(`${root}test-vectors/${path}`, 'utf8')) as { hex: string; value: Record<string, unknown> };
const sampRequest = vector('samp/info-request.basic.json');
const sampResponse = vector('samp/info-response.basic.json');
const mcResponse = vector('mcquery/full-response.vanilla.json');

let dir = '';
const tarball = (name: string) => `${dir}/gamequery-${name}-0.1.0.tgz`;
/** Runs a command in a consumer's directory; resolves with its output, rejects with it on a non-zero exit. */
const inDir = (sub: string, file: string, args: readonly string[]) =>
  run(file, args, { cwd: `${dir}/${sub}`, encoding: 'utf8', timeout: 60_000 });
const node = (sub: string, file: string) => inDir(sub, process.execPath, [file]);

/** A consumer tsconfig: strict, exactOptionalPropertyTypes, every declaration file (ours, @types/node) checked. */
function typecheck(sub: string, resolution: 'bundler' | 'node16', files: readonly string[]) {
  const module = resolution === 'bundler' ? 'preserve' : 'node16';
  const compilerOptions = {
    target: 'ES2022',
    lib: ['ES2023'],
    module,
    moduleResolution: resolution,
    types: ['node'],
    noEmit: true,
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    skipDefaultLibCheck: true, // TypeScript's own lib.*.d.ts are not ours to check
  };
  writeFileSync(`${dir}/${sub}/tsconfig.json`, JSON.stringify({ compilerOptions, files }));
  return inDir(sub, process.execPath, [tsc, '-p', 'tsconfig.json']);
}

/** A check started early, to run beside the others; its outcome is read by the test that owns it. */
type Outcome = { stdout: string; stderr: string; error?: unknown };
const started = (promise: Promise<{ stdout: string; stderr: string }>): Promise<Outcome> =>
  promise.then(
    (r) => r,
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? String(error), error }),
  );
const checks: Record<string, Promise<Outcome>> = {};

const packed: Record<string, string[]> = {};
let server: Server | undefined;

/**
 * A consumer in `dir/sub`: the three tarballs (the dissector names the codec by version: an
 * override points it at the tarball too), @types/node, and `extra`.
 */
async function consumer(sub: string, extra: Record<string, string>) {
  cpSync(app, `${dir}/${sub}`, { recursive: true });
  const file = (name: string) => `file:../gamequery-${name}-0.1.0.tgz`;
  writeFileSync(
    `${dir}/${sub}/package.json`,
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: {
        '@gamequery/codec': file('codec'),
        '@gamequery/dissect': file('dissect'),
        '@gamequery/cli': file('cli'),
        '@types/node': '20.19.43',
        ...extra,
      },
      pnpm: { overrides: { '@gamequery/codec': file('codec'), '@gamequery/dissect': file('dissect') } },
    }),
  );
  writeFileSync(
    `${dir}/${sub}/vectors.json`,
    JSON.stringify({ sampRequest: sampRequest.hex, sampResponse: sampResponse.hex, mcResponse: mcResponse.hex }),
  );
  await inDir(sub, 'pnpm', ['install', '--prefer-offline', '--no-frozen-lockfile', '--config.confirmModulesPurge=false']);
  for (const ts of ['main.ts', 'entries.ts', 'rx.ts']) {
    const { code } = await transform(readFileSync(`${app}${ts}`, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
    writeFileSync(`${dir}/${sub}/${ts.replace(/\.ts$/, '.js')}`, code);
  }
}

beforeAll(async () => {
  if (staleness() !== undefined) build();
  pruneStale(); // what tsc -b left of deleted sources is not shipped
  dir = mkdtempSync(`${tmpdir()}/gamequery-consumer-`);
  await Promise.all(names.map((name) => run('pnpm', ['pack', '--pack-destination', dir], { cwd: `${root}packages/${name}` })));
  // As a user installs the command, beside the consumers' installs: npm, global, from its tarball alone (the command is bundled: it needs no other package).
  checks.global = started(
    run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        `${dir}/global`,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        tarball('cli'),
      ],
      { cwd: dir, encoding: 'utf8', timeout: 60_000 },
    ),
  );
  for (const name of names) {
    packed[name] = (await run('tar', ['tzf', tarball(name)], { encoding: 'utf8' })).stdout.split('\n').filter(Boolean);
  }
  // `app` has no rxjs; `app-rx` has it, as the codec's optional peer.
  await Promise.all([consumer('app', {}), consumer('app-rx', { rxjs: '7.8.2' })]);
  checks.bundler = started(typecheck('app', 'bundler', ['main.ts', 'entries.ts', 'browser.ts']));
  checks.node16 = started(typecheck('app-rx', 'node16', ['main.ts', 'entries.ts', 'rx.ts']));
  for (const name of ['codec', 'dissect']) {
    // attw exits non-zero (an error here) on a problem the profile counts; it lists the others all the same.
    checks[`attw ${name}`] = started(inDir('app', process.execPath, [attw, tarball(name), '--profile', 'esm-only', '--format', 'json']));
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(checks));
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed packages in a consumer project', () => {
  it('ship their README, LICENSE, built entries, the schema and the protocol pages, and nothing of deleted sources', () => {
    for (const name of names) {
      const entry = name === 'cli' ? 'package/bin/gamequery.js' : 'package/dist/index.js';
      expect(packed[name], name).toEqual(expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/package.json', entry]));
      for (const path of packed[name]!.filter((p) => /^package\/dist\/.*\.js$/.test(p))) {
        expect(existsSync(`${root}packages/${name}/src/${path.slice('package/dist/'.length, -3)}.ts`), path).toBe(true);
      }
    }
    expect(packed.dissect).toContain('package/schema/packet.schema.json');
    expect(packed.codec).toEqual(
      expect.arrayContaining(['package/docs/protocols/samp.md', 'package/docs/protocols/vcmp.md', 'package/docs/protocols/mcquery.md']),
    );
  });

  it('cite no file they do not ship (the protocol reference is docs/protocols/, in the codec)', () => {
    const citing: string[] = [];
    for (const name of names) {
      const base = realpathSync(`${dir}/app/node_modules/@gamequery/${name}`);
      for (const file of readdirSync(base, { recursive: true, encoding: 'utf8' })) {
        if (!/\.(?:js|ts|md|json)$/.test(file)) continue;
        const text = readFileSync(`${base}/${file}`, 'utf8');
        if (outsideNotes.some((note) => text.includes(note))) citing.push(`${name}/${file}`);
      }
    }
    expect(citing).toEqual([]);
    expect(readFileSync(`${dir}/app/node_modules/@gamequery/codec/dist/protocols/samp/info.js`, 'utf8')).toContain(
      'docs/protocols/samp.md',
    );
  });

  it('installs without rxjs: no package of ours asks for it but the optional peer of the codec', () => {
    expect(readdirSync(`${dir}/app/node_modules/.pnpm`).filter((entry) => entry.startsWith('rxjs@'))).toEqual([]);
    expect(existsSync(`${dir}/app/node_modules/rxjs`)).toBe(false);
  });

  it('loads every entry but the rx one, and the rx one fails for want of rxjs', async () => {
    const counts = JSON.parse((await node('app', 'entries.js')).stdout) as Record<string, number>;
    expect(Object.keys(counts)).toEqual([
      '@gamequery/codec',
      '@gamequery/codec/client',
      '@gamequery/codec/define',
      '@gamequery/codec/emulator',
      '@gamequery/codec/export',
      '@gamequery/codec/internal',
      '@gamequery/codec/node',
      '@gamequery/codec/pairing',
      '@gamequery/dissect',
      '@gamequery/dissect/node',
    ]);
    for (const [entry, count] of Object.entries(counts)) expect(count, entry).toBeGreaterThan(0);
    await expect(node('app', 'rx.js')).rejects.toMatchObject({ stderr: expect.stringContaining("Cannot find package 'rxjs'") });
  });

  it('runs the consumer: decodes, narrows, pairs, dissects, reads the schema', async () => {
    const out = JSON.parse((await node('app', 'main.js')).stdout) as Record<string, unknown>;
    expect(out).toEqual({
      hostname: sampResponse.value.hostname,
      mcHostname: 'A Minecraft Server',
      truncated: { offset: 20, needed: 14 },
      hello: { value: { version: 2, name: 'consumer' }, fields: ['acme.magic', 'acme.version', 'acme.name.len', 'acme.name'] },
      kaitai: ['acme_hello_request.ksy'],
      exchange: { message: 'info', rtt: '250000', responses: 1 },
      dissected: [`SA:MP info response: "${String(sampResponse.value.hostname)}" 13/250`],
      schema: 'gamequery dissect output',
    });
    expect((mcResponse.value.kv as { key: string; value: string }[]).find((kv) => kv.key === 'hostname')?.value).toBe('A Minecraft Server');
  });

  it('require()s the packages from CommonJS and runs the gamequery bin', async () => {
    // CommonJS: require() of the ESM-only packages, which Node has done since 20.19 (engines.node).
    const script = `const { samp, fromHex } = require('@gamequery/codec'); const { dissectPayload } = require('@gamequery/dissect');
      console.log(JSON.stringify({ hostname: samp.infoResponse.decode(fromHex('${sampResponse.hex}')).value.hostname, dissect: typeof dissectPayload }));`;
    const required = await inDir('app', process.execPath, ['--input-type=commonjs', '-e', script]);
    expect(JSON.parse(required.stdout)).toEqual({ hostname: sampResponse.value.hostname, dissect: 'function' });
    const decoded = await inDir('app', `${dir}/app/node_modules/.bin/gamequery`, ['decode', sampResponse.hex, '--format', 'json']);
    expect(JSON.parse(decoded.stdout)).toMatchObject({
      protocol: 'samp',
      direction: 'response',
      message: 'info',
      layout: 'samp.info.response',
      summary: `SA:MP info response: "${String(sampResponse.value.hostname)}" 13/250`,
    });
  });

  it('installed globally with npm from the tarballs, `gamequery` is a command that works from any directory', async () => {
    const { stderr, error } = await checks.global!;
    expect(error, stderr).toBeUndefined();
    const bin = `${dir}/global/bin/gamequery`;
    // The installed copy, not a link back into the repository.
    expect(realpathSync(bin)).toBe(realpathSync(`${dir}/global/lib/node_modules/@gamequery/cli/bin/gamequery.js`));
    // Found by name on a PATH of the prefix's bin and node alone, run in `/`.
    const env = { PATH: `${dir}/global/bin:${dirname(process.execPath)}`, HOME: dir };
    const command = (args: readonly string[]) => run('gamequery', args, { cwd: '/', env, encoding: 'utf8', timeout: 30_000 });
    const capture = `${root}packages/dissect/test/fixtures/captures/lo-us.pcap`;
    const [version, dissected] = await Promise.all([command(['--version']), command(['dissect', capture, '-F', 'json'])]);
    expect(version.stdout.trim()).toBe(
      (JSON.parse(readFileSync(`${root}packages/cli/package.json`, 'utf8')) as { version: string }).version,
    );
    const out = JSON.parse(dissected.stdout) as {
      packets: { frame: number; layout: string; summary: string }[];
      errors: unknown[];
      stats: { frames: number; exchanges: number };
    };
    // Frames as tshark numbers them (the fixture's .tshark.tsv); the same eight packets over IPv4, then over IPv6.
    const tsharkFrames = readFileSync(`${capture}.tshark.tsv`, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => Number(line.split('\t')[0]));
    expect(out.packets.map((p) => p.frame)).toEqual(tsharkFrames);
    const round = [
      'samp.info.request',
      'samp.info.response',
      'samp.ping.request',
      'samp.ping.response',
      'mcquery.handshake.request',
      'mcquery.handshake.response',
      'mcquery.basic.request',
      'mcquery.basic.response',
    ];
    expect(out.packets.map((p) => p.layout)).toEqual([...round, ...round]);
    expect(out.packets[1]!.summary).toBe('SA:MP info response: "gamequery fixture server" 100/200');
    expect(out.errors).toEqual([]);
    expect(out.stats).toMatchObject({ frames: 16, exchanges: 8 });
    expect(dissected.stderr).toBe('');
  });

  it('type-checks strictly under moduleResolution bundler, rxjs absent', async () => {
    const { stdout, error } = await checks.bundler!;
    expect(stdout).toBe('');
    expect(error).toBeUndefined();
  });

  it.each(['codec', 'dissect'])('passes @arethetypeswrong/cli for ESM under node16 and bundler (%s)', async (name) => {
    const { stdout, stderr, error } = await checks[`attw ${name}`]!;
    expect(error, stderr).toBeUndefined();
    const report = JSON.parse(stdout) as {
      analysis: { problems: { kind: string; resolutionKind?: string }[]; entrypoints: Record<string, unknown> };
    };
    expect(report.analysis.problems.filter((p) => p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs')).toEqual([]);
    const entries = Object.keys((JSON.parse(readFileSync(`${root}packages/${name}/package.json`, 'utf8')) as { exports: object }).exports);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(entries.sort());
  });

  it('has no library entry in the cli, whose one entry is its bin', () => {
    const cli = JSON.parse(readFileSync(`${root}packages/cli/package.json`, 'utf8')) as { exports: object; bin: object };
    expect(cli.exports).toEqual({ './package.json': './package.json' });
    expect(Object.keys(cli.bin)).toEqual(['gamequery']);
  });

  it('with rxjs installed, pairs through the rx entry and type-checks every entry under node16', async () => {
    expect(existsSync(`${dir}/app-rx/node_modules/rxjs/package.json`)).toBe(true);
    expect(JSON.parse((await node('app-rx', 'rx.js')).stdout)).toEqual(['exchange']);
    const { stdout, error } = await checks.node16!;
    expect(stdout).toBe('');
    expect(error).toBeUndefined();
  });

  it("decodes a SA:MP and a Minecraft reply in headless Chromium under script-src 'self', bundled from the tarball", async () => {
    const chromiums = [process.env.GAMEQUERY_CHROMIUM, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].filter(
      (p): p is string => !!p,
    );
    const executablePath = chromiums.find((p) => existsSync(p));
    // Never skipped: without a browser the test fails and says what to install (.ci/run does).
    if (!executablePath) throw new Error(`no Chromium at ${chromiums.join(', ')}: apt-get install chromium-headless-shell`);
    const built = await bundle({
      entryPoints: [`${dir}/app/browser.ts`],
      absWorkingDir: `${dir}/app`,
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
      metafile: true,
    });
    // From the tarball's dist/, not the repository's sources.
    const inputs = Object.keys(built.metafile.inputs);
    expect(inputs.some((i) => i.includes('@gamequery/codec/dist/'))).toBe(true);
    expect(inputs.filter((i) => i.includes('/src/') || i.includes(root))).toEqual([]);
    const script = built.outputFiles[0]!.contents;
    const csp = "default-src 'none'; script-src 'self'; connect-src 'self'";
    const vectors = readFileSync(`${dir}/app/vectors.json`);
    server = createServer((req, res) => {
      const body =
        req.url === '/'
          ? '<!doctype html><meta charset="utf-8"><script src="/app.js"></script>'
          : req.url === '/app.js'
            ? script
            : req.url === '/vectors.json'
              ? vectors
              : undefined;
      const type = req.url === '/' ? 'text/html; charset=utf-8' : req.url === '/app.js' ? 'text/javascript' : 'application/json';
      res.writeHead(body ? 200 : 404, { 'content-type': type, 'content-security-policy': csp });
      res.end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const browser = await chromium.launch({
      executablePath,
      timeout: 20_000,
      args: ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { timeout: 15_000 });
      const got = await page.evaluate(() => (globalThis as unknown as { gamequery: Promise<unknown> }).gamequery);
      expect(got).toEqual({
        evalRefused: 'EvalError',
        codeGeneration: false,
        hostname: sampResponse.value.hostname,
        mcPlayers: mcResponse.value.players,
      });
    } finally {
      await browser.close();
    }
  }, 40_000);
});
