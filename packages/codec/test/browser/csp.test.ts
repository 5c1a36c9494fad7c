/**
 * The codec in a real browser under a strict Content-Security-Policy: headless Chromium
 * (Debian's `chromium-headless-shell`, or `chromium`; `.ci/run` installs it), driven by
 * playwright-core, loads a page served from loopback with `script-src 'self'` (no
 * `'unsafe-eval'`, as in browser extensions) and an esbuild bundle of the codec. The page
 * answers every test vector (decode, decodePacket, annotate, annotateJson, emitJson, the
 * text emitters, measure) and the answers must equal the compiled codec's in Node.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromHex, layouts } from '@gamequery/codec';
import { answersOf } from '../helpers/answers.ts';
import { loadVectors } from '../helpers/vectors.ts';

/**
 * The page's global, which a page function below reads: it runs in Chromium.
 * (The tests are type-checked without the DOM library, which would hold the sources they import to the DOM's types too.)
 */
declare const window: unknown;

const candidates = [process.env.GAMEQUERY_CHROMIUM, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].filter(
  (p): p is string => !!p,
);
const executablePath = candidates.find((p) => existsSync(p));

const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'";
const PAGE = '<!doctype html><meta charset="utf-8"><title>gamequery under CSP</title><script src="/codec.js"></script>';

let server: Server;
let browser: Browser;
let origin: string;
let bundleBytes = 0;

beforeAll(async () => {
  // Never skipped: without a browser the test fails and says what to install.
  if (!executablePath)
    throw new Error(`no Chromium at ${candidates.join(', ')}: apt-get install chromium-headless-shell (or set GAMEQUERY_CHROMIUM)`);
  const bundle = await build({
    entryPoints: [new URL('./page.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@gamequery/source'],
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.contents;
  bundleBytes = script.length;
  const vectors = JSON.stringify(loadVectors().map(({ layout, hex, charset }) => ({ layout, hex, charset })));
  server = createServer((req, res) => {
    const send = (type: string, body: string | Uint8Array) => {
      res.writeHead(200, { 'content-type': type, 'content-security-policy': CSP, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.url === '/') send('text/html; charset=utf-8', PAGE);
    else if (req.url === '/codec.js') send('text/javascript; charset=utf-8', script);
    else if (req.url === '/vectors.json') send('application/json', vectors);
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath,
    timeout: 20_000,
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

describe(`the codec in headless Chromium under "${CSP}"`, () => {
  it('finds code generation refused, falls back to the interpreter, and answers every vector as the compiled codec does in Node', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${origin}/`, { timeout: 15_000 });
      const got = (await page.evaluate(() => (window as unknown as { gamequery: Promise<unknown> }).gamequery)) as {
        failed?: string;
        codeGeneration: boolean;
        evalRefused?: string;
        violations: string[];
        results: unknown[];
        ms: number;
      };
      expect(got.failed).toBeUndefined();
      expect(errors).toEqual([]);
      // The policy holds: the page's own new Function was refused, and so was the codec's probe.
      expect(got.evalRefused).toBe('EvalError');
      expect(got.violations).toContain('script-src');
      expect(got.codeGeneration).toBe(false);
      const byId = new Map(layouts.map((l) => [l.id, l]));
      const vectors = loadVectors();
      expect(got.results).toHaveLength(vectors.length);
      const want = vectors.map((v) => answersOf(byId.get(v.layout)!, fromHex(v.hex), v.charset));
      expect(got.results).toEqual(want);
      // The two the issue names: a SA:MP info reply and a Minecraft full-stat reply, recognised by decodePacket.
      const pick = (id: string) =>
        got.results[vectors.findIndex((v) => v.layout === id && !v.error)] as { decodePacket: { ok: { value: unknown } } };
      expect(pick('samp.info.response').decodePacket.ok.value).toMatchObject({ hostname: expect.any(String) });
      expect(pick('mcquery.full.response').decodePacket.ok.value).toMatchObject({ players: expect.any(Array) });
      expect(bundleBytes).toBeGreaterThan(10_000);
    } finally {
      await page.close();
    }
  }, 30_000);
});
