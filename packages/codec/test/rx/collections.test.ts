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
});
