/**
 * The bytes a reassembled datagram took on the wire: the frames of all its fragments, not
 * only the one that completed it (what amplification on the wire counts). A fragment's frame
 * length is kept from when it is held until its datagram completes; bounded, so that
 * fragments whose datagram never completes cannot pile up (the oldest is let go past
 * {@link FragmentWire.LIMIT}: its datagram, if it ever completes, then counts its other frames).
 */
export class FragmentWire {
  static readonly LIMIT = 1 << 16;
  readonly #held = new Map<number, number>();
  /**
   * No frame below this is held: frames come in frame order, so the oldest is found by
   * counting up from here (each frame number passed once). `keys().next()` found it by walking
   * every entry deleted before it until the map was rebuilt: under a flood of fragments that
   * never complete, 20 µs a fragment once the limit was reached.
   */
  #oldest = 0;

  /** A fragment held for reassembly: frame `index`, `wire` bytes long. */
  hold(index: number, wire: number): void {
    const held = this.#held;
    if (held.size >= FragmentWire.LIMIT) {
      while (!held.has(this.#oldest)) this.#oldest++;
      held.delete(this.#oldest);
    }
    held.set(index, wire);
    // One out of order moves the bound down, so the count up always ends at a frame held.
    if (index < this.#oldest) this.#oldest = index;
  }

  /** The wire bytes of a datagram completed by frame `index` (`wire` bytes) from `fragments`. */
  total(fragments: readonly number[] | undefined, index: number, wire: number): number {
    if (!fragments) return wire;
    let sum = 0;
    for (const f of fragments) {
      if (f === index) sum += wire;
      else {
        sum += this.#held.get(f) ?? 0;
        this.#held.delete(f);
      }
    }
    return sum;
  }
}
