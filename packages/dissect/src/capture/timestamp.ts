/**
 * Exact capture timestamps.
 *
 * A timestamp is whole seconds since the Unix epoch plus a sub-second count of ticks at the resolution the
 * capture file declares: 10^-6 (classic pcap), 10^-9 (nanosecond pcap, pcapng default of dumpcap) or any
 * 10^-n / 2^-n of a pcapng `if_tsresol` option. Both parts are integers held in doubles, exact while they
 * stay below 2^53: readers reject resolutions finer than {@link MAX_TICKS_PER_SECOND}, and the formatting and
 * difference helpers below work in bigint, so no value is ever rounded on the exact paths.
 * @module
 */
import type { ByteSink } from '@gamequery/codec/internal';

/** A timestamp resolution: ticks of `base`^-`exponent` seconds. */
export interface TimeResolution {
  readonly base: 10 | 2;
  readonly exponent: number;
  /** base^exponent, the number of ticks in one second. */
  readonly ticksPerSecond: number;
  /** Decimal places that write one tick exactly: n for 10^-n, and also n for 2^-n (2^-n = 5^n / 10^n). */
  readonly decimals: number;
}

/** A point in capture time, exact at its resolution. */
export interface Timestamp {
  /** Whole seconds since 1970-01-01T00:00:00Z (negative only after a negative pcapng `if_tsoffset`). */
  readonly seconds: number;
  /** Sub-second part in ticks: 0 ≤ ticks < resolution.ticksPerSecond. */
  readonly ticks: number;
  readonly resolution: TimeResolution;
}

/** The finest resolution readers accept: tick counts below 2^53 are exact in a double. */
export const MAX_TICKS_PER_SECOND: number = 2 ** 53;

const resolutions = new Map<number, TimeResolution>();

/**
 * The shared resolution object for `base`^-`exponent` seconds, or `undefined` when it is finer than
 * {@link MAX_TICKS_PER_SECOND}.
 */
export function timeResolution(base: 10 | 2, exponent: number): TimeResolution | undefined {
  const ticksPerSecond = base ** exponent;
  if (!Number.isInteger(exponent) || exponent < 0 || ticksPerSecond > MAX_TICKS_PER_SECOND) return undefined;
  const key = base * 256 + exponent;
  let resolution = resolutions.get(key);
  if (resolution === undefined) {
    resolution = Object.freeze({ base, exponent, ticksPerSecond, decimals: exponent });
    resolutions.set(key, resolution);
  }
  return resolution;
}

/** Microseconds: classic pcap (magic a1b2c3d4) and the pcapng default. */
export const MICROSECONDS: TimeResolution = timeResolution(10, 6)!;
/** Nanoseconds: pcap magic a1b23c4d, dumpcap's pcapng. */
export const NANOSECONDS: TimeResolution = timeResolution(10, 9)!;

/**
 * Splits a 64-bit tick count given as two unsigned 32-bit halves into whole seconds and remaining ticks,
 * without bigint for resolutions up to 2^32 ticks per second. Returns `undefined` when the seconds do not
 * fit in 2^53.
 */
export function splitTicks(high: number, low: number, resolution: TimeResolution): [number, number] | undefined {
  const tps = resolution.ticksPerSecond;
  let seconds: number;
  let ticks: number;
  if (high < 0x200000) {
    // Below 2^53: the whole count is exact in a double.
    [seconds, ticks] = divide(high * 0x1_0000_0000 + low, tps);
  } else if (tps <= 0x1_0000_0000) {
    // Long division in base 2^16: every partial dividend stays below 2^48.
    const [qHigh, rHigh] = divide(high, tps);
    const [qMid, rMid] = divide(rHigh * 0x10000 + (low >>> 16), tps);
    const [qLow, rLow] = divide(rMid * 0x10000 + (low & 0xffff), tps);
    seconds = qHigh * 0x1_0000_0000 + qMid * 0x10000 + qLow;
    ticks = rLow;
  } else {
    const count = (BigInt(high) << 32n) | BigInt(low);
    const bigTps = BigInt(tps);
    seconds = Number(count / bigTps);
    ticks = Number(count % bigTps);
  }
  return Number.isSafeInteger(seconds) ? [seconds, ticks] : undefined;
}

/** Floor division of non-negative integers below 2^53, corrected for the rounding of `a / b`. */
function divide(a: number, b: number): [number, number] {
  let q = Math.floor(a / b);
  let r = a - q * b;
  if (r < 0) {
    q -= 1;
    r += b;
  } else if (r >= b) {
    q += 1;
    r -= b;
  }
  return [q, r];
}

const TEN = 10n;

/** The timestamp as a count of 10^-`decimals` seconds; exact whenever decimals ≥ resolution.decimals. */
function scaled(ts: Timestamp, decimals: number): bigint {
  const { base, exponent } = ts.resolution;
  const unit = TEN ** BigInt(decimals);
  // ticks / base^exponent = ticks × (10^decimals / base^exponent) / 10^decimals, and the factor is an integer.
  const factor = unit / BigInt(base) ** BigInt(exponent);
  return BigInt(ts.seconds) * unit + BigInt(ts.ticks) * factor;
}

function decimalString(value: bigint | number, decimals: number): string {
  const negative = value < 0;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const text = decimals === 0 ? whole : `${whole}.${digits.slice(digits.length - decimals)}`;
  return negative ? `-${text}` : text;
}

/**
 * Seconds since the epoch as a decimal string with the resolution's number of places, exactly:
 * `"1700000000.123456"` (µs), `"1700000000.123456789"` (ns), `"1700000000.5000"` (2^-4).
 */
export function formatTimestamp(ts: Timestamp): string {
  if (countsDecimals(ts)) return `${ts.seconds}.${String(ts.ticks).padStart(ts.resolution.decimals, '0')}`;
  return decimalString(scaled(ts, ts.resolution.decimals), ts.resolution.decimals);
}

/** Decimal resolutions (µs, ns, …) count ticks in exactly the places shown: no arithmetic needed. */
const countsDecimals = (ts: Timestamp): boolean => ts.resolution.base === 10 && ts.resolution.decimals > 0 && ts.seconds >= 0;

/** {@link formatTimestamp} as a JSON string, written into `sink` digit by digit (NDJSON output writes one a packet). */
export function writeTimestamp(sink: ByteSink, ts: Timestamp): void {
  if (!countsDecimals(ts)) {
    sink.string(formatTimestamp(ts));
    return;
  }
  const decimals = ts.resolution.decimals;
  sink.ascii('"');
  sink.number(ts.seconds);
  sink.reserve(decimals + 2);
  const buf = sink.buf;
  let at = sink.at;
  buf[at++] = 0x2e;
  let ticks = ts.ticks;
  if (decimals <= 9) {
    // Below 10^9 < 2^31 (µs, ns): int32 division, several times faster than `Math.floor` of a float one.
    for (let i = at + decimals - 1; i >= at; i--) {
      const q = (ticks / 10) | 0;
      buf[i] = 0x30 + (ticks - q * 10);
      ticks = q;
    }
  } else {
    for (let i = at + decimals - 1; i >= at; i--) {
      const q = Math.floor(ticks / 10);
      buf[i] = 0x30 + (ticks - q * 10);
      ticks = q;
    }
  }
  at += decimals;
  buf[at++] = 0x22;
  sink.at = at;
}

/**
 * `later - earlier` in seconds as an exact decimal string, with as many places as the finer of the two
 * resolutions needs: `"0.012500"` between µs timestamps, `"0.012500000"` between ns ones, `"-0.5"` …
 */
export function timestampDifference(later: Timestamp, earlier: Timestamp): string {
  const r = later.resolution;
  // The same decimal resolution, seconds apart by less than 2^53 ticks: plain integer arithmetic is exact.
  if (
    r === earlier.resolution &&
    r.base === 10 &&
    Math.abs(later.seconds - earlier.seconds) < Number.MAX_SAFE_INTEGER / r.ticksPerSecond / 2
  ) {
    const ticks = (later.seconds - earlier.seconds) * r.ticksPerSecond + (later.ticks - earlier.ticks);
    return decimalString(ticks, r.decimals);
  }
  const decimals = Math.max(later.resolution.decimals, earlier.resolution.decimals);
  return decimalString(scaled(later, decimals) - scaled(earlier, decimals), decimals);
}

/** Orders two timestamps exactly: negative if a is earlier, 0 if equal, positive if later. */
export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.seconds !== b.seconds) return a.seconds - b.seconds;
  if (a.resolution === b.resolution) return a.ticks - b.ticks;
  const decimals = Math.max(a.resolution.decimals, b.resolution.decimals);
  const d = scaled(a, decimals) - scaled(b, decimals);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** Seconds since the epoch as a JS number, for display and rough arithmetic only (not exact). */
export function timestampToNumber(ts: Timestamp): number {
  return ts.seconds + ts.ticks / ts.resolution.ticksPerSecond;
}

/** Seconds as tshark prints a time: nine places, however fine the capture's clock. */
export function nanoseconds(seconds: string): string {
  const dot = seconds.indexOf('.');
  if (dot < 0) return `${seconds}.000000000`;
  const places = seconds.length - dot - 1;
  return places >= 9 ? seconds.slice(0, dot + 10) : seconds + '0'.repeat(9 - places);
}

/**
 * tshark's `-t` formats of the summary lines' time column: `r` seconds since the first frame (its
 * default), `d` since the frame before, `dd` since the packet shown before, `e` since the epoch,
 * `a`/`u` the time of day (local, UTC), `ad`/`ud` with the date, `adoy`/`udoy` with the year and day
 * of the year (`2026/326`).
 */
export const TIME_FORMATS = ['r', 'd', 'dd', 'e', 'a', 'ad', 'adoy', 'u', 'ud', 'udoy'] as const;
/** One of {@link TIME_FORMATS}. */
export type TimeFormat = (typeof TIME_FORMATS)[number];

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * A timestamp as a clock shows it, as tshark's `-t a|ad|adoy|u|ud|udoy` writes it: the date if asked
 * (`2026-11-22` or `2026/326`), the time of day (`11:15:58`), and the seconds' fraction exactly, in the
 * resolution's places. `utc`: else in the local time zone (TZ), as tshark.
 */
export function clockTime(ts: Timestamp, utc: boolean, date: 'none' | 'ymd' | 'doy'): string {
  // Whole seconds and ticks (0 ≤ ticks < a second): the fraction is the ticks' alone, whatever the sign of the seconds.
  const fraction = formatTimestamp({ seconds: 0, ticks: ts.ticks, resolution: ts.resolution });
  const d = new Date(ts.seconds * 1000);
  const year = utc ? d.getUTCFullYear() : d.getFullYear();
  const month = utc ? d.getUTCMonth() : d.getMonth();
  const day = utc ? d.getUTCDate() : d.getDate();
  const time = `${two(utc ? d.getUTCHours() : d.getHours())}:${two(utc ? d.getUTCMinutes() : d.getMinutes())}:${two(
    utc ? d.getUTCSeconds() : d.getSeconds(),
  )}${fraction.includes('.') ? fraction.slice(fraction.indexOf('.')) : ''}`;
  const yyyy = String(year).padStart(4, '0');
  if (date === 'ymd') return `${yyyy}-${two(month + 1)}-${two(day)} ${time}`;
  if (date === 'doy') {
    const doy = Math.round((Date.UTC(year, month, day) - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
    return `${yyyy}/${String(doy).padStart(3, '0')} ${time}`;
  }
  return time;
}

/** How a time column is written (tshark's `-t`), and for `dd` the time of the packet shown before (none: this is the first). */
export interface TimeColumn {
  readonly format: TimeFormat;
  readonly shownBefore?: Timestamp | null;
}

/** The default time column: seconds since the capture's first frame. */
export const RELATIVE: TimeColumn = { format: 'r' };

/**
 * A time column (the summary lines', `_ws.col.Time`) of a frame at `t`, as `column` asks: `start`
 * is the capture's first frame's time, `previous` the frame before's (the first frame's own).
 */
export function timeColumnText(
  t: Timestamp,
  start: Timestamp | null | undefined,
  previous: Timestamp | null | undefined,
  column: TimeColumn,
): string {
  switch (column.format) {
    case 'r':
      return timestampDifference(t, start ?? t);
    case 'd':
      return timestampDifference(t, previous ?? t);
    case 'dd':
      return timestampDifference(t, column.shownBefore ?? t);
    case 'e':
      return formatTimestamp(t);
    default: {
      const f = column.format;
      return clockTime(t, f[0] === 'u', f.endsWith('doy') ? 'doy' : f.length > 1 ? 'ymd' : 'none');
    }
  }
}
