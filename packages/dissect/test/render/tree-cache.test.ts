/**
 * The render cache (tree-cache.ts): what is filed is found again, byte for byte, in whichever
 * slot it lies; a payload that differs, a layout that differs, or a later
 * payload filed in the same slot is not the one found.
 */
import { describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { RenderCache } from '../../src/tree-cache.ts';

const SLOTS = 2048;
const bytes = (...xs: number[]): Uint8Array => Uint8Array.from(xs);
/** What the cache holds for the last rendering found. */
const found = (c: RenderCache<string>): [number[], string | undefined] => [[...c.found.subarray(c.start, c.end)], c.extra];

describe('RenderCache', () => {
  it('finds each rendering filed, in slots across the cache, with what else it rendered', () => {
    const cache = new RenderCache<string>();
    const slots = [0, 1, 63, 64, 65, 1000, 2047];
    for (const s of slots) {
      const payload = bytes(s & 0xff, s >> 8, 7);
      const rendering = bytes(0, 0, 9, s & 0xff, 1, 2, 0);
      cache.set(s, samp.infoResponse, payload, rendering, 2, 6, `slot ${s}`);
    }
    for (const s of slots) {
      expect(cache.find(s, samp.infoResponse, bytes(s & 0xff, s >> 8, 7)), `slot ${s}`).toBe(true);
      expect(found(cache)).toEqual([[9, s & 0xff, 1, 2], `slot ${s}`]);
    }
  });

  it('finds no payload that differs from the one filed by a byte or a length, nor the same one read as another layout', () => {
    const cache = new RenderCache<string>();
    cache.set(5, samp.infoResponse, bytes(1, 2, 3), bytes(4, 5), 0, 2, 'x');
    expect(cache.find(5, samp.infoResponse, bytes(1, 2, 4))).toBe(false);
    expect(cache.find(5, samp.infoResponse, bytes(1, 2))).toBe(false);
    expect(cache.find(5, samp.rulesResponse, bytes(1, 2, 3))).toBe(false);
    expect(cache.find(6, samp.infoResponse, bytes(1, 2, 3))).toBe(false);
    expect(cache.find(5, samp.infoResponse, bytes(1, 2, 3))).toBe(true);
  });

  it('keeps the last payload filed in a slot, and a rendering found stays readable after another is filed elsewhere', () => {
    const cache = new RenderCache<string>();
    cache.set(70, samp.infoResponse, bytes(1), bytes(10, 11), 0, 2, 'first');
    cache.set(70 + SLOTS, samp.infoResponse, bytes(2), bytes(20, 21, 22), 0, 3, 'second');
    expect(cache.find(70, samp.infoResponse, bytes(1))).toBe(false);
    expect(cache.find(70 + SLOTS, samp.infoResponse, bytes(2))).toBe(true);
    expect(found(cache)).toEqual([[20, 21, 22], 'second']);
    cache.set(3, samp.infoResponse, bytes(3), bytes(30), 0, 1, 'third');
    expect(found(cache)).toEqual([[20, 21, 22], 'second']);
  });

  it('files a payload the second time its hash is seen, and nothing past 64 KiB', () => {
    const cache = new RenderCache<string>();
    expect(cache.wants(9)).toBe(false);
    expect(cache.wants(9)).toBe(true);
    // A payload and its rendering of more than 65 535 bytes are not filed (their lengths are 16-bit).
    cache.set(9, samp.infoResponse, bytes(1), new Uint8Array(65535), 0, 65535, 'too big');
    expect(cache.find(9, samp.infoResponse, bytes(1))).toBe(false);
    const rendering = Uint8Array.from({ length: 65534 }, (_, i) => i & 0xff);
    cache.set(9, samp.infoResponse, bytes(1), rendering, 0, 65534, 'fits');
    expect(cache.find(9, samp.infoResponse, bytes(1))).toBe(true);
    expect(cache.found.subarray(cache.start, cache.end)).toEqual(rendering);
    expect(RenderCache.takes(new Uint8Array(4096))).toBe(true);
    expect(RenderCache.takes(new Uint8Array(4097))).toBe(false);
  });

  it('takes a slot as small as its payload and rendering (256 bytes at least, a power of two)', () => {
    const cache = new RenderCache<string>();
    // Payloads without their tree (the record maker's cache for -T fields and text): every slot filed, 512 KiB in all.
    for (let s = 0; s < SLOTS; s++) cache.set(s, samp.infoResponse, bytes(s & 0xff, s >> 8, 7), new Uint8Array(0), 0, 0, 'payload');
    expect(cache.bytes).toBe(SLOTS * 256);
    // A rendering that needs more: that slot alone grows (3 + 300 bytes: 512).
    cache.set(5 + SLOTS, samp.infoResponse, bytes(1, 2, 3), new Uint8Array(300), 0, 300, 'more');
    expect(cache.bytes).toBe(SLOTS * 256 + 256);
    expect(cache.find(5 + SLOTS, samp.infoResponse, bytes(1, 2, 3))).toBe(true);
  });

  it('grows a slot for a larger rendering, the slots grown within 8 MiB in all', () => {
    const cache = new RenderCache<string>();
    cache.set(1, samp.infoResponse, bytes(1), new Uint8Array(100), 0, 100, 'small');
    // The same slot, a rendering past its first 4 KiB: grown.
    cache.set(1 + SLOTS, samp.infoResponse, bytes(2), new Uint8Array(5000).fill(7), 0, 5000, 'grown');
    expect(cache.find(1 + SLOTS, samp.infoResponse, bytes(2))).toBe(true);
    expect([cache.end - cache.start, cache.extra]).toEqual([5000, 'grown']);
    // 64 KiB slots: 128 of them are 8 MiB, the one grown above beside them is past it.
    for (let s = 0; s < 128; s++) cache.set(2 + s, samp.infoResponse, bytes(s), new Uint8Array(40000), 0, 40000, `big ${s}`);
    expect(cache.find(2 + 126, samp.infoResponse, bytes(126))).toBe(true);
    expect(cache.find(2 + 127, samp.infoResponse, bytes(127))).toBe(false);
    // A rendering that fits a slot's first 4 KiB is still filed.
    cache.set(2 + 127, samp.infoResponse, bytes(127), new Uint8Array(10), 0, 10, 'small again');
    expect(cache.find(2 + 127, samp.infoResponse, bytes(127))).toBe(true);
    // Filing a smaller rendering in a grown slot lets it keep its bytes: the budget is unchanged, and still spent.
    cache.set(2, samp.infoResponse, bytes(0), new Uint8Array(10), 0, 10, 'in a grown slot');
    cache.set(600, samp.infoResponse, bytes(9), new Uint8Array(40000), 0, 40000, 'no room');
    expect(cache.find(600, samp.infoResponse, bytes(9))).toBe(false);
  });
});
