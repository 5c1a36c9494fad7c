import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE, Rows } from '../../../src/pairing/capture/columns.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

/** A word no two (row, word) pairs share, for rows below 2^20 and words below 16. */
const word = (i: number, k: number): number => ((i * 16 + k) * 2654435761) >>> 0;
/** A double no two rows share (and no word of it is a word of another row's). */
const double = (i: number, k: number): number => -(i * 16 + k) * 1.25 - 0.5;

/** The two 32-bit words a double is stored as (little-endian, as typed arrays are on every platform this runs on). */
const halves = (x: number): [number, number] => {
  const w = new Uint32Array(new Float64Array([x]).buffer);
  return [w[0]!, w[1]!];
};

/** Rows at and around the first three page boundaries. */
const edges = [0, 1, PAGE - 2, PAGE - 1, PAGE, PAGE + 1, 2 * PAGE - 1, 2 * PAGE, 3 * PAGE - 1];

describe('Rows', () => {
  it('rounds a row holding doubles up to an even number of words, and leaves one without doubles as it is', () => {
    expect(new Rows(3).stride).toBe(4);
    expect(new Rows(4).stride).toBe(4);
    expect(new Rows(5, true).stride).toBe(6);
    expect(new Rows(3, false).stride).toBe(3);
    expect(new Rows(1, false).stride).toBe(1);
  });

  it('keeps every word of every row apart at row and page boundaries (odd strides, no doubles)', () => {
    for (const words of [1, 3, 5, 7]) {
      const rows = new Rows(words, false);
      rows.reserve(0);
      rows.reserve(3 * PAGE - 1);
      expect(rows.bytes).toBe(3 * PAGE * words * 4);
      // Every row of three pages, so that a row that spilled into its neighbour would show.
      for (let i = 0; i < 3 * PAGE; i++) for (let k = 0; k < words; k++) rows.setU(i, k, word(i, k));
      for (let i = 0; i < 3 * PAGE; i++) {
        for (let k = 0; k < words; k++) {
          if (rows.u(i, k) !== word(i, k)) expect.fail(`stride ${words}: row ${i} word ${k} is ${rows.u(i, k)}, not ${word(i, k)}`);
        }
      }
    }
  });

  it('keeps doubles and words of a row apart, a double in the two words it names', () => {
    // Five words: doubles at words 0 and 2, a word at 4 (and the padding word 5 unused).
    const rows = new Rows(5);
    rows.reserve(0);
    rows.reserve(3 * PAGE - 1);
    for (let i = 0; i < 3 * PAGE; i++) {
      rows.setF(i, 0, double(i, 0));
      rows.setF(i, 2, double(i, 2));
      rows.setU(i, 4, word(i, 4));
    }
    for (const i of edges) {
      expect(rows.f(i, 0)).toBe(double(i, 0));
      expect(rows.f(i, 2)).toBe(double(i, 2));
      expect(rows.u(i, 4)).toBe(word(i, 4));
      expect([rows.u(i, 2), rows.u(i, 3)]).toEqual(halves(double(i, 2)));
    }
    for (let i = 0; i < 3 * PAGE; i++) {
      if (rows.f(i, 0) !== double(i, 0) || rows.f(i, 2) !== double(i, 2) || rows.u(i, 4) !== word(i, 4))
        expect.fail(`row ${i} was overwritten`);
    }
  });

  it('writing a word of a double changes that double only', () => {
    const rows = new Rows(4);
    rows.reserve(PAGE - 1);
    rows.reserve(PAGE);
    for (const i of [PAGE - 1, PAGE]) {
      rows.setF(i, 0, 1.5);
      rows.setF(i, 2, 2.5);
    }
    const [, high] = halves(2.5);
    rows.setU(PAGE - 1, 3, high ^ 0x80000000);
    expect(rows.f(PAGE - 1, 2)).toBe(-2.5);
    expect(rows.f(PAGE - 1, 0)).toBe(1.5);
    expect(rows.f(PAGE, 0)).toBe(1.5);
    expect(rows.f(PAGE, 2)).toBe(2.5);
  });

  it('holds words as unsigned 32-bit numbers', () => {
    const rows = new Rows(2, false);
    rows.reserve(0);
    rows.setU(0, 0, 0xffffffff);
    rows.setU(0, 1, -1);
    expect(rows.u(0, 0)).toBe(0xffffffff);
    expect(rows.u(0, 1)).toBe(0xffffffff);
  });

  it('holds only the pages from the first row reserved up, in ring use from a non-zero row', () => {
    const rows = new Rows(2, false);
    const first = 5 * PAGE + 100;
    rows.reserve(first);
    expect(rows.bytes).toBe(PAGE * 2 * 4);
    rows.setU(first, 0, 11);
    rows.setU(first, 1, 12);
    rows.reserve(first + 2 * PAGE);
    expect(rows.bytes).toBe(3 * PAGE * 2 * 4);
    rows.setU(first + 2 * PAGE, 0, 21);
    rows.setU(6 * PAGE, 1, 31);
    expect([rows.u(first, 0), rows.u(first, 1), rows.u(first + 2 * PAGE, 0), rows.u(6 * PAGE, 1)]).toEqual([11, 12, 21, 31]);
    // Reserving a row already held adds nothing.
    rows.reserve(first + 1);
    expect(rows.bytes).toBe(3 * PAGE * 2 * 4);
  });

  it('lets go of the pages wholly below the first row only, keeping one page for reuse', () => {
    const page = PAGE * 3 * 4;
    const rows = new Rows(3, false);
    rows.reserve(0);
    rows.reserve(4 * PAGE - 1);
    for (let i = 0; i < 4 * PAGE; i++) rows.setU(i, 1, word(i, 1));
    expect(rows.bytes).toBe(4 * page);
    // Row 2 * PAGE - 1 is still in page 1: only page 0 goes.
    rows.release(2 * PAGE - 1);
    expect(rows.bytes).toBe(4 * page);
    rows.release(3 * PAGE);
    // Pages 0 to 2 went, one of them kept: page 3 and the spare.
    expect(rows.bytes).toBe(2 * page);
    for (let i = 3 * PAGE; i < 4 * PAGE; i++) if (rows.u(i, 1) !== word(i, 1)) expect.fail(`row ${i} changed by the release`);
    // Releasing again below the first row held changes nothing.
    rows.release(3 * PAGE);
    rows.release(PAGE);
    expect(rows.bytes).toBe(2 * page);
  });

  it('reuses the spare page for the next page reserved: what is written there reads back, the pages held are untouched', () => {
    const page = PAGE * 4 * 4;
    const rows = new Rows(3);
    rows.reserve(0);
    rows.reserve(3 * PAGE - 1);
    for (let i = 0; i < 3 * PAGE; i++) {
      rows.setF(i, 0, double(i, 0));
      rows.setU(i, 2, word(i, 2));
    }
    rows.release(PAGE);
    expect(rows.bytes).toBe(3 * page);
    // Page 3 takes the spare (old page 0): no new page, and its rows hold page 0's values until
    // written (a page is not cleared: an owner writes every word it reads later).
    rows.reserve(3 * PAGE);
    expect(rows.bytes).toBe(3 * page);
    expect([rows.f(3 * PAGE + 5, 0), rows.u(4 * PAGE - 1, 2)]).toEqual([double(5, 0), word(PAGE - 1, 2)]);
    for (let i = 3 * PAGE; i < 4 * PAGE; i++) {
      rows.setF(i, 0, double(i, 0));
      rows.setU(i, 2, word(i, 2));
    }
    for (let i = PAGE; i < 4 * PAGE; i++) {
      if (rows.f(i, 0) !== double(i, 0) || rows.u(i, 2) !== word(i, 2)) expect.fail(`row ${i} reads ${rows.f(i, 0)}, ${rows.u(i, 2)}`);
    }
    // With no spare left, the next page is new.
    rows.reserve(4 * PAGE);
    expect(rows.bytes).toBe(4 * page);
  });

  it('numbers rows lower after a rebase, the same words under the new numbers', () => {
    const rows = new Rows(2);
    rows.reserve(5 * PAGE);
    rows.reserve(7 * PAGE - 1);
    rows.setF(5 * PAGE + 3, 0, 1.25);
    rows.setF(6 * PAGE + 4095, 0, 2.5);
    rows.rebase(5);
    expect(rows.f(3, 0)).toBe(1.25);
    expect(rows.f(PAGE + 4095, 0)).toBe(2.5);
    // And grows on from there.
    rows.reserve(2 * PAGE);
    rows.setF(2 * PAGE, 0, 3.75);
    expect([rows.f(3, 0), rows.f(PAGE + 4095, 0), rows.f(2 * PAGE, 0)]).toEqual([1.25, 2.5, 3.75]);
  });

  it('starts over from any row after a clear', () => {
    const rows = new Rows(1, false);
    rows.reserve(3 * PAGE);
    rows.setU(3 * PAGE, 0, 9);
    rows.clear();
    rows.reserve(10);
    rows.setU(10, 0, 4);
    expect(rows.u(10, 0)).toBe(4);
    rows.clear();
    rows.reserve(9 * PAGE + 1);
    rows.setU(9 * PAGE + 1, 0, 5);
    expect(rows.u(9 * PAGE + 1, 0)).toBe(5);
  });

  it('in ring use (reserve the back, release below the front, rebase), reads what was written at every row held', () => {
    // A model of what a queue does with its rows: positions [first, next), each row holding
    // the number it was written with; pages let go below `first`, positions moved down now and then.
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), n: fc.integer({ min: 1, max: 3 * PAGE }) }),
      fc.record({ kind: fc.constant('shift' as const), n: fc.integer({ min: 1, max: 3 * PAGE }) }),
      fc.record({ kind: fc.constant('rebase' as const) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 * PAGE }), fc.array(op, { maxLength: 12 }), (start, ops) => {
        const rows = new Rows(3);
        let first = start,
          next = start,
          written = 0;
        const values: number[] = [];
        for (const o of ops) {
          if (o.kind === 'push') {
            for (let j = 0; j < o.n; j++, next++) {
              rows.reserve(next);
              rows.setU(next, 0, written);
              rows.setF(next, 2, written + 0.5);
              values.push(written++);
            }
          } else if (o.kind === 'shift') {
            const n = Math.min(o.n, next - first);
            first += n;
            values.splice(0, n);
            rows.release(first);
          } else {
            const pages = Math.floor(first / PAGE);
            rows.rebase(pages);
            first -= pages * PAGE;
            next -= pages * PAGE;
          }
          for (let i = first; i < next; i++) {
            const v = values[i - first]!;
            if (rows.u(i, 0) !== v || rows.f(i, 2) !== v + 0.5) return false;
          }
          // Never more than the pages spanned, plus the spare.
          const spanned = next > first ? Math.floor((next - 1) / PAGE) - Math.floor(first / PAGE) + 1 : 1;
          if (rows.bytes > (spanned + 1) * PAGE * 4 * 4) return false;
        }
        return true;
      }),
      { numRuns: Math.max(10, Math.floor(runs / 4)) },
    );
  });
});
