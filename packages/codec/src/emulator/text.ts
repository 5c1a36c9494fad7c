/**
 * Strings on their way to the wire. Real servers cap strings by bytes, not characters
 * (open.mp may cut a UTF-8 character in half), so the emulator turns text into the
 * server's bytes first, cuts them, and hands the layouts a latin1 string — one
 * character per byte — encoded with `{ charset: 'latin1' }`, which writes each byte back
 * unchanged. Requests are decoded the same way, so a password compares byte for byte.
 */
import { textCodec, type Charset } from '../grammar/charset.ts';
import type { CodecOptions } from '../grammar/layout.ts';

/** Encode and decode options under which a string's characters are its bytes. */
export const BYTES: CodecOptions = { charset: 'latin1' };

const fromBytes = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
};

/** `text` in `charset`, cut to at most `max` bytes, as one character per byte. */
export function wireText(text: string, charset: Charset, max = Infinity): string {
  const b = textCodec(charset).encode(text);
  if (!b) throw new TypeError(`text has characters that ${charset} cannot encode`);
  return fromBytes(b.length > max ? b.subarray(0, max) : b);
}

/** Byte length of `text` in `charset`. */
export function byteLength(text: string, charset: Charset): number {
  return textCodec(charset).byteLength(text) ?? 0;
}

/**
 * Vanilla Minecraft's `DataOutputStream.writeBytes`: the low 8 bits of each UTF-16 unit,
 * so `§` is the single byte A7 and "⨀" is mangled.
 */
export function vanillaText(text: string): string {
  let s = '';
  for (let i = 0; i < text.length; i++) s += String.fromCharCode(text.charCodeAt(i) & 0xff);
  return s;
}

/** The C-string view of a byte string: everything before the first NUL. */
export const cString = (s: string): string => {
  const nul = s.indexOf('\0');
  return nul < 0 ? s : s.slice(0, nul);
};
