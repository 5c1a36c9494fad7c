/**
 * Who is asking (`-z sources`, `gamequery stats --by source`): the query traffic by source
 * address and by network (IPv4 /24, IPv6 /48), and who is guessing the RCON password — for
 * a capture of any number of sources (a spoofed flood has one per packet) in fixed memory.
 *
 * Sources are counted by Space-Saving (Metwally, Agrawal and El Abbadi, "Efficient
 * Computation of Frequent and Top-k Elements in Data Streams", ICDT 2005): `capacity`
 * counters; a source not among them takes the place of the one counted least, inheriting
 * its count as its error. A source's count is never below the truth nor above it by more
 * than its error; every source with more than total ÷ capacity requests is among them; a
 * source that never lost its place (error 0) is counted exactly, and so are its answered
 * requests and its bytes. The output states each error and the threshold. Written here: no
 * maintained package keeps per-item details beside the counts over a numeric key.
 *
 * A request is its source's; a reply is its destination's (the client it answers), counted
 * only while that client holds a place (a reply brings no new source in).
 */
import { formatIPv4, formatIPv6 } from '../net/address.ts';

/** Places kept for sources and for networks, by default. */
export const DEFAULT_CAPACITY = 4096;
/** Denied RCON passwords from one source after which it is reported as guessing. */
export const GUESSING_THRESHOLD = 10;

/** One source (or network) as the report gives it. */
export interface SourceCount {
  /** `198.51.100.7`, or for a network `198.51.100.0/24`, `2001:db8:1::/48`. */
  readonly address: string;
  /** Requests from it; at most `error` above the truth. */
  readonly requests: number;
  /** How much `requests` may overstate (0: exact, and so are the counts below). */
  readonly error: number;
  /** Requests by message name, since it took its place. */
  readonly byMessage: Readonly<Record<string, number>>;
  /** Its requests that got a reply, since it took its place. */
  readonly answered: number;
  /** UDP payload bytes it sent, and the server sent back to it; the same as frames on the wire. */
  readonly requestBytes: number;
  readonly replyBytes: number;
  readonly requestWireBytes: number;
  readonly replyWireBytes: number;
}

/** A source that kept trying RCON passwords the server refused. */
export interface RconGuesser {
  readonly address: string;
  /** RCON requests from it. */
  readonly requests: number;
  /** Those answered "Invalid RCON password." (or the equivalent of its protocol). */
  readonly denied: number;
  /** Distinct passwords it tried (by a 64-bit hash of each; the passwords are not kept). */
  readonly distinctPasswords: number;
}

/** What {@link SourceStats.report} returns. */
export interface SourcesReport {
  /** Requests counted in all (every source's). */
  readonly requests: number;
  /** The counters kept: a source with more than requests ÷ capacity requests is always listed. */
  readonly capacity: number;
  /** requests ÷ capacity, rounded down: the count above which a source cannot be missing. */
  readonly threshold: number;
  /** The top sources by requests (at most `top`), then the top networks. */
  readonly sources: readonly SourceCount[];
  readonly networks: readonly SourceCount[];
  /** Sources with at least {@link GUESSING_THRESHOLD} denied RCON passwords, most first. */
  readonly rconGuessers: readonly RconGuesser[];
  readonly guessingThreshold: number;
}

/**
 * Space-Saving over numeric keys: `capacity` places, a min-heap of them by count, and per place
 * the details a source's report gives. A key is a number (an IPv4 address, a hash of an IPv6
 * one); the address words are kept to name it.
 */
class TopK {
  readonly #slot: KeyIndex;
  readonly #keys: Float64Array;
  readonly count: Float64Array;
  readonly error: Float64Array;
  readonly answered: Float64Array;
  readonly bytes: Float64Array;
  /** Requests by message index, `messages` per place. */
  readonly byMessage: Uint32Array;
  /** The address words (4 per place) and whether IPv6, and the prefix length for a network. */
  readonly words: Uint32Array;
  readonly v6: Uint8Array;
  readonly #heap: Int32Array;
  readonly #at: Int32Array;
  #size = 0;
  total = 0;

  constructor(
    readonly capacity: number,
    readonly messages: number,
  ) {
    this.#keys = new Float64Array(capacity);
    this.count = new Float64Array(capacity);
    this.error = new Float64Array(capacity);
    this.answered = new Float64Array(capacity);
    // Request payload, reply payload, request wire, reply wire bytes.
    this.bytes = new Float64Array(capacity * 4);
    this.byMessage = new Uint32Array(capacity * messages);
    this.words = new Uint32Array(capacity * 4);
    this.v6 = new Uint8Array(capacity);
    this.#heap = new Int32Array(capacity);
    this.#at = new Int32Array(capacity);
    this.#slot = new KeyIndex(capacity);
  }

  /** A request from `key`: its place (taking the least-counted one's when all are held). */
  add(key: number, words: ArrayLike<number>, v6: boolean): number {
    this.total++;
    let s = this.#slot.get(key);
    if (s < 0) {
      if (this.#size < this.capacity) {
        // A new place, counted 1 (the least there is): it rises to the top of the heap.
        s = this.#size++;
        this.#heap[s] = s;
        this.#at[s] = s;
        this.count[s] = 0;
        this.error[s] = 0;
        this.#init(s, key, words, v6);
        this.count[s] = 1;
        this.#up(s);
        return s;
      } else {
        // The root of the heap: the least counted. Its count becomes the newcomer's error.
        s = this.#heap[0]!;
        this.#slot.delete(this.#keys[s]!);
        this.error[s] = this.count[s]!;
        this.#init(s, key, words, v6);
      }
    }
    this.count[s]!++;
    this.#down(this.#at[s]!);
    return s;
  }

  /** Place `s` given to `key`: its details start from nothing. */
  #init(s: number, key: number, words: ArrayLike<number>, v6: boolean): void {
    this.#slot.set(key, s);
    this.#keys[s] = key;
    this.answered[s] = 0;
    const bytes = this.bytes;
    const words4 = this.words;
    for (let i = 4 * s; i < 4 * s + 4; i++) bytes[i] = 0;
    const byMessage = this.byMessage;
    for (let i = s * this.messages, end = i + this.messages; i < end; i++) byMessage[i] = 0;
    words4[4 * s] = words[0]!;
    if (v6) for (let i = 1; i < 4; i++) words4[4 * s + i] = words[i]!;
    this.v6[s] = v6 ? 1 : 0;
  }

  /** A place counted less than its parent rises. */
  #up(i: number): void {
    const heap = this.#heap;
    const s = heap[i]!;
    const c = this.count[s]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.count[heap[parent]!]! <= c) break;
      heap[i] = heap[parent]!;
      this.#at[heap[i]!] = i;
      i = parent;
    }
    heap[i] = s;
    this.#at[s] = i;
  }

  /** The place of `key`, or -1. */
  find(key: number): number {
    return this.#slot.get(key);
  }

  /** A count grew: the place sinks below the smaller of its children. */
  #down(i: number): void {
    const heap = this.#heap;
    const count = this.count;
    const n = this.#size;
    const s = heap[i]!;
    const c = count[s]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const m = r < n && count[heap[r]!]! < count[heap[l]!]! ? r : l;
      if (count[heap[m]!]! >= c) break;
      heap[i] = heap[m]!;
      this.#at[heap[i]!] = i;
      i = m;
    }
    heap[i] = s;
    this.#at[s] = i;
  }

  /** The places held, most counted first. */
  ranked(): number[] {
    const all = Array.from({ length: this.#size }, (_, i) => i);
    return all.sort((a, b) => this.count[b]! - this.count[a]! || this.#keys[a]! - this.#keys[b]!);
  }
}

/**
 * Places by key: open addressing with linear probing in typed arrays, twice as many cells as
 * places, deletion by backward shift (no tombstones). A flood replaces a place per packet:
 * a Map's entries were most of the garbage and a third of the time.
 */
class KeyIndex {
  readonly #keys: Float64Array;
  readonly #values: Int32Array;
  readonly #mask: number;

  constructor(places: number) {
    let cells = 2;
    while (cells < 2 * places) cells *= 2;
    this.#keys = new Float64Array(cells);
    this.#values = new Int32Array(cells).fill(-1);
    this.#mask = cells - 1;
  }

  #home(key: number): number {
    // Keys are addresses (a network's has its low byte zero) or 52-bit hashes: every bit mixed into the low ones.
    let x = (key | 0) ^ Math.imul((key / 0x100000000) | 0, 0x9e3779b1);
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
    return (x ^ (x >>> 16)) & this.#mask;
  }

  get(key: number): number {
    const mask = this.#mask;
    for (let i = this.#home(key); ; i = (i + 1) & mask) {
      const v = this.#values[i]!;
      if (v < 0) return -1;
      if (this.#keys[i] === key) return v;
    }
  }

  set(key: number, value: number): void {
    const mask = this.#mask;
    let i = this.#home(key);
    while (this.#values[i]! >= 0 && this.#keys[i] !== key) i = (i + 1) & mask;
    this.#keys[i] = key;
    this.#values[i] = value;
  }

  delete(key: number): void {
    const mask = this.#mask;
    const keys = this.#keys;
    const values = this.#values;
    let i = this.#home(key);
    for (;;) {
      if (values[i]! < 0) return;
      if (keys[i] === key) break;
      i = (i + 1) & mask;
    }
    // Backward shift: every later entry of the run that may move into the hole does.
    for (let j = (i + 1) & mask; values[j]! >= 0; j = (j + 1) & mask) {
      const home = this.#home(keys[j]!);
      // Entry j may fill hole i when its home is not in (i, j] (cyclically).
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        keys[i] = keys[j]!;
        values[i] = values[j]!;
        i = j;
      }
    }
    values[i] = -1;
  }
}

/** A 52-bit hash of `n` numbers (two 32-bit FNV-style lanes): two inputs share one by a chance of 2^-52. */
function hash52(values: ArrayLike<number>, n: number): number {
  let h = 0x811c9dc5,
    g = 0x9e3779b1;
  for (let i = 0; i < n; i++) {
    const w = values[i]! >>> 0;
    h = Math.imul(h ^ w, 16777619);
    g = Math.imul(g ^ w ^ (h >>> 15), 0x5bd1e995);
  }
  return (h >>> 0) * 0x100000 + ((g >>> 0) & 0xfffff);
}

/** The key of IPv6 words (the first `n` of them): below zero, so that it never meets an IPv4 key. */
const v6Key = (words: ArrayLike<number>, n: number): number => -1 - hash52(words, n);

/** What is known of one source's RCON attempts. */
interface Attempts {
  requests: number;
  denied: number;
  readonly passwords: Set<number>;
  readonly words: Uint32Array;
  readonly v6: boolean;
}

/** Query traffic by source and by network, and RCON guessing: fed request by request and reply by reply. */
export class SourceStats {
  readonly #sources: TopK;
  readonly #networks: TopK;
  readonly #messages: string[] = [];
  readonly #messageIndex = new Map<string, number>();
  readonly #rcon = new Map<number, Attempts>();
  readonly #net = new Uint32Array(4);

  constructor(
    readonly capacity = DEFAULT_CAPACITY,
    readonly top = 20,
    /** Message names counted per source, the last of them "other" (the built-in protocols have 12 between them). */
    messages = 16,
  ) {
    this.#sources = new TopK(capacity, messages);
    this.#networks = new TopK(capacity, messages);
  }

  #message(name: string): number {
    let i = this.#messageIndex.get(name);
    if (i === undefined) {
      // The last index is "other": for names past the room (none of the built-in protocols' come near it).
      const last = this.#sources.messages - 1;
      i = Math.min(this.#messages.length, last);
      if (i < last) this.#messages.push(name);
      else this.#messages[last] = 'other';
      this.#messageIndex.set(name, i);
    }
    return i;
  }

  /** A request from the address `words` (one word for IPv4, four for IPv6): its message, UDP payload and frame lengths. */
  request(words: ArrayLike<number>, v6: boolean, message: string, payloadBytes: number, wireBytes: number): void {
    const m = this.#message(message);
    for (const t of [this.#sources, this.#networks]) {
      const net = t === this.#networks;
      const key = this.#key(words, v6, net);
      const s = t.add(key, net ? this.#net : words, v6);
      t.byMessage[s * t.messages + m]!++;
      t.bytes[4 * s]! += payloadBytes;
      t.bytes[4 * s + 2]! += wireBytes;
    }
  }

  /** A reply to the client at `words`; `answers`: it is the first reply to its request. */
  reply(words: ArrayLike<number>, v6: boolean, answers: boolean, payloadBytes: number, wireBytes: number): void {
    for (const t of [this.#sources, this.#networks]) {
      const s = t.find(this.#key(words, v6, t === this.#networks));
      if (s < 0) continue;
      if (answers) t.answered[s]!++;
      t.bytes[4 * s + 1]! += payloadBytes;
      t.bytes[4 * s + 3]! += wireBytes;
    }
  }

  /** An RCON request from `words` trying `password` (hashed, not kept). */
  rconRequest(words: ArrayLike<number>, v6: boolean, password: Uint8Array | string): void {
    const a = this.#attempts(words, v6);
    a.requests++;
    a.passwords.add(passwordHash(password));
  }

  /** An RCON reply to `words` that refused the password. */
  rconDenied(words: ArrayLike<number>, v6: boolean): void {
    this.#attempts(words, v6).denied++;
  }

  #attempts(words: ArrayLike<number>, v6: boolean): Attempts {
    const key = v6 ? v6Key(words, 4) : words[0]!;
    let a = this.#rcon.get(key);
    if (!a)
      this.#rcon.set(
        key,
        (a = { requests: 0, denied: 0, passwords: new Set(), words: Uint32Array.from({ length: 4 }, (_, i) => words[i] ?? 0), v6 }),
      );
    return a;
  }

  /** A source's key, or its network's (its words then in `#net`). */
  #key(words: ArrayLike<number>, v6: boolean, network: boolean): number {
    if (!network) return v6 ? v6Key(words, 4) : words[0]! >>> 0;
    const net = this.#net;
    if (!v6) {
      net[0] = words[0]! & 0xffffff00;
      return net[0];
    }
    net[0] = words[0]!;
    net[1] = words[1]! & 0xffff0000;
    net[2] = net[3] = 0;
    return v6Key(net, 2);
  }

  /** Sources with at least {@link GUESSING_THRESHOLD} denied passwords, as they stand. */
  guessers(): RconGuesser[] {
    return [...this.#rcon.values()]
      .filter((a) => a.denied >= GUESSING_THRESHOLD)
      .sort((a, b) => b.denied - a.denied)
      .map((a) => ({ address: addressText(a.words, a.v6), requests: a.requests, denied: a.denied, distinctPasswords: a.passwords.size }));
  }

  report(): SourcesReport {
    const list = (t: TopK, network: boolean): SourceCount[] =>
      t
        .ranked()
        .slice(0, this.top)
        .map((s) => {
          const byMessage: Record<string, number> = {};
          this.#messages.forEach((name, i) => {
            const n = t.byMessage[s * t.messages + i]!;
            if (n) byMessage[name] = n;
          });
          const words = t.words.subarray(4 * s, 4 * s + 4);
          const v6 = t.v6[s] === 1;
          return {
            address: addressText(words, v6) + (network ? (v6 ? '/48' : '/24') : ''),
            requests: t.count[s]!,
            error: t.error[s]!,
            byMessage,
            answered: t.answered[s]!,
            requestBytes: t.bytes[4 * s]!,
            replyBytes: t.bytes[4 * s + 1]!,
            requestWireBytes: t.bytes[4 * s + 2]!,
            replyWireBytes: t.bytes[4 * s + 3]!,
          };
        });
    const total = this.#sources.total;
    return {
      requests: total,
      capacity: this.capacity,
      threshold: Math.floor(total / this.capacity),
      sources: list(this.#sources, false),
      networks: list(this.#networks, true),
      rconGuessers: this.guessers(),
      guessingThreshold: GUESSING_THRESHOLD,
    };
  }
}

/** Address words as text. */
function addressText(words: ArrayLike<number>, v6: boolean): string {
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < (v6 ? 4 : 1); i++) view.setUint32(4 * i, words[i]! >>> 0);
  return v6 ? formatIPv6(bytes, 0) : formatIPv4(bytes, 0);
}

/** A password's hash (its bytes, or a string's UTF-16 units): passwords are told apart, not kept. */
const passwordHash = (p: Uint8Array | string): number =>
  hash52(typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p, p.length);
