/**
 * What the compiled text emitters (compile.ts) call at run time, per message: strings shown
 * as `showText` shows them (copied when plain ASCII), secrets masked, decimal text, byte
 * lists, and the flag tables. The generated code is handed these; nothing here is compiled.
 */
import {
  decimalText,
  encoder,
  flagJson,
  hiddenText,
  jsonRuntime,
  showText,
  shownFlag,
  type ByteSink,
  type TextCodec,
} from '@gamequery/codec/internal';

/** 1 for the bytes that every charset decodes to themselves and `showText` leaves as they are. */
const PLAIN = Uint8Array.from({ length: 256 }, (_, c) => (c >= 0x20 && c <= 0x7e && c !== 0x5c ? 1 : 0));

/**
 * `showText` of the string decoded from bytes `s..e`, as UTF-8: its bytes, when every one is
 * {@link PLAIN}, else decoded and escaped through the sink (the caller reloads `buf`). At most
 * 4 bytes a byte (`\x9f`, or U+FFFD for a byte UTF-8 cannot decode), which the caller reserves.
 */
function shown(sink: ByteSink, buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number, text: TextCodec): number {
  let i = s;
  let p = o;
  for (; i < e; i++) {
    const c = bytes[i]!;
    if (PLAIN[c] === 0) break;
    buf[p++] = c;
  }
  if (i === e) return p;
  sink.at = o;
  sink.raw(showText(text.decode(bytes, s, e)));
  return sink.at;
}

/** A secret string's (or decimal string's) shown text, masked unless `clear`, through the sink (it reserves for itself). */
function secretShown(
  sink: ByteSink,
  o: number,
  bytes: Uint8Array,
  s: number,
  e: number,
  text: TextCodec,
  clear: boolean,
  whole: boolean,
  pattern: RegExp | undefined,
): number {
  const t = text.decode(bytes, s, e);
  sink.at = o;
  sink.raw(hiddenText(t, clear, whole, pattern) ?? showText(t));
  return sink.at;
}

const { ascii, digits } = jsonRuntime;

/** Decimal text's shown form (`d` from {@link decimalText}): the bytes, or the decoded text (at most 11 bytes). */
function decimalShown(buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number, d: string | null): number {
  if (d !== null) return ascii(buf, o, d);
  for (let i = s; i < e; i++) buf[o++] = bytes[i]!;
  return o;
}

/** Decimal text's value as a template shows it, `String(Number(text))` (`-0` is `0`): at most 11 bytes. */
function decimalValue(buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number, d: string | null): number {
  if (d !== null) return ascii(buf, o, String(Number(d)));
  if (e - s === 2 && bytes[s] === 0x2d && bytes[s + 1] === 0x30) {
    buf[o] = 0x30;
    return o + 1;
  }
  return decimalShown(buf, o, bytes, s, e, d);
}

/** Bytes `s..e` as a template shows a `Uint8Array`, `String(bytes)`: decimal, comma-separated (at most 4 bytes a byte). */
function byteList(buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) {
    if (i > s) buf[o++] = 0x2c;
    o = digits(buf, o, bytes[i]!);
  }
  return o;
}

/** What a compiled text emitter calls: the JSON emitter's helpers and these. */
export const runtime: object = { ...jsonRuntime, shown, secretShown, decimalText, decimalShown, decimalValue, byteList };

/** A flag byte's shown text, `Yes (n)` or `No (0)`, and its JSON value and shown text, by byte (the codec's bool kind says what they are). */
export const FLAG_TEXT = Array.from({ length: 256 }, (_, b) => encoder.encode(shownFlag(b)));
export const FLAG_JSON = Array.from({ length: 256 }, (_, b) => encoder.encode(flagJson(b)));
