import { describe, expect, it } from 'vitest';
import { formatIPv4, formatIPv6 } from '../../src/net/index.ts';
import { formatEndpoint } from '../../src/net/address.ts';

function bytesOf(groups: number[]): Uint8Array {
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

describe('formatIPv6', () => {
  it.each([
    // RFC 5952 §4 examples and rules.
    [[0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], '2001:db8::1'],
    [[0x2001, 0xdb8, 0, 0, 0, 0, 2, 1], '2001:db8::2:1'],
    [[0x2001, 0xdb8, 0, 1, 1, 1, 1, 1], '2001:db8:0:1:1:1:1:1'], // a single zero group stays
    [[0x2001, 0xdb8, 0, 0, 1, 0, 0, 1], '2001:db8::1:0:0:1'], // first of two equal runs
    [[0x2001, 0, 0, 1, 0, 0, 0, 1], '2001:0:0:1::1'], // the longest run
    [[0x2001, 0xdb8, 0xaaaa, 0xbbbb, 0xcccc, 0xdddd, 0xeeee, 0xaaaa], '2001:db8:aaaa:bbbb:cccc:dddd:eeee:aaaa'],
    [[0, 0, 0, 0, 0, 0, 0, 0], '::'],
    [[0, 0, 0, 0, 0, 0, 0, 1], '::1'],
    [[0xfe80, 0, 0, 0, 0xf40b, 0xbcff, 0xfec6, 0xa3], 'fe80::f40b:bcff:fec6:a3'],
    [[0xfd00, 0x47, 0, 0, 0, 0, 0, 0], 'fd00:47::'],
    [[0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201], '::ffff:192.0.2.1'], // §5: IPv4-mapped
  ])('writes %j as %s', (groups, text) => {
    expect(formatIPv6(bytesOf(groups), 0)).toBe(text);
  });

  it('agrees with the WHATWG URL serializer on 5000 addresses full of zero runs', () => {
    let x = 12345;
    const next = () => (x = (x * 1103515245 + 12345) >>> 0) >>> 16;
    for (let i = 0; i < 5000; i++) {
      const groups = Array.from({ length: 8 }, () => (next() % 3 === 0 ? next() : 0));
      if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) continue; // URL has no §5 form
      const expected = new URL(`http://[${groups.map((g) => g.toString(16)).join(':')}]/`).hostname.slice(1, -1);
      const bytes = new Uint8Array(20);
      bytes.set(bytesOf(groups), 4);
      expect(formatIPv6(bytes, 4)).toBe(expected);
    }
  });
});

describe('formatIPv4', () => {
  it('writes dotted decimal at an offset', () => {
    expect(formatIPv4(new Uint8Array([9, 127, 0, 0, 1]), 1)).toBe('127.0.0.1');
    expect(formatIPv4(new Uint8Array([255, 255, 255, 255]), 0)).toBe('255.255.255.255');
    expect(formatIPv4(new Uint8Array([10, 231, 0, 2]), 0)).toBe('10.231.0.2');
  });

  it('gives each address its own text when addresses share a slot of the cache, and 0.0.0.0 on a fresh one', () => {
    // 0.0.0.0 is key 0: the empty slot's mark is -1, so the first 0.0.0.0 is written, not found.
    expect(formatIPv4(new Uint8Array(4), 0)).toBe('0.0.0.0');
    // 20 000 addresses in turn, then again in reverse, through 4 096 slots: every one collides with others.
    const addresses: number[] = [];
    let x = 0x2545f491;
    for (let i = 0; i < 20_000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      addresses.push(x);
    }
    const bytes = new Uint8Array(4);
    for (const a of [...addresses, ...addresses.reverse()]) {
      new DataView(bytes.buffer).setUint32(0, a);
      expect(formatIPv4(bytes, 0)).toBe(`${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`);
    }
  });
});

describe('formatEndpoint', () => {
  it('writes ip:port, and brackets an IPv6 address (RFC 3986) so its colons stay apart from the port', () => {
    expect(formatEndpoint({ ip: '192.0.2.1', port: 7777 })).toBe('192.0.2.1:7777');
    expect(formatEndpoint({ ip: formatIPv6(bytesOf([0xfd00, 0x47, 0, 0, 0, 0, 0, 2]), 0), port: 47777 })).toBe('[fd00:47::2]:47777');
    expect(formatEndpoint({ ip: '::ffff:10.0.0.1', port: 0 })).toBe('[::ffff:10.0.0.1]:0');
  });
});
