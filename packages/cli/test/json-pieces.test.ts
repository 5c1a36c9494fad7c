import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPieces } from '../src/commands/dissect.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

describe('jsonPieces', () => {
  it('joins to JSON.stringify of the same value, members JSON leaves out left out', () => {
    // JSON values with undefined members and items (left out of objects, null in arrays) and objects with toJSON.
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.constant(undefined),
        fc.constant({ toJSON: () => ({ made: 'by toJSON' }) }),
        fc.array(tie('tree'), { maxLength: 5 }),
        fc.dictionary(fc.string({ maxLength: 4 }), tie('tree'), { maxKeys: 5 }),
      ),
    }));
    fc.assert(
      fc.property(tree, fc.nat(3), (value, levels) => {
        expect([...jsonPieces(value, levels)].join('')).toBe(JSON.stringify(value) ?? 'null');
      }),
      { numRuns: runs * 5 },
    );
  });

  it('writes a report of many servers as items, not one string', () => {
    const report = {
      servers: Array.from({ length: 1000 }, (_, i) => ({ server: { ip: `10.0.0.${i % 256}`, port: i }, hostname: null })),
      totals: { servers: 1000 },
    };
    const pieces = [...jsonPieces(report)];
    expect(pieces.join('')).toBe(JSON.stringify(report));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(100);
  });
});
