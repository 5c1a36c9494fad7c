/**
 * The run-time side of the generated JSON emitters (`emit.ts`): the helpers the generated
 * code calls, each writing at `o` into the sink's buffer and returning the next position
 * (the code reserves room for a run of bounded writes once; a helper that may write more
 * goes through the sink, and the code reloads `buf` after it), the emitter's signature, and
 * {@link emitWith}, which runs one past warnings.
 */
import type { DecodeWarning } from './annotate.ts';
import type { TextCodec } from './charset.ts';
import { detected } from './charset.ts';
import { MASK, fillTemplate, redacted, showText } from './display.ts';
import type { ByteSink } from './sink.ts';
import { flagJson, flagWarning } from './kinds/bool.ts';
import { ipv4ToString } from './kinds/ipv4.ts';
import { DECIMAL } from './kinds/string.ts';
import { shortListWarning } from './kinds/nested.ts';
import { numbers } from './numbers.ts';

const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const SHOW = new TextEncoder().encode(',"show":');

/** An integer (|n| < 2^32, or -0 written as 0) in decimal. */
function digits(buf: Uint8Array, o: number, n: number): number {
  if (n < 0) {
    buf[o++] = 0x2d;
    n = -n;
  }
  if (n < 10) {
    buf[o] = 0x30 + n;
    return o + 1;
  }
  const end = o + (n < 100 ? 2 : n < 1e3 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : 10);
  for (let i = end - 1; i >= o; i--) {
    const q = Math.floor(n / 10);
    buf[i] = 0x30 + n - q * 10;
    n = q;
  }
  return end;
}

/** The low `width` hex digits of an integer, as `hexOf` shows them (without `0x`). */
export function hexInt(buf: Uint8Array, o: number, n: number, width: number): number {
  n >>>= 0;
  for (let i = o + width - 1; i >= o; i--) {
    buf[i] = HEX[n & 15]!;
    n >>>= 4;
  }
  return o + width;
}

/** Bytes `s..e` of the message as lowercase hex (`toHex`). */
function hexBytes(buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) {
    const b = bytes[i]!;
    buf[o++] = HEX[b >> 4]!;
    buf[o++] = HEX[b & 15]!;
  }
  return o;
}

/** Four bytes at `a` in dotted order (`ipv4ToString`). */
export function dotted(buf: Uint8Array, o: number, bytes: Uint8Array, a: number): number {
  o = digits(buf, o, bytes[a]!);
  buf[o++] = 0x2e;
  o = digits(buf, o, bytes[a + 1]!);
  buf[o++] = 0x2e;
  o = digits(buf, o, bytes[a + 2]!);
  buf[o++] = 0x2e;
  return digits(buf, o, bytes[a + 3]!);
}

/** Text known to be ASCII with nothing to escape (decimal text). */
function ascii(buf: Uint8Array, o: number, text: string): number {
  for (let i = 0; i < text.length; i++) buf[o++] = text.charCodeAt(i);
  return o;
}

/**
 * Bytes `s..e` as they are if every one is printable ASCII that neither JSON nor
 * `showText` escapes (every charset decodes those to themselves); -1 otherwise.
 */
function plain(buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) {
    const c = bytes[i]!;
    if (PLAIN[c] === 0) return -1;
    buf[o++] = c;
  }
  return o;
}

/** 1 for the bytes {@link plain} copies. */
const PLAIN = Uint8Array.from({ length: 256 }, (_, c) => (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c ? 1 : 0));

/**
 * The text of bytes `s..e` where a value needs it, else null where {@link plain} will copy
 * them as they are (the helpers below then never look at the text). What a summary-only
 * emitter reads a string with: a hundred player names decoded for nobody were a tenth of a
 * capture's time.
 */
function lazyText(text: TextCodec, bytes: Uint8Array, s: number, e: number): string | null {
  for (let i = s; i < e; i++) if (PLAIN[bytes[i]!] === 0) return text.decode(bytes, s, e);
  if (text.skipped) text.skipped(bytes, s);
  return null;
}

/**
 * `"value","show":"shown"` of a string decoded from bytes `s..e`: at most 12 bytes a byte
 * plus 12. Writes through the sink when the text needs escaping (the caller reloads `buf`).
 */
function textPair(sink: ByteSink, buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number, text: string | null): number {
  buf[o] = 0x22;
  const end = plain(buf, o + 1, bytes, s, e);
  if (end >= 0) {
    const n = end - o + 1; // the string with its quotes
    buf[end] = 0x22;
    let p = end + 1;
    for (let i = 0; i < 8; i++) buf[p++] = SHOW[i]!;
    for (let i = 0; i < n; i++) buf[p + i] = buf[o + i]!;
    return p + n;
  }
  // Not plain: the text was decoded (lazyText).
  const t = text!;
  sink.at = o;
  sink.string(t);
  const from = o;
  const to = sink.at;
  sink.bytes(SHOW);
  const shown = showText(t);
  if (shown === t) {
    // The same text: the same bytes again.
    sink.reserve(to - from);
    sink.buf.copyWithin(sink.at, from, to);
    sink.at += to - from;
  } else {
    sink.string(shown);
  }
  // `charset: 'auto'` says what it chose for these bytes (only ever for bytes ≥ 0x80, which the plain path above never takes).
  const keys = detected.find(bytes, s, e);
  if (keys) sink.bytes(keys);
  return sink.at;
}

/** `showText` of a string decoded from bytes `s..e`, JSON-escaped without quotes (a summary's part): at most 6 bytes a byte plus 2. */
function shownInner(sink: ByteSink, buf: Uint8Array, o: number, bytes: Uint8Array, s: number, e: number, text: string | null): number {
  const end = plain(buf, o, bytes, s, e);
  if (end >= 0) return end;
  sink.at = o;
  sink.string(showText(text!));
  const to = sink.at;
  sink.buf.copyWithin(o, o + 1, to - 1);
  return to - 2;
}

/** A pre-encoded piece chosen at run time (a flag's tail, an integer's shown text). */
function put(buf: Uint8Array, o: number, k: Uint8Array): number {
  const n = k.length;
  // A copy loop costs about a nanosecond a byte, `set` a call: the loop wins below 16 bytes.
  if (n >= 16) buf.set(k, o);
  else for (let i = 0; i < n; i++) buf[o + i] = k[i]!;
  return o + n;
}

let viewed: Uint8Array | undefined;
let view: DataView | undefined;

/** A DataView of the sink's buffer (the last one asked for is kept), for writing fixed text four bytes at a time. */
function viewOf(buf: Uint8Array): DataView {
  if (buf !== viewed) {
    viewed = buf;
    view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  return view!;
}

/* ---------- secrets: masked as `nodeJson` masks them unless the caller shows them ---------- */

/**
 * What a secret string shows in place of its text (a node's `masked ?? MASK`), or
 * undefined where it shows its text: always when `clear`, else where a `redact`
 * pattern does not match a string that is not `whole`ly secret.
 */
export function hiddenText(text: string, clear: boolean, whole: boolean, pattern: RegExp | undefined): string | undefined {
  if (clear) return undefined;
  const masked = pattern === undefined ? undefined : redacted(text, pattern);
  return masked !== undefined ? showText(masked) : whole ? MASK : undefined;
}

/** What follows a masked secret's `"show"` (`nodeJson`'s `masked: true`): its value is not the field's. */
const MASKED = new TextEncoder().encode(',"masked":true');

/** `"value","show":"shown"` of a secret string decoded from bytes `s..e` (and `"masked":true` where masked), through the sink (it reserves for itself). */
function secretPair(
  sink: ByteSink,
  o: number,
  bytes: Uint8Array,
  s: number,
  e: number,
  text: string,
  clear: boolean,
  whole: boolean,
  pattern: RegExp | undefined,
): number {
  const hidden = hiddenText(text, clear, whole, pattern);
  sink.at = o;
  if (hidden === undefined) {
    sink.reserve((e - s) * 12 + 12);
    return textPair(sink, sink.buf, o, bytes, s, e, text);
  }
  sink.string(hidden);
  sink.bytes(SHOW);
  sink.string(hidden);
  sink.bytes(MASKED);
  return sink.at;
}

/** The same for a secret decimal string whose value is `n`. */
function secretNumber(
  sink: ByteSink,
  o: number,
  n: number,
  text: string,
  clear: boolean,
  whole: boolean,
  pattern: RegExp | undefined,
): number {
  const hidden = hiddenText(text, clear, whole, pattern);
  sink.at = o;
  if (hidden === undefined) sink.number(n);
  else sink.string(hidden);
  sink.bytes(SHOW);
  sink.string(hidden ?? text);
  if (hidden !== undefined) sink.bytes(MASKED);
  return sink.at;
}

/* ---------- warnings: what the interpreter says of a message that decodes ---------- */

/** Where an emitter told to go on past warnings reports them, and how far the message went (trailing bytes are the caller's). */
export interface EmitState {
  warnings: DecodeWarning[] | undefined;
  bytesRead: number;
}

const flagTails: Uint8Array[] = [];
/** `true,"show":"Yes (n)"},` for a flag byte above 1. */
const flagTail = (n: number): Uint8Array => (flagTails[n] ??= new TextEncoder().encode(`${flagJson(n)}},`));

function warnFlag(st: EmitState, field: string, offset: number, n: number): void {
  (st.warnings ??= []).push(flagWarning(field, offset, n));
}

function warnShort(st: EmitState, field: string, offset: number, declared: number, present: number): void {
  (st.warnings ??= []).push(shortListWarning(field, offset, declared, present));
}

type Obj = Record<string, unknown>;

/**
 * Writes the fields array of `bytes` as JSON at `sink.at` and returns the decoded value;
 * undefined (with `sink.at` where it was) where the interpreter has something to say.
 * Secrets are written in clear when `clear`, else masked. With `st` null, any warning is
 * something to say; with an {@link EmitState}, warnings go there, with the bytes read, and
 * trailing bytes are left for the caller to report.
 */
export type JsonEmitter = (bytes: Uint8Array, text: TextCodec, sink: ByteSink, clear: boolean, st: EmitState | null) => Obj | undefined;

/** Reused by {@link emitWith}: an emitter runs to the end before the next starts. */
const state: EmitState = { warnings: undefined, bytesRead: 0 };

/**
 * Runs `emitter` going on past warnings: the value, the bytes the message took and its
 * warnings but trailing bytes' (the caller's to add), or undefined where decoding fails.
 */
export function emitWith(
  emitter: JsonEmitter,
  bytes: Uint8Array,
  text: TextCodec,
  sink: ByteSink,
  clear: boolean,
): { value: Obj; bytesRead: number; warnings: DecodeWarning[] | undefined } | undefined {
  state.warnings = undefined;
  const value = emitter(bytes, text, sink, clear, state);
  return value === undefined ? undefined : { value, bytesRead: state.bytesRead, warnings: state.warnings };
}

/** Everything the generated code refers to by name. */
export const runtime = {
  viewOf,
  digits,
  hexInt,
  hexBytes,
  dotted,
  ascii,
  lazyText,
  textPair,
  shownInner,
  put,
  showText,
  fillTemplate,
  ipv4ToString,
  DECIMAL,
  secretPair,
  secretNumber,
  flagTail,
  warnFlag,
  warnShort,
  numbers,
};

/**
 * Whether bytes `s..e` are decimal text `decode` takes (`DECIMAL`, within `min..max`):
 * null when they are, as they stand (ASCII digits and a minus sign read the same in every
 * charset); the decoded text when it is decimal though the bytes are not (a UTF-8 byte
 * order mark, which the decoder drops); undefined when decoding would throw.
 */
export function decimalText(bytes: Uint8Array, s: number, e: number, min: number, max: number, text: TextCodec): string | null | undefined {
  let i = s;
  const negative = i < e && bytes[i] === 0x2d;
  if (negative) i++;
  const first = i;
  let v = 0;
  for (; i < e; i++) {
    const d = bytes[i]! - 0x30;
    if (d < 0 || d > 9) {
      const t = text.decode(bytes, s, e);
      const n = Number(t);
      return DECIMAL.test(t) && n >= min && n <= max ? t : undefined;
    }
    v = v * 10 + d;
  }
  const digits = e - first;
  if (digits === 0 || digits > 10 || (digits > 1 && bytes[first] === 0x30)) return undefined;
  const n = negative ? -v : v;
  return n >= min && n <= max ? null : undefined;
}
