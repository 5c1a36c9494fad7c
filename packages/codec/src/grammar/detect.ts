/**
 * Charset auto-detection for the query protocols' unmarked strings (`charset: 'auto'`).
 *
 * Per string: all ASCII takes a fast path (every candidate decodes it alike; nothing is
 * scored or recorded). Otherwise valid UTF-8 with a multi-byte sequence is UTF-8; else
 * windows-1251 and windows-1252 are scored against each other: each byte ≥ 0x80 is a
 * character of each code page (a lower or upper case letter, common punctuation, or rare),
 * weighed by how common that letter is in the languages written in it (Russian and
 * Ukrainian; German, French, Spanish, Portuguese) and by its neighbours' classes: runs of
 * Cyrillic letters are normal and Cyrillic inside a Latin word is not, while an accented
 * Latin letter sits between ASCII letters and rarely next to another. The difference of
 * the two scores is a log-likelihood ratio; the confidence is its logistic (0.5…1).
 * A short string (fewer than {@link SHORT_HIGH} bytes ≥ 0x80) adds the evidence of its
 * whole reply (every byte from the reply's first string on), capped at odds of 20 to 1,
 * before it decides.
 */
import { WINDOWS_1251_HIGH, WINDOWS_1252_HIGH } from './codepages.ts';

/** What `auto` (charset.ts `AutoCodec`) chose for one string, and how sure it is (0.5…1; rounded to 3 places). */
export interface Detection {
  readonly charset: 'utf8' | 'windows-1251' | 'windows-1252';
  readonly confidence: number;
}

/** Fewer bytes ≥ 0x80 than this and a string leans on its reply. */
export const SHORT_HIGH = 4;
/** How far the reply can move a short string's score (log-likelihood units; 3 ≈ odds of 20 to 1). */
const REPLY_WEIGHT = 3;

/* ---------- the model ---------- */

// Character classes: ASCII lower/upper letter, digit, anything else ASCII (space, punctuation,
// control: a word boundary), then per code page a high byte's lower/upper letter, punctuation, rare.
const A_LOWER = 0,
  A_UPPER = 1,
  DIGIT = 2,
  SPACE = 3,
  LOWER = 4,
  UPPER = 5,
  PUNCT = 6,
  RARE = 7;

const asciiClass = (b: number): number =>
  b >= 0x61 && b <= 0x7a ? A_LOWER : b >= 0x41 && b <= 0x5a ? A_UPPER : b >= 0x30 && b <= 0x39 ? DIGIT : SPACE;

/** Letters by how common they are in the code page's languages, most common first. */
const COMMON_1251 = 'оеаинтсрвлкмдпуяыьгзбчйіхжшюцщєїэфґъё';
const COMMON_1252 = 'éáóíãçúñêõôâàüöäèßëïîûùœ';
const PUNCT_CHARS = '«»–—‘’‚“”„•…°€©®™№§·¡¿±';

interface Model {
  /** Class of each byte 0x80–0xFF in this code page. */
  readonly cls: Uint8Array;
  /** Log weight of each byte 0x80–0xFF as a character of this code page. */
  readonly uni: Float64Array;
  /** Log weight of the transition prev → cur (8 × 8), used where either is a high byte. */
  readonly tr: Float64Array;
}

function model(high: string, common: string, transitions: Readonly<Record<string, number>>): Model {
  const cls = new Uint8Array(128);
  const uni = new Float64Array(128);
  for (let i = 0; i < 128; i++) {
    const ch = high[i]!;
    const lower = ch.toLowerCase();
    const rank = common.indexOf(lower);
    const letter = /\p{L}/u.test(ch);
    if (letter && rank >= 0) {
      cls[i] = ch === lower ? LOWER : UPPER;
      uni[i] = -0.1 * rank - (ch === lower ? 0 : 0.5);
    } else if (PUNCT_CHARS.includes(ch)) {
      cls[i] = PUNCT;
      uni[i] = -1.5;
    } else if (letter) {
      cls[i] = ch === lower ? LOWER : UPPER;
      uni[i] = -5;
    } else {
      cls[i] = RARE;
      uni[i] = /[\u0080-\u009f\ufffd]/.test(ch) ? -9 : -6;
    }
  }
  // Unlisted pairs involving a high byte: punctuation and rare characters fit anywhere a little.
  const tr = new Float64Array(64).fill(-1);
  const code: Record<string, number> = { a: A_LOWER, A: A_UPPER, d: DIGIT, s: SPACE, x: LOWER, X: UPPER };
  for (const [pair, w] of Object.entries(transitions)) tr[code[pair[0]!]! * 8 + code[pair[1]!]!] = w;
  for (const p of [PUNCT])
    for (let c = 0; c < 8; c++) {
      tr[p * 8 + c] = -0.7;
      tr[c * 8 + p] = -0.7;
    }
  return { cls, uni, tr };
}

/** Cyrillic: words are runs of Cyrillic letters; a Cyrillic letter inside a Latin word is not. */
const CYRILLIC = model(WINDOWS_1251_HIGH, COMMON_1251, {
  xx: 0,
  xX: -3,
  Xx: 0,
  XX: -0.7,
  sx: -1,
  sX: -0.7,
  xs: -0.3,
  Xs: -1.2,
  ax: -5,
  aX: -5,
  Ax: -5,
  AX: -5,
  xa: -5,
  Xa: -5,
  xA: -5,
  XA: -5,
  dx: -1.5,
  dX: -1.5,
  xd: -1,
  Xd: -1,
});

/** Latin: an accented letter sits inside a word of ASCII letters, seldom beside another. */
const LATIN = model(WINDOWS_1252_HIGH, COMMON_1252, {
  xx: -2.5,
  xX: -4,
  Xx: -2.5,
  XX: -2,
  sx: -1.2,
  sX: -0.8,
  xs: -0.3,
  Xs: -1.5,
  ax: 0,
  xa: 0,
  Ax: -0.3,
  Xa: -0.7,
  aX: -4,
  AX: -1,
  XA: -1,
  xA: -3,
  dx: -1.5,
  dX: -1.5,
  xd: -1,
  Xd: -1,
});

/**
 * log P(bytes | windows-1251) − log P(bytes | windows-1252) over `bytes[s, e)`, each
 * end a word boundary; and the number of bytes ≥ 0x80 in it.
 */
export function cyrillicOverLatin(bytes: Uint8Array, s: number, e: number): { readonly delta: number; readonly high: number } {
  let delta = 0;
  let high = 0;
  let prevC = SPACE;
  let prevL = SPACE;
  let prevHigh = false;
  let asciiLower = 0;
  for (let i = s; i <= e; i++) {
    const b = i < e ? bytes[i]! : 0x20;
    let c: number, l: number;
    const isHigh = b >= 0x80;
    if (isHigh) {
      high++;
      c = CYRILLIC.cls[b - 0x80]!;
      l = LATIN.cls[b - 0x80]!;
      delta += CYRILLIC.uni[b - 0x80]! - LATIN.uni[b - 0x80]!;
    } else {
      c = l = asciiClass(b);
    }
    if (isHigh || prevHigh) delta += CYRILLIC.tr[prevC * 8 + c]! - LATIN.tr[prevL * 8 + l]!;
    else if (c === A_LOWER && asciiLower < 20) asciiLower++;
    prevC = c;
    prevL = l;
    prevHigh = isHigh;
  }
  // Lowercase ASCII letters around it (words, not tags like RU, RP) speak for a Latin language.
  if (high > 0) delta -= 0.1 * asciiLower;
  return { delta, high };
}

/** The number of multi-byte sequences if `bytes[s, e)` is valid UTF-8 (no overlong form, surrogate or value past U+10FFFF), else -1. */
export function utf8Sequences(bytes: Uint8Array, s: number, e: number): number {
  let n = 0;
  for (let i = s; i < e;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number, min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return -1;
    if (i + need >= e) return -1;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) return -1;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
    n++;
    i += need + 1;
  }
  return n;
}

const logistic = (x: number): number => 1 / (1 + Math.exp(-Math.abs(x)));
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * What `auto` chooses for `bytes[s, e)`: undefined for all ASCII. `replyDelta` is the evidence of the
 * string's reply (or a function that works it out), which only a short string uses.
 */
export function detect(bytes: Uint8Array, s = 0, e = bytes.length, replyDelta: number | (() => number) = 0): Detection | undefined {
  let ascii = true;
  for (let i = s; i < e; i++)
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  if (ascii) return undefined;
  const multi = utf8Sequences(bytes, s, e);
  if (multi > 0) return { charset: 'utf8', confidence: round3(1 - 0.5 * 0.02 ** multi) };
  const own = cyrillicOverLatin(bytes, s, e);
  // The reply is a prior, not proof: at most REPLY_WEIGHT either way (its bytes may be another charset's).
  const reply = own.high >= SHORT_HIGH ? 0 : typeof replyDelta === 'function' ? replyDelta() : replyDelta;
  const delta = own.delta + Math.max(-REPLY_WEIGHT, Math.min(REPLY_WEIGHT, reply));
  return { charset: delta > 0 ? 'windows-1251' : 'windows-1252', confidence: round3(logistic(delta)) };
}
