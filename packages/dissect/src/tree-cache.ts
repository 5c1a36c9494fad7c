/**
 * What was rendered of payloads seen lately: a payload byte for byte the same as one of
 * them, read as the same layout with the same options, renders the same (its tree's JSON,
 * summary and warnings; its tree's text; its selected fields), so the rendering is copied
 * rather than made again. Query traffic repeats itself: the same `i` request to a server
 * from every client, the same reply to each while nothing changes — 99.9 % of a query
 * flood's datagrams, four in ten of ordinary traffic's.
 *
 * Direct-mapped: a payload's hash picks its slot, which holds the last payload filed there
 * and what it rendered, in the slot's own bytes (a power of two from 256 bytes: a cache of
 * payloads without their tree, the record maker's for `-T fields` and text, holds little), made
 * when the slot is first filed and reused by every payload filed there after that fits, grown for
 * one that does not; the slots of up to 4 KiB take up to 8 MiB in all, and those that need more (a rules
 * or player list: a tenth of the mix's datagrams, two thirds of its payload bytes, more than
 * half of them repeated within 100 000 frames) up to 64 KiB, while the bytes of such slots
 * stay within {@link GROWN_BYTES}. No object per entry, so nothing kept here
 * outlives the collector's young generation only to be let go later (a map of entries did,
 * for a fifth of the heap's growth). A payload is filed the second time its hash is seen (a
 * second array of hashes remembers the first): one seen once, as most replies with a
 * changing count are, costs no copy. Payloads of up to {@link MAX_PAYLOAD} bytes, with their
 * renderings up to 64 KiB; found by the hash, then compared byte for byte.
 *
 * A cache made for a few packets holds a few slots. One slab of every slot (8 MiB), made
 * whole at the first filing, was external memory for the collector to chase: 7 % of the CPU
 * of the dissector's tests, which make thousands of caches.
 */
import type { QueryLayout } from '@gamequery/codec';
import { hashBytes, hashed } from '@gamequery/codec/internal';

const SLOTS = 2048;
/** A slot's bytes at least. */
const SLOT_MIN = 256;
/** The bytes a slot may take without counting against {@link GROWN_BYTES}. */
const SLOT_BYTES = 4096;
/** A payload and its rendering at most: their lengths are kept in 16 bits. */
const MAX_FILED = 0xffff;
const MAX_PAYLOAD = 4096;
/** The bytes of the slots grown past {@link SLOT_BYTES}, at most, per cache: past them a larger rendering is not filed. */
const GROWN_BYTES = 8 << 20;

export class RenderCache<T = undefined> {
  /** The hash filed in each slot (NaN: none), its layout and what else it rendered (a summary, warnings). */
  readonly #keys = new Float64Array(SLOTS).fill(Number.NaN);
  readonly #layouts: (QueryLayout | undefined)[] = new Array<QueryLayout | undefined>(SLOTS).fill(undefined);
  readonly #extras: (T | undefined)[] = new Array<T | undefined>(SLOTS).fill(undefined);
  /** Per slot, the payload's length and the rendering's; the slot's bytes hold the payload, then the rendering. */
  readonly #payloadLength = new Uint16Array(SLOTS);
  readonly #length = new Uint16Array(SLOTS);
  /** Each slot's bytes, made when it is first filed. */
  readonly #slots: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(SLOTS).fill(undefined);
  /** The bytes of the slot last found. */
  #found: Uint8Array | undefined;
  /** Bytes of the slots grown past {@link SLOT_BYTES}. */
  #grown = 0;
  /** Bytes of every slot. */
  #bytes = 0;

  /** The bytes its slots take. */
  get bytes(): number {
    return this.#bytes;
  }
  /** Hashes seen once lately, by the same slots. */
  readonly #seen = new Float64Array(SLOTS).fill(Number.NaN);
  /** Where the rendering found by the last {@link find} lies in {@link found}, and what else it rendered. */
  start = 0;
  end = 0;
  extra: T | undefined = undefined;

  /** Whether a payload of this length is cached at all. */
  static takes(payload: Uint8Array): boolean {
    return payload.length <= MAX_PAYLOAD;
  }

  /** The hash a payload is filed under: 53 bits of the pairer's hash of a datagram (32 of one lane, 21 of the other). */
  static key(b: Uint8Array): number {
    hashBytes(b);
    return hashed.lo * 0x200000 + (hashed.hi & 0x1fffff);
  }

  /** The bytes of the slot last found: its rendering lies from {@link start} to {@link end}. */
  get found(): Uint8Array {
    return this.#found!;
  }

  /**
   * Whether `payload` read as `layout` was rendered lately: then its rendering lies in
   * {@link found} from {@link start} to {@link end}, with {@link extra}.
   */
  find(key: number, layout: QueryLayout, payload: Uint8Array): boolean {
    const s = key % SLOTS;
    if (this.#keys[s] !== key || this.#layouts[s] !== layout || this.#payloadLength[s] !== payload.length) return false;
    const slot = this.#slots[s]!;
    for (let i = 0; i < payload.length; i++) if (slot[i] !== payload[i]) return false;
    this.#found = slot;
    this.start = payload.length;
    this.end = this.start + this.#length[s]!;
    this.extra = this.#extras[s];
    return true;
  }

  /** Whether a payload not found is worth keeping: its hash seen before (else noted now). */
  wants(key: number): boolean {
    const s = key % SLOTS;
    if (this.#seen[s] === key) return true;
    this.#seen[s] = key;
    return false;
  }

  /** Files what `payload` rendered (`bytes[from, to)`, and `extra`), if it fits a slot (grown, within {@link GROWN_BYTES}). */
  set(key: number, layout: QueryLayout, payload: Uint8Array, bytes: Uint8Array, from: number, to: number, extra: T): void {
    const need = payload.length + to - from;
    if (need > MAX_FILED) return;
    const s = key % SLOTS;
    let slot = this.#slots[s];
    if (!slot || slot.length < need) {
      // A power of two, from SLOT_MIN: a cache of payloads alone (the record maker's, for output that writes no tree) stays small.
      const size = need <= SLOT_MIN ? SLOT_MIN : 2 ** Math.ceil(Math.log2(need));
      const grown = this.#grown + (size > SLOT_BYTES ? size : 0) - (slot && slot.length > SLOT_BYTES ? slot.length : 0);
      if (grown > GROWN_BYTES) return;
      this.#grown = grown;
      this.#bytes += size - (slot ? slot.length : 0);
      slot = this.#slots[s] = new Uint8Array(size);
    }
    slot.set(payload, 0);
    slot.set(bytes.subarray(from, to), payload.length);
    this.#keys[s] = key;
    this.#layouts[s] = layout;
    this.#payloadLength[s] = payload.length;
    this.#length[s] = to - from;
    this.#extras[s] = extra;
  }
}
