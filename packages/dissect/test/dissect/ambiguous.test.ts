import { describe, expect, it } from 'vitest';
import { readCaptureSync, packetText } from '@gamequery/dissect';
import { fixture, writePcap } from '../capture/helpers.ts';
import { dissectBytes } from './helpers.ts';

/**
 * The one case no pairing rule can settle: the same request twice from one socket, both
 * waiting, and identical replies. Real frames (lo-us.pcap's SA:MP info exchange), re-timed.
 */
describe('identical requests pending at once', () => {
  const frames = [...readCaptureSync(fixture('lo-us.pcap'))].flatMap((i) => (i.kind === 'packet' ? [i.data] : []));
  const [request, reply] = [frames[0]!, frames[1]!];
  const at = (us: number, data: Uint8Array) => ({ seconds: 1_795_346_153, ticks: us, data });

  it('pairs them first come, first served and says each link may be crossed', async () => {
    const { packets } = await dissectBytes(writePcap([at(0, request), at(100, request), at(500, reply), at(600, reply)], { linkType: 1 }));
    expect(packets.map((p) => [p.frame, p.responseIn, p.requestIn])).toEqual([
      [1, 3, undefined],
      [2, 4, undefined],
      [3, undefined, 1],
      [4, undefined, 2],
    ]);
    for (const p of packets) expect(p.ambiguous).toMatch(/^an identical request from the same client to the same server was waiting/);
    expect(packetText(packets[0]!)).toContain('[Ambiguous: an identical request');
  });

  it('marks nothing when the second request comes after the first was answered', async () => {
    const { packets } = await dissectBytes(
      writePcap([at(0, request), at(500, reply), at(1000, request), at(1500, reply)], { linkType: 1 }),
    );
    expect(packets.map((p) => [p.frame, p.responseIn, p.requestIn])).toEqual([
      [1, 2, undefined],
      [2, undefined, 1],
      [3, 4, undefined],
      [4, undefined, 3],
    ]);
    for (const p of packets) expect(p.ambiguous).toBeUndefined();
  });
});
