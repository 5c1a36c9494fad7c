/**
 * Fuzz target `reassembly`: IPv4 and IPv6 fragments that overlap, repeat, lie about their bytes,
 * never complete, sit at huge offsets, arrive late or out of time order, or flood the reassembler.
 *
 * Each case is fed twice with the same limits and capture times: to a {@link Reassembler} directly,
 * and as raw IP frames to a {@link UdpDecoder}. What must hold:
 * - the bytes held never exceed `maxPendingBytes` nor the datagrams `maxDatagrams`, and nothing is
 *   held after `finish()`;
 * - a reassembled datagram is exactly its fragments laid end to end from offset 0, all of one
 *   datagram, no larger than `maxDatagramBytes`;
 * - the decoder gives the same answer for every frame (held, dropped, or the datagram with the same
 *   fragment list) and ends with the same counters; nothing throws, nothing takes long.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { invariant, propertyTarget, type FuzzTarget } from '../../codec/fuzz/harness.ts';
import {
  DEFAULT_REASSEMBLY_LIMITS,
  LINKTYPE,
  Reassembler,
  UdpDecoder,
  type AddResult,
  type Fragment,
  type ReassemblyLimits,
} from '../src/net/index.ts';
import { MICROSECONDS } from '../src/capture/timestamp.ts';
import type { FrameInput } from '../src/net/types.ts';

interface FragmentOp {
  readonly kind: 'fragment';
  readonly v6: boolean;
  /** Few datagrams, so that fragments collide; or any id. */
  readonly id: number;
  readonly source: number;
  /** In 8-byte units, as on the wire (13 bits). */
  readonly offset8: number;
  readonly length: number;
  readonly more: boolean;
  /** Bytes that disagree with the datagram's other fragments. */
  readonly liar: boolean;
  /** The frame's IP length claims more than was captured. */
  readonly cut: boolean;
  /** Capture seconds since the previous frame (may be negative). */
  readonly advance: number;
}

/** Many fragments at once: distinct datagrams that never complete, or one datagram that never ends. */
interface FloodOp {
  readonly kind: 'flood';
  readonly v6: boolean;
  readonly count: number;
  readonly length: number;
  readonly oneDatagram: boolean;
}

export interface ReassemblyCase {
  readonly limits: Partial<ReassemblyLimits>;
  readonly timed: boolean;
  readonly ops: readonly (FragmentOp | FloodOp)[];
}

const fragmentOp: fc.Arbitrary<FragmentOp> = fc.record({
  kind: fc.constant('fragment' as const),
  v6: fc.boolean(),
  id: fc.oneof({ arbitrary: fc.nat(3), weight: 4 }, { arbitrary: fc.nat(0xffff), weight: 1 }),
  source: fc.nat(1),
  offset8: fc.oneof({ arbitrary: fc.nat(6), weight: 4 }, fc.nat(400), fc.constantFrom(8190, 8191), fc.nat(8191)),
  length: fc.oneof({ arbitrary: fc.nat(8).map((k) => 8 * k), weight: 3 }, fc.constantFrom(0, 1, 7, 1448, 1480), fc.nat(2000)),
  more: fc.boolean(),
  liar: fc.nat(9).map((n) => n === 0),
  cut: fc.nat(19).map((n) => n === 0),
  advance: fc.oneof({ arbitrary: fc.constant(0), weight: 6 }, fc.nat(5), fc.constantFrom(29, 31, 100), fc.integer({ min: -5, max: -1 })),
});

const floodOp: fc.Arbitrary<FloodOp> = fc.record({
  kind: fc.constant('flood' as const),
  v6: fc.boolean(),
  count: fc.integer({ min: 100, max: 7000 }),
  length: fc.constantFrom(8, 1480),
  oneDatagram: fc.boolean(),
});

const SMALL_LIMITS = fc.record({
  maxDatagrams: fc.integer({ min: 1, max: 8 }),
  maxDatagramBytes: fc.constantFrom(64, 4096, 65535),
  maxPendingBytes: fc.constantFrom(0, 100, 4096, 20000),
  timeoutSeconds: fc.constantFrom(0, 1, 30),
});

export const reassemblyCases: fc.Arbitrary<ReassemblyCase> = fc.record({
  limits: fc.oneof(fc.constant({}), SMALL_LIMITS),
  timed: fc.boolean(),
  ops: fc.oneof(
    { arbitrary: fc.array(fragmentOp, { maxLength: 60 }), weight: 8 },
    {
      arbitrary: fc
        .tuple(fc.array(fragmentOp, { maxLength: 10 }), floodOp, fc.array(fragmentOp, { maxLength: 10 }))
        .map(([a, f, b]) => [...a, f, ...b]),
      weight: 1,
    },
  ),
});

const IPV4_SOURCES = ['10.0.0.1', '10.0.0.2'];
const IPV6_SOURCES = ['2001:db8::1', '2001:db8::2'];

/** The one fragment stream both consumers see: fragments with their frame number and capture time. */
function expand(c: ReassemblyCase): { fragment: Fragment; frame: FrameInput }[] {
  const out: { fragment: Fragment; frame: FrameInput }[] = [];
  let seconds = 1_700_000_000;
  const push = (op: Omit<FragmentOp, 'kind'>): void => {
    seconds += op.advance;
    const index = out.length + 1;
    const start = op.offset8 * 8;
    const data = new Uint8Array(op.length);
    for (let i = 0; i < data.length; i++) data[i] = op.liar ? 0xee : (op.id * 31 + (start + i) * 7) & 0xff;
    const src = (op.v6 ? IPV6_SOURCES : IPV4_SOURCES)[op.source]!;
    const fragment: Fragment = {
      ipVersion: op.v6 ? 6 : 4,
      src,
      dst: op.v6 ? '2001:db8::100' : '10.0.0.100',
      protocol: 17,
      id: op.id,
      start,
      more: op.more,
      data,
      dataOffset: op.v6 ? 48 : 20,
      frame: index,
      time: c.timed ? seconds : Number.NaN,
      truncated: op.cut,
    };
    const timestamp = c.timed ? { seconds, ticks: 0, resolution: MICROSECONDS } : null;
    out.push({ fragment, frame: { index, linkType: LINKTYPE.RAW, data: ipFrame(op, data), timestamp } });
  };
  for (const op of c.ops) {
    if (op.kind === 'fragment') {
      push(op);
      continue;
    }
    for (let i = 0; i < op.count; i++) {
      push({
        v6: op.v6,
        id: op.oneDatagram ? 7 : 1000 + i,
        source: 0,
        offset8: op.oneDatagram ? (i * (op.length / 8)) % 8192 : 0,
        length: op.length,
        more: true,
        liar: false,
        cut: false,
        advance: 0,
      });
    }
  }
  return out;
}

/** A raw IPv4 packet, or an IPv6 packet with a fragment header, carrying `data`. */
function ipFrame(op: Omit<FragmentOp, 'kind'>, data: Uint8Array): Uint8Array {
  const extra = op.cut ? 100 : 0;
  if (!op.v6) {
    const b = new Uint8Array(20 + data.length);
    const v = new DataView(b.buffer);
    b[0] = 0x45;
    v.setUint16(2, 20 + data.length + extra);
    v.setUint16(4, op.id);
    v.setUint16(6, (op.more ? 0x2000 : 0) | op.offset8);
    b[8] = 64;
    b[9] = 17;
    b.set([10, 0, 0, 1 + op.source], 12);
    b.set([10, 0, 0, 100], 16);
    b.set(data, 20);
    return b;
  }
  const b = new Uint8Array(48 + data.length);
  const v = new DataView(b.buffer);
  b[0] = 0x60;
  v.setUint16(4, 8 + data.length + extra);
  b[6] = 44;
  b[7] = 64;
  b.set([0x20, 0x01, 0x0d, 0xb8], 8);
  b[23] = 1 + op.source;
  b.set([0x20, 0x01, 0x0d, 0xb8], 24);
  b[39] = 100;
  b[40] = 17;
  v.setUint16(42, (op.offset8 << 3) | (op.more ? 1 : 0));
  v.setUint32(44, op.id);
  b.set(data, 48);
  return b;
}

const keyOf = (f: Fragment): string => `${f.ipVersion} ${f.src} ${f.id}`;

function checkReassembled(
  result: Exclude<AddResult, 'pending' | 'dropped'>,
  byFrame: ReadonlyMap<number, Fragment>,
  limits: ReassemblyLimits,
): void {
  invariant(result.payload.length <= limits.maxDatagramBytes, `a ${result.payload.length}-byte datagram`);
  const pieces = result.frames.map((n) => byFrame.get(n)!);
  invariant(
    pieces.every((p) => keyOf(p) === keyOf(pieces[0]!)),
    'fragments of different datagrams put together',
  );
  let end = 0;
  for (const p of pieces) {
    invariant(p.start === end, () => `a fragment at ${p.start} where ${end} was expected`);
    expect(result.payload.subarray(p.start, p.start + p.data.length)).toEqual(p.data);
    end = p.start + p.data.length;
  }
  invariant(end === result.payload.length && !pieces.at(-1)!.more, 'the fragments do not end the datagram');
}

export function checkReassembly(c: ReassemblyCase): void {
  const stream = expand(c);
  const direct = new Reassembler(c.limits);
  const decoder = new UdpDecoder({ reassembly: c.limits });
  const limits = { ...DEFAULT_REASSEMBLY_LIMITS, ...c.limits };
  const byFrame = new Map<number, Fragment>();
  for (const { fragment, frame } of stream) {
    byFrame.set(fragment.frame, fragment);
    const decoded = decoder.decode(frame);
    if (fragment.start === 0 && !fragment.more) {
      // Not a fragment: the decoder only lets the capture time expire old datagrams.
      direct.expire(fragment.time);
      invariant(decoded.kind === 'udp' || decoded.reason === 'malformed', () => `a whole packet came back as ${JSON.stringify(decoded)}`);
      continue;
    }
    const result = direct.add(fragment);
    invariant(
      direct.bytes >= 0 && direct.bytes <= limits.maxPendingBytes,
      () => `${direct.bytes} bytes held, limit ${limits.maxPendingBytes}`,
    );
    invariant(direct.size <= limits.maxDatagrams, () => `${direct.size} datagrams held, limit ${limits.maxDatagrams}`);
    if (fragment.ipVersion === 4 && fragment.start === 0 && fragment.truncated) {
      // A first IPv4 fragment the snapshot length cut is read on as tshark reads it (its datagram dropped): its UDP header, if it holds one.
      expect(result).toBe('dropped');
      invariant(
        decoded.kind === 'udp' || decoded.reason === 'malformed',
        () => `a cut first fragment came back as ${JSON.stringify(decoded)}`,
      );
    } else if (result === 'pending') expect(decoded).toMatchObject({ kind: 'skipped', reason: 'fragment' });
    else if (result === 'dropped') expect(decoded).toMatchObject({ kind: 'skipped', reason: 'fragment-dropped' });
    else {
      checkReassembled(result, byFrame, limits);
      if (decoded.kind === 'udp') expect(decoded.fragments).toEqual(result.frames);
      else expect(decoded).toMatchObject({ kind: 'skipped', reason: 'malformed' });
    }
  }
  direct.finish();
  decoder.finish();
  invariant(direct.bytes === 0 && direct.size === 0, () => `${direct.bytes} bytes in ${direct.size} datagrams held after finish()`);
  expect(decoder.stats).toEqual(direct.stats);
}

export const reassemblyTarget: FuzzTarget = propertyTarget(
  'reassembly',
  'IPv4/IPv6 fragments: overlapping, duplicated, endless, huge offsets, floods: bounded and exact',
  reassemblyCases,
  checkReassembly,
  (c) => 500 + 2 * c.ops.reduce((n, op) => n + (op.kind === 'flood' ? op.count / 100 : 0), 0),
);
