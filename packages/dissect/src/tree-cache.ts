/**
 * What was rendered of payloads seen lately: a payload byte for byte the same as one of
 * them, read as the same layout with the same options, renders the same (its tree's JSON,
 * summary and warnings; its tree's text; its selected fields), so the rendering is copied
 * rather than made again. Query traffic repeats itself: the same `i` request to a server
 * from every client, the same reply to each while nothing changes — 99.9 % of a query
 * flood's datagrams, a third of ordinary traffic's within 4096.
 *
 * Bounded: at most {@link ENTRIES} payloads of up to {@link MAX_PAYLOAD} bytes, and
 * {@link MAX_BYTES} rendered; full, it starts afresh. Found by a hash of the payload, then
 * compared byte for byte. A payload is kept the second time it is seen (its hash is noted
 * the first): one seen once, as most replies with a changing count are, costs no copy.
 */
import type { QueryLayout } from '@gamequery/codec';

const ENTRIES = 4096;
const MAX_PAYLOAD = 512;
const MAX_BYTES = 8 << 20;

interface Entry<T> {
  readonly layout: QueryLayout;
  readonly payload: Uint8Array;
  readonly value: T;
}

export class RenderCache<T> {
  #entries = new Map<number, Entry<T>>();
  #bytes = 0;
  /** Hashes of payloads seen once lately. */
  #seen = new Set<number>();

  /** Whether a payload of this length is cached at all. */
  static takes(payload: Uint8Array): boolean {
    return payload.length <= MAX_PAYLOAD;
  }

  /** The hash a payload is filed under (53 bits: two lanes, one of 32 bits and one of 21). */
  static key(b: Uint8Array): number {
    let x = 0x811c9dc5 ^ b.length;
    let y = 0x9e3779b1;
    const n = b.length;
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      const w = b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
      x = Math.imul(x ^ w, 0x01000193);
      y = Math.imul(y ^ w, 0x5bd1e995);
    }
    for (; i < n; i++) {
      x = Math.imul(x ^ b[i]!, 0x01000193);
      y = Math.imul(y ^ b[i]!, 0x5bd1e995);
    }
    y ^= y >>> 15;
    return (x >>> 0) * 0x200000 + ((y ^ (x >>> 11)) & 0x1fffff);
  }

  /** What was rendered of `payload` read as `layout`, if it was seen lately. */
  get(key: number, layout: QueryLayout, payload: Uint8Array): T | undefined {
    const e = this.#entries.get(key);
    if (!e || e.layout !== layout || e.payload.length !== payload.length) return undefined;
    const p = e.payload;
    for (let i = 0; i < p.length; i++) if (p[i] !== payload[i]) return undefined;
    return e.value;
  }

  /** Whether a payload not found is worth keeping: seen before (else noted now). */
  wants(key: number): boolean {
    if (this.#seen.has(key)) return true;
    if (this.#seen.size >= 4 * ENTRIES) this.#seen = new Set();
    this.#seen.add(key);
    return false;
  }

  /** Keeps what was rendered of `payload` (`value`, `size` bytes of it), the payload copied. */
  set(key: number, layout: QueryLayout, payload: Uint8Array, value: T, size: number): void {
    if (this.#entries.size >= ENTRIES || this.#bytes + size > MAX_BYTES) {
      this.#entries = new Map();
      this.#bytes = 0;
    }
    this.#entries.set(key, { layout, payload: payload.slice(), value });
    this.#bytes += size + payload.length;
  }
}
