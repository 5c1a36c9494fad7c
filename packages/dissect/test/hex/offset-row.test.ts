import { describe, expect, it } from 'vitest';
import { readOffsetField, readOffsetRow } from '../../src/hex/offset-row.ts';
import type { RowContext } from '../../src/hex/offset-row.ts';
import { hex } from './fixtures.ts';

const fresh: RowContext = { expectsAscii: false, asciiColumn: undefined, wordOrder: 'memory' };

function read(line: string, context: RowContext = fresh): ReturnType<typeof readOffsetRow> {
  const field = readOffsetField(line);
  if (field === undefined) throw new Error(`no offset in ${line}`);
  return readOffsetRow(line, field, context);
}

describe('readOffsetField', () => {
  it('reads the offset and its colon, and nothing that runs into other text', () => {
    expect(readOffsetField('00000010: 5341')).toEqual({ digits: '00000010', start: 0, colon: true, prefixed: false, end: 9 });
    expect(readOffsetField('  0010  53')).toEqual({ digits: '0010', start: 2, colon: false, prefixed: false, end: 6 });
    expect(readOffsetField('53:4d:41')).toBeUndefined();
    expect(readOffsetField('0x53, 0x41')).toBeUndefined();
    expect(readOffsetField('0x53')).toBeUndefined();
  });

  it("reads tcpdump's 0x-prefixed offset, only with its colon", () => {
    expect(readOffsetField('\t0x0010:  7f00 0001')).toEqual({ digits: '0010', start: 3, colon: true, prefixed: true, end: 8 });
    expect(readOffsetField('0x0010 7f00')).toBeUndefined();
  });
});

describe('readOffsetRow', () => {
  it('finds an ASCII column that would also read as hex', () => {
    // bytes 63 61 66 65 = "cafe"
    const row = read('0000  63 61 66 65   cafe');
    expect(row.bytes).toEqual(hex('63616665'));
    expect(row.ascii).toBe('implicit');
    expect(row.asciiColumn).toBe(20);
  });

  it('reads a row without an ASCII column as all hex, even when a shorter reading would fit', () => {
    // od never puts two blanks between bytes, so "33 34" cannot be an ASCII column here
    expect(read('000000 33 34 34').bytes).toEqual(hex('333434'));
  });

  it('accepts a single blank before the ASCII column once the block is known to have one', () => {
    expect(read('0000 33 34 34', { ...fresh, expectsAscii: true }).bytes).toEqual(hex('3334'));
  });

  it('uses the hexdump -C bars, even with a bar inside the ASCII column', () => {
    const row = read('00000000  61 7c 62                                          |a|b|');
    expect(row.bytes).toEqual(hex('617c62'));
    expect(row.ascii).toBe('pipe');
  });

  it('uses the od -t x1z angle brackets, even with a bar inside the ASCII column', () => {
    const row = read('000000 61 7c 3e 62                                      >a|>b<');
    expect(row.bytes).toEqual(hex('617c3e62'));
    expect(row.ascii).toBe('angle');
  });

  it('reads words in the given order when there is no ASCII column', () => {
    expect(read('0000000 4153 504d', { ...fresh, wordOrder: 'little' }).bytes).toEqual(hex('53414d50'));
    expect(read('0000000 4153 504d').bytes).toEqual(hex('4153504d'));
  });

  it('lets an ASCII column decide the word order', () => {
    const row = read('000000 4153 504d  >SAMP<', { ...fresh, wordOrder: 'memory' });
    expect(row.bytes).toEqual(hex('53414d50'));
  });

  it('warns when the ASCII column does not show the bytes', () => {
    const row = read('00000000  53 41 4d 51  |SAMP|');
    expect(row.problems).toEqual([
      { severity: 'warning', code: 'ascii-mismatch', column: 24, text: 'the ASCII column does not show the bytes of this row' },
    ]);
  });

  it('reports junk and odd digit counts at their columns', () => {
    const row = read('000000 53 zz 4d5');
    expect(row.bytes).toEqual(hex('53'));
    expect(row.problems.map((p) => [p.code, p.column])).toEqual([
      ['not-hex', 10],
      ['odd-digits', 13],
    ]);
  });
});
