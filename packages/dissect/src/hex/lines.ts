/**
 * Text that arrives in chunks of bytes, cut into lines with bounded memory: a line longer than
 * the limit is not kept (its bytes are skipped up to the next line break, and it is reported as
 * too long), so a file of any size without line breaks (a sparse file, binary junk after a
 * dump) costs at most the limit. UTF-8; a line break never falls inside a multi-byte sequence,
 * so each run of whole lines is decoded in one go.
 *
 * @module
 */

/** Characters a line of a stream may have: a Wireshark "Copy as Hex Stream" of a 64 KiB datagram is 128 Ki. */
export const MAX_LINE_LENGTH = 1 << 20;

/** What {@link LineSplitter} hands on: a line, or the number of a line that was too long. */
export interface LineSink {
  line(text: string, n: number): void;
  overlong(n: number, limit: number): void;
}

/**
 * Cuts chunks of bytes into lines for a {@link LineSink}; a line longer than `limit` is skipped and
 * reported as too long.
 */
export class LineSplitter {
  readonly #decoder = new TextDecoder();
  /** Bytes after the last line break, not yet a whole line. */
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** The line being read is past the limit: its bytes are dropped until its end. */
  #skipping = false;
  /** Lines handed on so far. */
  #n = 0;
  /** Bytes taken so far. */
  bytes = 0;

  constructor(
    readonly sink: LineSink,
    readonly limit: number = MAX_LINE_LENGTH,
  ) {}

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    let from = 0;
    const last = chunk.lastIndexOf(0x0a);
    if (last < 0) {
      this.#hold(chunk);
      return;
    }
    if (this.#skipping || this.#pendingBytes > 0) {
      // The line begun in earlier chunks ends in this one.
      const end = chunk.indexOf(0x0a);
      if (this.#skipping || this.#pendingBytes + end > this.limit) {
        this.#skipping = false;
        this.#pending = [];
        this.#pendingBytes = 0;
        this.sink.overlong(++this.#n, this.limit);
        from = end + 1;
      }
    }
    let text: string;
    if (this.#pendingBytes > 0) {
      const joined = new Uint8Array(this.#pendingBytes + last + 1);
      let at = 0;
      for (const piece of this.#pending) {
        joined.set(piece, at);
        at += piece.length;
      }
      joined.set(chunk.subarray(0, last + 1), at);
      this.#pending = [];
      this.#pendingBytes = 0;
      text = this.#decoder.decode(joined);
    } else {
      text = this.#decoder.decode(chunk.subarray(from, last + 1));
    }
    this.#lines(text);
    if (last + 1 < chunk.length) this.#hold(chunk.subarray(last + 1));
  }

  /** The input ended: the last line, if it has no line break. */
  finish(): void {
    if (this.#skipping) {
      this.#skipping = false;
      this.sink.overlong(++this.#n, this.limit);
    } else if (this.#pendingBytes > 0) {
      const joined = new Uint8Array(this.#pendingBytes);
      let at = 0;
      for (const piece of this.#pending) {
        joined.set(piece, at);
        at += piece.length;
      }
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#lines(this.#decoder.decode(joined) + '\n');
    }
  }

  /** Hands on the lines of `text`, which ends with a line break. */
  #lines(text: string): void {
    let at = 0;
    while (at < text.length) {
      const end = text.indexOf('\n', at);
      const n = ++this.#n;
      if (end - at > this.limit) this.sink.overlong(n, this.limit);
      else this.sink.line(text.charCodeAt(end - 1) === 0x0d && end > at ? text.slice(at, end - 1) : text.slice(at, end), n);
      at = end + 1;
    }
  }

  #hold(piece: Uint8Array): void {
    if (this.#skipping) return;
    if (this.#pendingBytes + piece.length > this.limit) {
      this.#skipping = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    // A copy: the chunk's buffer may be read into again.
    this.#pending.push(piece.slice());
    this.#pendingBytes += piece.length;
  }
}
