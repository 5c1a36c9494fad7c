/**
 * A growable byte buffer that JSON is written into as UTF-8: what the dissector's fast
 * path writes its NDJSON lines with. Text written here never exists as a JavaScript
 * string, so there is no rope of a hundred pieces to flatten and no encoding pass at the
 * end, which measured as much as the decode itself.
 *
 * Written by hand because it has to be: `TextEncoder.encodeInto` costs a call and a
 * subarray per piece, far more than the handful of bytes most pieces are, and no
 * maintained package writes JSON into a caller's buffer. Browser-safe (no `Buffer`).
 */

const HEX = '0123456789abcdef';
/** From this many characters on, {@link ByteSink.raw} encodes natively. */
const LONG_TEXT = 256;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Encodes text that is known to be ASCII (keys, constant parts) once, for {@link ByteSink.bytes}. */
export const asciiBytes = (text: string): Uint8Array => encoder.encode(text);

/** The escape JSON.stringify writes for a character, or undefined for one written as it is. */
const shortEscapes: Readonly<Record<number, string>> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
  0x22: '\\"',
  0x5c: '\\\\',
};

/** A growable byte buffer that JSON is written into as UTF-8 (see the module comment above). */
export class ByteSink {
  /** The buffer; replaced by a larger one when it runs out (so do not keep it across writes). */
  buf: Uint8Array;
  /** Where the next byte goes. */
  at = 0;

  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.buf.subarray(0, this.at));
    this.buf = bigger;
  }

  /** Copies bytes (a pre-encoded constant, or JSON written elsewhere). */
  bytes(b: Uint8Array): void {
    const n = b.length;
    this.reserve(n);
    const buf = this.buf;
    let at = this.at;
    // A loop beats `set` (a call and bounds checks) for the short pieces that are most of them.
    if (n < 24) for (let i = 0; i < n; i++) buf[at++] = b[i]!;
    else {
      buf.set(b, at);
      at += n;
    }
    this.at = at;
  }

  /** Copies `b[start, end)` (a record's tree JSON, a range of the dissector's arena). */
  range(b: Uint8Array, start: number, end: number): void {
    this.bytes(b.subarray(start, end));
  }

  /** Writes text known to be ASCII with nothing to escape (digits, keys, addresses). */
  ascii(text: string): void {
    const n = text.length;
    this.reserve(n);
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) buf[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /** Writes a number as `JSON.stringify` does. */
  number(n: number): void {
    if (!Number.isSafeInteger(n)) {
      this.ascii(JSON.stringify(n));
      return;
    }
    this.reserve(17);
    const buf = this.buf;
    let at = this.at;
    if (n < 0) {
      buf[at++] = 0x2d;
      n = -n;
    }
    if (n < 10) buf[at++] = 0x30 + n;
    else if (n < 0x80000000) {
      // Below 2^31 (frame numbers, ports, offsets, capture seconds until 2038): int32 arithmetic, digits counted by comparison.
      at = smallDigits(buf, at, n);
    } else {
      // Nine digits at a time, so every division is of an int32 (float division and `Math.floor`
      // per digit measured several times slower): n < 2^53 has at most seven above them.
      let high = Math.floor(n / 1e9);
      let low = n - high * 1e9;
      if (low < 0) {
        // The quotient rounded up (n just below a multiple of 10^9, near 2^53).
        high--;
        low += 1e9;
      }
      at = smallDigits(buf, at, high);
      padded(buf, at, at + 9, low);
      at += 9;
    }
    this.at = at;
  }

  /** Writes `n` (0 ≤ n < 2^31) in exactly `width` decimal digits, zero-padded on the left (a time's nine places). */
  padded(n: number, width: number): void {
    this.reserve(width);
    padded(this.buf, this.at, this.at + width, n);
    this.at += width;
  }

  /** Writes `JSON.stringify(text)` as UTF-8: quotes, escapes, and lone surrogates as `\udxxx`. */
  string(text: string): void {
    const n = text.length;
    // At most 6 bytes per UTF-16 unit (a `\u00xx` escape), and the quotes.
    this.reserve(n * 6 + 2);
    const buf = this.buf;
    let at = this.at;
    buf[at++] = 0x22;
    // Printable ASCII (summaries, names, times: nearly all text here) in a tight loop of its
    // own, quotes and backslashes included: measured twice as fast as the general loop.
    let i = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c >= 0x7f) break;
      if (c === 0x22 || c === 0x5c) buf[at++] = 0x5c;
      buf[at++] = c;
    }
    if (i < n) at = utf8(buf, at, text, true, i);
    buf[at++] = 0x22;
    this.at = at;
  }

  /**
   * Writes text as UTF-8 as it stands: JSON made elsewhere (`JSON.stringify`), spliced in.
   * A long text (a block of lines) goes through `TextEncoder.encodeInto`, whose call and
   * subarray cost less than the loop from a few hundred characters on.
   */
  raw(text: string): void {
    this.reserve(text.length * 3);
    if (text.length >= LONG_TEXT) this.at += encoder.encodeInto(text, this.buf.subarray(this.at)).written;
    else this.at = utf8(this.buf, this.at, text, false);
  }

  /** The bytes written since `from`, as a string (for APIs that return text). */
  text(from = 0): string {
    return decoder.decode(this.buf.subarray(from, this.at));
  }

  /** The bytes written since `from`, copied out. */
  copy(from = 0): Uint8Array {
    return this.buf.slice(from, this.at);
  }
}

/**
 * Writes `text` (from unit `from`) as UTF-8 at `at`; returns where it ended. With `escape`, as the inside of
 * a JSON string (JSON.stringify's escapes, a lone surrogate as `\udxxx`); without, as it
 * is (a lone surrogate as U+FFFD, as TextEncoder writes it).
 */
function utf8(buf: Uint8Array, at: number, text: string, escape: boolean, from = 0): number {
  const n = text.length;
  for (let i = from; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) {
      buf[at++] = c;
    } else if (c < 0x80) {
      const short = escape ? shortEscapes[c] : undefined;
      if (short !== undefined) {
        buf[at++] = 0x5c;
        buf[at++] = short.charCodeAt(1);
      } else if (c < 0x20 && escape) {
        at = escapeUnit(buf, at, c);
      } else {
        buf[at++] = c; // DEL, and anything unescaped: JSON leaves DEL as it is
      }
    } else if (c < 0x800) {
      buf[at++] = 0xc0 | (c >> 6);
      buf[at++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        buf[at++] = 0xf0 | (cp >> 18);
        buf[at++] = 0x80 | ((cp >> 12) & 0x3f);
        buf[at++] = 0x80 | ((cp >> 6) & 0x3f);
        buf[at++] = 0x80 | (cp & 0x3f);
        i++;
      } else if (escape) {
        at = escapeUnit(buf, at, c);
      } else {
        buf[at++] = 0xef;
        buf[at++] = 0xbf;
        buf[at++] = 0xbd;
      }
    } else {
      buf[at++] = 0xe0 | (c >> 12);
      buf[at++] = 0x80 | ((c >> 6) & 0x3f);
      buf[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at;
}

/** Writes `n` (0 ≤ n < 2^31) in decimal at `at`; returns where it ended. */
function smallDigits(buf: Uint8Array, at: number, n: number): number {
  const end =
    at +
    (n < 10
      ? 1
      : n < 100
        ? 2
        : n < 1000
          ? 3
          : n < 10000
            ? 4
            : n < 100000
              ? 5
              : n < 1000000
                ? 6
                : n < 10000000
                  ? 7
                  : n < 100000000
                    ? 8
                    : n < 1000000000
                      ? 9
                      : 10);
  padded(buf, at, end, n);
  return end;
}

/** Writes `n` (0 ≤ n < 2^31) in decimal into `buf[start, end)`, zero-padded on the left. */
function padded(buf: Uint8Array, start: number, end: number, n: number): void {
  let m = n | 0;
  for (let i = end - 1; i >= start; i--) {
    const q = (m / 10) | 0;
    buf[i] = 0x30 + (m - q * 10);
    m = q;
  }
}

/** `\uxxxx` with lowercase hex digits, as JSON.stringify writes it. */
function escapeUnit(buf: Uint8Array, at: number, c: number): number {
  buf[at++] = 0x5c;
  buf[at++] = 0x75;
  buf[at++] = HEX.charCodeAt(c >> 12);
  buf[at++] = HEX.charCodeAt((c >> 8) & 0xf);
  buf[at++] = HEX.charCodeAt((c >> 4) & 0xf);
  buf[at++] = HEX.charCodeAt(c & 0xf);
  return at;
}
