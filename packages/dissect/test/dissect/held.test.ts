/**
 * What one pass's held frames take (held.ts): the blocks their bytes are copied into, whole,
 * and the arrays' slots, counted by `bytes` (what `maxHeldBytes` bounds), not only the bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeldFrames, SLOT_BYTES } from '../../src/held.ts';
import { MICROSECONDS, NANOSECONDS, timeResolution, type Timestamp } from '../../src/capture/timestamp.ts';

const MIB = 1 << 20;
const frame = (index: number, length = 100) => ({
  index,
  linkType: 1,
  data: new Uint8Array(length).fill(index & 0xff),
  originalLength: length + 4,
  timestamp: { seconds: 1_700_000_000, ticks: index, resolution: NANOSECONDS },
});

describe('HeldFrames', () => {
  it('counts its blocks whole: one frame left keeps its block, and its block goes with it', () => {
    const held = new HeldFrames();
    const n = 20_000;
    for (let i = 1; i <= n; i++) held.put(frame(i), i === 1 ? null : frame(i - 1).timestamp);
    // 2 MB of frames: two blocks, the arrays' slots beside them.
    const slots = (b: number) => (b - 2 * MIB) / SLOT_BYTES;
    expect(slots(held.bytes)).toBeGreaterThanOrEqual(n);
    for (let i = 2; i <= n; i++) {
      const f = held.take(i)!;
      expect(f.data[0]).toBe(i & 0xff);
      expect(f.originalLength).toBe(104);
      expect(f.timestamp).toEqual(frame(i).timestamp);
      expect(f.previousTimestamp).toEqual(frame(i - 1).timestamp);
    }
    expect(held.size).toBe(1);
    // Frame 1 still holds the first block.
    expect(held.bytes).toBeGreaterThanOrEqual(2 * MIB);
    const first = held.shift();
    expect(first.previousTimestamp).toBeNull();
    expect(held.size).toBe(0);
    // The burst past, one block (the one being filled) and the arrays of their first size.
    expect(held.bytes).toBe(MIB + 1024 * SLOT_BYTES);
  });

  it('gives back the time of the frame before each exactly, at any resolution, the same as its own or not', () => {
    const resolutions = [NANOSECONDS, MICROSECONDS, timeResolution(2, 32)!, timeResolution(10, 15)!, timeResolution(10, 0)!];
    const time = fc
      .tuple(fc.constantFrom(...resolutions), fc.integer({ min: -5, max: 4_000_000_000 }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([resolution, seconds, at]): Timestamp => ({
        seconds,
        ticks: Math.min(resolution.ticksPerSecond - 1, Math.floor(at * resolution.ticksPerSecond)),
        resolution,
      }));
    const near = (t: Timestamp, back: number): Timestamp => {
      // A time up to `back` ticks before `t`, at its resolution (the usual case: the frame just before).
      const ticks = t.ticks - back;
      const borrow = Math.floor(ticks / t.resolution.ticksPerSecond);
      return { seconds: t.seconds + borrow, ticks: ticks - borrow * t.resolution.ticksPerSecond, resolution: t.resolution };
    };
    const pair = fc.oneof(
      fc.tuple(time, time),
      fc.tuple(time, fc.integer({ min: -1_000_000, max: 5_000_000_000 })).map(([t, back]) => [t, near(t, back)] as const),
    );
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 20 }), (pairs) => {
        const held = new HeldFrames();
        pairs.forEach(([own, previous], i) => held.put({ ...frame(i + 1), timestamp: own }, previous));
        pairs.forEach(([own, previous], i) => {
          const f = held.take(i + 1)!;
          expect(f.timestamp).toEqual(own);
          expect(f.previousTimestamp).toEqual(previous);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('gives back a bare payload, and a frame without a time, as they were put', () => {
    const held = new HeldFrames();
    held.put({ index: 7, payload: Uint8Array.of(1, 2, 3) });
    held.put({ ...frame(8), timestamp: null }, undefined);
    const payload = held.take(7)!;
    expect(payload).toMatchObject({ index: 7, payload: true, timestamp: null });
    expect([...payload.data]).toEqual([1, 2, 3]);
    expect('previousTimestamp' in payload).toBe(false);
    expect(held.take(8)).toMatchObject({ index: 8, payload: false, linkType: 1, timestamp: null });
  });
});
