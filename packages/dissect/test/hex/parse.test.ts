import { describe, expect, it } from 'vitest';
import { parseHexDump } from '../../src/hex/index.ts';
import type { HexDumpResult } from '../../src/hex/index.ts';
import { hex } from './fixtures.ts';

// SA:MP info query header, 11 bytes:
// 0000  53 41 4d 50 7f 00 00 01 61 1e 69                  SAMP....a.i
const header = hex('53 41 4d 50 7f 00 00 01 61 1e 69');

function codes(result: HexDumpResult): string[] {
  return result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.line}:${d.column}`);
}

describe('bare hex', () => {
  it.each([
    ['one run', '534d4150'.replace('534d4150', '53414d507f000001611e69')],
    ['spaced, upper case', '53 41 4D 50 7F 00 00 01 61 1E 69'],
    ['colon separated', '53:41:4d:50:7f:00:00:01:61:1e:69'],
    ['dash separated', '53-41-4D-50-7F-00-00-01-61-1E-69'],
    ['4-digit groups, in the order written', '5341 4d50 7f00 0001 611e 69'],
    ['spread over lines', '53 41 4d 50\n7f 00 00 01\n61 1e 69'],
    ['a stream wrapped at an odd width', '53414d507\nf000001611\ne69'],
    ['with Windows line ends and no-break spaces', '53\u00a041 4d 50\r\n7f 00 00 01 61 1e 69\r\n'],
  ])('reads %s', (_name, text) => {
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => [p.format, p.bytes])).toEqual([['bare', header]]);
  });

  it('starts a new packet at a blank line', () => {
    const result = parseHexDump('53 41 4d 50\n7f 00\n\n\n53 41\n');
    expect(result.packets.map((p) => [p.bytes, p.firstLine, p.lastLine, p.frame])).toEqual([
      [hex('53414d507f00'), 1, 2, 0],
      [hex('5341'), 5, 5, 1],
    ]);
  });
});

describe('0x lists and escapes', () => {
  it('reads a 0x list, with or without commas', () => {
    const result = parseHexDump('0x53, 0x41, 0x4d, 0x50, 0x7f, 0x0, 0x00, 0x01,\n0x61 0x1E 0x69');
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => [p.format, p.bytes])).toEqual([['prefixed', header]]);
  });

  it.each([
    ['bare escapes', '\\x53\\x41\\x4d\\x50\\x7f\\x00\\x00\\x01\\x61\\x1e\\x69'],
    ['a C string with printable characters', 'const char query[] = "SAMP\\x7f\\x00\\x00\\x01a\\x1ei";'],
    ['a Python bytes literal', "query = b'SAMP\\x7f\\x00\\x00\\x01a\\x1ei'"],
    ['a continued string (Wireshark "…as Escaped String")', '"\\x53\\x41\\x4d\\x50\\x7f\\x00" \\\n"\\x00\\x01\\x61\\x1e\\x69"'],
    ['octal and simple escapes', '"SAMP\\177\\0\\0\\001a\\036i"'],
    ['escapes before a literal', '\\x53 "AMP\\x7f\\x00\\x00\\x01a\\x1ei"'],
  ])('reads %s', (_name, text) => {
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => [p.format, p.bytes])).toEqual([['escaped', header]]);
  });

  it('starts a new packet at each declaration', () => {
    const result = parseHexDump('char a[] = "\\x53\\x41";\nchar b[] = "\\x4d"; /* text after ; is not data */');
    expect(result.ok).toBe(true);
    expect(result.packets.map((p) => p.bytes)).toEqual([hex('5341'), hex('4d')]);
  });
});

describe('array literals', () => {
  it('reads a C array over several lines, skipping comments and the declarator size', () => {
    const text = [
      'static const uint8_t query[11] = {',
      '  0x53, 0x41, 0x4d, 0x50, // "SAMP"',
      '  0x7f, 0x00, 0x00, 0x01, /* 127.0.0.1 */',
      '  0x61, 0x1e,',
      "  'i'",
      '};',
    ].join('\n');
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => [p.format, p.bytes, p.firstLine, p.lastLine])).toEqual([['c-array', header, 1, 6]]);
  });

  it('reads decimal numbers in a JavaScript array as decimal bytes', () => {
    const result = parseHexDump('const query = new Uint8Array([83, 65, 77, 80, 127, 0, 0, 1, 97, 30, 105]);');
    expect(result.diagnostics).toEqual([]);
    expect(result.packets[0]?.bytes).toEqual(header);
  });

  it('reads Java byte casts and negative bytes', () => {
    // Minecraft query handshake: fe fd 09 00 00 00 01
    const result = parseHexDump('byte[] handshake = new byte[] { (byte) 0xFE, (byte)0xfd, 9, 0, 0, 0, 1 };\nnew byte[]{-2, -3}');
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => p.bytes)).toEqual([hex('fe fd 09 00 00 00 01'), hex('fe fd')]);
  });

  it('reads a bracketed list with no code around it', () => {
    expect(parseHexDump('[0x53, 0x41]').packets[0]?.bytes).toEqual(hex('5341'));
    expect(parseHexDump('{ 0x53, 0x41 }').packets[0]?.bytes).toEqual(hex('5341'));
  });

  it('reports elements that are not bytes, keeping the others', () => {
    const result = parseHexDump('[0x53, 256, 4d, 0x41]');
    expect(result.packets[0]?.bytes).toEqual(hex('5341'));
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      "line 1, column 8: '256' is not a byte (256 is outside -128..255)",
      "line 1, column 13: '4d' is not a byte (array elements are 0x-prefixed hex or decimal)",
    ]);
  });

  it('reports an array that is never closed at its opening bracket', () => {
    const result = parseHexDump('uint8_t q[] = {\n  0x53, 0x41,\n');
    expect(result.packets[0]?.bytes).toEqual(hex('5341'));
    expect(codes(result)).toEqual(['error unterminated 1:15']);
  });
});

describe('offset dumps', () => {
  it('reads Wireshark "Copy → …as Hex Dump" (three spaces after the offset)', () => {
    // Typed after the layout Wireshark 4's GUI copies; tshark -x differs only in spacing.
    const text = [
      '0000   53 41 4d 50 7f 00 00 01 61 1e 69 00 05 00 32 00   SAMP....a.i...2.',
      '0010   1f 00 00 00 63 61 66 65                           ....cafe',
    ].join('\n');
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => [p.format, p.bytes])).toEqual([['tshark', hex('53414d507f000001611e6900050032001f00000063616665')]]);
  });

  it('reads a tshark dump whose spacing a forum collapsed, using the ASCII column to find the hex', () => {
    const text = '0000 53 41 4d 50 7f 00 00 01 61 1e 69 00 63 61 66 65 SAMP....a.i.cafe\n0010 63 61 66 65 cafe';
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets[0]?.bytes).toEqual(hex('53414d507f000001611e690063616665 63616665'));
  });

  it('keeps spaces at the ends of the ASCII column apart from the hex', () => {
    // bytes 20 62 61 62 65 20 30 31: the ASCII column " babe 01" starts with a space
    const text = '00000000: 2062 6162 6520 3031   babe 01\n00000008: 6361 6665 2020        cafe';
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets[0]?.bytes).toEqual(hex('20 62 61 62 65 20 30 31 63 61 66 65 20 20'));
  });

  it('reads xxd -e groups as little-endian because the ASCII column says so', () => {
    const text = '00000000: 504d4153 0100007f 00691e61 00320005  SAMP....a.i...2.\n00000010:   687369                             ish';
    expect(parseHexDump(text).packets[0]?.bytes).toEqual(hex('53414d507f000001611e6900050032 00 69 73 68'));
  });

  it('reads od -t x2 words as big-endian when asked', () => {
    const text = '0000000 5341 4d50 7f00\n0000006';
    expect(parseHexDump(text).packets[0]?.bytes).toEqual(hex('4153 504d 007f'));
    expect(parseHexDump(text, { wordOrder: 'big' }).packets[0]?.bytes).toEqual(hex('5341 4d50 7f00'));
  });

  it('takes the offset radix from the options', () => {
    const text = '0000000 53 41 4d 50 7f 00 00 01\n0000010 61 1e 69\n0000013';
    expect(parseHexDump(text, { offsetRadix: 8 }).diagnostics).toEqual([]);
    expect(codes(parseHexDump(text, { offsetRadix: 10 }))).toEqual(['warning offset-gap 2:1']);
  });
});

describe('several packets in one text', () => {
  it('starts a new packet when the offset restarts at 0', () => {
    const text = [
      '00000000  53 41 4d 50 7f 00 00 01  61 1e 69                 |SAMP....a.i|',
      '0000000b',
      '00000000  53 41 4d 50 7f 00 00 01  61 1e 63                 |SAMP....a.c|',
      '0000000b',
    ].join('\n');
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => [p.bytes, p.firstLine, p.frame])).toEqual([
      [header, 1, 0],
      [hex('53414d507f000001611e63'), 3, 1],
    ]);
  });

  it('starts a new packet when the offset goes backwards, and says the start is missing', () => {
    const result = parseHexDump('000000 53 41 4d 50\n000004 7f 00 00 01\n000002 4d 50');
    expect(result.packets.map((p) => [p.bytes, p.startOffset])).toEqual([
      [hex('53414d507f000001'), 0],
      [hex('4d50'), 2],
    ]);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'line 3, column 1: dump starts at offset 0x2, not 0: the bytes before it are missing',
    ]);
    expect(result.diagnostics[0]?.packet).toBe(1);
  });

  it('continues an offset dump across a blank line when the offsets continue', () => {
    const result = parseHexDump('0000  53 41 4d 50 7f 00 00 01   SAMP....\n\n0008  61 1e 69                  a.i');
    expect(result.packets.map((p) => p.bytes)).toEqual([header]);
  });

  it('starts a new packet when the format changes, with a warning', () => {
    const result = parseHexDump('53 41 4d 50\n0000  53 41 4d 50   SAMP\n\\x53\\x41');
    expect(result.packets.map((p) => [p.format, p.bytes])).toEqual([
      ['bare', hex('53414d50')],
      ['tshark', hex('53414d50')],
      ['escaped', hex('5341')],
    ]);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'line 2, column 1: tshark dump follows bare dump without a blank line: starting a new packet',
      'line 3, column 1: escaped dump follows tshark dump without a blank line: starting a new packet',
    ]);
  });

  it('groups tshark panes into frames', () => {
    const text = [
      'Frame (14 bytes):',
      '0000  00 00 00 00 00 00 00 00 00 00 00 00 08 00         ..............',
      'Reassembled IPv4 (4 bytes):',
      '0000  53 41 4d 50                                       SAMP',
      '',
      '0000  53 41                                             SA',
    ].join('\n');
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets.map((p) => [p.pane?.kind, p.frame, p.firstLine, p.bytes.length])).toEqual([
      ['frame', 0, 1, 14],
      ['reassembled', 0, 3, 4],
      [undefined, 1, 6, 2],
    ]);
  });
});

describe('offset checks', () => {
  it('warns about a missing line, with its line number, and closes the gap', () => {
    const text = [
      '00000000  53 41 4d 50 7f 00 00 01  61 1e 69 00 05 00 32 00  |SAMP....a.i...2.|',
      '00000020  64 65 61 64 62 65 65 66  63 61 66 65 30 31 32 33  |deadbeefcafe0123|',
      '00000030',
    ].join('\n');
    const result = parseHexDump(text);
    expect(result.ok).toBe(true);
    expect(result.packets[0]?.bytes.length).toBe(32);
    expect(result.diagnostics).toEqual([
      {
        severity: 'warning',
        code: 'offset-gap',
        message: 'line 2, column 1: offset 0x20 where 0x10 was expected: 16 bytes missing (a line was lost?)',
        line: 2,
        column: 1,
        packet: 0,
      },
    ]);
  });

  it('fills a gap with zero bytes when asked', () => {
    const result = parseHexDump('000000 53 41\n000004 4d 50\n000006', { fillGaps: true });
    expect(result.packets[0]?.bytes).toEqual(hex('5341 0000 4d50'));
    expect(codes(result)).toEqual(['warning offset-gap 2:1']);
  });

  it('warns when the final offset disagrees with the bytes read', () => {
    const result = parseHexDump('000000 53 41 4d 50\n000008');
    expect(result.packets[0]?.bytes).toEqual(hex('53414d50'));
    expect(result.diagnostics.map((d) => d.message)).toEqual(['line 2, column 1: final offset 0x8 does not match the 4 bytes read (0x4)']);
  });

  it('expands * to the next offset, repeating the row before it', () => {
    const text = '00000000  41 42  |AB|\n*\n00000007  43  |C|\n00000008';
    const result = parseHexDump(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.packets[0]?.bytes).toEqual(hex('41 42 41 42 41 42 41 43'));
  });

  it('warns about a * with no offset after it and leaves the unknown bytes out', () => {
    const result = parseHexDump('000000 00 00 00 00\n*');
    expect(result.packets[0]?.bytes).toEqual(hex('00000000'));
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      "line 2, column 1: '*' is not followed by an offset, so the number of repeated bytes is unknown; they are left out",
    ]);
  });

  it('reports a * with nothing before it as an error', () => {
    expect(codes(parseHexDump('*\n000000 53'))).toEqual(['error misplaced-repeat 1:1']);
  });

  it('warns when a pane holds fewer bytes than its label announces', () => {
    const result = parseHexDump('Frame (5 bytes):\n0000  53 41 4d 50   SAMP');
    expect(result.diagnostics.map((d) => d.message)).toEqual(["line 1, column 1: pane 'Frame' announces 5 bytes but 4 were read"]);
  });
});

describe('junk', () => {
  it('reports a non-hex token in a dump row with its line and column and keeps the rest', () => {
    const text = [
      '0000  53 41 4d 50 7f 00 00 01 61 1e 69 00 05 00 32 00   SAMP....a.i...2.',
      '0010  1f 00 00 00 63 61 66 65 20 62 61 62 65 20 30 31   ....cafe babe 01',
      '0020  64 65 61 64 zz 65 65 66                           deadbeef',
    ].join('\n');
    const result = parseHexDump(text);
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'not-hex',
        message: "line 3, column 19: 'zz' is not a hex byte",
        line: 3,
        column: 19,
        packet: 0,
      },
    ]);
    expect(result.packets[0]?.bytes.length).toBe(32 + 7);
  });

  it('reports odd digit counts and stray characters in bare hex', () => {
    const result = parseHexDump('53 41 4d 5\n53 41 g1 50');
    expect(result.packets[0]?.bytes).toEqual(hex('53414d 534150'));
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      "line 1, column 10: '5' has an odd number of hex digits",
      "line 2, column 7: 'g1' is not a hex byte",
    ]);
  });

  it('reports a stream with an odd number of digits at the digit left over', () => {
    expect(codes(parseHexDump('53414d5\n07f0'))).toEqual(['error odd-digits 2:4']);
  });

  it('reports bad escapes', () => {
    const result = parseHexDump('\\x53\\xzz\\x41 junk');
    expect(result.packets[0]?.bytes).toEqual(hex('5341'));
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      "line 1, column 5: '\\xz' is not a hex escape",
      "line 1, column 7: 'zz' is not a hex escape",
      "line 1, column 14: 'junk' is not a hex escape",
    ]);
  });

  it('skips the prose of a forum post around a dump, with one warning per run of lines', () => {
    const post = [
      'Hi, my server answers the info query with this. Is the player count right?',
      '',
      "Here's what Wireshark shows:",
      '0000   53 41 4d 50 7f 00 00 01 61 1e 69 00 05 00 32 00   SAMP....a.i...2.',
      '0010   1f 00 00 00                                       ....',
      '',
      'be careful, the hostname is cut off',
      'Thanks!',
    ].join('\n');
    const result = parseHexDump(post);
    expect(result.ok).toBe(true);
    expect(result.packets.map((p) => [p.format, p.firstLine, p.lastLine, p.bytes.length])).toEqual([['tshark', 4, 5, 20]]);
    expect(result.diagnostics).toEqual([
      {
        severity: 'warning',
        code: 'skipped-text',
        message: 'lines 1-3: skipped text that is not part of a hex dump',
        line: 1,
        column: 1,
        endLine: 3,
      },
      {
        severity: 'warning',
        code: 'skipped-text',
        message: 'lines 7-8: skipped text that is not part of a hex dump',
        line: 7,
        column: 1,
        endLine: 8,
      },
    ]);
  });

  it('reads a hex stream with a stray character as a damaged dump row, not as prose', () => {
    const result = parseHexDump('53414d507f0000011e6169zz\n\n53414d507f0000011e6172\n');
    expect(result.ok).toBe(false);
    expect(result.packets.map((p) => p.bytes)).toEqual([hex('53414d507f0000011e6169'), hex('53414d507f0000011e6172')]);
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.message])).toEqual([
      ['error', 'not-hex', "line 1, column 23: 'z' is not hex"],
    ]);
    // An odd digit before the stray character goes with it; a word of hex letters alone stays prose.
    expect(parseHexDump('53414d507f0g').diagnostics.map((d) => d.message)).toEqual(["line 1, column 12: 'g' is not hex"]);
    expect(parseHexDump('deadbeefcafes').diagnostics.map((d) => d.code)).toEqual(['skipped-text']);
  });

  it('reads two bare dumps that prose separates as two packets', () => {
    const post = 'Request:\n53 41 4d 50 7f 00 00 01 61 1e 69\nResponse:\n53 41 4d 50 7f 00 00 01 61 1e 63\nanything else?';
    const result = parseHexDump(post);
    expect(result.packets.map((p) => [p.firstLine, p.bytes.length])).toEqual([
      [2, 11],
      [4, 11],
    ]);
    expect(result.diagnostics.map((d) => d.line)).toEqual([1, 3, 5]);
  });

  it('returns no packet and a warning for text with no dump in it', () => {
    const result = parseHexDump('nothing to see here\nreally');
    expect(result.packets).toEqual([]);
    expect(result.ok).toBe(true);
    expect(codes(result)).toEqual(['warning skipped-text 1:1']);
  });

  it('never throws on arbitrary input and locates every diagnostic on a real line', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const pool = [
      '0000',
      '00000010:',
      '000010',
      '53',
      '5341',
      'zz',
      '*',
      '|SA|',
      '>a<',
      '"\\x53',
      "'",
      '\\x',
      '[',
      ']',
      '{',
      '}',
      '0x',
      '0x535',
      '(byte)',
      '-1',
      '256',
      '=',
      ';',
      '//',
      '/*',
      'Frame (3 bytes):',
      '',
      '\t',
      '\u00a0',
      'cafe',
      '.',
      ':',
      ',',
      '\\',
      '\r',
    ];
    for (let round = 0; round < 2000; round++) {
      const lines = Array.from({ length: 1 + next(6) }, () =>
        Array.from({ length: next(9) }, () => pool[next(pool.length)]).join(next(2) === 0 ? ' ' : '  '),
      );
      const result = parseHexDump(lines.join('\n'));
      for (const d of result.diagnostics) {
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.line).toBeLessThanOrEqual(lines.length);
        expect(d.column).toBeGreaterThanOrEqual(1);
        if (d.packet !== undefined) expect(result.packets[d.packet]).toBeDefined();
      }
      for (const packet of result.packets) expect(packet.bytes.length).toBeGreaterThan(0);
    }
  });

  it('stops recording diagnostics at the limit', () => {
    const result = parseHexDump(Array.from({ length: 50 }, () => '53 41 zz').join('\n'), { maxDiagnostics: 10 });
    expect(result.diagnostics).toHaveLength(11);
    expect(result.diagnostics[10]?.code).toBe('too-many-diagnostics');
    expect(result.packets[0]?.bytes.length).toBe(100);
  });
});

describe('performance', () => {
  it('reads a 10 MB hexdump -C dump in linear time', () => {
    const size = 2_200_000;
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 2654435761) >>> 24;
    const rows: string[] = [];
    for (let offset = 0; offset < size; offset += 16) {
      const row = bytes.subarray(offset, offset + 16);
      const cells = Array.from(row, (b) => b.toString(16).padStart(2, '0'));
      const ascii = Array.from(row, (b) => (b >= 0x20 && b <= 0x7e ? String.fromCharCode(b) : '.')).join('');
      rows.push(`${offset.toString(16).padStart(8, '0')}  ${cells.slice(0, 8).join(' ')}  ${cells.slice(8).join(' ')}  |${ascii}|`);
    }
    rows.push(size.toString(16).padStart(8, '0'));
    const text = rows.join('\n');
    expect(text.length).toBeGreaterThan(10_000_000);

    const started = performance.now();
    const result = parseHexDump(text);
    const elapsed = performance.now() - started;
    expect(result.diagnostics).toEqual([]);
    expect(Buffer.compare(result.packets[0]?.bytes ?? new Uint8Array(0), bytes)).toBe(0);
    // A quadratic reader would need minutes; this takes about a second.
    expect(elapsed).toBeLessThan(10_000);
  });
});
