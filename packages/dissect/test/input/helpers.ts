/** A classic pcap file with every header field byte-swapped: what tcpdump writes on a big-endian machine. */
export function bigEndianPcap(file: Uint8Array): Uint8Array {
  const out = Uint8Array.from(file);
  const src = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const dst = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const little = src.getUint32(0, true) === 0xa1b2c3d4 || src.getUint32(0, true) === 0xa1b23c4d;
  if (!little) throw new Error('expected a little-endian pcap');
  const swap32 = (at: number): void => dst.setUint32(at, src.getUint32(at, true), false);
  const swap16 = (at: number): void => dst.setUint16(at, src.getUint16(at, true), false);
  swap32(0);
  swap16(4);
  swap16(6);
  for (const at of [8, 12, 16, 20]) swap32(at);
  for (let at = 24; at + 16 <= file.length;) {
    const captured = src.getUint32(at + 8, true);
    for (const k of [0, 4, 8, 12]) swap32(at + k);
    at += 16 + captured;
  }
  return out;
}
