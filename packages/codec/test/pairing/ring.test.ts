import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ByteRing, EntryRing, Interned, KeyTable, Metas, Registry, hashA, hashB } from '../../src/pairing/ring.ts';

describe('ByteRing', () => {
  it('reads back every string still kept, whatever the sizes, through growth and wrap-around', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constant('release' as const)), { maxLength: 400 }),
        fc.integer({ min: 4, max: 10 }),
        (steps, log2) => {
          const ring = new ByteRing(1 << log2);
          const kept: { at: number; bytes: Uint8Array }[] = [];
          for (const step of steps) {
            if (step === 'release') {
              kept.shift();
              ring.release(kept[0]?.at ?? ring.end);
            } else {
              kept.push({ at: ring.put(step), bytes: step.slice() });
            }
            for (const k of kept) expect(ring.view(k.at, k.bytes.length)).toEqual(k.bytes);
          }
          // Never more than twice what is kept (plus a round's padding) after growth.
          const live = kept.reduce((n, k) => n + k.bytes.length, 0);
          expect(ring.bytes).toBeLessThanOrEqual(Math.max(1 << log2, 4 * (live + 600)));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('EntryRing', () => {
  it("keeps each entry's fields in their slot through growth", () => {
    let values = new Float64Array(2);
    const ring: EntryRing = new EntryRing(2, (from, to) => {
      values = ring.regrow(values, from, to, (n) => new Float64Array(n));
    });
    const model: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const n = ring.add();
      values[ring.slot(n)] = n * 3;
      model.push(n);
      if (i % 3 === 0) {
        ring.first++;
        model.shift();
      }
      for (const m of model) expect(values[ring.slot(m)]).toBe(m * 3);
    }
    expect(ring.size).toBe(model.length);
    expect(ring.capacity).toBeLessThanOrEqual(1024);
  });
});

describe('KeyTable', () => {
  it('answers as a Map does through sets, overwrites, deletes and growth, with keys that collide in their low bits', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom('set', 'delete', 'get'), fc.integer({ min: 0, max: 0x3fffffff }), fc.integer({ min: 0, max: 1e6 })),
          { maxLength: 3000 },
        ),
        fc.boolean(),
        (steps, crowded) => {
          const table = new KeyTable();
          const model = new Map<number, number>();
          for (const [op, raw, value] of steps) {
            // Crowded: keys that share their low bits, so runs form and deletes must move them back.
            const key = crowded ? (raw & 0x3f) << 16 : raw;
            if (op === 'set') {
              table.set(key, value);
              model.set(key, value);
            } else if (op === 'delete') {
              table.delete(key);
              model.delete(key);
            }
            expect(table.get(key)).toBe(model.get(key) ?? -1);
          }
          expect(table.size).toBe(model.size);
          for (const [k, v] of model) expect(table.get(k)).toBe(v);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('hashA and hashB', () => {
  it('tell every one-byte change and every cut of a reply from the reply, and agree on copies', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (reply) => {
        const a = hashA(reply);
        const b = hashB();
        expect([hashA(reply.slice()), hashB()]).toEqual([a, b]);
        const seen = new Set([`${a},${b}`]);
        for (let i = 0; i < reply.length; i++) {
          for (const delta of [1, 128]) {
            const changed = reply.slice();
            changed[i] = (changed[i]! + delta) & 0xff;
            const key = `${hashA(changed)},${hashB()}`;
            expect(seen.has(key)).toBe(false);
            seen.add(key);
          }
          const cut = reply.subarray(0, i);
          const key = `${hashA(cut)},${hashB()}`;
          expect(seen.has(key)).toBe(false);
          seen.add(key);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('Registry', () => {
  it('numbers each value once, in order of first sight, and gives it back', () => {
    const r = new Registry<object>();
    const a = {},
      b = {};
    expect([r.id(a), r.id(b), r.id(a)]).toEqual([0, 1, 0]);
    expect(r.value(1)).toBe(b);
  });
});

describe('Interned', () => {
  it('gives each held value one number, lets it go with its last holder and reuses the number', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constant('release' as const)), { maxLength: 300 }), (steps) => {
        const values = Array.from({ length: 10 }, (_, i) => ({ i }));
        const table = new Interned<{ i: number }>();
        const held: [number, number][] = []; // [value, id]
        for (const step of steps) {
          if (step === 'release') {
            const h = held.shift();
            if (h) table.release(h[1]);
          } else {
            const id = table.hold(values[step]!);
            const same = held.find(([v]) => v === step);
            if (same) expect(id).toBe(same[1]);
            held.push([step, id]);
          }
          for (const [v, id] of held) expect(table.value(id)).toBe(values[v]);
          expect(table.size).toBe(new Set(held.map(([v]) => v)).size);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('Metas', () => {
  it('keeps numbers, references and none by slot through growth, and lets references go', () => {
    const ref = { frame: 'x' };
    const metas = new Metas<unknown>(4);
    const ring: EntryRing = new EntryRing(4, (from, to) => metas.regrow(ring, from, to));
    const model: unknown[] = [];
    for (let i = 0; i < 100; i++) {
      const meta = i % 7 === 0 ? undefined : i % 5 === 0 ? ref : i * 1.5;
      metas.set(ring.slot(ring.add()), meta);
      model.push(meta);
      if (i % 3 === 0) {
        metas.clear(ring.slot(ring.first));
        ring.first++;
        model.shift();
      }
      model.forEach((m, k) => expect(metas.get(ring.slot(ring.first + k))).toBe(m));
    }
  });
});
