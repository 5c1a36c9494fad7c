import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE } from '../../../src/pairing/capture/columns.ts';
import { Fifo } from '../../../src/pairing/capture/queue.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

/** Pushes `value` (its word 0, and its double at word 2). */
const push = (q: Fifo, value: number): number => {
  const at = q.push();
  q.rows.setU(at, 0, value);
  q.rows.setF(at, 2, value / 4);
  return at;
};

/** The queue's rows, front first, as their values. */
const contents = (q: Fifo): number[] => {
  const out: number[] = [];
  for (let i = 0; i < q.size; i++) {
    const v = q.rows.u(q.first + i, 0);
    if (q.rows.f(q.first + i, 2) !== v / 4) expect.fail(`row ${q.first + i}: its double does not go with its word ${v}`);
    out.push(v);
  }
  return out;
};

describe('Fifo', () => {
  it('agrees with an array under random pushes and shifts, across pages', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), n: fc.integer({ min: 1, max: 2 * PAGE }) }),
      fc.record({ kind: fc.constant('shift' as const), n: fc.integer({ min: 1, max: 2 * PAGE }) }),
      fc.constant({ kind: 'clear' as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 16 }), (ops) => {
        const q = new Fifo(3);
        let model: number[] = [];
        let value = 0;
        for (const o of ops) {
          if (o.kind === 'push') {
            for (let i = 0; i < o.n; i++) {
              const at = push(q, ++value);
              model.push(value);
              // A new row's position is right behind the others.
              if (at !== q.first + q.size - 1) return false;
            }
          } else if (o.kind === 'shift') {
            for (let i = 0; i < o.n && model.length; i++) {
              if (q.rows.u(q.first, 0) !== model[0]) return false;
              q.shift();
              model.shift();
            }
          } else {
            q.clear();
            model = [];
          }
          if (q.size !== model.length) return false;
          if (contents(q).join() !== model.join()) return false;
        }
        return true;
      }),
      { numRuns: Math.max(10, Math.floor(runs / 4)) },
    );
  });

  it('numbers positions from 0 in a row, the front the oldest', () => {
    const q = new Fifo(1, false);
    expect([q.push(), q.push(), q.push()]).toEqual([0, 1, 2]);
    expect([q.first, q.size]).toEqual([0, 3]);
    q.shift();
    expect([q.first, q.size]).toEqual([1, 2]);
    expect(q.push()).toBe(3);
    q.clear();
    expect([q.size, q.push(), q.first]).toEqual([0, 0, 0]);
  });

  it('lets go of its pages as the front passes them: a long-running queue holds a few pages', () => {
    const q = new Fifo(3);
    const page = PAGE * 4 * 4;
    let front = 0;
    for (let i = 0; i < 20 * PAGE; i++) {
      push(q, i);
      if (q.size > 100) {
        if (q.rows.u(q.first, 0) !== front) expect.fail(`front ${q.rows.u(q.first, 0)}, not ${front}`);
        q.shift();
        front++;
      }
    }
    expect(q.size).toBe(100);
    // At most the two pages the 100 rows span and the spare.
    expect(q.bytes).toBeLessThanOrEqual(3 * page);
    expect(contents(q)).toEqual(Array.from({ length: 100 }, (_, i) => 20 * PAGE - 100 + i));
  });

  it('empties and fills again at a page boundary', () => {
    const q = new Fifo(3);
    for (let i = 0; i < PAGE; i++) push(q, i);
    for (let i = 0; i < PAGE; i++) q.shift();
    expect(q.size).toBe(0);
    expect(q.first).toBe(PAGE);
    push(q, 77);
    push(q, 78);
    expect(contents(q)).toEqual([77, 78]);
  });

  // Rebasing happens when the front reaches 2^30; a queue told to rebase past 3 pages does it the same way.
  it('moves positions down past its rebase point without losing a row', () => {
    const q = new Fifo(3, true, 3 * PAGE);
    expect([push(q, 1), push(q, 2)]).toEqual([0, 1]);
    let value = 2;
    const firsts: number[] = [];
    for (let i = 0; i < 5 * PAGE; i++) {
      push(q, ++value);
      q.shift();
      firsts.push(q.first);
    }
    // The front passed 3 pages at a page boundary: positions moved down by as many pages, then grew again.
    expect(Math.max(...firsts)).toBeLessThan(3 * PAGE + 1);
    expect(firsts).toContain(0);
    expect(q.size).toBe(2);
    expect(contents(q)).toEqual([value - 1, value]);
    expect(q.push()).toBe(q.first + 2);
  });
});
