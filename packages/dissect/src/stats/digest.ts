/**
 * Round-trip times of one server in bounded memory: exact while there are few (most
 * servers of a scan answer a handful of queries), then a histogram of logarithmic
 * buckets, 64 to an octave, so a percentile read from it is within 0.55 % of the true
 * value. Minimum and maximum stay exact. A server that answered a million times holds
 * some hundreds of counts (an array up to its longest time's bucket), not a million numbers.
 */

/** Samples kept exactly before the histogram takes over. */
const EXACT = 64;
/** Samples below which the exact ones are copied into an array one longer, not pushed. */
const SMALL = 4;
/** No sample yet (shared: it is never written to). */
const NO_SAMPLES: readonly number[] = Object.freeze([]);
/** Buckets per doubling: a bucket spans a factor 2^(1/64), about 1.09 %; its midpoint is within half of that. */
const PER_OCTAVE = 64;

/** The round-trip times of one server, in bounded memory (see the module comment). */
export class RttDigest {
  count = 0;
  min = Infinity;
  max = -Infinity;
  /** The samples while {@link EXACT} or fewer, in seconds (an array of doubles: V8 keeps them unboxed). */
  #exact: readonly number[] | undefined = NO_SAMPLES;
  /**
   * Samples by bucket index (once past {@link EXACT}); times in microseconds, bucket b holds
   * (2^((b-1)/64), 2^(b/64)]. A dense array of counts from the lowest bucket seen ({@link #low}) to
   * the highest: a sample costs an index, where a map cost two lookups. From the lowest, not from
   * bucket 0 (1 µs): a server's times span some hundreds of buckets, where 0 up to them was some
   * 1 500, and the counts of 700 servers, read at random, stayed in the processor's cache no
   * more (3 % of `gamequery stats` on 1 M frames of a real mix, then). Counts of 32 bits, half
   * what an array of numbers took (a server's 300 buckets of a real mix: 1.2 KB, not 2.4 and
   * the array's slack): a scan's 150 000 servers, a capture's thousands. A count that would
   * pass 2^32 - 1 (a server answering for hours at a flood's rate) turns them into doubles.
   */
  #buckets: Uint32Array | Float64Array | undefined;
  /** The bucket index of `#buckets[0]`, and how many from it are in use (the array has room past them). */
  #low = 0;
  #used = 0;

  /** Adds a time in seconds. */
  add(seconds: number): void {
    this.count++;
    if (seconds < this.min) this.min = seconds;
    if (seconds > this.max) this.max = seconds;
    const exact = this.#exact;
    if (exact) {
      // A few samples in an array of their own length (a scan's server has one or two): an empty array pushed to
      // takes room for 17, some 150 bytes a server.
      let now = exact;
      // Copied by `concat`, which makes the array its length (spread, `[...exact, s]`, fills one by pushing: room for 17).
      if (exact.length < SMALL) now = this.#exact = exact.concat([seconds]);
      else (exact as number[]).push(seconds);
      if (now.length <= EXACT) return;
      this.#toBuckets();
      return;
    }
    this.#bucket(seconds);
  }

  /** Adds another digest's samples (for totals over servers). */
  merge(other: RttDigest): void {
    if (other.#exact) {
      // Its samples as they are now: merged into itself, `add` would push onto the array being read.
      for (const s of other === this ? [...other.#exact] : other.#exact) this.add(s);
      return;
    }
    if (this.#exact) this.#toBuckets();
    const theirs = other.#buckets!;
    for (let i = 0; i < other.#used; i++) if (theirs[i]) this.#add(other.#low + i, theirs[i]!);
    this.count += other.count;
    this.min = Math.min(this.min, other.min);
    this.max = Math.max(this.max, other.max);
  }

  /** Whether percentiles are exact (few samples) or read from the histogram. */
  get exact(): boolean {
    return this.#exact !== undefined;
  }

  /**
   * The `q`-quantile (0 < q ≤ 1) by nearest rank: the smallest sample with at least q of
   * them at or below it; from the histogram, its bucket's geometric midpoint, clamped to
   * the exact minimum and maximum. NaN without samples.
   */
  quantile(q: number): number {
    if (!this.count) return Number.NaN;
    const rank = Math.max(1, Math.ceil(q * this.count));
    const exact = this.#exact;
    // One sample (most servers of a scan): no copy to sort.
    if (exact) return exact.length === 1 ? exact[0]! : [...exact].sort((a, b) => a - b)[rank - 1]!;
    let seen = 0;
    const buckets = this.#buckets!;
    for (let i = 0; i < this.#used; i++) {
      if (!buckets[i]) continue;
      seen += buckets[i]!;
      if (seen >= rank) {
        const b = this.#low + i;
        const mid = 2 ** ((b - 0.5) / PER_OCTAVE) / 1e6;
        return Math.min(this.max, Math.max(this.min, mid));
      }
    }
    return this.max;
  }

  /**
   * The times as a histogram of `bins` bins of equal width on a log scale from the minimum to
   * the maximum (milliseconds): each bin's lower edge and count (the last bin includes the
   * maximum). From the histogram's buckets past {@link EXACT} samples, each counted at its midpoint.
   */
  histogram(bins = 16): { readonly edges: number[]; readonly counts: number[] } {
    if (!this.count) return { edges: [], counts: [] };
    const lo = Math.max(this.min * 1e3, 1e-3);
    const hi = Math.max(this.max * 1e3, lo * 1.0001);
    const step = Math.log(hi / lo) / bins;
    // Plain loops, no closure or callback: a scan's report makes one for each of 150 000 servers.
    const edges: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < bins; i++) {
      edges.push(lo * Math.exp(step * i));
      counts.push(0);
    }
    const exact = this.#exact;
    if (exact) {
      for (let k = 0; k < exact.length; k++) {
        const ms = exact[k]! * 1e3;
        counts[ms <= lo ? 0 : Math.min(bins - 1, Math.floor(Math.log(ms / lo) / step))]! += 1;
      }
    } else {
      const buckets = this.#buckets!;
      for (let i = 0; i < this.#used; i++) {
        if (!buckets[i]) continue;
        const ms = 2 ** ((this.#low + i - 0.5) / PER_OCTAVE) / 1e3;
        counts[ms <= lo ? 0 : Math.min(bins - 1, Math.floor(Math.log(ms / lo) / step))]! += buckets[i]!;
      }
    }
    return { edges, counts };
  }

  #bucket(seconds: number): void {
    const us = seconds * 1e6;
    // Times of a microsecond or less (and zero) share the lowest bucket.
    this.#add(us <= 1 ? 0 : Math.ceil(Math.log2(us) * PER_OCTAVE), 1);
  }

  /** From exact samples to buckets: the samples counted into them. */
  #toBuckets(): void {
    const exact = this.#exact!;
    this.#exact = undefined;
    this.#buckets = new Uint32Array(16);
    this.#used = 0;
    for (const s of exact) this.#bucket(s);
  }

  /** `n` more samples in bucket `b` (the counts grow by zeros to reach it, either way: they stay dense). */
  #add(b: number, n: number): void {
    let buckets = this.#buckets!;
    if (this.#used === 0) {
      this.#low = b;
      this.#used = 1;
    } else if (b < this.#low) {
      // Room for the buckets below, and as many again (times that reach lower come in steps).
      const below = this.#low - b;
      buckets = this.#grown(Math.max(buckets.length, this.#used + 2 * below), 2 * below);
      this.#low = b - below;
      this.#used += 2 * below;
    } else if (b - this.#low >= this.#used) {
      const used = b - this.#low + 1;
      if (used > buckets.length) buckets = this.#grown(Math.max(used, buckets.length * 2), 0);
      this.#used = used;
    }
    const i = b - this.#low;
    const c = buckets[i]! + n;
    if (c > 0xffffffff && buckets instanceof Uint32Array) buckets = this.#buckets = Float64Array.from(buckets);
    buckets[i] = c;
  }

  /** The counts in use moved into a new array of their kind, `length` long, from index `at`. */
  #grown(length: number, at: number): Uint32Array | Float64Array {
    const old = this.#buckets!;
    const grown = old instanceof Uint32Array ? new Uint32Array(length) : new Float64Array(length);
    grown.set(old.subarray(0, this.#used), at);
    return (this.#buckets = grown);
  }
}
