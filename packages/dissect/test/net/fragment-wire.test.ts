/**
 * The wire bytes of a reassembled datagram (FragmentWire): its fragments' frames held until
 * it completes, the oldest let go past the limit, against a model that keeps them all in
 * frame order. Fragments of datagrams that complete and of ones that never do are mixed,
 * and frame numbers skip, as frames that are not fragments fall between them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FragmentWire } from '../../src/net/fragment-wire.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

describe('FragmentWire', () => {
  it('counts the frames of the fragments still held, letting the oldest go past the limit, as a model does', () => {
    const LIMIT = FragmentWire.LIMIT;
    const op = fc.oneof(
      // A fragment held, `gap` frames after the last one.
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('hold' as const), gap: fc.integer({ min: 1, max: 3 }), wire: fc.nat(1500) }) },
      // A datagram completes with the frame after the last one: fragments picked among those held lately and long ago.
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('complete' as const),
          back: fc.array(fc.nat(3 * LIMIT), { maxLength: 4 }),
          wire: fc.nat(1500),
        }),
      },
      // Many fragments that never complete: the limit is reached and passed.
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('flood' as const), count: fc.integer({ min: 1, max: LIMIT + 100 }) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        const w = new FragmentWire();
        // The model: every fragment held, in frame order (`order` from `first`), the ones gone deleted from `model`.
        const model = new Map<number, number>();
        const order: number[] = [];
        let first = 0;
        let frame = 0;
        const hold = (wire: number, gap: number): void => {
          frame += gap;
          if (model.size >= LIMIT) {
            while (!model.has(order[first]!)) first++;
            model.delete(order[first++]!);
          }
          model.set(frame, wire);
          order.push(frame);
          w.hold(frame, wire);
        };
        for (const o of ops) {
          if (o.kind === 'hold') hold(o.wire, o.gap);
          else if (o.kind === 'flood') for (let i = 0; i < o.count; i++) hold(i & 0xff, 1);
          else {
            const fragments = [...new Set(o.back.map((b) => frame - b).filter((f) => f >= 1))].sort((a, b) => a - b);
            frame++;
            let want = o.wire;
            for (const f of fragments) {
              want += model.get(f) ?? 0;
              model.delete(f);
            }
            expect(w.total([...fragments, frame], frame, o.wire)).toBe(want);
          }
        }
        // Every frame still held counts, and none let go does.
        const all = [...model.keys()];
        frame++;
        expect(w.total([...all, frame], frame, 0)).toBe(all.reduce((n, f) => n + model.get(f)!, 0));
      }),
      { numRuns: Math.max(5, Math.floor(runs / 10)) },
    );
  });

  it('lets go of the oldest fragment held once the limit is reached, one for each held after', () => {
    const w = new FragmentWire();
    const LIMIT = FragmentWire.LIMIT;
    // Fragments at every other frame: 1, 3, 5, ...
    for (let i = 0; i < LIMIT + 10; i++) w.hold(1 + 2 * i, 100);
    // The first ten went (1 to 19); the eleventh (21) and the last are held.
    const last = 1 + 2 * (LIMIT + 9);
    expect(w.total([1, 19, 21, last, 1e9], 1e9, 1)).toBe(1 + 100 + 100);
  });

  it('lets go of the lowest frame held first, one held out of order included', () => {
    const w = new FragmentWire();
    const LIMIT = FragmentWire.LIMIT;
    // Frames 1000 and up, one past the limit: 1000 goes.
    for (let i = 0; i <= LIMIT; i++) w.hold(1000 + i, 100);
    // Frame 5 comes late, at the limit (1001 goes); the next one makes room by letting 5 go, not 1002.
    w.hold(5, 7);
    w.hold(1001 + LIMIT, 100);
    expect(w.total([5, 1e9], 1e9, 0)).toBe(0);
    expect(w.total([1001, 1002, 1e9 + 1], 1e9 + 1, 0)).toBe(100);
  });
});
