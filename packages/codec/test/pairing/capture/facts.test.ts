import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE } from '../../../src/pairing/capture/columns.ts';
import {
  AMBIGUOUS,
  DECODED,
  FINAL,
  FrameFacts,
  HAS_TIME,
  LINES,
  NONE,
  RAW,
  RESPONSE,
  TIMED,
  WAITING,
  Why,
  kindOf,
  layoutOf,
  namedOf,
  whyOf,
  type WhyCode,
} from '../../../src/pairing/capture/facts.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

const whys = Object.values(Why) as WhyCode[];

/** Opens frames `from` to `to` - 1, each with a time, a link and info bits of its own. */
function fill(facts: FrameFacts, from: number, to: number): void {
  for (let f = from; f < to; f++) {
    facts.open(f, f * 1000 + 0.5, f % 2 === 0, f % 3 === 0);
    facts.setLink(f, (f * 7 + 1) >>> 0);
    facts.decoded(f, f & 0xff, f % 5 === 0);
    facts.mark(f, WAITING);
  }
}

const expectFilled = (facts: FrameFacts, f: number): void => {
  const info = facts.info(f);
  const ok =
    facts.time(f) === f * 1000 + 0.5 &&
    facts.link(f) === (f * 7 + 1) >>> 0 &&
    kindOf(info) === DECODED &&
    layoutOf(info) === (f & 0xff) &&
    ((info & RESPONSE) !== 0) === (f % 5 === 0) &&
    ((info & HAS_TIME) !== 0) === (f % 2 === 0) &&
    ((info & FINAL) !== 0) === (f % 3 === 0) &&
    (info & WAITING) !== 0;
  if (!ok) expect.fail(`frame ${f}: time ${facts.time(f)}, link ${facts.link(f)}, info ${info.toString(16)}`);
};

describe('FrameFacts', () => {
  it('opens frames in a row from any first frame, and refuses one out of order', () => {
    const facts = new FrameFacts();
    expect([facts.first, facts.next, facts.size]).toEqual([0, 0, 0]);
    facts.open(5, 10, true, false);
    facts.open(6, 20, false, true);
    expect([facts.first, facts.next, facts.size]).toEqual([5, 7, 2]);
    expect([facts.holds(4), facts.holds(5), facts.holds(6), facts.holds(7)]).toEqual([false, true, true, false]);
    expect(() => facts.open(8, 30, true, false)).toThrow(new RangeError('frames out of order: 8 after 6'));
    expect(() => facts.open(6, 30, true, false)).toThrow(RangeError);
    expect(() => facts.open(5, 30, true, false)).toThrow(RangeError);
    // The refused frames changed nothing.
    expect([facts.first, facts.next, facts.time(6), facts.info(6)]).toEqual([5, 7, 20, FINAL]);
  });

  it('starts a frame with its time, no link, and only the bits it was opened with', () => {
    const facts = new FrameFacts();
    facts.open(1, 1.25, true, false);
    facts.open(2, 2.5, false, true);
    facts.open(3, 0, true, true);
    expect([facts.time(1), facts.link(1), facts.info(1), facts.isFinal(1)]).toEqual([1.25, 0, HAS_TIME, false]);
    expect([facts.time(2), facts.link(2), facts.info(2), facts.isFinal(2)]).toEqual([2.5, 0, FINAL, true]);
    expect([facts.info(3), kindOf(facts.info(3))]).toEqual([HAS_TIME | FINAL, NONE]);
  });

  it('refuses frame numbers past 2^32 - 1', () => {
    const facts = new FrameFacts();
    expect(() => facts.open(2 ** 32, 0, true, false)).toThrow(RangeError);
    facts.clear();
    facts.open(2 ** 32 - 2, 5, true, false);
    facts.open(2 ** 32 - 1, 6, true, false);
    facts.setLink(2 ** 32 - 1, 0xffffffff);
    expect([facts.time(2 ** 32 - 2), facts.time(2 ** 32 - 1), facts.link(2 ** 32 - 1)]).toEqual([5, 6, 0xffffffff]);
    expect(() => facts.open(2 ** 32, 7, true, false)).toThrow(/frame numbers past 2\^32 - 1/);
  });

  it('reads back each field of the info word as it was set, the others kept', () => {
    const bits = fc.record({
      timed: fc.boolean(),
      final: fc.boolean(),
      layout: fc.integer({ min: 1, max: 255 }),
      response: fc.boolean(),
      layout2: fc.integer({ min: 1, max: 255 }),
      response2: fc.boolean(),
      hash: fc.nat({ max: 0xffffffff }),
      why: fc.constantFrom(...whys),
      named: fc.integer({ min: 0, max: 255 }),
      extra: fc.subarray([AMBIGUOUS, TIMED, WAITING]),
    });
    fc.assert(
      fc.property(bits, (b) => {
        const facts = new FrameFacts();
        facts.open(1, 0, b.timed, b.final);
        const kept = (b.timed ? HAS_TIME : 0) | (b.final ? FINAL : 0) | b.extra.reduce((x, y) => x | y, 0);
        facts.mark(1, kept);
        facts.decoded(1, b.layout, b.response);
        // Read again as another layout, in another direction: the new one replaces the old.
        facts.decoded(1, b.layout2, b.response2);
        let info = facts.info(1);
        expect([kindOf(info), layoutOf(info), (info & RESPONSE) !== 0, info & kept]).toEqual([DECODED, b.layout2, b.response2, kept]);
        facts.setHash16(1, b.hash);
        info = facts.info(1);
        expect([facts.hash16(1), layoutOf(info), kindOf(info), info & kept]).toEqual([b.hash & 0x7fff, b.layout2, DECODED, kept]);
        // Fifteen bits: the hash does not spill into LINES (bit 31).
        expect(info & LINES).toBe(0);
        facts.why(1, b.why, b.named);
        info = facts.info(1);
        expect(info).toBeGreaterThanOrEqual(0);
        expect([whyOf(info), namedOf(info), layoutOf(info), kindOf(info), (info & RESPONSE) !== 0, info & kept]).toEqual([
          b.why,
          b.named,
          b.layout2,
          DECODED,
          b.response2,
          kept,
        ]);
        // A later `why` replaces the earlier one and its named layout.
        facts.why(1, Why.none);
        expect([whyOf(facts.info(1)), namedOf(facts.info(1))]).toEqual([Why.none, 0]);
      }),
      { numRuns: runs },
    );
  });

  it('reads a frame by recognition alone as raw and final, keeping its other bits', () => {
    const facts = new FrameFacts();
    facts.open(1, 0, true, false);
    facts.decoded(1, 9, true);
    facts.raw(1);
    const info = facts.info(1);
    expect([kindOf(info), facts.isFinal(1), (info & HAS_TIME) !== 0]).toEqual([RAW, true, true]);
  });

  it('sets and clears the top bit (LINES) as an unsigned word, the hash below it untouched', () => {
    const facts = new FrameFacts();
    facts.open(1, 0, false, false);
    facts.decoded(1, 200, false);
    facts.setHash16(1, 0x7fff);
    facts.mark(1, LINES | WAITING);
    expect(facts.info(1)).toBe((0x7fff << 16) + (200 << 8) + DECODED + WAITING + 2 ** 31);
    expect([facts.hash16(1), layoutOf(facts.info(1))]).toEqual([0x7fff, 200]);
    facts.unmark(1, LINES);
    expect(facts.info(1) & LINES).toBe(0);
    expect([facts.hash16(1), (facts.info(1) & WAITING) !== 0]).toEqual([0x7fff, true]);
    facts.setInfo(1, -1);
    expect(facts.info(1)).toBe(0xffffffff);
    expect(namedOf(facts.info(1))).toBe(255);
  });

  it('shifts its oldest frames out over several pages, the rest intact and their pages let go', () => {
    const facts = new FrameFacts();
    const page = PAGE * 16;
    // From frame 1, as a capture numbers them.
    fill(facts, 1, 3 * PAGE + 10);
    expect(facts.bytes).toBe(4 * page);
    for (let f = 1; f < 2 * PAGE + 3; f++) {
      expectFilled(facts, f);
      facts.shift();
    }
    expect([facts.first, facts.size, facts.holds(2 * PAGE + 2), facts.holds(2 * PAGE + 3)]).toEqual([2 * PAGE + 3, PAGE + 7, false, true]);
    // Pages 0 and 1 let go, one kept for reuse.
    expect(facts.bytes).toBe(3 * page);
    for (let f = 2 * PAGE + 3; f < 3 * PAGE + 10; f++) expectFilled(facts, f);
  });

  it('starts a frame clean on a reused page: no link or bits left from the frame that was there', () => {
    const facts = new FrameFacts();
    fill(facts, 0, 2 * PAGE);
    for (let f = 0; f < PAGE; f++) facts.shift();
    const bytes = facts.bytes;
    // Page 2 is the spare page (page 0's old rows, links and bits all set).
    for (let f = 2 * PAGE; f < 3 * PAGE; f++) facts.open(f, f, false, false);
    expect(facts.bytes).toBe(bytes);
    for (let f = 2 * PAGE; f < 3 * PAGE; f++) {
      if (facts.link(f) !== 0 || facts.info(f) !== 0 || facts.time(f) !== f)
        expect.fail(`frame ${f}: link ${facts.link(f)}, info ${facts.info(f)}`);
    }
    // The frames still held on page 1 are untouched.
    for (let f = PAGE; f < 2 * PAGE; f++) expectFilled(facts, f);
  });

  it('starts again from any frame once emptied or cleared', () => {
    const facts = new FrameFacts();
    fill(facts, 1, 5);
    for (let i = 0; i < 4; i++) facts.shift();
    expect(facts.size).toBe(0);
    // Emptied: the next frame opened need not follow the last.
    facts.open(100, 3, true, false);
    expect([facts.first, facts.next, facts.time(100)]).toEqual([100, 101, 3]);
    facts.clear();
    expect([facts.first, facts.next, facts.size]).toEqual([0, 0, 0]);
    facts.open(7, 4, true, false);
    expect([facts.first, facts.time(7)]).toEqual([7, 4]);
  });
});
