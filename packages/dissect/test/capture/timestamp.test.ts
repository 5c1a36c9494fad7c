import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSink } from '@gamequery/codec/internal';
import {
  clockTime,
  compareTimestamps,
  formatTimestamp,
  MICROSECONDS,
  NANOSECONDS,
  splitTicks,
  timeResolution,
  timestampDifference,
  timestampToNumber,
  type TimeResolution,
  type Timestamp,
} from '../../src/capture/index.ts';
import { writeTimestamp } from '../../src/internal.ts';

const ts = (seconds: number, ticks: number, resolution: TimeResolution): Timestamp => ({ seconds, ticks, resolution });

/** A deterministic 32-bit pseudo-random sequence (xorshift), so failures reproduce. */
function* random32(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield x >>> 0;
  }
}

describe('splitTicks', () => {
  const resolutions = [
    MICROSECONDS,
    NANOSECONDS,
    timeResolution(10, 0)!,
    timeResolution(10, 3)!,
    timeResolution(10, 12)!,
    timeResolution(10, 15)!,
    timeResolution(2, 0)!,
    timeResolution(2, 20)!,
    timeResolution(2, 32)!,
    timeResolution(2, 40)!,
    timeResolution(2, 53)!,
  ];

  it('agrees with bigint division on 5000 random 64-bit tick counts per resolution', () => {
    const next = random32(0x9e3779b9);
    for (const resolution of resolutions) {
      const tps = BigInt(resolution.ticksPerSecond);
      for (let i = 0; i < 5000; i++) {
        // Mix small, realistic (around 1.7e18 ns) and arbitrary high halves.
        const high = i % 3 === 0 ? next.next().value >>> 12 : i % 3 === 1 ? 0x17a00000 + (next.next().value & 0xffffff) : next.next().value;
        const low = next.next().value;
        const count = (BigInt(high) << 32n) | BigInt(low);
        const seconds = count / tps;
        const result = splitTicks(high, low, resolution);
        if (seconds > BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(result).toBeUndefined();
        } else {
          expect(result).toEqual([Number(seconds), Number(count % tps)]);
        }
      }
    }
  });

  it('splits the edge values exactly', () => {
    expect(splitTicks(0, 0, NANOSECONDS)).toEqual([0, 0]);
    expect(splitTicks(0xffffffff, 0xffffffff, NANOSECONDS)).toEqual([18446744073, 709551615]);
    // One tick before a whole second, where a rounded double division would say the next second.
    const count = 1_700_000_000n * 1_000_000_000n - 1n;
    expect(splitTicks(Number(count >> 32n), Number(count & 0xffffffffn), NANOSECONDS)).toEqual([1_699_999_999, 999_999_999]);
    expect(splitTicks(0, 0xffffffff, timeResolution(2, 0)!)).toEqual([0xffffffff, 0]);
    expect(splitTicks(0xffffffff, 0xffffffff, timeResolution(2, 0)!)).toBeUndefined();
  });
});

describe('timeResolution', () => {
  it('shares one object per resolution and refuses ones finer than 2^-53', () => {
    expect(timeResolution(10, 6)).toBe(MICROSECONDS);
    expect(timeResolution(2, 10)).toEqual({ base: 2, exponent: 10, ticksPerSecond: 1024, decimals: 10 });
    expect(timeResolution(10, 15)).toBeDefined();
    expect(timeResolution(10, 16)).toBeUndefined();
    expect(timeResolution(2, 54)).toBeUndefined();
  });
});

describe('formatTimestamp', () => {
  it("writes the capture resolution's number of decimals", () => {
    expect(formatTimestamp(ts(1700000000, 123456, MICROSECONDS))).toBe('1700000000.123456');
    expect(formatTimestamp(ts(1700000000, 5, MICROSECONDS))).toBe('1700000000.000005');
    expect(formatTimestamp(ts(1700000000, 123456789, NANOSECONDS))).toBe('1700000000.123456789');
    expect(formatTimestamp(ts(0, 0, NANOSECONDS))).toBe('0.000000000');
    expect(formatTimestamp(ts(12, 0, timeResolution(10, 0)!))).toBe('12');
    expect(formatTimestamp(ts(-5, 250, timeResolution(10, 3)!))).toBe('-4.750');
  });

  it('writes 2^-n fractions exactly with n decimals', () => {
    expect(formatTimestamp(ts(1, 1, timeResolution(2, 1)!))).toBe('1.5');
    expect(formatTimestamp(ts(1700000000, 3, timeResolution(2, 4)!))).toBe('1700000000.1875');
    expect(formatTimestamp(ts(7, 1, timeResolution(2, 20)!))).toBe('7.00000095367431640625');
  });
});

describe('writeTimestamp', () => {
  it('writes formatTimestamp as a JSON string, in every resolution, negative seconds too', () => {
    const resolutions = [
      MICROSECONDS,
      NANOSECONDS,
      timeResolution(10, 0)!,
      timeResolution(10, 3)!,
      timeResolution(2, 1)!,
      timeResolution(2, 20)!,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...resolutions),
        fc.integer({ min: -1e6, max: 4e9 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (r, seconds, part) => {
          const t = ts(seconds, Math.floor(part * r.ticksPerSecond), r);
          const sink = new ByteSink(16);
          sink.ascii('x');
          writeTimestamp(sink, t);
          expect(sink.text()).toBe(`x${JSON.stringify(formatTimestamp(t))}`);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('timestampDifference', () => {
  it('subtracts exactly at the finer of the two resolutions', () => {
    expect(timestampDifference(ts(1700000000, 135956, MICROSECONDS), ts(1700000000, 123456, MICROSECONDS))).toBe('0.012500');
    expect(timestampDifference(ts(1700000001, 2500000, NANOSECONDS), ts(1700000000, 990000000, NANOSECONDS))).toBe('0.012500000');
    expect(timestampDifference(ts(1700000000, 0, MICROSECONDS), ts(1700000000, 500000, MICROSECONDS))).toBe('-0.500000');
    expect(timestampDifference(ts(10, 1, NANOSECONDS), ts(10, 0, MICROSECONDS))).toBe('0.000000001');
    expect(timestampDifference(ts(10, 1, timeResolution(2, 3)!), ts(10, 1, MICROSECONDS))).toBe('0.124999');
  });

  it('has no float drift where doubles would', () => {
    const a = ts(1700000000, 100000001, NANOSECONDS);
    const b = ts(1700000000, 100000000, NANOSECONDS);
    expect(timestampToNumber(a) - timestampToNumber(b)).not.toBe(1e-9); // doubles cannot hold this
    expect(timestampDifference(a, b)).toBe('0.000000001');
  });

  it('gives the exact decimal difference at any distance, in and beyond the range of plain integers', () => {
    const exact = (x: Timestamp, y: Timestamp): string => {
      const d = (BigInt(x.seconds) - BigInt(y.seconds)) * BigInt(x.resolution.ticksPerSecond) + BigInt(x.ticks - y.ticks);
      const digits = (d < 0n ? -d : d).toString().padStart(x.resolution.decimals + 1, '0');
      const cut = digits.length - x.resolution.decimals;
      return `${d < 0n ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
    };
    const stamp = (r: TimeResolution) =>
      fc
        .record({
          seconds: fc.oneof(
            fc.nat(0xffffffff),
            fc.nat(1e9).map((n) => 1_700_000_000 + n),
          ),
          ticks: fc.nat(r.ticksPerSecond - 1),
        })
        .map(({ seconds, ticks }) => ts(seconds, ticks, r));
    for (const r of [MICROSECONDS, NANOSECONDS, timeResolution(10, 3)!]) {
      fc.assert(
        fc.property(stamp(r), stamp(r), (x, y) => {
          expect(timestampDifference(x, y)).toBe(exact(x, y));
        }),
        { numRuns: 500, seed: 3 },
      );
    }
  });
});

describe('compareTimestamps and timestampToNumber', () => {
  it('orders across resolutions exactly', () => {
    expect(compareTimestamps(ts(5, 1, NANOSECONDS), ts(5, 0, MICROSECONDS))).toBeGreaterThan(0);
    expect(compareTimestamps(ts(5, 1000, NANOSECONDS), ts(5, 1, MICROSECONDS))).toBe(0);
    expect(compareTimestamps(ts(4, 999999, MICROSECONDS), ts(5, 0, NANOSECONDS))).toBeLessThan(0);
    expect(timestampToNumber(ts(1700000000, 250000, MICROSECONDS))).toBe(1700000000.25);
  });
});

describe('clockTime (-t a, ad, adoy, u, ud, udoy)', () => {
  it('writes the time of day, the date or the day of the year, and the fraction exactly at the resolution', () => {
    // 2024-12-31 23:59:59 UTC: the last day of a leap year is its 366th.
    const t = ts(1735689599, 123456789, NANOSECONDS);
    expect(clockTime(t, true, 'none')).toBe('23:59:59.123456789');
    expect(clockTime(t, true, 'ymd')).toBe('2024-12-31 23:59:59.123456789');
    expect(clockTime(t, true, 'doy')).toBe('2024/366 23:59:59.123456789');
    expect(clockTime(ts(0, 7, MICROSECONDS), true, 'ymd')).toBe('1970-01-01 00:00:00.000007');
    // A binary resolution (pcapng if_tsresol 2^-4): its places exactly, as formatTimestamp writes them.
    expect(clockTime(ts(60, 8, timeResolution(2, 4)!), true, 'none')).toBe('00:01:00.5000');
    // Before the epoch (a negative if_tsoffset): whole seconds down, the ticks after them.
    expect(clockTime(ts(-1, 500000, MICROSECONDS), true, 'ymd')).toBe('1969-12-31 23:59:59.500000');
  });
});
