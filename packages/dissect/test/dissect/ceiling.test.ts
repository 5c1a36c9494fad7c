import { describe, expect, it } from 'vitest';
import { readCaptureSync, packetLine, type PacketRecord } from '@gamequery/dissect';
import { Dissector } from '@gamequery/dissect';
import { fixture } from '../capture/helpers.ts';
import { dissectBytes, retimedExchange } from './helpers.ts';

/**
 * One pass (a stream) holds a frame's bytes until its facts are final: a request, until
 * its reply or its timeout. Past `maxQueue` frames or `maxHeldBytes` bytes the oldest is
 * let out with what is known, and says so.
 */
describe('one pass over its memory ceiling', () => {
  // A real exchange whose reply comes 100 ms after the request, with 40 other frames
  // (copies of a DNS query from dns-lo.pcap) in between: the request is held while they pass.
  const exchange = [...readCaptureSync(retimedExchange([100_000]))].flatMap((i) => (i.kind === 'packet' ? [i] : []));
  const dns = [...readCaptureSync(fixture('dns-lo.pcap'))].flatMap((i) => (i.kind === 'packet' ? [i.data] : []))[0]!;
  const frames = [
    exchange[0]!,
    ...Array.from({ length: 40 }, (_, i) => ({
      ...exchange[0]!,
      data: dns,
      timestamp: { ...exchange[0]!.timestamp!, ticks: exchange[0]!.timestamp!.ticks + 1000 * (i + 1) },
    })),
    exchange[1]!,
  ].map((f, i) => ({ ...f, index: i + 1 }));

  const run = (options: ConstructorParameters<typeof Dissector>[0]) => {
    const d = new Dissector(options);
    const out: PacketRecord[] = [];
    for (const f of frames) out.push(...d.pushFrame(f));
    out.push(...d.finish());
    return { out, stats: d.stats };
  };

  it('holds the request until its reply when the ceiling is not reached: linked both ways, nothing marked', () => {
    const { out, stats } = run({});
    expect(out.map((p) => p.frame)).toEqual([1, 42]);
    expect(out[0]).toMatchObject({ responseIn: 42 });
    expect(out[1]).toMatchObject({ requestIn: 1 });
    expect(out[0]!.incomplete).toBeUndefined();
    expect(stats.incomplete).toBeUndefined();
  });

  it.each([
    ['maxQueue: 10 frames', { maxQueue: 10 }],
    ['maxHeldBytes: 1000 bytes', { maxHeldBytes: 1000 }],
  ])('lets the request out early past %s, says so, and still links the reply to it', (_, options) => {
    const { out, stats } = run(options);
    expect(out.map((p) => p.frame)).toEqual([1, 42]);
    expect(out[0]!.responseIn).toBeUndefined();
    expect(out[0]!.unanswered).toBeUndefined();
    expect(out[0]!.incomplete).toMatch(/^released before its exchange was settled/);
    expect(packetLine(out[0]!)).toContain('"incomplete":"released before its exchange was settled');
    expect(out[1]).toMatchObject({ requestIn: 1 });
    expect(stats.incomplete).toBe(1);
  });

  it('is what dissectCaptureBatches does with a stream, chunk by chunk', async () => {
    const bytes = retimedExchange([100_000]);
    const { packets, stats } = await dissectBytes(bytes, { maxQueue: 0 }, 40);
    expect(packets[0]!.incomplete).toBeDefined();
    expect(packets[1]).toMatchObject({ requestIn: 1 });
    expect(stats.incomplete).toBe(1);
  });
});
