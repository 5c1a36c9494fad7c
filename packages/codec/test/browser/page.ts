/**
 * The page script of the browser test (bundled by esbuild, served under `script-src 'self'`):
 * fetches the test vectors, answers every one through the codec's public entry as
 * `answersOf` does, and leaves on `window` whether the codec could generate code, whether
 * the page's own `new Function` was refused, the CSP violations seen, and the answers.
 */
import { layouts } from '@gamequery/codec';
import { codeGeneration } from '@gamequery/codec/internal';
import { answersOf } from '../helpers/answers.ts';

/**
 * What the page uses of the browser's globals beyond those Node has too.
 * (The tests are type-checked without the DOM library, which would hold the sources they import to the DOM's types too.)
 */
declare const document: {
  addEventListener(type: 'securitypolicyviolation', listener: (e: { readonly violatedDirective: string }) => void): void;
};
declare const window: unknown;

interface Vector {
  layout: string;
  hex: string;
  charset?: 'latin1' | 'windows-1252' | 'windows-1251' | 'utf8';
}

const violations: string[] = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));

const fromHex = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));

async function run(): Promise<unknown> {
  let evalRefused: string | undefined;
  try {
    new Function('return 1')();
  } catch (e) {
    evalRefused = (e as Error).name;
  }
  const vectors = (await (await fetch('/vectors.json')).json()) as Vector[];
  const byId = new Map(layouts.map((l) => [l.id, l]));
  const started = performance.now();
  const results = vectors.map((v) => answersOf(byId.get(v.layout)!, fromHex(v.hex), v.charset));
  const ms = performance.now() - started;
  // Let the violation events of the probes arrive (they are dispatched as tasks).
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { codeGeneration: codeGeneration(), evalRefused, violations, results, ms };
}

(window as unknown as { gamequery: Promise<unknown> }).gamequery = run().catch((e: unknown) => ({
  failed: String((e as Error).stack ?? e),
}));
