/**
 * The trees of payloads seen lately, as the fast path wrote them (records.ts): a payload
 * byte for byte the same as one of them, read as the same layout, has the same tree JSON,
 * summary and warnings (the charset, secrets and every option are fixed for a dissection),
 * so it is copied rather than decoded again. Query traffic repeats itself: the same `i`
 * request to a server from every client, the same reply to each while nothing changes
 * (99.9 % of a query flood's datagrams, a third of ordinary traffic's within 4096).
 *
 * Bounded: at most {@link ENTRIES} payloads of up to {@link MAX_PAYLOAD} bytes, and
 * {@link MAX_BYTES} of JSON; full, it starts afresh. Found by a hash of the payload, then
 * compared byte for byte.
 */
import type { DecodeWarning, QueryLayout } from '@gamequery/codec';

const ENTRIES = 4096;
const MAX_PAYLOAD = 512;
const MAX_BYTES = 8 << 20;

export interface CachedTree {
  readonly layout: QueryLayout;
  readonly payload: Uint8Array;
  readonly json: Uint8Array;
  readonly summary: string;
  readonly warnings: readonly DecodeWarning[];
}

export class TreeCache {
  #entries = new Map<number, CachedTree>();
  #bytes = 0;

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

  /** The tree of `payload` read as `layout`, if it was seen lately. */
  get(key: number, layout: QueryLayout, payload: Uint8Array): CachedTree | undefined {
    const e = this.#entries.get(key);
    if (!e || e.layout !== layout || e.payload.length !== payload.length) return undefined;
    const p = e.payload;
    for (let i = 0; i < p.length; i++) if (p[i] !== payload[i]) return undefined;
    return e;
  }

  set(key: number, layout: QueryLayout, payload: Uint8Array, json: Uint8Array, summary: string, warnings: readonly DecodeWarning[]): void {
    if (this.#entries.size >= ENTRIES || this.#bytes + json.length > MAX_BYTES) {
      this.#entries = new Map();
      this.#bytes = 0;
    }
    this.#entries.set(key, { layout, payload: payload.slice(), json: json.slice(), summary, warnings });
    this.#bytes += json.length + payload.length;
  }
}
