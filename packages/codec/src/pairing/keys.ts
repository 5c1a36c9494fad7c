/**
 * Numbers for byte strings and a table keyed by them: the two hashes the pairing core files
 * requests under (`hashA`, `hashB`), and `KeyTable`, an open-addressing map from a 30-bit
 * key to a number with no object per entry. Moved out of ring.ts unchanged (ring.ts
 * re-exports them).
 */

/**
 * Two independent 32-bit hashes of a byte string, in one read: with the length, what
 * tells a byte-identical reply from another without keeping its bytes. The second is
 * in {@link hashB} after the call.
 */
export function hashA(b: Uint8Array): number {
  let h = 0x811c9dc5 ^ b.length;
  let g = 0x2545f491;
  const n = b.length;
  const whole = n & ~3;
  let i = 0;
  // Four bytes a step: every reply of a capture is hashed once, and a byte a step was
  // most of what remembering an exchange cost.
  for (; i < whole; i += 4) {
    const w = b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
    h = Math.imul(h ^ w, 0x01000193);
    h ^= h >>> 15;
    g = Math.imul(g + w, 0x5bd1e995);
    g ^= g >>> 13;
  }
  for (; i < n; i++) {
    h = Math.imul(h ^ b[i]!, 0x01000193);
    g = Math.imul(g + b[i]! + 1, 0x5bd1e995);
  }
  second = (g ^ (g >>> 16)) | 0;
  return (h ^ (h >>> 16)) | 0;
}

let second = 0;

/** The second hash of the string {@link hashA} last read. */
export function hashB(): number {
  return second;
}

/**
 * Numbers by key, for keys that are already well-spread hashes of 30 bits (rules.ts):
 * open addressing in two typed arrays, half full at most. A `Map` of the 200 000 keys a
 * dense capture's duplicate window holds cost more than the rest of remembering an
 * exchange, and a few dozen bytes a key besides.
 */
export class KeyTable {
  #keys = new Int32Array(1024).fill(-1);
  #values = new Int32Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The number under `key`, or -1. */
  get(key: number): number {
    const keys = this.#keys;
    const mask = keys.length - 1;
    for (let i = key & mask; ; i = (i + 1) & mask) {
      const k = keys[i]!;
      if (k === key) return this.#values[i]!;
      if (k === -1) return -1;
    }
  }

  set(key: number, value: number): void {
    if ((this.#size + 1) * 2 > this.#keys.length) this.#grow();
    const keys = this.#keys;
    const mask = keys.length - 1;
    let i = key & mask;
    while (keys[i] !== -1 && keys[i] !== key) i = (i + 1) & mask;
    if (keys[i] === -1) {
      keys[i] = key;
      this.#size++;
    }
    this.#values[i] = value;
  }

  /** Removes `key`, moving back the keys after it that would no longer be found (no tombstones). */
  delete(key: number): void {
    const keys = this.#keys;
    const values = this.#values;
    const mask = keys.length - 1;
    let i = key & mask;
    while (keys[i] !== key) {
      if (keys[i] === -1) return;
      i = (i + 1) & mask;
    }
    for (let j = (i + 1) & mask; keys[j] !== -1; j = (j + 1) & mask) {
      const home = keys[j]! & mask;
      // Whether j's key may move to the hole at i: its home is not in the run (i, j].
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        keys[i] = keys[j]!;
        values[i] = values[j]!;
        i = j;
      }
    }
    keys[i] = -1;
    this.#size--;
  }

  clear(): void {
    this.#keys.fill(-1);
    this.#size = 0;
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Int32Array(keys.length * 2).fill(-1);
    this.#values = new Int32Array(keys.length * 2);
    this.#size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== -1) this.set(keys[i]!, values[i]!);
  }
}
