/**
 * The golden file of the dissector's compiled text emitter: the JavaScript the SA:MP info
 * response's `-V` tree (indent 0) compiles to, committed under `expected/` so that a review
 * shows what a change to the text compiler does to it (as the codec's golden files do for the
 * JSON emitter and the exports: packages/codec/test/golden). `pnpm golden` rewrites it.
 */
import { describe, it } from 'vitest';
import { layoutFor } from '@gamequery/codec';
import { textEmitterSource } from '../../src/render/text-emitter/index.ts';
import { goldenFile } from '../../../codec/test/golden/diff.ts';

const expected = new URL('./expected/', import.meta.url).pathname;
const HOW = 'if the change is meant, run `pnpm golden` and commit the result';

describe('golden file of the compiled text emitter', () => {
  it('the SA:MP info response, its tree at indent 0', () => {
    const { fields } = layoutFor('samp', 'info', 'response');
    goldenFile(expected, 'samp.info.response.text-emitter.js.txt', `${textEmitterSource(fields, { kind: 'tree', indent: 0 })}\n`, HOW);
  });
});
