import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELDS, KeyTable } from '../../../src/pairing/capture/table.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

/**
 * Keys that crowd the buckets: every low half is 7 in its low 10 bits (one bucket of the
 * first 1024), most also in the next few (so growth splits some and not others), and the
 * high halves tell keys with the same low half apart.
 */
const LOWS = [7, 7 + 1024, 7 + 2048, 7 + 4096, 7 + (1 << 20), 0xfffffc07, 0xffffffff, 8];
const HIGHS = [0, 1, 0x80000000, 0xffffffff];
const KEYS: readonly (readonly [number, number])[] = LOWS.flatMap((lo) => HIGHS.map((hi) => [lo, hi] as const));

type Op = { kind: 'add'; key: number } | { kind: 'many'; n: number; seed: number } | { kind: 'remove'; pick: number } | { kind: 'clear' };

/** The table and a model of it: per key, its entries, newest first; per entry, the owner's word written into it. */
class Checked {
  readonly table = new KeyTable(2);
  readonly model = new Map<number, number[]>();
  readonly tags = new Map<number, number>();
  /** Entries let go, the most recent last: the next add reuses the most recent. */
  free: number[] = [];
  most = 0;
  #tag = 0;

  add(key: number): void {
    const [lo, hi] = KEYS[key]!;
    const reused = this.free.pop();
    const e = this.table.add(lo, hi);
    if (reused !== undefined) expect(e, 'an add reuses the entry let go last').toBe(reused);
    else expect(e, 'a new entry number is the next one up').toBe(this.tags.size + this.free.length);
    const tag = ++this.#tag;
    this.table.rows.setU(e, FIELDS, tag);
    this.table.rows.setU(e, FIELDS + 1, ~tag >>> 0);
    this.tags.set(e, tag);
    this.model.set(key, [e, ...(this.model.get(key) ?? [])]);
    this.most = Math.max(this.most, this.tags.size);
  }

  remove(pick: number): void {
    const live = [...this.tags.keys()];
    if (live.length === 0) return;
    const e = live[pick % live.length]!;
    this.table.remove(e);
    this.tags.delete(e);
    this.free.push(e);
    for (const [key, list] of this.model) {
      const i = list.indexOf(e);
      if (i < 0) continue;
      list.splice(i, 1);
      if (list.length === 0) this.model.delete(key);
    }
  }

  clear(): void {
    this.table.clear();
    this.model.clear();
    this.tags.clear();
    this.free = [];
  }

  check(): void {
    const t = this.table;
    expect(t.size).toBe(this.tags.size);
    KEYS.forEach(([lo, hi], key) => {
      const want = this.model.get(key) ?? [];
      const got: number[] = [];
      for (let e = t.find(lo, hi); e >= 0; e = t.older(e)) {
        got.push(e);
        if (got.length > want.length) break;
      }
      if (got.join() !== want.join())
        expect.fail(`key ${lo.toString(16)}:${hi.toString(16)}: entries ${got.join()} (newest first), not ${want.join()}`);
    });
    for (const [e, tag] of this.tags) {
      if (t.rows.u(e, FIELDS) !== tag || t.rows.u(e, FIELDS + 1) !== ~tag >>> 0) expect.fail(`entry ${e}'s fields changed`);
    }
    for (const [key, list] of this.model) {
      for (const e of list) if (t.lo(e) !== KEYS[key]![0] || t.hi(e) !== KEYS[key]![1]) expect.fail(`entry ${e} names another key`);
    }
    // Entry numbers are reused: never more of them than entries held at once.
    for (const e of this.tags.keys()) if (e >= this.most) expect.fail(`entry ${e} with at most ${this.most} held at once`);
  }
}

describe('KeyTable', () => {
  it('agrees with a model under random adds (duplicates too), removes, growth and clears', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('add' as const), key: fc.nat(KEYS.length - 1) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('many' as const), n: fc.integer({ min: 1, max: 1500 }), seed: fc.nat() }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const c = new Checked();
        for (const o of ops) {
          if (o.kind === 'add') c.add(o.key);
          else if (o.kind === 'many') for (let i = 0; i < o.n; i++) c.add((o.seed + i * 7) % KEYS.length);
          else if (o.kind === 'remove') c.remove(o.pick);
          else c.clear();
          c.check();
        }
      }),
      { numRuns: Math.max(20, Math.floor(runs / 2)) },
    );
  });

  it('finds the newest entry of a key and walks to the older ones, skipping other keys in its bucket', () => {
    const t = new KeyTable(0);
    const a1 = t.add(7, 1);
    const b1 = t.add(7, 2);
    const c1 = t.add(7 + 1024, 1);
    const a2 = t.add(7, 1);
    const b2 = t.add(7, 2);
    expect(t.find(7, 1)).toBe(a2);
    expect(t.older(a2)).toBe(a1);
    expect(t.older(a1)).toBe(-1);
    expect(t.find(7, 2)).toBe(b2);
    expect(t.older(b2)).toBe(b1);
    expect(t.find(7 + 1024, 1)).toBe(c1);
    expect(t.older(c1)).toBe(-1);
    expect(t.find(7 + 1024, 2)).toBe(-1);
    expect(t.find(7, 0)).toBe(-1);
  });

  it('takes an entry out of the middle of its bucket, the entries before and after it still found', () => {
    const t = new KeyTable(0);
    const [x, y, z] = [t.add(7, 1), t.add(7, 2), t.add(7, 3)];
    t.remove(y);
    expect([t.find(7, 1), t.find(7, 2), t.find(7, 3)]).toEqual([x, -1, z]);
    // The middle one of three under one key: the newest's older is now the oldest.
    const [a, b, c] = [t.add(9, 9), t.add(9, 9), t.add(9, 9)];
    expect(a).toBe(y);
    t.remove(b);
    expect(t.find(9, 9)).toBe(c);
    expect(t.older(c)).toBe(a);
    expect(t.size).toBe(4);
  });

  it('refuses to take out an entry that is not filed', () => {
    const t = new KeyTable(0);
    t.add(1, 1);
    const e = t.add(2, 2);
    t.remove(e);
    expect(() => t.remove(e)).toThrow(`KeyTable: entry ${e} is not filed`);
  });

  it('keeps the newest-first order under each key through growth, keys whose low halves split and keys that share them', () => {
    const t = new KeyTable(1);
    // 10 000 entries under keys that share bucket 7 of 1024, splitting at bits 10 to 13 as the table grows (two bits a time).
    const keys = [0, 1, 2, 3, 8, 15].flatMap((high) => [0, 0xdeadbeef].map((hi) => [7 + (high << 10), hi] as const));
    const model = keys.map(() => [] as number[]);
    for (let i = 0; i < 10_000; i++) {
      const k = (i * 5) % keys.length;
      const e = t.add(keys[k]![0], keys[k]![1]);
      t.rows.setU(e, FIELDS, i);
      model[k]!.unshift(e);
    }
    expect(t.size).toBe(10_000);
    // The buckets grew fourfold as entries passed two a bucket (1024, 4096, then 16 384 here), 8 bytes each (its newest entry and its counts).
    expect(t.bytes - t.rows.bytes).toBe(16_384 * 8);
    keys.forEach(([lo, hi], k) => {
      const got: number[] = [];
      for (let e = t.find(lo, hi); e >= 0; e = t.older(e)) got.push(e);
      expect(got).toEqual(model[k]);
    });
    // Fields are untouched by growth: each entry still holds the order it was added in.
    for (let e = 0; e < 10_000; e++) if (t.rows.u(e, FIELDS) !== e) expect.fail(`entry ${e} holds ${t.rows.u(e, FIELDS)}`);
  });

  it('reuses the entries let go, the last one first, before numbering new ones', () => {
    const t = new KeyTable(0);
    for (let i = 0; i < 5; i++) t.add(i, 0);
    t.remove(1);
    t.remove(3);
    expect(t.add(10, 10)).toBe(3);
    expect(t.add(11, 11)).toBe(1);
    expect(t.add(12, 12)).toBe(5);
    expect([t.find(10, 10), t.find(11, 11), t.find(12, 12), t.find(1, 0), t.find(3, 0)]).toEqual([3, 1, 5, -1, -1]);
  });

  it('finds a key among more in its bucket than its count can hold (a count at 3 stays there), and none that is not', () => {
    const t = new KeyTable(0);
    // Five keys in bucket 7 with high halves equal in their low four bits (one count), then four of them gone.
    const highs = [0x10, 0x20, 0x30, 0x40, 0x50];
    const entries = highs.map((hi) => t.add(7, hi));
    for (const e of entries.slice(0, 4)) t.remove(e);
    expect(t.find(7, 0x50)).toBe(entries[4]);
    expect(t.find(7, 0x10)).toBe(-1);
    // A key of another count in that bucket, and the bucket's other keys gone: not there.
    expect(t.find(7, 0x51)).toBe(-1);
    t.remove(entries[4]!);
    expect([t.find(7, 0x50), t.size]).toEqual([-1, 0]);
    // After growth the counts are made again from the entries: one key, found.
    const kept = t.add(7, 0x60);
    for (let i = 0; i < 3000; i++) t.add(1024 * i + 8, i);
    expect(t.find(7, 0x60)).toBe(kept);
  });

  it('starts empty again after a clear, even after growth', () => {
    const t = new KeyTable(0);
    for (let i = 0; i < 3000; i++) t.add(i, i);
    t.clear();
    expect(t.size).toBe(0);
    expect(t.find(5, 5)).toBe(-1);
    expect(t.add(5, 6)).toBe(0);
    expect(t.find(5, 6)).toBe(0);
    expect(t.find(5, 5)).toBe(-1);
    expect(t.bytes - t.rows.bytes).toBe(1024 * 8);
  });
});
