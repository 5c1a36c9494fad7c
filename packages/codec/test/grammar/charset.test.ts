import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { textCodec } from '@gamequery/codec/internal';
import { upperHalf } from '../../scripts/make-codepages.ts';
import { WINDOWS_1251_HIGH, WINDOWS_1252_HIGH } from '../../src/grammar/codepages.ts';

const all = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('charsets', () => {
  it('embeds the code page tables iconv-lite has today', () => {
    expect(WINDOWS_1251_HIGH).toBe(upperHalf('windows-1251'));
    expect(WINDOWS_1252_HIGH).toBe(upperHalf('windows-1252'));
  });

  it.each(['windows-1251', 'windows-1252'] as const)(
    '%s decodes every defined byte as iconv-lite does, and undefined ones losslessly',
    (cp) => {
      const text = textCodec(cp).decode(all);
      const reference = iconv.decode(Buffer.from(all), cp);
      for (let b = 0; b < 256; b++) {
        expect(text[b]).toBe(reference[b] === '\ufffd' ? String.fromCharCode(b) : reference[b]);
      }
    },
  );

  it('decodes the bytes Node 20 TextDecoder gets wrong: € in 1252 and 0x98 in 1251', () => {
    expect(textCodec('windows-1252').decode(Uint8Array.of(0x80, 0x9f))).toBe('€Ÿ');
    expect(textCodec('windows-1251').decode(Uint8Array.of(0xc8, 0x98, 0xe2))).toBe('И\u0098в');
  });

  it.each(['latin1', 'windows-1251', 'windows-1252'] as const)('%s round-trips all 256 bytes', (cp) => {
    const c = textCodec(cp);
    expect(c.encode(c.decode(all))).toEqual(all);
  });

  it.each(['latin1', 'windows-1251', 'windows-1252', 'utf8'] as const)(
    '%s decodes short and long text alike (1024 code units made a string at a time)',
    (cp) => {
      const c = textCodec(cp);
      for (const length of [0, 1, 63, 64, 65, 1023, 1024, 1025, 5000]) {
        const bytes = Uint8Array.from({ length }, (_, i) => (cp === 'utf8' ? 0x20 + (i % 95) : (i * 7) % 256));
        const expected = cp === 'utf8' ? new TextDecoder().decode(bytes) : [...bytes].map((b) => c.decode(Uint8Array.of(b))).join('');
        expect(c.decode(bytes)).toBe(expected);
      }
      if (cp === 'utf8') expect(c.decode(new TextEncoder().encode('Név ё'.repeat(300)))).toBe('Név ё'.repeat(300));
    },
  );

  it.each(['latin1', 'windows-1251', 'windows-1252', 'utf8'] as const)(
    '%s decodes a range of a buffer as it decodes that range cut out',
    (cp) => {
      const c = textCodec(cp);
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.nat(), (bytes, a, b) => {
          const start = bytes.length === 0 ? 0 : a % (bytes.length + 1);
          const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
          expect(c.decode(bytes, start, end)).toBe(c.decode(bytes.slice(start, end)));
        }),
        { numRuns: 1000 },
      );
    },
  );

  it('treats latin1 as ISO-8859-1, not as windows-1252', () => {
    expect(textCodec('latin1').decode(Uint8Array.of(0x80, 0xa7))).toBe('\u0080§');
  });

  it('refuses characters a code page cannot encode, and lone surrogates in UTF-8', () => {
    expect(textCodec('windows-1252').encode('Привет')).toBeUndefined();
    expect(textCodec('latin1').byteLength('€')).toBeUndefined();
    expect(textCodec('utf8').encode('a\ud800b')).toBeUndefined();
    expect(textCodec('utf8').byteLength('é€😀')).toBe(2 + 3 + 4);
  });
});
