import { describe, expect, it } from 'vitest';
import { parseHexDump, preferReassembled } from '../../src/hex/index.ts';

describe('preferReassembled', () => {
  it('keeps one buffer per frame, the reassembled pane where there is one', () => {
    const text = [
      '0000  53 41                                             SA',
      '',
      'Frame (3 bytes):',
      '0000  4d 50 7f                                          MP.',
      'Reassembled UDP (5 bytes):',
      '0000  53 41 4d 50 7f                                    SAMP.',
      '',
      '0000  61 1e                                             a.',
    ].join('\n');
    const chosen = preferReassembled(parseHexDump(text).packets);
    expect(chosen.map((p) => [p.frame, p.pane?.label, p.bytes.length])).toEqual([
      [0, undefined, 2],
      [1, 'Reassembled UDP', 5],
      [2, undefined, 2],
    ]);
  });

  it('passes packets without panes through', () => {
    const { packets } = parseHexDump('53 41\n\n4d 50');
    expect(preferReassembled(packets)).toEqual(packets);
  });
});
