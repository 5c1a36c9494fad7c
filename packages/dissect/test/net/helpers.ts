import { readCaptureSync, type CapturePacket } from '../../src/capture/index.ts';
import { UdpDecoder, type DecodedFrame, type UdpDecoderOptions } from '../../src/net/index.ts';
import { fixture, packetsOf } from '../capture/helpers.ts';

export function packets(name: string): CapturePacket[] {
  return packetsOf([...readCaptureSync(fixture(name))]);
}

/** Decodes frames in order with one decoder; returns the results and the decoder. */
export function decodeAll(
  frames: readonly CapturePacket[],
  options?: UdpDecoderOptions,
): {
  results: DecodedFrame[];
  decoder: UdpDecoder;
} {
  const decoder = new UdpDecoder(options);
  const results = frames.map((frame) => decoder.decode(frame));
  return { results, decoder };
}

/** A copy of `packet` with other data (and, optionally, other fields). */
export function withData(packet: CapturePacket, data: Uint8Array, fields: Partial<CapturePacket> = {}): CapturePacket {
  return { ...packet, data, capturedLength: data.length, originalLength: data.length, ...fields };
}

/** The frame's bytes with `insert` put in at `at` (and `remove` bytes taken out there first). */
export function splice(data: Uint8Array, at: number, remove: number, insert: number[]): Uint8Array {
  const out = new Uint8Array(data.length - remove + insert.length);
  out.set(data.subarray(0, at));
  out.set(insert, at);
  out.set(data.subarray(at + remove), at + insert.length);
  return out;
}
