/**
 * Servers by number, for statistics counted frame by frame (stats/first-pass.ts): a key of
 * three 32-bit words (protocol, port and address family; the address or a hash of it) names
 * a server's index, in an open-addressing table of typed arrays. Every game frame asks once:
 * a map of maps cost two lookups of a hashed number each, and a property looked up by the
 * protocol's name; this is one hash and, at under half full, one or two slots read.
 */

const EMPTY = 0;

export class ServerTable {
  /** Three words a slot: the key; and the index + 1 of the server there (0: empty). */
  #keys = new Int32Array(3 * 1024);
  #values = new Int32Array(1024);
  #mask = 1023;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The index filed under the key, or -1. */
  find(a: number, b: number, c: number): number {
    a |= 0;
    b |= 0;
    c |= 0;
    const keys = this.#keys,
      values = this.#values,
      mask = this.#mask;
    for (let i = hash(a, b, c) & mask; ; i = (i + 1) & mask) {
      const v = values[i]!;
      if (v === EMPTY) return -1;
      if (keys[3 * i] === a && keys[3 * i + 1] === b && keys[3 * i + 2] === c) return v - 1;
    }
  }

  /** Files `index` under a key not filed yet. */
  add(a: number, b: number, c: number, index: number): void {
    if (2 * (this.#size + 1) > this.#values.length) this.#grow();
    this.#put(a | 0, b | 0, c | 0, index + 1);
    this.#size++;
  }

  #put(a: number, b: number, c: number, value: number): void {
    const keys = this.#keys,
      values = this.#values,
      mask = this.#mask;
    let i = hash(a, b, c) & mask;
    while (values[i] !== EMPTY) i = (i + 1) & mask;
    keys[3 * i] = a;
    keys[3 * i + 1] = b;
    keys[3 * i + 2] = c;
    values[i] = value;
  }

  /** Twice the slots, every server filed again. */
  #grow(): void {
    const keys = this.#keys,
      values = this.#values;
    this.#keys = new Int32Array(2 * keys.length);
    this.#values = new Int32Array(2 * values.length);
    this.#mask = this.#values.length - 1;
    for (let i = 0; i < values.length; i++)
      if (values[i] !== EMPTY) this.#put(keys[3 * i]!, keys[3 * i + 1]!, keys[3 * i + 2]!, values[i]!);
  }
}

/** Mixes the key's words (Murmur3's finaliser over a multiply-xor of each). */
function hash(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}
