import { describe, expect, it } from 'vitest';
import { bytesFromHexDump, HexDumpError } from '../../src/hex/index.ts';
import { hex } from './fixtures.ts';

function thrown(run: () => unknown): HexDumpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HexDumpError) return error;
    throw error;
  }
  throw new Error('expected a HexDumpError');
}

describe('bytesFromHexDump', () => {
  it('returns the bytes of the one packet, allowing warnings', () => {
    expect(bytesFromHexDump('the query:\n53 41 4d 50 7f 00 00 01 61 1e 69')).toEqual(hex('53414d507f000001611e69'));
  });

  it('throws a HexDumpError carrying the first error', () => {
    const error = thrown(() => bytesFromHexDump('0000  53 41 zz 50   SA.P'));
    expect(error.name).toBe('HexDumpError');
    expect(error.message).toBe("line 1, column 13: 'zz' is not a hex byte");
    expect(error.info).toMatchObject({ severity: 'error', code: 'not-hex', line: 1, column: 13 });
    expect(error.result.packets[0]?.bytes).toEqual(hex('534150'));
  });

  it('throws no-packet for text without a dump', () => {
    expect(thrown(() => bytesFromHexDump('hello')).info.code).toBe('no-packet');
  });

  it('throws several-packets at the line where the second packet starts', () => {
    const error = thrown(() => bytesFromHexDump('53 41\n\n4d 50'));
    expect(error.info).toMatchObject({ code: 'several-packets', line: 3, packet: 1 });
    expect(error.message).toBe('line 3, column 1: a second packet starts here (expected one, found 2)');
  });
});
