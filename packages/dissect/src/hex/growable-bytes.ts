/**
 * The bytes of a packet being read from a hex dump, growing as rows arrive: appends are
 * amortised O(1) (capacity doubles), so reading a dump of n bytes costs O(n) however it
 * arrives. Not the codec's `ByteSink`, which writes JSON and text as UTF-8.
 */
export class GrowableBytes {
  private buffer: Uint8Array;
  private used = 0;

  constructor(initialCapacity: number = 256) {
    this.buffer = new Uint8Array(Math.max(16, initialCapacity));
  }

  get length(): number {
    return this.used;
  }

  push(byte: number): void {
    if (this.used === this.buffer.length) this.grow(this.used + 1);
    this.buffer[this.used++] = byte;
  }

  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** Appends `count` bytes taken cyclically from `pattern` (how a `*` repeat line is expanded). */
  appendRepeated(pattern: Uint8Array, count: number): void {
    if (count <= 0 || pattern.length === 0) return;
    this.reserve(count);
    let written = 0;
    while (written < count) {
      const take = Math.min(pattern.length, count - written);
      this.buffer.set(take === pattern.length ? pattern : pattern.subarray(0, take), this.used + written);
      written += take;
    }
    this.used += count;
  }

  appendZeros(count: number): void {
    if (count <= 0) return;
    this.reserve(count);
    this.buffer.fill(0, this.used, this.used + count);
    this.used += count;
  }

  /** Drops bytes past `length`. */
  truncate(length: number): void {
    if (length < this.used) this.used = Math.max(0, length);
  }

  /** A copy of the bytes written so far, exactly `length` long. */
  toBytes(): Uint8Array {
    return this.buffer.slice(0, this.used);
  }

  private reserve(extra: number): void {
    if (this.used + extra > this.buffer.length) this.grow(this.used + extra);
  }

  private grow(needed: number): void {
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.used));
    this.buffer = next;
  }
}
