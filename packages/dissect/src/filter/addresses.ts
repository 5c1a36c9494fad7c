/**
 * Addresses as a display filter compares them: an IPv4 address a number, an IPv6 one a 128-bit bigint,
 * so that `ip.addr == 10.0.0.1` and `ipv6.addr == ::ffff:10.0.0.1` compare as tshark does.
 */

/**
 * Dotted IPv4 text as a number, or undefined: four parts of one to three ASCII digits, each at
 * most 255. Read a character at a time: `ip.src` reads every record's address through it, and
 * splitting and matching each part was most of a `-T fields -e ip.src` line.
 */
export function ipv4Number(text: string): number | undefined {
  let n = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || ++dots > 3) return undefined;
      n = n * 256 + part;
      part = digits = 0;
    } else if (c >= 48 && c <= 57) {
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return undefined;
    } else return undefined;
  }
  return dots === 3 && digits > 0 ? n * 256 + part : undefined;
}

/** IPv6 text (with `::`, and a dotted IPv4 tail) as a 128-bit bigint, or undefined. */
export function ipv6Number(text: string): bigint | undefined {
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const split = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const head = split(halves[0]!);
  const tail = halves.length === 2 ? split(halves[1]!) : [];
  const last = (tail.length ? tail : head).at(-1);
  const words: number[] = [];
  const v4 = last?.includes('.') ? ipv4Number(last) : undefined;
  if (last?.includes('.') && v4 === undefined) return undefined;
  if (v4 !== undefined) (tail.length ? tail : head).pop();
  const fill = 8 - head.length - tail.length - (v4 !== undefined ? 2 : 0);
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...tail];
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    words.push(parseInt(g, 16));
  }
  if (v4 !== undefined) words.push(Math.floor(v4 / 65536), v4 % 65536);
  return words.reduce((n, w) => (n << 16n) | BigInt(w), 0n);
}
