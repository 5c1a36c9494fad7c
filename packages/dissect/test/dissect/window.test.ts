// Repeated and late replies, and the duplicate window that tells them apart, on real
// frames re-timed (see retimedExchange).
import { describe, expect, it } from 'vitest';
import { Dissector, packetText, type PacketRecord } from '@gamequery/dissect';
import { dissectBytes as dissect, retimedExchange as capture } from './helpers.ts';

const links = (p: PacketRecord) => ({
  frame: p.frame,
  requestIn: p.requestIn,
  responseIn: p.responseIn,
  duplicateOf: p.duplicateOf,
  unmatched: p.unmatched,
});
const STRAY = 'no pending request for this reply';

describe('the duplicate window', () => {
  it('the fixture exchange is what the test assumes: an info request and its reply', async () => {
    const { packets } = await dissect(capture([368]));
    expect(packets.map((p) => p.message)).toEqual(['info', 'info']);
    expect(packets.map((p) => p.direction)).toEqual(['request', 'response']);
  });

  it('by default marks a copy of the reply within 5 s as a duplicate of the first, and one after it as a stray', async () => {
    const { packets, stats } = await dissect(capture([368, 1_000_368, 4_999_000, 5_001_000]));
    expect(packets.map(links)).toEqual([
      { frame: 1, requestIn: undefined, responseIn: 2, duplicateOf: undefined, unmatched: undefined },
      { frame: 2, requestIn: 1, responseIn: undefined, duplicateOf: undefined, unmatched: undefined },
      { frame: 3, requestIn: 1, responseIn: undefined, duplicateOf: 2, unmatched: undefined },
      { frame: 4, requestIn: 1, responseIn: undefined, duplicateOf: 2, unmatched: undefined },
      // 5.000632 s after the exchange ended: forgotten.
      { frame: 5, requestIn: undefined, responseIn: undefined, duplicateOf: undefined, unmatched: STRAY },
    ]);
    expect(stats).toMatchObject({ exchanges: 1, duplicates: 2, unmatched: 1 });
    expect(packetText(packets[2]!)).toContain('[Duplicate response to frame 2]');
  });

  it('remembers for as long as duplicateWindowMs says', async () => {
    const bytes = capture([368, 1_000_368, 5_001_000]);
    const longer = await dissect(bytes, { duplicateWindowMs: 10_000 });
    expect(longer.packets.map((p) => p.duplicateOf)).toEqual([undefined, undefined, 2, 2]);
    const shorter = await dissect(bytes, { duplicateWindowMs: 500 });
    expect(shorter.packets.map((p) => p.duplicateOf)).toEqual([undefined, undefined, undefined, undefined]);
    expect(shorter.stats).toMatchObject({ exchanges: 1, duplicates: 0, unmatched: 2 });
  });

  it('with 0 remembers nothing past the exchange: every copy is a stray, the exchange itself unchanged', async () => {
    const { packets, stats } = await dissect(capture([368, 1_000_368]), { duplicateWindowMs: 0 });
    expect(packets.map(links)).toEqual([
      { frame: 1, requestIn: undefined, responseIn: 2, duplicateOf: undefined, unmatched: undefined },
      { frame: 2, requestIn: 1, responseIn: undefined, duplicateOf: undefined, unmatched: undefined },
      { frame: 3, requestIn: undefined, responseIn: undefined, duplicateOf: undefined, unmatched: STRAY },
    ]);
    expect(stats).toMatchObject({ exchanges: 1, duplicates: 0, unmatched: 1 });
  });

  it('links a late reply to the request that timed out, and says why it is unmatched, within the window only', async () => {
    // Timeout 5000 ms: the reply 5.5 s after its request comes 0.5 s into the window.
    const late = await dissect(capture([5_500_368]));
    expect(late.packets.map(links)).toEqual([
      { frame: 1, requestIn: undefined, responseIn: undefined, duplicateOf: undefined, unmatched: undefined },
      {
        frame: 2,
        requestIn: 1,
        responseIn: undefined,
        duplicateOf: undefined,
        unmatched: 'late reply, 5500.368 ms after the request (timeout 5000 ms)',
      },
    ]);
    expect(late.packets[0]!.unanswered).toBe('no reply within 5000 ms');
    expect(late.stats).toMatchObject({ exchanges: 0, unanswered: 1, unmatched: 1 });
    const text = packetText(late.packets[1]!);
    expect(text).toContain('[Request In: 1]');
    expect(text).toContain('[Unmatched response: late reply, 5500.368 ms after the request (timeout 5000 ms)]');
    // Past the window, the same reply is a stray.
    const forgotten = await dissect(capture([5_500_368]), { duplicateWindowMs: 400 });
    expect(forgotten.packets.map(links)[1]).toEqual({
      frame: 2,
      requestIn: undefined,
      responseIn: undefined,
      duplicateOf: undefined,
      unmatched: STRAY,
    });
  });

  it('tells another, different reply to an answered request from a copy, and links it to that request', async () => {
    const bytes = capture([368, 1_000_368]);
    // The last byte of the file is the last letter of the second copy's language: change its case.
    bytes[bytes.length - 1]! ^= 0x20;
    const { packets, stats } = await dissect(bytes);
    expect(packets[2]!.summary).toBe(packets[1]!.summary);
    expect(packets.map(links)[2]).toEqual({
      frame: 3,
      requestIn: 1,
      responseIn: undefined,
      duplicateOf: undefined,
      unmatched: 'another, different reply to a request already answered',
    });
    expect(stats).toMatchObject({ exchanges: 1, duplicates: 0, unmatched: 1 });
  });

  it('keeps a late Minecraft reply, which has no magic, as the reply to the request in its conversation', async () => {
    // Frames 7–8 of lo-us.pcap: a basic stat request and its reply, here 6 s later.
    const { packets, stats } = await dissect(capture([6_000_047], 7));
    expect(packets.map((p) => [p.protocol, p.message, p.direction])).toEqual([
      ['mcquery', 'basic', 'request'],
      ['mcquery', 'basic', 'response'],
    ]);
    expect(packets.map(links)[1]).toEqual({
      frame: 2,
      requestIn: 1,
      responseIn: undefined,
      duplicateOf: undefined,
      unmatched: 'late reply, 6000.047 ms after the request (timeout 5000 ms)',
    });
    expect(packets[1]!.summary).toBe('Minecraft query basic response: "A Minecraft Server" 2/20');
    expect(stats).toMatchObject({ game: 2, nonGame: 0, unanswered: 1, unmatched: 1 });
    // Past the window nothing ties those bytes to a request: no magic, so only their shape makes them a reply, whose request was not seen.
    const forgotten = await dissect(capture([6_000_047], 7), { duplicateWindowMs: 500 });
    expect(forgotten.packets).toHaveLength(2);
    expect(forgotten.packets[1]).toMatchObject({ layout: 'mcquery.basic.response', requestIn: undefined, unmatched: undefined });
    expect(forgotten.packets[1]!.warnings.map((w) => w.field)).toEqual(['mcquery.response_to']);
    expect(forgotten.stats).toMatchObject({ game: 2, nonGame: 0, unmatched: 1 });
  });

  it('rejects a negative or non-finite window with a RangeError that names it', () => {
    expect(() => new Dissector({ duplicateWindowMs: -1 })).toThrow(/duplicateWindowMs must be a finite number ≥ 0, got -1/);
    expect(() => new Dissector({ duplicateWindowMs: Number.NaN })).toThrow(RangeError);
  });
});
