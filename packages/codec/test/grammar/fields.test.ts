import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decimalCstring, defineLayout, i16be, i32le, u16le, u32be } from '@gamequery/codec/define';

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

describe('decimal text', () => {
  const layout = defineLayout({
    protocol: 'acme',
    message: 'token',
    direction: 'response',
    title: 'Token',
    fields: [
      decimalCstring('signed', 'i32', { abbrev: 'acme.signed', label: 'Signed' }),
      decimalCstring('unsigned', 'u32', { abbrev: 'acme.unsigned', label: 'Unsigned' }),
    ],
  });
  const [I32, U32] = [
    [-0x80000000, 0x7fffffff],
    [0, 0xffffffff],
  ] as const;
  const fits = (v: number, [min, max]: readonly [number, number]): boolean => Number.isInteger(v) && v >= min && v <= max;

  it('is encoded from any integer in its range, and round-trips; anything else is refused, naming the field', () => {
    const values = fc.oneof(
      fc.integer({ min: -(2 ** 33), max: 2 ** 33 }),
      fc.double(),
      fc.constantFrom(-0, 0x7fffffff, -0x80000000, 0xffffffff, 2 ** 32),
    );
    fc.assert(
      fc.property(values, values, (signed, unsigned) => {
        const ok = fits(signed, I32) && fits(unsigned, U32);
        if (!ok) {
          expect(() => layout.encode({ signed, unsigned })).toThrow(fits(signed, I32) ? /acme\.unsigned/ : /acme\.signed/);
          return;
        }
        const back = layout.decode(layout.encode({ signed, unsigned })).value;
        expect(back).toEqual({ signed: signed === 0 ? 0 : signed, unsigned: unsigned === 0 ? 0 : unsigned });
      }),
    );
  });
});
