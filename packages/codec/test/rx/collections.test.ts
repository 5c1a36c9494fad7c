import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeadlineQueue, FifoIndex } from '../../src/rx/collections.ts';

const item = (name: string, deadline = 0n) => ({ name, deadline, done: false });

describe('FifoIndex', () => {
  it('returns the oldest live item under a key, skipping finished ones', () => {
    const index = new FifoIndex<ReturnType<typeof item>>();
    const [a, b, c] = [item('a'), item('b'), item('c')];
    index.add('k', a);
    index.add('k', b);
    index.add('k', c);
    expect(index.first('k')).toBe(a);
    b.done = true;
    index.release('k');
    expect(index.first('k')).toBe(a);
    a.done = true;
    index.release('k');
    expect(index.first('k')).toBe(c);
    expect([...index.newestFirst('k')]).toEqual([c]);
  });

  it('drops a key once its last item is finished', () => {
    const index = new FifoIndex<ReturnType<typeof item>>();
    const a = item('a');
    index.add('k', a);
    a.done = true;
    index.release('k');
    expect(index.size).toBe(0);
    expect(index.first('k')).toBeUndefined();
  });

  it('compacts a long-lived bucket', () => {
    const index = new FifoIndex<ReturnType<typeof item>>();
    const items = Array.from({ length: 1000 }, (_, i) => item(`i${i}`));
    for (const i of items) index.add('k', i);
    for (const i of items.slice(0, 999)) {
      i.done = true;
      index.release('k');
    }
    expect(index.first('k')).toBe(items[999]);
  });
});

describe('DeadlineQueue', () => {
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
    type Op = { kind: 'push'; at: number } | { kind: 'move'; which: number; at: number } | { kind: 'finish'; which: number } | { kind: 'pop'; now: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), at: fc.nat(50) }),
      fc.record({ kind: fc.constant('move' as const), which: fc.nat(40), at: fc.nat(50) }),
      fc.record({ kind: fc.constant('finish' as const), which: fc.nat(40) }),
      fc.record({ kind: fc.constant('pop' as const), now: fc.nat(50) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
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
          const due = all.filter((x) => !x.it.done && x.it.deadline <= BigInt(o.now))
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
    }), { numRuns: 300, seed: 5 });
  });
});
