import { describe, expect, it } from 'vitest';
import { GrowableBytes } from '../../src/hex/growable-bytes.ts';

describe('GrowableBytes', () => {
  it('grows past its initial capacity and returns exactly the bytes written', () => {
    const sink = new GrowableBytes(16);
    for (let i = 0; i < 1000; i++) sink.push(i & 0xff);
    sink.append(new Uint8Array([1, 2, 3]));
    const bytes = sink.toBytes();
    expect(bytes.length).toBe(1003);
    expect(bytes[999]).toBe(999 & 0xff);
    expect(Array.from(bytes.subarray(1000))).toEqual([1, 2, 3]);
  });

  it('repeats a pattern cyclically, ending mid-pattern if asked', () => {
    const sink = new GrowableBytes();
    sink.appendRepeated(new Uint8Array([0x41, 0x42, 0x43]), 7);
    expect(Array.from(sink.toBytes())).toEqual([0x41, 0x42, 0x43, 0x41, 0x42, 0x43, 0x41]);
  });

  it('appends zeros and truncates', () => {
    const sink = new GrowableBytes();
    sink.push(9);
    sink.appendZeros(3);
    sink.truncate(2);
    expect(Array.from(sink.toBytes())).toEqual([9, 0]);
  });
});
