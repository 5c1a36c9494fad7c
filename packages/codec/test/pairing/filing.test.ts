import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByKey, Pending, type PendingRequest } from '../../src/pairing/filing.ts';
import type { Keys } from '../../src/pairing/rules.ts';
import type { Datagram } from '../../src/pairing/types.ts';

interface Item extends PendingRequest<Item> {
  readonly name: string;
}

const nowhere = { address: '192.0.2.1', port: 1 };

/** A request filed under `keys` (exact half, then loose half) with a deadline; its name in its bytes' length. */
const item = (name: string, keys: Keys = [1, 2], deadline = 0n): Item => ({
  name,
  protocol: 'samp',
  datagram: { bytes: new Uint8Array(0), from: nowhere, to: nowhere, time: 0n },
  issuer: undefined,
  keys,
  deadline,
  timer: undefined,
  older: undefined,
  newer: undefined,
});

const reply: Datagram = { bytes: new Uint8Array(0), from: nowhere, to: nowhere, time: 0n };
const any = (): boolean => true;
const names = (items: readonly Item[]): string[] => items.map((i) => i.name);

describe('ByKey', () => {
  it('keeps items under a key oldest first, an item once, and forgets a key with its last item', () => {
    const index = new ByKey<{ name: string }>();
    const [a, b] = [{ name: 'a' }, { name: 'b' }];
    index.add(7, a);
    index.add(7, a); // two keys of one item that are the same hash
    index.add(7, b);
    expect(index.under(7)).toEqual([a, b]);
    index.delete(7, a);
    expect(index.under(7)).toEqual([b]);
    index.delete(7, a);
    index.delete(7, b);
    expect(index.under(7)).toEqual([]);
  });
});

describe('Pending', () => {
  it('finds the oldest request a rule accepts under the keys of one side', () => {
    const pending = new Pending<Item>();
    const [a, b, c] = [item('a', [1, 10]), item('b', [1, 11]), item('c', [2, 10])];
    for (const p of [a, b, c]) pending.add(p);
    expect(pending.first([1, 10], 'exact', any, reply)).toBe(a);
    expect(pending.first([1, 10], 'exact', (p) => p !== a, reply)).toBe(b);
    expect(pending.first([3, 10], 'exact', any, reply)).toBeUndefined();
    expect(pending.first([3, 10], 'loose', any, reply)).toBe(a);
    // A request filed under four keys (a stat request quoting a handshake's token): either exact one finds it.
    const d = item('d', [5, 6, 12, 13]);
    pending.add(d);
    expect(pending.first([6, 12], 'exact', any, reply)).toBe(d);
    expect(names(pending.under(13, 'loose'))).toEqual(['d']);
    pending.remove(a);
    expect(pending.first([1, 10], 'exact', any, reply)).toBe(b);
    expect(names(pending.under(10, 'loose'))).toEqual(['c']);
  });

  it('keeps the order requests came in through removals from anywhere, and under each key, as a list would', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(5), fc.nat(5), fc.nat()), { maxLength: 300 }), (steps) => {
        const pending = new Pending<Item>();
        let model: Item[] = [];
        let n = 0;
        for (const [add, exact, loose, pick] of steps) {
          if (add || model.length === 0) {
            const p = item(`i${n++}`, [exact, 100 + loose]);
            pending.add(p);
            model.push(p);
          } else {
            const p = model[pick % model.length]!;
            pending.remove(p);
            model = model.filter((x) => x !== p);
          }
          expect(pending.size).toBe(model.length);
          expect(pending.oldest).toBe(model[0]);
          for (let k = 0; k <= 5; k++) {
            expect(pending.under(k, 'exact')).toEqual(model.filter((p) => p.keys[0] === k));
            expect(pending.first([k, 100 + k], 'loose', any, reply)).toBe(model.find((p) => p.keys[1] === 100 + k));
          }
        }
        expect(pending.all()).toEqual(model);
      }),
      { numRuns: 100 },
    );
  });

  it('gives requests due earliest first, equal deadlines in the order they were set, at or before now unless strictly', () => {
    const pending = new Pending<Item>();
    const items = [
      item('c', [1, 2], 30n),
      item('a1', [1, 2], 10n),
      item('b', [1, 2], 20n),
      item('a2', [1, 2], 10n),
      item('d', [1, 2], 40n),
    ];
    for (const p of items) pending.add(p);
    const due: string[] = [];
    expect(pending.due(10n, true)).toBeUndefined();
    for (let p = pending.due(30n, false); p; p = pending.due(30n, false)) {
      due.push(p.name);
      pending.remove(p);
    }
    expect(due).toEqual(['a1', 'a2', 'b', 'c']);
    expect(pending.nextDeadline()).toBe(40n);
  });

  it('forgets the deadline of a request that left or moved to a newer one', () => {
    const pending = new Pending<Item>();
    const [moved, left] = [item('moved', [1, 2], 10n), item('left', [1, 2], 15n)];
    pending.add(moved);
    pending.add(left);
    moved.deadline = 50n;
    pending.schedule(moved);
    pending.remove(left);
    expect(pending.nextDeadline()).toBe(50n);
    expect(pending.due(49n, false)).toBeUndefined();
    expect(pending.due(50n, false)).toBe(moved);
    expect(pending.due(50n, false)).toBeUndefined();
    expect(pending.nextDeadline()).toBeUndefined();
  });

  it('agrees with a sorted list on any mix of deadlines in and out of order, moves and removals', () => {
    type Op =
      | { kind: 'add'; at: number }
      | { kind: 'move'; which: number; at: number }
      | { kind: 'remove'; which: number }
      | { kind: 'due'; now: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), at: fc.nat(50) }),
      fc.record({ kind: fc.constant('move' as const), which: fc.nat(40), at: fc.nat(50) }),
      fc.record({ kind: fc.constant('remove' as const), which: fc.nat(40) }),
      fc.record({ kind: fc.constant('due' as const), now: fc.nat(50) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const pending = new Pending<Item>();
        const all: { p: Item; seq: number; gone: boolean }[] = [];
        let seq = 0;
        for (const o of ops) {
          const x = 'which' in o ? all[o.which] : undefined;
          if (o.kind === 'add') {
            const p = item(String(all.length), [1, 2], BigInt(o.at));
            all.push({ p, seq: seq++, gone: false });
            pending.add(p);
          } else if (o.kind === 'move' && x && !x.gone) {
            x.p.deadline = BigInt(o.at);
            x.seq = seq++;
            pending.schedule(x.p);
          } else if (o.kind === 'remove' && x && !x.gone) {
            x.gone = true;
            pending.remove(x.p);
          } else if (o.kind === 'due') {
            // The model: requests due by `now`, earliest deadline first, then the order their deadlines were set.
            const due = all
              .filter((y) => !y.gone && y.p.deadline <= BigInt(o.now))
              .sort((a, b) => (a.p.deadline < b.p.deadline ? -1 : a.p.deadline > b.p.deadline ? 1 : a.seq - b.seq));
            for (const y of due) {
              expect(pending.due(BigInt(o.now), false)).toBe(y.p);
              y.gone = true;
              pending.remove(y.p);
            }
            expect(pending.due(BigInt(o.now), false)).toBeUndefined();
          }
        }
        const live = all.filter((y) => !y.gone).map((y) => y.p.deadline);
        expect(pending.nextDeadline()).toBe(live.length ? live.reduce((a, b) => (a < b ? a : b)) : undefined);
        expect(pending.size).toBe(live.length);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});
