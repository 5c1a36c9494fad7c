/**
 * The first pass says which frames completed a datagram reassembled from fragments
 * (`FrameFacts.reassembled`: the renderer reads such a frame even when no one asked for its
 * record, so that its fragments' frames are let go), for every frame it holds, over a
 * capture long enough that its queue of them is emptied, refilled and compacted many times.
 */
import { describe, expect, it } from 'vitest';
import type { CapturePacket } from '../../src/capture/index.ts';
import { UdpDecoder } from '../../src/net/index.ts';
import { FirstPass } from '../../src/pairing/first-pass.ts';
import { packets } from './helpers.ts';

/** veth-frag.pcap (two SA:MP player lists in three fragments each, over IPv4 and IPv6) `times` times over, numbered on. */
function replayed(times: number): CapturePacket[] {
  const one = packets('veth-frag.pcap');
  const out: CapturePacket[] = [];
  const span = one.at(-1)!.timestamp!.seconds - one[0]!.timestamp!.seconds + 1;
  for (let r = 0; r < times; r++) {
    for (const p of one) {
      out.push({ ...p, index: out.length + 1, timestamp: { ...p.timestamp!, seconds: p.timestamp!.seconds + r * span } });
    }
  }
  return out;
}

/** The frames that completed a reassembled datagram, as the decoder alone says. */
function completing(frames: readonly CapturePacket[]): Set<number> {
  const decoder = new UdpDecoder();
  const out = new Set<number>();
  for (const f of frames) {
    const r = decoder.decode(f);
    if (r.kind === 'udp' && r.fragments) out.add(f.index);
  }
  return out;
}

describe('FirstPass: frames that completed a reassembled datagram', () => {
  const frames = replayed(1500);
  const expected = completing(frames);

  it('are told as they leave, each once, over 3 000 reassembled datagrams', () => {
    expect(expected.size).toBe(3000);
    const pass = new FirstPass({ timeoutMs: 1000, secrets: false });
    const told: number[] = [];
    const leave = (all: boolean): void => {
      while (pass.size && (all || pass.isFinal(pass.first))) {
        const frame = pass.first;
        if (pass.shift().reassembled) told.push(frame);
      }
    };
    for (const f of frames) {
      pass.push(f);
      leave(false);
    }
    pass.finish();
    leave(true);
    expect(told).toEqual([...expected]);
  });

  it('are told right when all are held to the end and let go then (the queue compacted as it empties)', () => {
    const pass = new FirstPass({ timeoutMs: 1e9, secrets: false });
    for (const f of frames) pass.push(f);
    pass.finish();
    const told: number[] = [];
    while (pass.size) {
      const frame = pass.first;
      // Read again before it leaves: a frame still held is found by its number too.
      expect(pass.read(frame).reassembled).toBe(expected.has(frame));
      if (pass.shift().reassembled) told.push(frame);
    }
    expect(told).toEqual([...expected]);
  });

  it('are told of any frame held, read in any order, and of none once let go', () => {
    const pass = new FirstPass({ timeoutMs: 1000, secrets: false });
    let checked = 0;
    for (const f of frames) {
      pass.push(f);
      // Every frame held, newest first, then the oldest few let go.
      if (f.index % 97 === 0) {
        for (let g = pass.next - 1; g >= pass.first; g--) {
          expect(pass.read(g).reassembled, `frame ${g}`).toBe(expected.has(g));
          checked++;
        }
      }
      while (pass.size > 40) pass.drop();
    }
    expect(checked).toBeGreaterThan(10_000);
  });
});
