import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE } from '../../../src/pairing/capture/columns.ts';
import { ANSWERED, ExchangeMemory, TokenMemory, UNANSWERED, rowOf } from '../../../src/pairing/capture/memory.ts';
import { KeyTable } from '../../../src/pairing/capture/table.ts';

/**
 * An ExchangeMemory with a key table of its own (the pairer's, in pairer.ts, is shared with
 * the requests waiting), remembered into a key's row and read by a key's halves, as the pairer does.
 */
class KeyedMemory extends ExchangeMemory {
  readonly keys: KeyTable;

  constructor(window: number, forget: ((frame: number) => void) | undefined, keys = new KeyTable(2), numbers?: number) {
    super(window, forget, keys, numbers);
    this.keys = keys;
  }

  /** The row of the key with halves `lo`, `hi` (made if it has none), to remember into. */
  row(lo: number, hi: number): number {
    return rowOf(this.keys, lo, hi);
  }

  newestKey(lo: number, hi: number): number {
    return this.newest(this.keys.find(lo, hi));
  }

  override clear(): void {
    super.clear();
    this.keys.clear();
  }
}

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

const TIMEOUT = 1000;
const WINDOW = 5000;

/** Keys, several in one bucket of the table (low halves equal in their low bits), told apart by the high half. */
const KEYS: readonly (readonly [number, number])[] = [
  [7, 0],
  [7, 1],
  [7 + 1024, 0],
  [0xffffffff, 0x80000000],
  [12345, 67890],
];

/** An exchange as the model holds it. */
interface Exchange {
  key: number;
  frame: number;
  layout: number;
  outcome: number;
  collects: boolean;
  time: number;
  /** (hash lo, hash hi, frame) triples. */
  replies: number[];
  /** Its row, as `newest` named it right after it was remembered. */
  row: number;
}

const deadline = (x: Exchange): number => x.time + WINDOW;

/** An ExchangeMemory and a model of it: exchanges in finish order, let go from the front. */
class CheckedMemory {
  readonly forgotten: number[] = [];
  readonly memory = new KeyedMemory(WINDOW, (frame) => this.forgotten.push(frame));
  queue: Exchange[] = [];
  /** Frames the model says were forgotten, in order. */
  readonly expectForgotten: number[] = [];
  frame = 0;

  remember(key: number, outcome: number, collects: boolean, time: number, replies: number[]): Exchange {
    const [lo, hi] = KEYS[key]!;
    const x: Exchange = { key, frame: ++this.frame, layout: (this.frame * 37) & 0xff, outcome, collects, time, replies, row: -1 };
    this.memory.remember(this.memory.row(lo, hi), x.frame, x.layout, outcome, collects, time, replies, replies.length / 3);
    x.row = this.memory.newestKey(lo, hi);
    this.queue.push(x);
    return x;
  }

  expire(now: number, strictly: boolean): void {
    while (this.queue.length) {
      const until = deadline(this.queue[0]!);
      if (strictly ? until >= now : until > now) break;
      const x = this.queue.shift()!;
      if (x.collects) this.expectForgotten.push(x.frame);
    }
    this.memory.expire(now, strictly);
  }

  clear(): void {
    for (const x of this.queue) if (x.collects) this.expectForgotten.push(x.frame);
    this.queue = [];
    this.memory.clear();
  }

  check(): void {
    const m = this.memory;
    expect(m.size).toBe(this.queue.length);
    expect(m.next).toBe(this.queue.length ? deadline(this.queue[0]!) : Infinity);
    expect(this.forgotten).toEqual(this.expectForgotten);
    KEYS.forEach(([lo, hi], key) => {
      const want = this.queue.filter((x) => x.key === key).reverse();
      const got: number[] = [];
      for (let e = m.newestKey(lo, hi); e >= 0 && got.length <= want.length; e = m.older(e)) got.push(e);
      if (got.join() !== want.map((x) => x.row).join()) {
        expect.fail(
          `key ${key}: rows ${got.join()} newest first, not ${want.map((x) => x.row).join()} (frames ${want.map((x) => x.frame).join()})`,
        );
      }
    });
    for (const x of this.queue) {
      const e = x.row;
      expect([m.request(e), m.layout(e), m.outcome(e), m.collects(e), m.time(e)]).toEqual([
        x.frame,
        x.layout,
        x.outcome,
        x.collects,
        x.time,
      ]);
      for (let i = 0; i < x.replies.length; i += 3) {
        // The first reply with that hash (a hash repeated within one exchange names its first frame).
        const first = x.replies.findIndex((_, j) => j % 3 === 0 && x.replies[j] === x.replies[i] && x.replies[j + 1] === x.replies[i + 1]);
        expect(m.copyOf(e, x.replies[i]!, x.replies[i + 1]!), `exchange ${x.frame}, reply ${i / 3}`).toBe(x.replies[first + 2]);
      }
      expect(m.copyOf(e, 0xdead, 0xbeef)).toBe(0);
    }
  }
}

type MemoryOp =
  | { kind: 'remember'; key: number; answered: boolean; collects: boolean; dt: number; replies: number[] }
  | { kind: 'expire'; atFront: boolean; delta: number; strictly: boolean }
  | { kind: 'clear' };

describe('ExchangeMemory', () => {
  it('agrees with a model under random remembers (keys reused), expiries at and around deadlines, and clears', () => {
    // Reply hashes from a small set, so that exchanges share some and differ in others.
    const reply = fc.tuple(fc.nat(5), fc.nat(3), fc.integer({ min: 1, max: 1_000_000 }));
    const op: fc.Arbitrary<MemoryOp> = fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record({
          kind: fc.constant('remember' as const),
          key: fc.nat(KEYS.length - 1),
          answered: fc.boolean(),
          collects: fc.boolean(),
          dt: fc.integer({ min: 0, max: 3000 }),
          replies: fc.array(reply, { maxLength: 4 }).map((rs) => rs.flat()),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('expire' as const),
          atFront: fc.boolean(),
          delta: fc.integer({ min: -1, max: 1 }),
          strictly: fc.boolean(),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const c = new CheckedMemory();
        // Finish times only grow (the pairer remembers exchanges as they finish).
        let clock = 0;
        for (const o of ops) {
          if (o.kind === 'remember') {
            clock += o.dt;
            // Remembered with the time it ended, answered or not.
            c.remember(o.key, o.answered ? ANSWERED : UNANSWERED, o.collects, clock, o.answered ? o.replies : []);
          } else if (o.kind === 'expire') {
            const front = c.queue[0];
            const now = o.atFront && front ? deadline(front) + o.delta : clock + 2000 * (o.delta + 1);
            clock = Math.max(clock, now);
            c.expire(now, o.strictly);
          } else c.clear();
          c.check();
        }
      }),
      { numRuns: runs },
    );
  });

  it('lets an exchange go a window after it ended, answered or not', () => {
    const m = new KeyedMemory(WINDOW, undefined);
    m.remember(m.row(1, 1), 10, 3, UNANSWERED, false, 100 + TIMEOUT, undefined, 0);
    expect(m.next).toBe(100 + TIMEOUT + WINDOW);
    m.remember(m.row(2, 2), 11, 3, ANSWERED, false, 2000, [5, 6, 12], 1);
    // Strictly: not at the deadline, only after it.
    m.expire(100 + TIMEOUT + WINDOW, true);
    expect([m.size, m.newestKey(1, 1)]).toEqual([2, 0]);
    // Not strictly: at the deadline.
    m.expire(100 + TIMEOUT + WINDOW, false);
    expect([m.size, m.newestKey(1, 1), m.next]).toEqual([1, -1, 2000 + WINDOW]);
    m.expire(2000 + WINDOW - 0.5, false);
    expect(m.size).toBe(1);
    m.expire(2000 + WINDOW + 0.5, true);
    expect([m.size, m.newestKey(2, 2), m.next]).toEqual([0, -1, Infinity]);
  });

  it('lets exchanges go in the order they finished, one not yet due holding back those after it', () => {
    const m = new KeyedMemory(WINDOW, undefined);
    // Ended at 1000, then at 500 (a clock that stepped back): the first is let go first.
    m.remember(m.row(1, 0), 1, 1, UNANSWERED, false, TIMEOUT, undefined, 0);
    m.remember(m.row(2, 0), 2, 1, ANSWERED, false, 500, undefined, 0);
    m.expire(500 + WINDOW, false);
    expect([m.newestKey(1, 0), m.newestKey(2, 0), m.next]).toEqual([0, 1, TIMEOUT + WINDOW]);
    m.expire(TIMEOUT + WINDOW, false);
    expect([m.newestKey(1, 0), m.newestKey(2, 0), m.size]).toEqual([-1, -1, 0]);
  });

  it('tells the owner of each collecting exchange let go, on expiry and on clear, and of no other', () => {
    const forgotten: number[] = [];
    const m = new KeyedMemory(WINDOW, (frame) => forgotten.push(frame));
    m.remember(m.row(1, 0), 101, 2, ANSWERED, true, 0, [1, 1, 102], 1);
    m.remember(m.row(2, 0), 103, 1, ANSWERED, false, 10, [2, 2, 104], 1);
    m.remember(m.row(3, 0), 105, 2, UNANSWERED, true, 20, undefined, 0);
    m.remember(m.row(4, 0), 106, 2, ANSWERED, true, 30, undefined, 0);
    m.expire(10 + WINDOW, false);
    expect(forgotten).toEqual([101]);
    m.clear();
    expect(forgotten).toEqual([101, 105, 106]);
    expect([m.size, m.newestKey(3, 0), m.next]).toEqual([0, -1, Infinity]);
    // Nothing is told twice.
    m.expire(1e9, false);
    m.clear();
    expect(forgotten).toEqual([101, 105, 106]);
  });

  it('names the newest of a key remembered many times, and walks to the older ones still remembered, not past them', () => {
    const m = new KeyedMemory(WINDOW, undefined);
    // 1000 exchanges under one key, one a millisecond, each with one reply.
    const rows: number[] = [];
    for (let i = 0; i < 1000; i++) {
      m.remember(m.row(7, 9), 1 + i, 1, ANSWERED, false, i, [i, 0, 100_000 + i], 1);
      rows.push(m.newestKey(7, 9));
    }
    const walk = (): number[] => {
      const out: number[] = [];
      for (let e = m.newestKey(7, 9); e >= 0; e = m.older(e)) out.push(m.request(e));
      return out;
    };
    expect(walk()).toEqual(Array.from({ length: 1000 }, (_, i) => 1000 - i));
    // The first 600 are let go: the walk stops at the oldest still remembered.
    m.expire(599 + WINDOW, false);
    expect(m.size).toBe(400);
    expect(walk()).toEqual(Array.from({ length: 400 }, (_, i) => 1000 - i));
    // Their rows are filled again by another key: the old key's walk does not wander into them.
    for (let i = 0; i < 600; i++) m.remember(m.row(8, 8), 5000 + i, 1, ANSWERED, false, 1000 + i, undefined, 0);
    expect(walk()).toEqual(Array.from({ length: 400 }, (_, i) => 1000 - i));
    expect(m.older(rows[600]!)).toBe(-1);
    // A copy is still told by the remaining exchanges' replies.
    expect(m.copyOf(rows[999]!, 999, 0)).toBe(100_999);
    expect(m.copyOf(rows[600]!, 600, 0)).toBe(100_600);
    expect(m.copyOf(rows[600]!, 599, 0)).toBe(0);
  });

  it('takes an older exchange for stale once it is let go, even while a newer one under its key stays', () => {
    const m = new KeyedMemory(WINDOW, undefined);
    m.remember(m.row(1, 1), 10, 1, ANSWERED, false, 0, undefined, 0);
    const a = m.newestKey(1, 1);
    m.remember(m.row(1, 1), 11, 1, ANSWERED, false, 100, undefined, 0);
    const b = m.newestKey(1, 1);
    expect(m.older(b)).toBe(a);
    m.expire(WINDOW, false);
    expect([m.newestKey(1, 1), m.older(b)]).toEqual([b, -1]);
    // Another exchange under the same key gets a number of its own: the walk goes on to b, and stops there.
    m.remember(m.row(1, 1), 12, 1, ANSWERED, false, 200, undefined, 0);
    const c = m.newestKey(1, 1);
    expect(c).not.toBe(a);
    expect([m.request(c), m.older(c), m.request(m.older(c)), m.older(b)]).toEqual([12, b, 11, -1]);
  });

  it('numbers exchanges round and round, telling the ones let go from the ones kept across the wrap', () => {
    // Numbers modulo 5: 100 000 exchanges wrap 20 000 times.
    const m = new KeyedMemory(WINDOW, undefined, new KeyTable(2), 5);
    const numbers = new Set<number>();
    for (let i = 0; i < 100_000; i++) {
      // Two under key 1 and one under key 2 at a time, each let go when the third after it ends.
      m.expire(i * 10 + WINDOW - 25, false);
      const key = i % 3 === 2 ? 2 : 1;
      m.remember(m.row(key, 0), i + 1, 1, ANSWERED, false, i * 10, [i, key, 1_000_000 + i], 1);
      const e = m.newestKey(key, 0);
      numbers.add(e);
      if (i < 2 || (i % 9_973 !== 0 && i < 99_990)) continue;
      expect(m.size).toBe(3);
      expect([m.request(e), m.time(e), m.copyOf(e, i, key)]).toEqual([i + 1, i * 10, 1_000_000 + i]);
      // Key 1's walk: its newest and the one before it if that is still kept, never an exchange let go.
      const walk: number[] = [];
      for (let x = m.newestKey(1, 0); x >= 0; x = m.older(x)) walk.push(m.request(x));
      const kept = [i, i - 1, i - 2].filter((j) => j >= 0 && j % 3 !== 2).map((j) => j + 1);
      expect(walk).toEqual(kept);
    }
    expect([...numbers].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4]);
  });

  it('lets go of the replies of the exchanges let go, over pages of replies, the others still read right', () => {
    const m = new KeyedMemory(WINDOW, undefined);
    // Exchanges of 1 to 3000 replies each: the replies' queue spans and lets go of many pages.
    const exchanges: { lo: number; frame: number; replies: number[] }[] = [];
    let frame = 1;
    for (let i = 0; i < 40; i++) {
      const n = 1 + ((i * 977) % 3000);
      const replies: number[] = [];
      for (let j = 0; j < n; j++) replies.push(j, i, ++frame);
      m.remember(m.row(i, 0), ++frame, 1, ANSWERED, true, i * 10, replies, n);
      exchanges.push({ lo: i, frame, replies });
    }
    const total = exchanges.reduce((n, x) => n + x.replies.length / 3, 0);
    expect(total).toBeGreaterThan(10 * PAGE);
    const bytesBefore = m.bytes;
    // The first 30 go.
    m.expire(29 * 10 + WINDOW, false);
    expect(m.size).toBe(10);
    expect(m.bytes).toBeLessThan(bytesBefore);
    for (const [i, x] of exchanges.entries()) {
      const e = m.newestKey(x.lo, 0);
      if (i < 30) {
        expect(e).toBe(-1);
        continue;
      }
      expect(m.request(e)).toBe(x.frame);
      for (let j = 0; j < x.replies.length; j += 3) {
        const got = m.copyOf(e, x.replies[j]!, x.replies[j + 1]!);
        if (got !== x.replies[j + 2]) expect.fail(`exchange ${i} reply ${j / 3}: frame ${got}, not ${x.replies[j + 2]}`);
      }
      // Another exchange's reply hash is not this one's.
      expect(m.copyOf(e, 0, i - 1)).toBe(0);
    }
    // New exchanges after the release read right too.
    m.remember(m.row(100, 0), 999_999, 1, ANSWERED, false, 1000, [42, 43, 999_998, 44, 45, 999_997], 2);
    expect(m.copyOf(m.newestKey(100, 0), 44, 45)).toBe(999_997);
    expect(m.copyOf(m.newestKey(100, 0), 42, 43)).toBe(999_998);
  });

  it('holds an outcome, a layout and a collecting flag side by side in one word without mixing them', () => {
    const m = new KeyedMemory(WINDOW, undefined);
    m.remember(m.row(1, 0), 5, 255, UNANSWERED, true, 1.5, undefined, 0);
    m.remember(m.row(2, 0), 6, 1, ANSWERED, false, 2.5, undefined, 0);
    const [a, b] = [m.newestKey(1, 0), m.newestKey(2, 0)];
    expect([m.layout(a), m.outcome(a), m.collects(a), m.time(a), m.request(a)]).toEqual([255, UNANSWERED, true, 1.5, 5]);
    expect([m.layout(b), m.outcome(b), m.collects(b), m.time(b), m.request(b)]).toEqual([1, ANSWERED, false, 2.5, 6]);
  });
});

type TokenOp =
  { kind: 'keep'; key: number; session: number; dt: number } | { kind: 'expire'; dt: number; strictly: boolean } | { kind: 'clear' };

describe('TokenMemory', () => {
  it('agrees with a model under random keeps (keys kept again), expiries and clears', () => {
    const LIFE = 1000;
    const op: fc.Arbitrary<TokenOp> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('keep' as const),
          key: fc.nat(KEYS.length - 1),
          session: fc.nat({ max: 0xffffffff }),
          dt: fc.integer({ min: 0, max: 600 }),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({ kind: fc.constant('expire' as const), dt: fc.integer({ min: 0, max: 600 }), strictly: fc.boolean() }),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const t = new TokenMemory();
        // Per key: its session and until; tokens kept a fixed lifetime after a clock that only grows.
        const model = new Map<number, { session: number; until: number }>();
        let clock = 0;
        for (const o of ops) {
          if (o.kind === 'keep') {
            clock += o.dt;
            const [lo, hi] = KEYS[o.key]!;
            t.keep(lo, hi, o.session, clock + LIFE);
            model.set(o.key, { session: o.session, until: clock + LIFE });
          } else if (o.kind === 'expire') {
            clock += o.dt;
            // Exactly at a deadline now and then.
            const untils = [...model.values()].map((v) => v.until);
            const now = o.dt % 3 === 0 && untils.length ? Math.min(...untils) : clock;
            clock = Math.max(clock, now);
            t.expire(now, o.strictly);
            for (const [k, v] of model) if (o.strictly ? v.until < now : v.until <= now) model.delete(k);
          } else {
            t.clear();
            model.clear();
          }
          expect(t.size).toBe(model.size);
          KEYS.forEach(([lo, hi], k) => expect(t.session(lo, hi), `key ${k}`).toBe(model.get(k)?.session ?? -1));
          // Nothing is due before `next`.
          const soonest = Math.min(...[...model.values()].map((v) => v.until));
          expect(t.next).toBeLessThanOrEqual(soonest);
        }
      }),
      { numRuns: runs },
    );
  });

  it('keeps a token until its time, at the deadline only when not strict', () => {
    const t = new TokenMemory();
    t.keep(1, 2, 0xabcdef01, 500);
    expect([t.session(1, 2), t.session(1, 3), t.next, t.size]).toEqual([0xabcdef01, -1, 500, 1]);
    t.expire(500, true);
    expect(t.session(1, 2)).toBe(0xabcdef01);
    t.expire(500, false);
    expect([t.session(1, 2), t.next, t.size]).toEqual([-1, Infinity, 0]);
  });

  it('extends the life of a key kept again and gives it the new session', () => {
    const t = new TokenMemory();
    t.keep(1, 2, 11, 500);
    t.keep(1, 2, 22, 900);
    expect([t.session(1, 2), t.size]).toEqual([22, 1]);
    t.expire(600, false);
    expect([t.session(1, 2), t.next]).toEqual([22, 900]);
    t.expire(900, false);
    expect(t.session(1, 2)).toBe(-1);
  });

  it('lets a key go, files others in its bucket, and lets a key kept again wait for its new time alone', () => {
    const t = new TokenMemory();
    t.keep(1, 0, 11, 100);
    t.keep(1, 0, 12, 110);
    t.keep(2, 0, 21, 120);
    t.expire(110, false);
    expect([t.session(1, 0), t.session(2, 0), t.size]).toEqual([-1, 21, 1]);
    // Key 3 and one in its bucket; key 1's rows are long gone from the queue, key 2's stays.
    t.keep(3, 0, 31, 130);
    t.keep(1024 + 3, 0, 41, 140);
    expect([t.session(1, 0), t.session(3, 0), t.session(1024 + 3, 0), t.size]).toEqual([-1, 31, 41, 3]);
    t.expire(120, false);
    expect([t.session(2, 0), t.session(3, 0), t.size]).toEqual([-1, 31, 2]);
    // Key 3 kept again: its first row leaves the bucket, the key stays to its new deadline.
    t.keep(3, 0, 32, 200);
    t.expire(140, false);
    expect([t.session(3, 0), t.session(1024 + 3, 0), t.next]).toEqual([32, -1, 200]);
    t.expire(200, true);
    expect(t.session(3, 0)).toBe(32);
    t.expire(200.5, true);
    expect([t.session(3, 0), t.size, t.next]).toEqual([-1, 0, Infinity]);
  });

  it('agrees with a model over tens of thousands of tokens, its buckets grown and its positions moved down', () => {
    // The queue moves its positions down past 3 pages (4 096 rows each) here, 2^30 in use.
    const t = new TokenMemory(3 * 4096);
    const model = new Map<number, { session: number; until: number }>();
    const LIFE = 3000;
    let seed = 12345;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    // Keys from 6 000, so thousands are kept at once; 128 of them in one bucket until it grows (low halves 1 024 apart),
    // pairs of keys told apart by the high half alone.
    const halves = (k: number): [number, number] => {
      const j = k % 3000;
      return [j < 64 ? j * 1024 + 7 : Math.imul(j, 0x9e3779b1) >>> 0, k < 3000 ? 0 : (0x80000000 | k) >>> 0];
    };
    let moved = 0;
    for (let clock = 0; clock < 60_000; clock++) {
      const k = random(6000);
      const session = random(0x7fffffff);
      const [lo, hi] = halves(k);
      t.keep(lo, hi, session, clock + LIFE);
      model.set(k, { session, until: clock + LIFE });
      if (clock % 97 === 0) {
        t.expire(clock, clock % 2 === 0);
        for (const [key, v] of model) if (clock % 2 === 0 ? v.until < clock : v.until <= clock) model.delete(key);
      }
      if (clock % 997 === 0) {
        expect(t.size).toBe(model.size);
        const keys = Array.from({ length: 6000 }, (_, key) => key);
        // One comparison of every key's session (an expect a key was most of the test's time).
        expect(
          keys.map((key) => t.session(...halves(key))),
          `at ${clock}`,
        ).toEqual(keys.map((key) => model.get(key)?.session ?? -1));
        moved++;
      }
    }
    expect(moved).toBeGreaterThan(50);
    // 60 000 rows went through a queue that moves down every 3 pages, with thousands kept at once.
    expect(model.size).toBeGreaterThan(2048);
    t.expire(Infinity, false);
    expect([t.size, t.next]).toEqual([0, Infinity]);
  });

  it('holds 24 bytes a token and its buckets, not a key table row and a queue item', () => {
    const t = new TokenMemory();
    for (let i = 0; i < 100_000; i++) t.keep(Math.imul(i, 0x9e3779b1) >>> 0, i, i, i);
    // 100 000 rows of 24 bytes in pages of 4 096, and 65 536 buckets of 4.
    expect(t.bytes).toBe(Math.ceil(100_000 / 4096) * 4096 * 24 + 65536 * 4);
    expect(t.bytes / t.size).toBeLessThan(28);
  });

  it('forgets everything on clear', () => {
    const t = new TokenMemory();
    for (let i = 0; i < 3000; i++) t.keep(i, i, i, 1000 + i);
    t.clear();
    expect([t.size, t.session(5, 5), t.next]).toEqual([0, -1, Infinity]);
    t.keep(5, 5, 55, 10);
    expect(t.session(5, 5)).toBe(55);
    t.expire(10, false);
    expect(t.size).toBe(0);
  });
});
