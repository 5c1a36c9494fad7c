/**
 * Who is asking (stats/sources.ts), against a plain count of the same stream: Space-Saving's
 * promises hold for any stream — a count is never below the truth nor above it by more than
 * its error, an exact place's details are exact, and no source above the threshold is missed —
 * with few places, so that places are taken over (and the key index deletes) all the time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SourceStats, type SourceCount } from '@gamequery/dissect';

interface Truth {
  requests: number;
  answered: number;
  requestBytes: number;
  replyBytes: number;
  byMessage: Record<string, number>;
}

const MESSAGES = ['info', 'rules', 'clients', 'ping'];

/** A stream of requests (and some replies) from a few heavy sources among many light ones, IPv4 and IPv6. */
const stream = fc.array(
  fc.record({
    heavy: fc.boolean(),
    source: fc.nat(400),
    v6: fc.boolean(),
    message: fc.constantFrom(...MESSAGES),
    bytes: fc.integer({ min: 1, max: 1500 }),
    reply: fc.option(fc.integer({ min: 1, max: 1500 }), { nil: undefined }),
  }),
  { minLength: 300, maxLength: 3000 },
);

/** The address words of source `n` (the heavy ones: the first 4), and its text. */
function address(n: number, heavy: boolean, v6: boolean): { words: Uint32Array; text: string } {
  const id = heavy ? n % 4 : 10 + n;
  if (!v6) return { words: Uint32Array.of((0xc6336400 + id) >>> 0, 0, 0, 0), text: `198.51.${100 + (id >> 8)}.${id & 0xff}` };
  return { words: Uint32Array.of(0x20010db8, 0, 0, id + 1), text: `2001:db8::${(id + 1).toString(16)}` };
}

describe('sources (Space-Saving) against a plain count', () => {
  it('counts are within their stated error, exact places are exact, and no source above the threshold is missed', () => {
    fc.assert(
      fc.property(stream, fc.integer({ min: 2, max: 16 }), (events, capacity) => {
        const stats = new SourceStats(capacity, capacity);
        const truth = new Map<string, Truth>();
        for (const e of events) {
          const heavy = e.heavy && e.source % 3 === 0;
          const { words, text } = address(e.source, heavy, e.v6);
          stats.request(words, e.v6, e.message, e.bytes, e.bytes + 42);
          let t = truth.get(text);
          if (!t) truth.set(text, (t = { requests: 0, answered: 0, requestBytes: 0, replyBytes: 0, byMessage: {} }));
          t.requests++;
          t.requestBytes += e.bytes;
          t.byMessage[e.message] = (t.byMessage[e.message] ?? 0) + 1;
          if (e.reply !== undefined) {
            stats.reply(words, e.v6, true, e.reply, e.reply + 42);
            t.answered++;
            t.replyBytes += e.reply;
          }
        }
        const report = stats.report();
        expect(report.requests).toBe(events.length);
        expect(report.threshold).toBe(Math.floor(events.length / capacity));
        const listed = new Map<string, SourceCount>(report.sources.map((s) => [s.address, s]));
        expect(report.sources.length).toBe(Math.min(capacity, truth.size));
        for (const s of report.sources) {
          const t = truth.get(s.address)!;
          expect(t, s.address).toBeDefined();
          expect(s.requests).toBeGreaterThanOrEqual(t.requests);
          expect(s.requests - s.error).toBeLessThanOrEqual(t.requests);
          // What a place counts is since it took its place: its messages add up to that, and stay within the truth.
          expect(Object.values(s.byMessage).reduce((a, b) => a + b, 0)).toBe(s.requests - s.error);
          for (const [m, n] of Object.entries(s.byMessage)) expect(n).toBeLessThanOrEqual(t.byMessage[m] ?? 0);
          expect(s.requestBytes).toBeLessThanOrEqual(t.requestBytes);
          expect(s.replyBytes).toBeLessThanOrEqual(t.replyBytes);
          expect(s.answered).toBeLessThanOrEqual(Math.min(t.answered, s.requests - s.error));
          if (s.error === 0) {
            expect(s).toMatchObject({
              requests: t.requests,
              answered: t.answered,
              requestBytes: t.requestBytes,
              replyBytes: t.replyBytes,
              requestWireBytes: t.requestBytes + 42 * t.requests,
              byMessage: t.byMessage,
            });
          }
        }
        for (const [text, t] of truth) if (t.requests > report.threshold) expect(listed.has(text), text).toBe(true);
        // Most requests first; the reply-byte ranking holds the same places, most bytes first.
        const counts = report.sources.map((s) => s.requests);
        expect(counts).toEqual([...counts].sort((a, b) => b - a));
        const sent = report.byReplyBytes.map((s) => s.replyBytes);
        expect(sent).toEqual([...sent].sort((a, b) => b - a));
        for (const s of report.byReplyBytes) expect(listed.get(s.address)).toEqual(s);
      }),
      { numRuns: 200 },
    );
  });
});
