import { describe, expect, it } from 'vitest';
import { i16be, i32le, u16le, u32be } from '@gamequery/codec/define';

describe('number builders', () => {
  it('refuse a signed number shown in hex, which the Wireshark plugin could not register', () => {
    expect(() => i32le('delta', { abbrev: 'acme.delta', label: 'Delta', base: 'hex' })).toThrow(
      new TypeError('acme.delta: a signed number (i32le) cannot be shown in hex (Wireshark refuses it): declare it in decimal'),
    );
    expect(() => i16be('offset', { abbrev: 'acme.offset', label: 'Offset', base: 'hex' })).toThrow(TypeError);
    // Signed in decimal, and unsigned in hex, are what Wireshark takes.
    expect(i32le('delta', { abbrev: 'acme.delta', label: 'Delta' }).base).toBe('dec');
    expect(u32be('nonce', { abbrev: 'acme.nonce', label: 'Nonce', base: 'hex' }).base).toBe('hex');
    expect(u16le('port', { abbrev: 'acme.port', label: 'Port', base: 'hex' }).type).toBe('u16le');
  });
});
