/**
 * Text encodings for the query protocols' strings.
 *
 * None of the three protocols marks its encoding: SA:MP and VC:MP strings are whatever
 * the server's ANSI code page produced (commonly Windows-1251 or -1252), vanilla
 * Minecraft writes the low byte of each UTF-16 unit (ISO-8859-1), and Bedrock-side
 * servers send UTF-8. Callers therefore choose the charset; raw bytes stay available
 * through the annotating decode.
 *
 * Single-byte code pages are decoded through a 256-entry table built once from the
 * platform `TextDecoder` (WHATWG mappings), and encoded through its inverse, so both
 * directions agree and nothing here needs Node's Buffer.
 */

/** The charsets a caller may choose for decoded text. */
export type Charset = 'latin1' | 'windows-1252' | 'windows-1251' | 'utf8';

export const charsets: readonly Charset[] = ['latin1', 'windows-1252', 'windows-1251', 'utf8'];

/** Decodes and encodes text in one charset; instances are cached per charset. */
export interface TextCodec {
  readonly charset: Charset;
  decode(bytes: Uint8Array): string;
  /** Returns undefined when a character has no byte sequence in this charset. */
  encode(text: string): Uint8Array | undefined;
  /** Byte length of `text` once encoded (undefined if unencodable). */
  byteLength(text: string): number | undefined;
}

class SingleByteCodec implements TextCodec {
  readonly #chars: string[];
  readonly #bytes = new Map<number, number>();

  constructor(readonly charset: Charset, chars: string[]) {
    this.#chars = chars;
    // The first byte that maps to a code point wins, so U+FFFD (unmapped bytes) is
    // never encodable and decoding stays the inverse of encoding wherever it can be.
    chars.forEach((ch, byte) => {
      const cp = ch.charCodeAt(0);
      if (cp !== 0xfffd && !this.#bytes.has(cp)) this.#bytes.set(cp, byte);
    });
  }

  decode(bytes: Uint8Array): string {
    const chars = this.#chars;
    let text = '';
    for (let i = 0; i < bytes.length; i++) text += chars[bytes[i]!];
    return text;
  }

  encode(text: string): Uint8Array | undefined {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const byte = this.#bytes.get(text.charCodeAt(i));
      if (byte === undefined) return undefined;
      out[i] = byte;
    }
    return out;
  }

  byteLength(text: string): number | undefined {
    for (let i = 0; i < text.length; i++) if (!this.#bytes.has(text.charCodeAt(i))) return undefined;
    return text.length;
  }
}

class Utf8Codec implements TextCodec {
  readonly charset = 'utf8' as const;
  readonly #decoder = new TextDecoder('utf-8');
  readonly #encoder = new TextEncoder();

  decode(bytes: Uint8Array): string {
    // Short ASCII strings (most names) are faster without a trip into the decoder.
    if (bytes.length <= 32) {
      let text = '';
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i]!;
        if (b >= 0x80) return this.#decoder.decode(bytes);
        text += String.fromCharCode(b);
      }
      return text;
    }
    return this.#decoder.decode(bytes);
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
      else if (c >= 0xd800 && c <= 0xdbff) { n += 4; i++; }
      else n += 3;
    }
    return n;
  }

  #hasLoneSurrogate(text: string): boolean {
    // In a /u regex a surrogate class matches only unpaired halves.
    return /[\uD800-\uDFFF]/u.test(text);
  }
}

function tableFor(label: string): string[] {
  const decoder = new TextDecoder(label);
  const all = new Uint8Array(256);
  for (let i = 0; i < 256; i++) all[i] = i;
  return Array.from(decoder.decode(all));
}

const cache = new Map<Charset, TextCodec>();

/** The cached codec for a charset. */
export function textCodec(charset: Charset): TextCodec {
  let codec = cache.get(charset);
  if (codec) return codec;
  switch (charset) {
    case 'latin1':
      // True ISO-8859-1: WHATWG's "latin1" label means windows-1252, so build it here.
      codec = new SingleByteCodec(charset, Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)));
      break;
    case 'windows-1252':
    case 'windows-1251':
      codec = new SingleByteCodec(charset, tableFor(charset));
      break;
    case 'utf8':
      codec = new Utf8Codec();
      break;
    default:
      throw new TypeError(`unknown charset ${JSON.stringify(charset)}; expected one of ${charsets.join(', ')}`);
  }
  cache.set(charset, codec);
  return codec;
}
