/**
 * A `tshark -x`-style hex pane: 4-digit hex offset, 16 bytes, ASCII. Bytes covered by
 * highlighted ranges are shown in reverse video on a TTY, or in brackets otherwise.
 */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** `masked` bytes (secrets) print as `**` and `*`. */
export function hexPane(
  bytes: Uint8Array,
  highlight: readonly ByteRange[] = [],
  colour = false,
  masked: readonly ByteRange[] = [],
): string[] {
  const marked = new Uint8Array(bytes.length);
  for (const r of highlight) marked.fill(1, Math.max(0, r.offset), Math.min(bytes.length, r.offset + r.length));
  const hidden = new Uint8Array(bytes.length);
  for (const r of masked) hidden.fill(1, Math.max(0, r.offset), Math.min(bytes.length, r.offset + r.length));
  const on = colour ? '\x1b[7m' : '[';
  const off = colour ? '\x1b[27m' : ']';
  const lines: string[] = [];
  for (let row = 0; row < bytes.length; row += 16) {
    let hex = '';
    let ascii = '';
    for (let i = row; i < row + 16; i++) {
      if (i >= bytes.length) {
        hex += '   ';
        continue;
      }
      const b = bytes[i]!;
      const h = hidden[i] ? '**' : b.toString(16).padStart(2, '0');
      const a = hidden[i] ? '*' : b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
      const start = marked[i] && !(i > row && marked[i - 1]);
      const end = marked[i] && !(i + 1 < row + 16 && i + 1 < bytes.length && marked[i + 1]);
      hex += (i === row ? '' : ' ') + (start ? on : '') + h + (end ? off : '');
      ascii += (start ? on : '') + a + (end ? off : '');
    }
    lines.push(`${row.toString(16).padStart(4, '0')}  ${hex}  ${ascii}`);
  }
  return lines;
}
