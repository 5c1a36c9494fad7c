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

  it('files a payload the second time its hash is seen, and nothing past a slot', () => {
    const cache = new RenderCache<string>();
    expect(cache.wants(9)).toBe(false);
    expect(cache.wants(9)).toBe(true);
    // A payload and its rendering of more than a slot's 4 096 bytes are not filed.
    cache.set(9, samp.infoResponse, bytes(1), new Uint8Array(4096), 0, 4096, 'too big');
    expect(cache.find(9, samp.infoResponse, bytes(1))).toBe(false);
    cache.set(9, samp.infoResponse, bytes(1), new Uint8Array(4095), 0, 4095, 'fits');
    expect(cache.find(9, samp.infoResponse, bytes(1))).toBe(true);
    expect(cache.end - cache.start).toBe(4095);
    expect(RenderCache.takes(new Uint8Array(256))).toBe(true);
    expect(RenderCache.takes(new Uint8Array(257))).toBe(false);
  });
});
