/**
 * The first bytes of a stream of chunks without losing them: what the command line sniffs an
 * input's kind by (node/input.ts), and what the streamed dissector tells gzip by (dissect.ts).
 */

/** What {@link peek} read, and the stream again from its start. */
export interface Peeked {
  /** The first `want` bytes (fewer if the stream ended, or `enough` said so earlier). */
  readonly head: Uint8Array;
  /** The whole stream, the chunks read first. */
  readonly chunks: AsyncGenerator<Uint8Array>;
  /** Ends the source early (a live input is told). */
  close(): Promise<unknown>;
}

/**
 * Reads chunks of `source` until `want` bytes have come, `enough(firstBytes)` says they settle
 * it, or the source ends; gives those bytes and the stream again, those chunks first.
 */
export async function peek(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  want: number,
  enough: (first: Uint8Array) => boolean = () => false,
): Promise<Peeked> {
  const it = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  const seen: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  while (length < want) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    seen.push(r.value);
    length += r.value.length;
    if (enough(concat(seen, Math.min(length, want)))) break;
  }
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield* seen;
    if (ended) return;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { head: concat(seen, Math.min(length, want)), chunks: replay(), close: async () => it.return?.() };
}

/** The first `length` bytes of `pieces`, as one array. */
export function concat(pieces: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of pieces) {
    if (at >= length) break;
    const take = Math.min(p.length, length - at);
    out.set(p.subarray(0, take), at);
    at += take;
  }
  return out;
}
