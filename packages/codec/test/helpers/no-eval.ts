/**
 * Run by `node --disallow-code-generation-from-strings` (V8 refusing `new Function` as a
 * strict CSP makes a browser refuse it): decodes every vector through the public entry and
 * prints, as one JSON document, whether the codec saw that it may not generate code and
 * what each vector gave (see `answersOf`).
 */
import { fromHex, layouts } from '@gamequery/codec';
import { codeGeneration } from '@gamequery/codec/internal';
import { loadVectors } from './vectors.ts';
import { answersOf } from './answers.ts';

const byId = new Map(layouts.map((l) => [l.id, l]));
const results = loadVectors().map((v) => answersOf(byId.get(v.layout)!, fromHex(v.hex), v.charset));
process.stdout.write(JSON.stringify({ codeGeneration: codeGeneration(), results }));
