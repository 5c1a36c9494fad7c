import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Chain, FifoIndex } from '../../src/pairing/collections.ts';
import { DeadlineQueue } from '../../src/pairing/deadlines.ts';

const item = (name: string, deadline = 0n) => ({ name, deadline, done: false });

describe('FifoIndex', () => {
  it('returns the oldest live item under a key, skipping finished ones', () => {
    const index = new FifoIndex<ReturnType<typeof item>>();
    const [a, b, c] = [item('a'), item('b'), item('c')];
    index.add(7, a);
    index.add(7, b);
    index.add(7, c);
    expect(index.first(7)).toBe(a);
    b.done = true;
    index.release(7);
    expect(index.first(7)).toBe(a);
    a.done = true;
    index.release(7);
    expect(index.first(7)).toBe(c);
    expect([...index.newestFirst(7)]).toEqual([c]);
  });

  it('tells apart items whose keys collide by the predicate, oldest and newest first', () => {
    const index = new FifoIndex<ReturnType<typeof item>>();
    const [a1, b1, a2] = [item('a1'), item('b1'), item('a2')];
    for (const i of [a1, b1, a2]) index.add(7, i);
    const isB = (i: { name: string }) => i.name.startsWith('b');
    const isA = (i: { name: string }) => i.name.startsWith('a');
    expect(index.first(7, isB)).toBe(b1);
    expect(index.first(7, isA)).toBe(a1);
    expect([...index.newestFirst(7, isA)]).toEqual([a2, a1]);
    expect(index.first(7, () => false)).toBeUndefined();
    const lone = item('c');
    index.add(8, lone);
    expect(index.first(8, isA)).toBeUndefined();
    expect([...index.newestFirst(8, isA)]).toEqual([]);
  });

  it('drops a key once its last item is finished', () => {
    const index = new FifoIndex<ReturnType<typeof item>>();
    const a = item('a');
    index.add(7, a);
    a.done = true;
    index.release(7);
    expect(index.size).toBe(0);
    expect(index.first(7)).toBeUndefined();
  });

  it('compacts a long-lived bucket', () => {
    const index = new FifoIndex<ReturnType<typeof item>>();
    const items = Array.from({ length: 1000 }, (_, i) => item(`i${i}`));
    for (const i of items) index.add(7, i);
    for (const i of items.slice(0, 999)) {
      i.done = true;
      index.release(7);
    }
    expect(index.first(7)).toBe(items[999]);
  });
});

describe('FifoIndex against a model', () => {
  it('gives the oldest live item under each key through adds, finishes and releases that reuse its slots', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 40 }), fc.nat()), { maxLength: 600 }), (steps) => {
        const index = new FifoIndex<ReturnType<typeof item>>();
        const model = new Map<number, ReturnType<typeof item>[]>();
        let n = 0;
        for (const [add, key, pick] of steps) {
          const held = model.get(key) ?? [];
          if (add || held.length === 0) {
            const it = item(`i${n++}`);
            index.add(key << 8, it);
            model.set(key, [...held, it]);
          } else {
            const it = held[pick % held.length]!;
            it.done = true;
            index.release(key << 8);
            model.set(
              key,
              held.filter((x) => x !== it),
            );
          }
          for (const [k, items] of model) {
            expect(index.first(k << 8)).toBe(items[0]);
            expect(index.newest(k << 8)).toBe(items[items.length - 1]);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('compaction behind a live front', () => {
  it('FifoIndex: the oldest live item under a key, and all of them newest first, while finished ones pile up behind it', () => {
    const index = new FifoIndex<ReturnType<typeof item>>();
    const live: ReturnType<typeof item>[] = [];
    for (let i = 0; i < 3000; i++) {
      const it = item(`r${i}`);
      index.add(7, it);
      if (i === 0 || i % 97 === 0) live.push(it);
      else it.done = true;
    }
    expect(index.first(7)).toBe(live[0]);
    expect([...index.newestFirst(7)]).toEqual([...live].reverse());
    expect(index.newest(7)).toBe(live[live.length - 1]);
  });
});

describe('DeadlineQueue', () => {
  it('forgets cancelled deadlines as it goes, and still cancels, moves and pops the rest in order', () => {
    // A request waiting out its timeout at the front, and thousands answered behind it (cancelled).
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 6000 }), fc.integer({ min: 0, max: 1000 }), (n, seed) => {
        const queue = new DeadlineQueue<ReturnType<typeof item>>();
        const items = Array.from({ length: n }, (_, i) => item(`r${i}`, BigInt(i)));
        for (const it of items) queue.push(it);
        const live = new Set(items);
        items.forEach((it, i) => {
          if (i > 0 && (i * 7919 + seed) % 10 !== 0) {
            queue.cancel(it);
            live.delete(it);
          }
        });
        // Cancelling again, or moving a survivor's deadline later, after the lane was rebuilt.
        const moved = [...live].filter((_, i) => i % 3 === 1);
        for (const it of moved) {
          queue.cancel(it);
          it.deadline += BigInt(n);
          queue.push(it);
        }
        const popped: string[] = [];
        for (let it = queue.popDue(BigInt(3 * n)); it; it = queue.popDue(BigInt(3 * n))) popped.push(it.name);
        const expected = [...live].sort((a, b) => (a.deadline < b.deadline ? -1 : a.deadline > b.deadline ? 1 : 0)).map((it) => it.name);
        expect(popped).toEqual(expected);
      }),
      { numRuns: 20 },
    );
  });

  it('pops due items earliest first, equal deadlines in filing order', () => {
    const queue = new DeadlineQueue<ReturnType<typeof item>>();
    const items = [item('c', 30n), item('a1', 10n), item('b', 20n), item('a2', 10n), item('d', 40n)];
    for (const i of items) queue.push(i);
    const popped: string[] = [];
    for (let i = queue.popDue(30n); i; i = queue.popDue(30n)) popped.push(i.name);
    expect(popped).toEqual(['a1', 'a2', 'b', 'c']);
    expect(queue.peek()).toBe(40n);
  });

  it('skips finished items and the stale entries of moved deadlines', () => {
    const queue = new DeadlineQueue<ReturnType<typeof item>>();
    const [moved, finished] = [item('moved', 10n), item('finished', 15n)];
    queue.push(moved);
    queue.push(finished);
    moved.deadline = 50n;
    queue.push(moved);
    finished.done = true;
    expect(queue.peek()).toBe(50n);
    expect(queue.popDue(49n)).toBeUndefined();
    expect(queue.popDue(50n)).toBe(moved);
    expect(queue.peek()).toBeUndefined();
  });

  it('agrees with a sorted list on any mix of in-order and out-of-order deadlines, moves and finishes', () => {
    type Op =
      | { kind: 'push'; at: number }
      | { kind: 'move'; which: number; at: number }
      | { kind: 'finish'; which: number }
      | { kind: 'pop'; now: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), at: fc.nat(50) }),
      fc.record({ kind: fc.constant('move' as const), which: fc.nat(40), at: fc.nat(50) }),
      fc.record({ kind: fc.constant('finish' as const), which: fc.nat(40) }),
      fc.record({ kind: fc.constant('pop' as const), now: fc.nat(50) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const queue = new DeadlineQueue<ReturnType<typeof item>>();
        const all: { it: ReturnType<typeof item>; seq: number }[] = [];
        let seq = 0;
        for (const o of ops) {
          if (o.kind === 'push') {
            const it = item(String(all.length), BigInt(o.at));
            all.push({ it, seq: seq++ });
            queue.push(it);
          } else if (o.kind === 'move' && all[o.which] && !all[o.which]!.it.done) {
            const m = all[o.which]!;
            m.it.deadline = BigInt(o.at);
            m.seq = seq++;
            queue.push(m.it);
          } else if (o.kind === 'finish' && all[o.which]) {
            all[o.which]!.it.done = true;
          } else if (o.kind === 'pop') {
            // The model: live items due by `now`, earliest deadline first, then filing order.
            const due = all
              .filter((x) => !x.it.done && x.it.deadline <= BigInt(o.now))
              .sort((a, b) => (a.it.deadline < b.it.deadline ? -1 : a.it.deadline > b.it.deadline ? 1 : a.seq - b.seq));
            for (const x of due) {
              expect(queue.popDue(BigInt(o.now))).toBe(x.it);
              x.it.done = true;
            }
            expect(queue.popDue(BigInt(o.now))).toBeUndefined();
          }
        }
        const live = all.filter((x) => !x.it.done).map((x) => x.it.deadline);
        expect(queue.peek()).toBe(live.length ? live.reduce((a, b) => (a < b ? a : b)) : undefined);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});

describe('Chain', () => {
  it('keeps the order items came in through removals from anywhere, as an array would', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 300 }), (steps) => {
        type Node = { name: number; prev: Node | undefined; next: Node | undefined };
        const chain = new Chain<Node>();
        let model: Node[] = [];
        let n = 0;
        for (const [add, pick] of steps) {
          if (add || model.length === 0) {
            const node: Node = { name: n++, prev: undefined, next: undefined };
            chain.add(node);
            model.push(node);
          } else {
            const node = model[pick % model.length]!;
            chain.remove(node);
            model = model.filter((x) => x !== node);
          }
          expect(chain.size).toBe(model.length);
          expect(chain.oldest).toBe(model[0]);
        }
        expect(chain.all()).toEqual(model);
      }),
      { numRuns: 100 },
    );
  });
});
