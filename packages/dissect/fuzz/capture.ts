/**
 * Fuzz target `capture`: the capture reader and the dissector on damaged pcap and pcapng files.
 *
 * Seeds are the committed captures. Damage is aimed at the fields that steer the reader (magic,
 * version, snapshot length, link type, captured length, block type and total length, interface id)
 * or is any byte mutation, up to three at once. What must hold, for the synchronous reader, the
 * streaming reader fed in chunks of any size, and `dissectCapture`:
 * - every packet whose record or block lies wholly before the first damaged byte is delivered,
 *   exactly as from the undamaged file;
 * - then at most one error, last, at or after the unit the damage is in, whose message names its
 *   offset; and an error whenever the file does not divide into whole units (nothing dropped silently);
 * - the streaming reader agrees with the synchronous one, the dissector keeps frame order and ends
 *   with the reader's error; nothing throws, nothing takes long.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { CLAIMED_LENGTHS, mutatedMany, setUint, type Width } from '../../codec/fuzz/mutate.ts';
import { invariant, propertyTarget, type FuzzTarget } from '../../codec/fuzz/harness.ts';
import { readCapture, readCaptureSync, type CaptureError, type CaptureItem } from '../src/capture/index.ts';
import { dissectCapture, type DissectItem } from '../src/dissect.ts';
import { CAPTURES, chunks, fixture, packetsOf, summary } from '../test/capture/helpers.ts';

/** A file header, record or block of an undamaged file. */
interface Unit {
  readonly offset: number;
  readonly length: number;
  readonly littleEndian: boolean;
  /** pcapng block type; -1 for a pcap file header, -2 for a pcap record. */
  readonly type: number;
}

const PCAPNG_SECTION_HEADER = 0x0a0d0d0a;
const PCAP_FILE_HEADER = -1;
const PCAP_RECORD = -2;

/**
 * The units of a capture, walked without the reader (and without trusting the bytes: a length that
 * cannot be a unit ends the walk). `whole` is true when they tile the file exactly.
 */
export function unitsOf(file: Uint8Array): { units: Unit[]; whole: boolean } {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const units: Unit[] = [];
  if (file.length < 4) return { units, whole: false };
  const magic = view.getUint32(0, false);
  let pos = 0;
  if (magic === PCAPNG_SECTION_HEADER) {
    let littleEndian = true;
    while (pos + 12 <= file.length) {
      const type = view.getUint32(pos, littleEndian);
      if (type === PCAPNG_SECTION_HEADER) littleEndian = view.getUint32(pos + 8, true) === 0x1a2b3c4d;
      const length = view.getUint32(pos + 4, littleEndian);
      if (length < 12 || pos + length > file.length) break;
      units.push({ offset: pos, length, littleEndian, type });
      pos += length;
    }
    return { units, whole: pos === file.length };
  }
  const littleEndian = magic === 0xd4c3b2a1 || magic === 0x4d3cb2a1;
  if (!littleEndian && magic !== 0xa1b2c3d4 && magic !== 0xa1b23c4d) return { units, whole: false };
  if (file.length < 24) return { units, whole: false };
  units.push({ offset: 0, length: 24, littleEndian, type: PCAP_FILE_HEADER });
  for (pos = 24; pos + 16 <= file.length;) {
    const length = 16 + view.getUint32(pos + 8, littleEndian);
    if (pos + length > file.length) break;
    units.push({ offset: pos, length, littleEndian, type: PCAP_RECORD });
    pos += length;
  }
  return { units, whole: pos === file.length };
}

/** Offset and width of the fields that steer the reader, for each kind of unit. */
function fieldsOf(unit: Unit): [at: number, width: Width][] {
  const trailer: [number, Width] = [unit.length - 4, 4];
  switch (unit.type) {
    case PCAP_FILE_HEADER:
      return [
        [0, 4],
        [4, 2],
        [16, 4],
        [20, 4],
        [20, 2],
      ];
    case PCAP_RECORD:
      return [
        [4, 4],
        [8, 4],
        [12, 4],
      ];
    case PCAPNG_SECTION_HEADER:
      return [[4, 4], [8, 4], [12, 2], trailer];
    case 1:
      return [[4, 4], [8, 2], [12, 4], [16, 2], [18, 2], trailer]; // interface: link type, snaplen, first option
    case 2:
    case 6:
      return [[4, 4], [8, 4], [8, 2], [12, 4], [20, 4], [24, 4], trailer]; // packet: interface, ts, lengths
    case 3:
      return [[4, 4], [8, 4], trailer]; // simple packet: original length
    default:
      return [[0, 4], [4, 4], trailer];
  }
}

const LINK_TYPES = [0, 1, 12, 14, 101, 108, 113, 228, 229, 276, 147, 0xffff];

/** One steering field of one unit set to a value chosen to hurt. */
function damageField(file: Uint8Array, units: readonly Unit[]): fc.Arbitrary<Uint8Array> {
  return fc.constantFrom(...units).chain((unit) =>
    fc
      .tuple(
        fc.constantFrom(...fieldsOf(unit)),
        fc.oneof(
          fc.constantFrom(...CLAIMED_LENGTHS, ...LINK_TYPES, 4, 8, 16, 60, 262145, 0x7ffffffc),
          fc.integer({ min: -8, max: 8 }).map((d) => unit.length + d),
          fc.nat(),
        ),
      )
      .map(([[at, width], value]) => {
        const b = file.slice();
        // A second round may see a file already cut short.
        if (unit.offset + at + width <= b.length) setUint(b, unit.offset + at, width, value, unit.littleEndian);
        return b;
      }),
  );
}

interface Seed {
  readonly name: string;
  readonly file: Uint8Array;
  readonly units: Unit[];
  readonly items: CaptureItem[];
}

const seeds: Seed[] = CAPTURES.map((name) => {
  const file = fixture(name);
  const items = [...readCaptureSync(file)];
  if (items.some((i) => i.kind === 'error')) throw new Error(`${name}: the undamaged capture does not read cleanly`);
  return { name, file, units: unitsOf(file).units, items };
});

export interface CaptureCase {
  readonly seed: string;
  readonly bytes: Uint8Array;
  readonly chunk: number;
}

export const damagedCaptures: fc.Arbitrary<CaptureCase> = fc.constantFrom(...seeds).chain((seed) => {
  const once = fc.oneof(damageField(seed.file, seed.units), mutatedMany(seed.file, 1));
  const bytes = fc.oneof(
    once,
    once.chain((b) => fc.oneof(damageField(b, seed.units), mutatedMany(b, 1))),
  );
  return fc.record({
    seed: fc.constant(seed.name),
    bytes,
    chunk: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 8192 })),
  });
});

/** First offset where `b` differs from `a` (the shorter one's length if one is a prefix of the other). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? Infinity : n;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Items are packets, then at most one error, last. */
function checkShape(items: readonly { kind: string }[], what: string): void {
  const errors = items.filter((i) => i.kind === 'error').length;
  invariant(errors <= 1 && (errors === 0 || items.at(-1)!.kind === 'error'), `${what}: ${errors} errors, or an error before the end`);
}

export async function checkCapture({ seed: name, bytes, chunk }: CaptureCase): Promise<void> {
  const seed = seeds.find((s) => s.name === name)!;
  const items = [...readCaptureSync(bytes)];
  checkShape(items, 'readCaptureSync');
  const packets = packetsOf(items);
  const error = items.at(-1)?.kind === 'error' ? (items.at(-1) as CaptureError) : undefined;

  // Units wholly before the damage read as before.
  const damageAt = firstDifference(seed.file, bytes);
  const intact = seed.units.filter((u) => u.offset + u.length <= damageAt);
  const intactEnd = intact.reduce((end, u) => Math.max(end, u.offset + u.length), 0);
  const kept = packetsOf(seed.items).filter((p) => p.offset < intactEnd);
  expect(summary(packets.slice(0, kept.length))).toEqual(summary(kept));

  if (error !== undefined) {
    invariant(
      Number.isInteger(error.offset) && error.offset >= intactEnd && error.offset <= bytes.length,
      () => `error at offset ${error.offset}, but the file is intact up to ${intactEnd} (of ${bytes.length} bytes): ${error.message}`,
    );
    const named = /at offset (\d+)/.exec(error.message);
    invariant(
      named === null || Number(named[1]) === error.offset,
      () => `error.offset ${error.offset} but the message says ${error.message}`,
    );
    invariant(
      packets.every((p) => p.offset < error.offset),
      'a packet after the error offset',
    );
  } else {
    invariant(unitsOf(bytes).whole, 'the file does not divide into whole units, yet the reader reported no error');
  }

  // Any chunking gives the same items.
  const streamed = await collect(readCapture(chunks(bytes, chunk)));
  expect(summary(streamed)).toEqual(summary(items));

  // The dissector: frame order, then the reader's error.
  const dissected: DissectItem[] = await collect(dissectCapture(chunks(bytes, chunk)));
  checkShape(dissected, 'dissectCapture');
  let last = 0;
  for (const item of dissected) {
    if (item.kind !== 'packet') continue;
    invariant(
      item.packet.frame > last && item.packet.frame <= packets.length,
      () => `frame ${item.packet.frame} after ${last} (${packets.length} packets)`,
    );
    last = item.packet.frame;
  }
  const dissectError = dissected.at(-1)?.kind === 'error' ? dissected.at(-1) : undefined;
  expect(dissectError).toEqual(error);
}

export const captureTarget: FuzzTarget = propertyTarget(
  'capture',
  'pcap/pcapng reader and dissectCapture on damaged captures: intact packets kept, one error with its offset',
  damagedCaptures,
  checkCapture,
  () => 2000,
);
