/**
 * Text encodings for the query protocols' strings.
 *
 * Query protocols rarely mark their encoding: strings are whatever the server's ANSI code
 * page produced (commonly Windows-1251 or -1252), the low byte of each UTF-16 unit
 * (ISO-8859-1), or UTF-8. A protocol declares the charset it defaults to; callers choose
 * another where they know better, and raw bytes stay available through the annotating decode.
 *
 * Single-byte code pages are decoded through a 256-entry table and encoded through its
 * inverse, so both directions agree and nothing here needs Node's Buffer. The tables
 * come from iconv-lite at build time (codepages.ts), not from `TextDecoder`, which Node
 * 20 gets wrong for both Windows code pages.
 */
import { WINDOWS_1251_HIGH, WINDOWS_1252_HIGH } from './codepages.ts';
import { cyrillicOverLatin, detect, type Detection } from './detect.ts';

/**
 * The charsets a caller may choose for decoded text. `auto` chooses per string between
 * UTF-8, windows-1251 and windows-1252 (detect.ts) and says what it chose on the tree.
 */
export type Charset = 'auto' | 'latin1' | 'windows-1252' | 'windows-1251' | 'utf8';

/** The fixed charsets: each decodes and encodes alike, every string the same way. */
export const charsets: readonly Exclude<Charset, 'auto'>[] = ['latin1', 'windows-1252', 'windows-1251', 'utf8'];

/** What a caller may name: `auto`, then the fixed {@link charsets}. */
export const charsetChoices: readonly Charset[] = ['auto', ...charsets];

/** Decodes and encodes text in one charset; instances are cached per charset. */
export interface TextCodec {
  readonly charset: Charset;
  /** Decodes `bytes[start, end)` (the whole array by default) without a subarray. */
  decode(bytes: Uint8Array, start?: number, end?: number): string;
  /** Returns undefined when a character has no byte sequence in this charset. */
  encode(text: string): Uint8Array | undefined;
  /** Byte length of `text` once encoded (undefined if unencodable). */
  byteLength(text: string): number | undefined;
  /** `auto` only: a new message starts, `bytes` all of it (its short strings lean on the rest). */
  begin?(bytes: Uint8Array): void;
  /**
   * `auto` only: a string at `start` was read without being decoded (printable ASCII an
   * emitter copies as it is, or text nothing reads), so that where the message's strings
   * start is noted as decoding it would have: the strings after it are read in that light.
   */
  skipped?(bytes: Uint8Array, start: number): void;
}

/**
 * Code units are gathered here and made a string in one call (a string grown by `+=` is an
 * allocation per character). Text up to {@link SHORT} units (names, hostnames: most of it)
 * goes through a plain array of small integers of its exact length, which
 * `String.fromCharCode.apply` reads directly: measured three times faster than the generic
 * array-like path a typed array's subarray takes. Longer text goes a buffer's worth at a time.
 */
export const SHORT = 64;
const shortUnits: number[][] = Array.from({ length: SHORT + 1 }, (_, n) => new Array<number>(n).fill(0));
const units = new Uint16Array(1024);
const fromUnits = (n: number): string => String.fromCharCode.apply(null, units.subarray(0, n) as unknown as number[]);

/** ASCII bytes `start..end` (at most {@link SHORT}) as a string; undefined if a byte is not ASCII (the caller decodes otherwise). */
export function asciiText(bytes: Uint8Array, start: number, end: number): string | undefined {
  const a = shortUnits[end - start]!;
  for (let i = 0; i < a.length; i++) {
    const b = bytes[start + i]!;
    if (b >= 0x80) return undefined;
    a[i] = b;
  }
  return String.fromCharCode.apply(null, a);
}

class SingleByteCodec implements TextCodec {
  readonly #codes: Uint16Array;
  readonly #bytes = new Map<number, number>();

  constructor(
    readonly charset: Charset,
    chars: string[],
  ) {
    this.#codes = Uint16Array.from(chars, (ch) => ch.charCodeAt(0));
    chars.forEach((ch, byte) => this.#bytes.set(ch.charCodeAt(0), byte));
    if (this.#bytes.size !== 256) throw new Error(`${charset}: the table maps two bytes to one character`);
  }

  decode(bytes: Uint8Array, start = 0, end = bytes.length): string {
    const codes = this.#codes;
    if (end - start <= SHORT) {
      const a = shortUnits[end - start]!;
      for (let i = 0; i < a.length; i++) a[i] = codes[bytes[start + i]!]!;
      return String.fromCharCode.apply(null, a);
    }
    let text = '';
    for (let from = start; from < end; from += units.length) {
      const n = Math.min(units.length, end - from);
      for (let i = 0; i < n; i++) units[i] = codes[bytes[from + i]!]!;
      text += fromUnits(n);
    }
    return text;
  }

  encode(text: string): Uint8Array | undefined {
    const out = new Uint8Array(text.length);
    const table = this.#bytes;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const byte = c < 0x80 ? c : table.get(c);
      if (byte === undefined) return undefined;
      out[i] = byte;
    }
    return out;
  }

  byteLength(text: string): number | undefined {
    const table = this.#bytes;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80 && !table.has(c)) return undefined;
    }
    return text.length;
  }
}

class Utf8Codec implements TextCodec {
  readonly charset = 'utf8' as const;
  readonly #decoder = new TextDecoder('utf-8');
  readonly #encoder = new TextEncoder();

  decode(bytes: Uint8Array, start = 0, end = bytes.length): string {
    // Short ASCII strings (most names) are faster without a trip into the decoder.
    return (
      (end - start <= SHORT ? asciiText(bytes, start, end) : undefined) ??
      this.#decoder.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end))
    );
  }

  encode(text: string): Uint8Array | undefined {
    return this.#hasLoneSurrogate(text) ? undefined : this.#encoder.encode(text);
  }

  byteLength(text: string): number | undefined {
    if (this.#hasLoneSurrogate(text)) return undefined;
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (c >= 0xd800 && c <= 0xdbff) {
        n += 4;
        i++;
      } else n += 3;
    }
    return n;
  }

  #hasLoneSurrogate(text: string): boolean {
    // In a /u regex a surrogate class matches only unpaired halves.
    return /[\uD800-\uDFFF]/u.test(text);
  }
}

/** ASCII below 0x80, then the code page's upper half. */
const tableFor = (high: string): string[] => [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), ...high];

const cache = new Map<Charset, TextCodec>();

/** The cached codec for a charset. */
export function textCodec(charset: Charset): TextCodec {
  let codec = cache.get(charset);
  if (codec) return codec;
  switch (charset) {
    case 'latin1':
      // True ISO-8859-1 (byte = code point); WHATWG's "latin1" label means windows-1252.
      codec = new SingleByteCodec(
        charset,
        Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)),
      );
      break;
    case 'windows-1252':
      codec = new SingleByteCodec(charset, tableFor(WINDOWS_1252_HIGH));
      break;
    case 'windows-1251':
      codec = new SingleByteCodec(charset, tableFor(WINDOWS_1251_HIGH));
      break;
    case 'utf8':
      codec = new Utf8Codec();
      break;
    case 'auto':
      codec = new AutoCodec();
      break;
    default:
      throw new TypeError(`unknown charset ${JSON.stringify(charset)}; expected one of ${charsets.join(', ')}`);
  }
  cache.set(charset, codec);
  return codec;
}

/* ---------- `auto`: the codec over detect.ts's model ---------- */

const utf8 = new TextEncoder();
/** The JSON keys of each (charset, confidence) met so far: at most 3 × 501. */
const keys = new Map<string, Uint8Array>();

/**
 * The non-ASCII strings an {@link AutoCodec} decoded in the current message, with their JSON
 * keys ready: the JSON emitter's string writer (emit-runtime.ts `textPair`) looks the bytes
 * it writes up here, only on its path for text that is not plain ASCII, so ASCII costs nothing.
 */
export const detected = {
  bytes: undefined as Uint8Array | undefined,
  /** start, end, JSON keys; per string. */
  starts: [] as number[],
  ends: [] as number[],
  json: [] as Uint8Array[],
  /** The keys `auto` chose for `bytes[s, e)` in this message, if it decoded those bytes. */
  find(bytes: Uint8Array, s: number, e: number): Uint8Array | undefined {
    if (bytes !== this.bytes) return undefined;
    for (let i = this.starts.length - 1; i >= 0; i--) if (this.starts[i] === s && this.ends[i] === e) return this.json[i];
    return undefined;
  },
};

/**
 * `charset: 'auto'`: decodes each string in the charset {@link detect} chooses for it and
 * remembers that choice (`last`) for the tree and the JSON. A layout calls {@link begin}
 * with each message's bytes, so that a short string can lean on the rest of its reply.
 * Encodes as windows-1252 where it can, else windows-1251, else UTF-8.
 */
export class AutoCodec implements TextCodec {
  readonly charset = 'auto' as const;
  /** The last non-ASCII string decoded and what was chosen for it; undefined after an ASCII one. */
  last: { readonly bytes: Uint8Array; readonly start: number; readonly end: number; readonly detection: Detection } | undefined;
  #message: Uint8Array | undefined;
  #replyDelta: number | undefined;
  #first = -1;

  /** A new message: `bytes` is all of it. */
  begin(bytes: Uint8Array): void {
    this.#message = bytes;
    detected.bytes = undefined;
    this.#replyDelta = undefined;
    this.#first = -1;
  }

  decode(bytes: Uint8Array, start = 0, end = bytes.length): string {
    // ASCII, most strings: one pass that gives up at the first byte ≥ 0x80.
    const ascii = end - start <= SHORT ? asciiText(bytes, start, end) : this.#longAscii(bytes, start, end);
    if (ascii !== undefined) {
      this.skipped(bytes, start);
      return ascii;
    }
    const at = this.#note(bytes, start);
    // The reply's evidence is worked out only if a short string needs it, once per message.
    const detection = detect(bytes, start, end, at < 0 ? 0 : () => this.#reply(at))!;
    this.last = { bytes, start, end, detection };
    if (detected.bytes !== bytes) {
      detected.bytes = bytes;
      detected.starts.length = detected.ends.length = detected.json.length = 0;
    }
    detected.starts.push(start);
    detected.ends.push(end);
    const key = `,"charset":"${detection.charset}","confidence":${detection.confidence}`;
    let json = keys.get(key);
    if (!json) keys.set(key, (json = utf8.encode(key)));
    detected.json.push(json);
    return textCodec(detection.charset).decode(bytes, start, end);
  }

  skipped(bytes: Uint8Array, start: number): void {
    this.last = undefined;
    // Where the reply's strings start, for a short string later: the message's own bytes or a view of them
    // (the interpreter reads strings from views; it had missed an ASCII one there, where the emitters did not).
    if (this.#first < 0) this.#note(bytes, start);
  }

  encode(text: string): Uint8Array | undefined {
    return textCodec('windows-1252').encode(text) ?? textCodec('windows-1251').encode(text) ?? textCodec('utf8').encode(text);
  }

  byteLength(text: string): number | undefined {
    return textCodec('windows-1252').byteLength(text) ?? textCodec('windows-1251').byteLength(text) ?? textCodec('utf8').byteLength(text);
  }

  #longAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
    for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return undefined;
    return this.#latin1.decode(bytes, start, end);
  }

  readonly #latin1 = textCodec('latin1');

  /** Where `bytes[start]` lies in the message (-1 if not in it); the reply's first string starts at the first such place. */
  #note(bytes: Uint8Array, start: number): number {
    const m = this.#message;
    if (bytes === m) {
      if (this.#first < 0) this.#first = start;
      return start;
    }
    if (!m || bytes.buffer !== m.buffer) return -1;
    const at = bytes.byteOffset + start - m.byteOffset;
    if (at < 0 || at > m.length) return -1;
    if (this.#first < 0) this.#first = at;
    return at;
  }

  /** The evidence of the whole reply from its first string on, worked out once per message. */
  #reply(at: number): number {
    return (this.#replyDelta ??= cyrillicOverLatin(this.#message!, Math.min(this.#first, at), this.#message!.length).delta);
  }
}
