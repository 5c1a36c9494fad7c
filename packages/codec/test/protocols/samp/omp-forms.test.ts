/**
 * open.mp `o` in its three published forms (samp/omp.ts): recognised by which declaration the
 * lengths add up to, decoded and encoded byte for byte, and paired with their requests.
 */
import { describe, expect, it } from 'vitest';
import { decodePacket, encodePacket, fromHex, recognize, samp, toHex } from '@gamequery/codec';
import { ompFormOf, ompForms } from '../../../src/protocols/samp/omp.ts';
import { answer, ask, only, pairAll, sampServer as server } from '../../pairing/helpers.ts';

const at = { serverIp: '127.0.0.1', serverPort: 7777 };
const le32 = (n: number): string => toHex(Uint8Array.of(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24));
const str = (s: string): string => le32(s.length) + toHex(new TextEncoder().encode(s));
// 53 41 4d 50 7f 00 00 01 61 1e 6f: "SAMP", 127.0.0.1, port 7777, 'o'
const HEADER = '53414d507f000001611e6f';

describe('open.mp `o` forms', () => {
  it('reads a 15-byte `o` as the v1.1 echo, either way, not as a reply with a 3.5-billion-byte Discord length', () => {
    // 53414d50 7f000001 611e 6f | d2 02 96 49: the nonce would be a Discord length of 1 234 567 890 read as u32 LE
    const bytes = fromHex(`${HEADER}d2029649`);
    const r = recognize(bytes, { protocol: 'samp' });
    expect(r).toMatchObject({ message: 'ompecho', direction: 'either' });
    const p = decodePacket(bytes, { protocol: 'samp', direction: 'response' });
    expect(p).toMatchObject({ message: 'ompecho', direction: 'response', bytesRead: 15, warnings: [] });
    expect(p.value).toEqual({ ...at, nonce: 0xd2029649 });
  });

  it('tells the v1.2 banners reply from the v1.3.1 logo reply by their lengths alone', () => {
    const banners = fromHex(HEADER + str('discord.gg/x') + str('https://a/l.png') + str('https://a/d.png'));
    const logo = fromHex(HEADER + str('discord.gg/x') + str('https://a/l.png') + str('https://a/d.png') + str('https://a/logo.png'));
    expect(decodePacket(banners)).toMatchObject({ message: 'ompbanners', direction: 'response', bytesRead: banners.length, warnings: [] });
    expect(decodePacket(banners).value).toEqual({
      ...at,
      discord: 'discord.gg/x',
      bannerLight: 'https://a/l.png',
      bannerDark: 'https://a/d.png',
    });
    expect(decodePacket(logo)).toMatchObject({ message: 'omp', direction: 'response', bytesRead: logo.length, warnings: [] });
    // An empty logo is four zero bytes: still the logo form (the launcher reads a logo only past 4 bytes, to the same effect).
    const emptyLogo = fromHex(HEADER + str('') + str('') + str('') + str(''));
    expect(decodePacket(emptyLogo).message).toBe('omp');
    expect(decodePacket(fromHex(HEADER + str('') + str('') + str(''))).message).toBe('ompbanners');
  });

  it('reports a reply no form fits as the current form, cut short', () => {
    const cut = fromHex(HEADER + str('discord.gg/x') + str('') + str('') + '0000');
    expect(recognize(cut).layout).toBe(samp.ompResponse);
    expect(() => decodePacket(cut)).toThrow(/samp\.omp\.logo\.len: requested 4 bytes, but only 2 bytes available/);
    expect(recognize(fromHex(`${HEADER}d202`)).layout).toBe(samp.ompechoRequest);
  });

  it('encodes each form back to its bytes through encodePacket', () => {
    const forms = [
      { message: 'ompecho', direction: 'either', value: { ...at, nonce: 7 }, hex: `${HEADER}00000007` },
      {
        message: 'ompbanners',
        direction: 'response',
        value: { ...at, discord: '', bannerLight: 'b', bannerDark: '' },
        hex: HEADER + str('') + str('b') + str(''),
      },
      {
        message: 'omp',
        direction: 'response',
        value: { ...at, discord: '', bannerLight: '', bannerDark: '', logo: 'l' },
        hex: HEADER + str('') + str('') + str('') + str('l'),
      },
    ] as const;
    for (const f of forms) {
      const bytes = encodePacket({ protocol: 'samp', ...f });
      expect(toHex(bytes)).toBe(f.hex);
      expect(decodePacket(bytes, f.direction === 'either' ? { direction: 'request' } : {}).value).toEqual(f.value);
    }
    // v1.2 answers the same 11-byte request as today's servers.
    expect(encodePacket({ protocol: 'samp', message: 'ompbanners', direction: 'request', value: at })).toEqual(samp.ompRequest.encode(at));
  });

  it('knows which open.mp releases send which form', () => {
    expect(['1.0.0.0', 'omp 1.1.0.2612', '0.0.11.2331'].map((v) => ompFormOf(v)?.form)).toEqual(['echo', 'echo', 'echo']);
    expect(['omp 1.2.0.2670', '1.3.1.2748', 'omp 1.4.0.2779', '1.5.8.3079', 'omp 2.0'].map((v) => ompFormOf(v)?.form)).toEqual([
      'banners',
      'logo',
      'logo',
      'logo',
      'logo',
    ]);
    expect(ompFormOf('0.3.7-R2')?.form).toBe('echo'); // a SA-MP version reads as a number below 1.2: callers check `omp ` first
    expect(ompFormOf('unknown')).toBeUndefined();
    expect(ompForms.map((f) => [f.form, f.requestLength, f.urlMax])).toEqual([
      ['echo', 15, undefined],
      ['banners', 11, 120],
      ['logo', 11, 160],
    ]);
  });
});

describe('pairing the `o` forms', () => {
  it('pairs the echo with its 15-byte request, and the banners reply with the 11-byte one', () => {
    const echo = samp.ompechoRequest.encode({ ...at, nonce: 0xcafe });
    const e1 = only(pairAll([ask('q', echo, server, 0), answer('r', echo, server, 3)]), 'exchange');
    expect(e1.request).toMatchObject({ message: 'ompecho', direction: 'request' });
    expect(e1.responses[0]).toMatchObject({ message: 'ompecho', direction: 'response' });
    const banners = samp.ompbannersResponse.encode({ ...at, discord: 'd', bannerLight: '', bannerDark: '' });
    const e2 = only(pairAll([ask('q', samp.ompRequest.encode(at), server, 0), answer('r', banners, server, 3)]), 'exchange');
    expect(e2.request).toMatchObject({ message: 'omp', direction: 'request' });
    expect(e2.responses[0]).toMatchObject({ message: 'ompbanners', direction: 'response' });
  });
});
