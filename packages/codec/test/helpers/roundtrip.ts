/**
 * The shared round-trip check (after dns-packet's testEncoder and gopacket's
 * checkSerialization): encode → decode gives the value back, encodingLength matches,
 * re-encoding gives the same bytes, and encodeInto works at a non-zero offset.
 */
import { expect } from 'vitest';
import type { AnyLayout, CodecOptions } from '@gamequery/codec';
import { internals } from '@gamequery/codec/internal';

export function checkRoundTrip(layout: AnyLayout, value: Record<string, unknown>, options?: CodecOptions): Uint8Array {
  const bytes = layout.encode(value, options);
  expect(layout.encodingLength(value, options)).toBe(bytes.length);
  const decoded = layout.decode(bytes, options);
  expect(decoded.value).toEqual(value);
  expect(decoded.bytesRead).toBe(bytes.length);
  expect(layout.encode(decoded.value, options)).toEqual(bytes);

  const target = new Uint8Array(bytes.length + 7).fill(0xaa);
  expect(internals(layout).encodeInto(value, target, 5, options)).toBe(bytes.length);
  expect(target.subarray(5, 5 + bytes.length)).toEqual(bytes);
  expect(target[4]).toBe(0xaa);
  expect(target[5 + bytes.length]).toBe(0xaa);
  // Decoding a view that starts inside a larger buffer must not read outside it.
  expect(layout.decode(target.subarray(5, 5 + bytes.length), options).value).toEqual(value);
  return bytes;
}
