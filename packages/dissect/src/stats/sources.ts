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
  /**
   * The sources the servers sent the most reply bytes (at most `top`, none sent nothing), with
   * what each got back per byte it sent: where a reflection's replies go. Among the sources
   * kept; a source's bytes are counted since it took its place (exact where `error` is 0).
   */
  readonly byReplyBytes: readonly SourceCount[];
  /** Sources with at least {@link GUESSING_THRESHOLD} denied RCON passwords, most first. */
  readonly rconGuessers: readonly RconGuesser[];
  readonly guessingThreshold: number;
}

/**
 * Space-Saving over numeric keys: `capacity` places kept in the "Stream-Summary" of the paper
 * (places of one count in a list, the counts' lists in increasing order), so that a count
 * grows and the least counted place is found in constant time; and per place the details a
 * source's report gives. A key is a number (an IPv4 address, a hash of an IPv6 one); the
 * address words are kept to name it. (A binary heap took a tenth of a flood's time: a
 * replaced place, one above the many at the least count, sank to the bottom every time.)
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
  /** Each place's neighbours in its count's list, and its count's list (a group). */
  readonly #next: Int32Array;
  readonly #prev: Int32Array;
  readonly #group: Int32Array;
  /** Per group: its count, its first place, the groups of the next smaller and larger counts; unused groups stacked. */
  readonly #groupCount: Float64Array;
  readonly #groupHead: Int32Array;
  readonly #groupNext: Int32Array;
  readonly #groupPrev: Int32Array;
  readonly #freeGroups: Int32Array;
  #freeTop = 0;
  /** The group of the least count, or -1. */
  #least = -1;
  #size = 0;
  total = 0;
  /** Message indexes in use (a place's counts past them are all zero). */
  named = 0;

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
    this.#next = new Int32Array(capacity);
    this.#prev = new Int32Array(capacity);
    this.#group = new Int32Array(capacity);
    // At most one group per place, and one more while a place moves.
    const groups = capacity + 1;
    this.#groupCount = new Float64Array(groups);
    this.#groupHead = new Int32Array(groups);
    this.#groupNext = new Int32Array(groups);
    this.#groupPrev = new Int32Array(groups);
    this.#freeGroups = Int32Array.from({ length: groups }, (_, i) => groups - 1 - i);
    this.#freeTop = groups;
    this.#slot = new KeyIndex(capacity);
  }

  /** A request from `key`: its place (taking the least-counted one's when all are held). */
  add(key: number, words: ArrayLike<number>, v6: boolean): number {
    this.total++;
    let s = this.#slot.get(key);
    if (s < 0) {
      if (this.#size < this.capacity) {
        // A new place, counted 1: into the group of count 1, made at the front if there is none.
        s = this.#size++;
        this.error[s] = 0;
        this.count[s] = 1;
        this.#init(s, key, words, v6);
        let g = this.#least;
        if (g < 0 || this.#groupCount[g] !== 1) g = this.#newGroup(1, -1, g);
        this.#join(s, g);
        return s;
      }
      // The first of the least counted: its count becomes the newcomer's error, and one more its count.
      s = this.#groupHead[this.#least]!;
      this.#slot.delete(s);
      this.error[s] = this.count[s]!;
      this.#init(s, key, words, v6);
    }
    this.#increment(s);
    return s;
  }

  /** One more for place `s`: it moves to the group of its new count, made next to its old one if there is none. */
  #increment(s: number): void {
    const g = this.#group[s]!;
    const c = this.count[s]! + 1;
    this.count[s] = c;
    let to = this.#groupNext[g]!;
    if (to < 0 || this.#groupCount[to] !== c) to = this.#newGroup(c, g, to);
    this.#leave(s);
    this.#join(s, to);
  }

  /** A group of count `c` between groups `prev` and `next` (-1: none). */
  #newGroup(c: number, prev: number, next: number): number {
    const g = this.#freeGroups[--this.#freeTop]!;
    this.#groupCount[g] = c;
    this.#groupHead[g] = -1;
    this.#groupPrev[g] = prev;
    this.#groupNext[g] = next;
    if (prev >= 0) this.#groupNext[prev] = g;
    else this.#least = g;
    if (next >= 0) this.#groupPrev[next] = g;
    return g;
  }

  /** Place `s` first in group `g`'s list. */
  #join(s: number, g: number): void {
    const head = this.#groupHead[g]!;
    this.#group[s] = g;
    this.#prev[s] = -1;
    this.#next[s] = head;
    if (head >= 0) this.#prev[head] = s;
    this.#groupHead[g] = s;
  }

  /** Place `s` out of its group's list; an emptied group is unlinked and freed. */
  #leave(s: number): void {
    const g = this.#group[s]!;
    const prev = this.#prev[s]!;
    const next = this.#next[s]!;
    if (prev >= 0) this.#next[prev] = next;
    else this.#groupHead[g] = next;
    if (next >= 0) this.#prev[next] = prev;
    if (this.#groupHead[g]! >= 0) return;
    const before = this.#groupPrev[g]!;
    const after = this.#groupNext[g]!;
    if (before >= 0) this.#groupNext[before] = after;
    else this.#least = after;
    if (after >= 0) this.#groupPrev[after] = before;
    this.#freeGroups[this.#freeTop++] = g;
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
    // Only the indexes named so far: no place has counted past them.
    for (let i = s * this.messages, end = i + this.named; i < end; i++) byMessage[i] = 0;
    words4[4 * s] = words[0]!;
    if (v6) for (let i = 1; i < 4; i++) words4[4 * s + i] = words[i]!;
    this.v6[s] = v6 ? 1 : 0;
  }

  /** The place of `key`, or -1. */
  find(key: number): number {
    return this.#slot.get(key);
  }

  /** The places held, most counted first. */
  ranked(): number[] {
    const all = Array.from({ length: this.#size }, (_, i) => i);
    return all.sort((a, b) => this.count[b]! - this.count[a]! || this.#keys[a]! - this.#keys[b]!);
  }

  /** The places sent any reply bytes, the most first. */
  byReplyBytes(): number[] {
    const all = Array.from({ length: this.#size }, (_, i) => i).filter((s) => this.bytes[4 * s + 1]! > 0);
    return all.sort((a, b) => this.bytes[4 * b + 1]! - this.bytes[4 * a + 1]! || this.#keys[a]! - this.#keys[b]!);
  }
}

/**
 * Places by key: open addressing with linear probing in typed arrays, four times as many cells as
 * places, deletion by backward shift (no tombstones). A flood replaces a place per packet:
 * a Map's entries were most of the garbage and a third of the time. A quarter full, a miss,
 * a delete and an insert probe little: 0.30 µs a request for both tables, 0.41 half full (an
 * eighth full, 0.27 alone but no faster in a whole run: the larger table costs its cache).
 * Each place's cell is kept, so that the place taken over is let go without its key looked
 * up, and a new place zeroes only the message counts named so far: 0.23-0.26 µs.
 */
class KeyIndex {
  readonly #keys: Float64Array;
  readonly #values: Int32Array;
  /** Each place's cell: a place is let go without its key looked up. */
  readonly #cellOf: Int32Array;
  readonly #mask: number;

  constructor(places: number) {
    let cells = 2;
    while (cells < 4 * places) cells *= 2;
    this.#keys = new Float64Array(cells);
    this.#values = new Int32Array(cells).fill(-1);
    this.#cellOf = new Int32Array(places);
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

  /** Files `place` under `key`, which is not filed. */
  set(key: number, place: number): void {
    const mask = this.#mask;
    let i = this.#home(key);
    while (this.#values[i]! >= 0) i = (i + 1) & mask;
    this.#keys[i] = key;
    this.#values[i] = place;
    this.#cellOf[place] = i;
  }

  /** Lets go of `place`'s key. */
  delete(place: number): void {
    const mask = this.#mask;
    const keys = this.#keys;
    const values = this.#values;
    const cellOf = this.#cellOf;
    let i = cellOf[place]!;
    // Backward shift: every later entry of the run that may move into the hole does.
    for (let j = (i + 1) & mask; values[j]! >= 0; j = (j + 1) & mask) {
      const home = this.#home(keys[j]!);
      // Entry j may fill hole i when its home is not in (i, j] (cyclically).
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        keys[i] = keys[j]!;
        values[i] = values[j]!;
        cellOf[values[i]!] = i;
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
  #lastName = '';
  #lastIndex = 0;
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
    // A flood asks one thing over and over: the last name's index, without a lookup.
    if (name === this.#lastName) return this.#lastIndex;
    let i = this.#messageIndex.get(name);
    if (i === undefined) {
      // The last index is "other": for names past the room (none of the built-in protocols' come near it).
      const last = this.#sources.messages - 1;
      i = Math.min(this.#messages.length, last);
      if (i < last) this.#messages.push(name);
      else this.#messages[last] = 'other';
      this.#sources.named = this.#networks.named = Math.max(this.#sources.named, i + 1);
      this.#messageIndex.set(name, i);
    }
    this.#lastName = name;
    this.#lastIndex = i;
    return i;
  }

  /** A request from the address `words` (one word for IPv4, four for IPv6): its message, UDP payload and frame lengths. */
  request(words: ArrayLike<number>, v6: boolean, message: string, payloadBytes: number, wireBytes: number): void {
    const m = this.#message(message);
    // Per packet of a flood: the two tables by hand, not through an array made for each.
    this.#requestIn(this.#sources, this.#key(words, v6, false), words, v6, m, payloadBytes, wireBytes);
    this.#requestIn(this.#networks, this.#key(words, v6, true), this.#net, v6, m, payloadBytes, wireBytes);
  }

  #requestIn(t: TopK, key: number, words: ArrayLike<number>, v6: boolean, m: number, payloadBytes: number, wireBytes: number): void {
    const s = t.add(key, words, v6);
    t.byMessage[s * t.messages + m]!++;
    t.bytes[4 * s]! += payloadBytes;
    t.bytes[4 * s + 2]! += wireBytes;
  }

  /** A reply to the client at `words`; `answers`: it is the first reply to its request. */
  reply(words: ArrayLike<number>, v6: boolean, answers: boolean, payloadBytes: number, wireBytes: number): void {
    this.#replyIn(this.#sources, this.#key(words, v6, false), answers, payloadBytes, wireBytes);
    this.#replyIn(this.#networks, this.#key(words, v6, true), answers, payloadBytes, wireBytes);
  }

  #replyIn(t: TopK, key: number, answers: boolean, payloadBytes: number, wireBytes: number): void {
    const s = t.find(key);
    if (s < 0) return;
    if (answers) t.answered[s]!++;
    t.bytes[4 * s + 1]! += payloadBytes;
    t.bytes[4 * s + 3]! += wireBytes;
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
    const list = (t: TopK, network: boolean, places = t.ranked()): SourceCount[] =>
      places.slice(0, this.top).map((s) => {
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
      byReplyBytes: list(this.#sources, false, this.#sources.byReplyBytes()),
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
