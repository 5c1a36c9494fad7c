import { describe, expect, it } from 'vitest';
import { findArrayStart, looksLikeBareRow } from '../../src/hex/literal.ts';

describe('looksLikeBareRow (the junk policy)', () => {
  it.each([
    ['53 41 4d 50', true],
    ['53 41 zz 50', true],
    ['cafe babe', true],
    ['534d4', true],
    ['0x53, 0x41', true],
    ['53:4d:41', true],
    ['be careful with byte 3', false],
    ['Add a face', false],
    ['Thanks!', false],
    ['53 zz', false],
    ['1 0.000000 127.0.0.1 → 127.0.0.1 UDP 53', false],
  ])('%s → %s', (line, expected) => {
    expect(looksLikeBareRow(line)).toBe(expected);
  });
});

describe('findArrayStart', () => {
  it('starts after the = so a declarator size is not data', () => {
    expect(findArrayStart('uint8_t buf[11] = { 0x53,')).toEqual({ closer: '}', contentStart: 19, openColumn: 18 });
  });

  it('skips the empty [] of a Java array type', () => {
    expect(findArrayStart('new byte[] { (byte)0xfe }')?.closer).toBe('}');
  });

  it('does not take bracketed prose for an array', () => {
    expect(findArrayStart('see [edit] above')).toBeUndefined();
  });
});
