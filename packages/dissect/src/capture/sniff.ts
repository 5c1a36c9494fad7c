/**
 * What an input is, from its first bytes: a capture (pcap in any of its four magics, pcapng),
 * gzip (of either, or of text), text that may hold a hex dump, or something else, named as
 * well as its first bytes allow for a one-line refusal (`file`'s habit, in a few words).
 *
 * Read once per input, before any frame: nothing here is on the per-packet path.
 *
 * @module
 */

export type SniffedFormat = 'pcap' | 'pcapng' | 'gzip' | 'text';

/**
 * What {@link sniffInput} made of an input's first bytes: the format to read it as, and what they look
 * like.
 */
export interface Sniffed {
  /** What to read the input as; undefined: refuse it. */
  readonly format: SniffedFormat | undefined;
  /**
   * What the first bytes look like, for a message: `a PNG image`, `zero bytes`,
   * `binary data, not text`, `xz-compressed data (decompress it first: xz -dc FILE)`, `empty`.
   */
  readonly looks: string;
  /** The first bytes in hex (at most 8), `89 50 4e 47 0d 0a 1a 0a`. */
  readonly first: string;
}

/** Magics of a classic pcap file: micro- and nanosecond timestamps, either byte order. */
const PCAP_MAGICS = [0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1];
const PCAPNG_MAGIC = 0x0a0d0d0a;

/** Formats a capture is often mistaken for or packed in, by their leading bytes. */
const KNOWN: readonly { readonly magic: readonly number[]; readonly looks: string }[] = [
  { magic: [0x89, 0x50, 0x4e, 0x47], looks: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], looks: 'a JPEG image' },
  { magic: [0x47, 0x49, 0x46, 0x38], looks: 'a GIF image' },
  { magic: [0x25, 0x50, 0x44, 0x46], looks: 'a PDF document' },
  { magic: [0x50, 0x4b, 0x03, 0x04], looks: 'a ZIP archive' },
  { magic: [0x7f, 0x45, 0x4c, 0x46], looks: 'an ELF executable' },
  { magic: [0x42, 0x5a, 0x68], looks: 'bzip2-compressed data (decompress it first: bzip2 -dc FILE | gamequery dissect -)' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], looks: 'xz-compressed data (decompress it first: xz -dc FILE | gamequery dissect -)' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], looks: 'zstd-compressed data (decompress it first: zstd -dc FILE | gamequery dissect -)' },
  { magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], looks: 'a 7-Zip archive' },
  { magic: [0x04, 0x22, 0x4d, 0x18], looks: 'lz4-compressed data (decompress it first: lz4 -dc FILE | gamequery dissect -)' },
];

const hexOf = (bytes: Uint8Array): string => Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join(' ');

const starts = (head: Uint8Array, magic: readonly number[]): boolean => head.length >= magic.length && magic.every((b, i) => head[i] === b);

/**
 * Length of the UTF-8 sequence at `i` if it is a valid one, else 0. A sequence cut by the end of
 * `head` counts as valid (the head is a prefix of the input).
 */
function utf8Sequence(head: Uint8Array, i: number): number {
  const b = head[i]!;
  const length = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 0;
  if (length === 0) return 0;
  for (let k = 1; k < length; k++) {
    if (i + k >= head.length) return length;
    if ((head[i + k]! & 0xc0) !== 0x80) return 0;
  }
  return length;
}

/**
 * Is `head` the start of a text? No NUL byte; at most 1 % control characters other than tab,
 * line breaks, form feed and ESC (a coloured terminal paste); at most 5 % bytes that are not
 * UTF-8 (a Latin-1 text passes, random bytes do not).
 */
export function looksLikeText(head: Uint8Array): boolean {
  let controls = 0;
  let foreign = 0;
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b === 0) return false;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) || b === 0x7f) controls++;
    else if (b >= 0x80) {
      const length = utf8Sequence(head, i);
      if (length === 0) foreign++;
      else i += length - 1;
    }
  }
  return controls * 100 <= head.length && foreign * 20 <= head.length;
}

/**
 * Classifies an input by its first bytes (give as many as are at hand, up to a few KiB; four
 * settle a capture or gzip).
 */
export function sniffInput(head: Uint8Array): Sniffed {
  const first = hexOf(head);
  if (head.length === 0) return { format: undefined, looks: 'empty', first };
  if (head.length >= 4) {
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const magic = view.getUint32(0, false);
    if (PCAP_MAGICS.includes(magic)) return { format: 'pcap', looks: 'a pcap capture', first };
    if (magic === PCAPNG_MAGIC) return { format: 'pcapng', looks: 'a pcapng capture', first };
  }
  if (starts(head, [0x1f, 0x8b])) return { format: 'gzip', looks: 'gzip-compressed data', first };
  for (const k of KNOWN) if (starts(head, k.magic)) return { format: undefined, looks: k.looks, first };
  if (head.every((b) => b === 0)) return { format: undefined, looks: 'zero bytes', first };
  if (looksLikeText(head)) return { format: 'text', looks: 'text', first };
  return { format: undefined, looks: 'binary data, not text', first };
}
