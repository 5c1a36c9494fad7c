/**
 * The expert table (grammar/expert.ts, protocols/mcquery/expert.ts, pairing/expert.ts):
 * every warning any decoder, emitter or the annotating decode makes carries a code the table
 * declares, on the test vectors' bytes and on damaged copies of them (cut at every length, a
 * flag byte raised); each generic code is met on a vector's real bytes.
 */
import { describe, expect, it } from 'vitest';
import { decodePacket, expertInfo, expertInfos, fromHex, layoutFor, mcqueryProtocol, type DecodeWarning } from '@gamequery/codec';
import { ByteSink, internals } from '@gamequery/codec/internal';
import { declareExperts, warning } from '@gamequery/codec/define';
import { unmatchedExperts, type UnmatchedCause } from '@gamequery/codec/pairing';
import { FLAG_BYTE, SHORT_LIST, TRAILING_BYTES } from '../../src/grammar/expert.ts';
import { loadVectors } from '../helpers/vectors.ts';

const vectors = loadVectors();

/** Every warning each path gives for `bytes`: decode, annotate, the compiled JSON emitter, decodePacket. */
function warningsOf(v: (typeof vectors)[number], bytes: Uint8Array): DecodeWarning[] {
  const layout = layoutFor(v.protocol, v.message, v.direction);
  const opts = v.charset ? { charset: v.charset } : {};
  const out: DecodeWarning[] = [...layout.annotate(bytes, opts).warnings];
  try {
    out.push(...layout.decode(bytes, opts).warnings);
  } catch {
    /* a damaged copy that does not decode */
  }
  out.push(...(internals(layout).emitJsonWithWarnings(bytes, new ByteSink(), opts)?.warnings ?? []));
  const hint = { protocol: v.protocol, direction: v.direction, ...(v.protocol === 'mcquery' ? { message: v.message } : {}) };
  try {
    out.push(...decodePacket(bytes, hint, opts).warnings);
  } catch {
    /* not a message */
  }
  return out;
}

describe('the expert table', () => {
  it('declares each code once, with a group, a severity and a summary', () => {
    const all = expertInfos();
    expect(new Set(all.map((e) => e.code)).size).toBe(all.length);
    for (const e of all) {
      expect(e.code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(['Malformed', 'Sequence', 'Protocol']).toContain(e.group);
      expect(['Note', 'Warning', 'Error']).toContain(e.severity);
      expect(e.summary.length).toBeGreaterThan(10);
      expect(Object.isFrozen(e)).toBe(true);
    }
    for (const e of [FLAG_BYTE, SHORT_LIST, TRAILING_BYTES, ...mcqueryProtocol.experts!]) expect(expertInfo(e.code)).toBe(e);
    expect(expertInfo('short-list')).toMatchObject({ group: 'Malformed', severity: 'Warning' });
    expect(expertInfo('request-not-seen')).toMatchObject({ group: 'Sequence', severity: 'Warning' });
    expect(expertInfo('no-such-code')).toBeUndefined();
  });

  it('refuses a code declared again with another meaning, and takes the same declaration twice', () => {
    expect(() => declareExperts([{ ...SHORT_LIST, group: 'Sequence' }])).toThrow(/"short-list" is declared twice/);
    expect(() => declareExperts([{ ...SHORT_LIST }])).not.toThrow();
    expect(expertInfo('short-list')).toBe(SHORT_LIST);
  });

  it('fills a summary into a warning: field and values, unknown placeholders left as they are', () => {
    expect(warning(SHORT_LIST, 'samp.rules.count', 44, { declared: 3, present: 2 })).toEqual({
      code: 'short-list',
      field: 'samp.rules.count',
      offset: 44,
      message: 'samp.rules.count: 3 entries declared, 2 present before the end of the message',
    });
    expect(warning({ ...FLAG_BYTE, code: 'x' }, 'f', 0).message).toBe('f: flag byte is {value}, expected 0 or 1');
  });

  it('has the pairing outcomes: one Sequence item per unmatched cause, declared with the rest', () => {
    const causes: UnmatchedCause[] = ['no-request', 'late', 'extra', 'rcon-closed', 'dropped', 'near-miss'];
    expect(Object.keys(unmatchedExperts).sort()).toEqual([...causes].sort());
    for (const c of causes) expect(expertInfo(c)).toMatchObject({ code: c, group: 'Sequence' });
  });
});

describe('every warning made carries a declared code', () => {
  it('on the test vectors: each generic code on real bytes, with the code the vector records', () => {
    const seen = new Set<string>();
    for (const v of vectors) {
      const ws = warningsOf(v, fromHex(v.hex));
      for (const w of ws) {
        expect(expertInfo(w.code), `${v.id}: ${w.message}`).toBeDefined();
        seen.add(w.code);
      }
      if (!v.error)
        expect([...new Set(ws.map((w) => w.code))].sort(), v.id).toEqual([...new Set((v.warnings ?? []).map((w) => w.code))].sort());
    }
    expect([...seen].sort()).toEqual(['flag-byte', 'short-list', 'trailing-bytes']);
  });

  it('on damaged copies of every vector: cut at each length, each byte 2 where a flag sits', () => {
    const seen = new Set<string>();
    for (const v of vectors) {
      const bytes = fromHex(v.hex);
      for (let n = 0; n < bytes.length; n++)
        for (const w of warningsOf(v, bytes.subarray(0, n))) {
          expect(expertInfo(w.code), `${v.id} cut at ${n}: ${w.message}`).toBeDefined();
          seen.add(w.code);
        }
      for (const i of bytes.keys()) {
        if (bytes[i] !== 1) continue;
        const raised = Uint8Array.from(bytes);
        raised[i] = 2;
        for (const w of warningsOf(v, raised)) {
          expect(expertInfo(w.code), `${v.id} byte ${i} = 2: ${w.message}`).toBeDefined();
          seen.add(w.code);
        }
      }
    }
    expect(seen).toContain('short-list');
    expect(seen).toContain('flag-byte');
  });
});
