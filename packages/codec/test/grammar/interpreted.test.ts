/**
 * The fallback for a strict Content-Security-Policy (no code generation): every layout made
 * to interpret (`interpretedLayout`, the path every layout takes where `codeGeneration()` is
 * false) gives what its compiled self gives, call for call, on every vector, on damaged
 * copies of them and on random valid values.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, layouts, samp, type AnyLayout, type Charset } from '@gamequery/codec';
import { defineLayout } from '@gamequery/codec/define';
import { codeGeneration, interpretedLayout, setCodeGeneration } from '@gamequery/codec/internal';
import { answersOf } from '../helpers/answers.ts';
import { valueArb } from '../helpers/arbitrary.ts';
import { loadVectors } from '../helpers/vectors.ts';
import { numeric, secretive, synthetic } from '../helpers/synthetic.ts';
import { mutatedMany } from '../../fuzz/mutate.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

const all: readonly AnyLayout[] = [...layouts, synthetic, secretive, numeric];
const slow = new Map(all.map((l) => [l, interpretedLayout(l)]));
const layoutById = new Map(all.map((l) => [l.id, l]));

/** The compiled layout and its interpreting copy agree on `bytes`, and each gives what it gave before (the copy keeps nothing between calls). */
function agree(layout: AnyLayout, bytes: Uint8Array, charset?: Charset): void {
  expect(answersOf(slow.get(layout)!, bytes, charset)).toEqual(answersOf(layout, bytes, charset));
}

describe('the interpreter fallback (no code generation)', () => {
  it('is not what these tests compare against: Node generates code', () => {
    expect(codeGeneration()).toBe(true);
  });

  it('gives what the compiled layout gives on every vector', () => {
    const vectors = loadVectors();
    expect(vectors.length).toBeGreaterThan(80);
    for (const v of vectors) agree(layoutById.get(v.layout)!, fromHex(v.hex), v.charset);
  });

  it('gives what the compiled layout gives on damaged copies of every vector', () => {
    const vectors = loadVectors();
    fc.assert(
      fc.property(
        fc.constantFrom(...vectors).chain((v) => fc.tuple(fc.constant(v), mutatedMany(fromHex(v.hex)))),
        ([v, bytes]) => {
          agree(layoutById.get(v.layout)!, bytes, v.charset);
        },
      ),
      { numRuns: runs * 4 },
    );
  });

  it('agrees on a flag byte above 1: true, with the warning, compiled too (found by the damaged copies)', () => {
    const bytes = samp.infoResponse.encode({
      serverIp: '1.2.3.4',
      serverPort: 7777,
      password: true,
      players: 3,
      maxPlayers: 9,
      hostname: 'x',
      gamemode: 'y',
      language: 'z',
    });
    bytes[11] = 2; // the password flag
    const warning = {
      code: 'flag-byte',
      field: 'samp.info.password',
      offset: 11,
      message: 'samp.info.password: flag byte is 2, expected 0 or 1',
    };
    expect(samp.infoResponse.decode(bytes).warnings).toEqual([warning]);
    expect(samp.infoResponse.decode(bytes).value.password).toBe(true);
    agree(samp.infoResponse, bytes);
  });

  it('gives what the compiled layout gives on random valid values in every layout, and encodes alike', () => {
    for (const layout of all) {
      fc.assert(
        fc.property(valueArb(layout, layout.defaultCharset), (value) => {
          const bytes = layout.encode(value);
          expect(slow.get(layout)!.encode(value)).toEqual(bytes);
          agree(layout, bytes);
        }),
        { numRuns: Math.ceil(runs / 4) },
      );
    }
  });

  it('is what a layout uses when setCodeGeneration(false) came before its first call: it compiles no function', () => {
    const spec = { protocol: 'acme', message: 'info', direction: 'response', title: 'Info', fields: samp.infoResponse.fields } as const;
    const bytes = samp.infoResponse.encode({
      serverIp: '1.2.3.4',
      serverPort: 7777,
      password: true,
      players: 3,
      maxPlayers: 9,
      hostname: 'x',
      gamemode: 'y',
      language: 'z',
    });
    const want = answersOf(defineLayout(spec), bytes);
    const real = globalThis.Function;
    setCodeGeneration(false);
    // A Function that refuses, as V8 does under a strict CSP: the layout must never reach it.
    globalThis.Function = new Proxy(real, {
      construct: () => {
        throw new EvalError('code generation refused');
      },
    });
    try {
      expect(codeGeneration()).toBe(false);
      expect(answersOf(defineLayout(spec), bytes)).toEqual(want);
    } finally {
      globalThis.Function = real;
      setCodeGeneration(undefined);
    }
    expect(codeGeneration()).toBe(true);
  });

  it('is what every layout falls back to where V8 refuses code generation (node --disallow-code-generation-from-strings)', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--disallow-code-generation-from-strings',
        '--conditions=@gamequery/source',
        '--import',
        'tsx',
        new URL('../helpers/no-eval.ts', import.meta.url).pathname,
      ],
      { encoding: 'utf8', maxBuffer: 256 << 20 },
    );
    const got = JSON.parse(out) as { codeGeneration: boolean; results: unknown[] };
    expect(got.codeGeneration).toBe(false);
    const byId = new Map(layouts.map((l) => [l.id, l]));
    const want = loadVectors().map((v) => answersOf(byId.get(v.layout)!, fromHex(v.hex), v.charset));
    expect(got.results).toEqual(want);
  });
});
