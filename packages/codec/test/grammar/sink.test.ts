import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSink } from '../../src/grammar/sink.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('ByteSink writes what JSON.stringify writes, as UTF-8', () => {
  it('strings: every UTF-16 unit, lone surrogates and control characters included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const sink = new ByteSink(16); // small: the buffer has to grow
        sink.string(a);
        sink.ascii(',');
        sink.string(b);
        expect(sink.copy()).toEqual(utf8(`${JSON.stringify(a)},${JSON.stringify(b)}`));
      }),
      { numRuns: 2000 },
    );
  });

  it('the characters JSON escapes, one by one', () => {
    for (let c = 0; c < 0x10000; c++) {
      const s = String.fromCharCode(c);
      const sink = new ByteSink();
      sink.string(s);
      expect(sink.text()).toBe(JSON.stringify(s));
    }
  });

  it('numbers: integers of every size, fractions, -0', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(-0)),
        (n) => {
          const sink = new ByteSink(16);
          sink.number(n);
          expect(sink.text()).toBe(JSON.stringify(n));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('numbers at the edges of the int32 and nine-digit paths', () => {
    const edges = [
      9,
      10,
      99,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 32,
      1e9 - 1,
      1e9,
      1e9 + 1,
      1e18 + 1 - 1,
      2 ** 53 - 1,
      2 ** 53 - 1e9,
      9007199000000000,
      9007199254740990,
    ];
    for (const n of edges.flatMap((e) => [e, -e])) {
      const sink = new ByteSink(16);
      sink.number(n);
      expect(sink.text()).toBe(JSON.stringify(n));
    }
  });

  it('bytes and ascii pieces, short and long, keep their order across growth', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 20 }), (pieces) => {
        const sink = new ByteSink(16);
        for (const p of pieces) sink.bytes(p);
        const all = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of pieces) {
          all.set(p, at);
          at += p.length;
        }
        expect(sink.copy()).toEqual(all);
      }),
    );
  });
});

describe('ByteSink.raw', () => {
  it('writes any text as TextEncoder does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const sink = new ByteSink(16);
        sink.raw(s);
        expect(sink.copy()).toEqual(utf8(s));
      }),
      { numRuns: 2000 },
    );
  });
});
