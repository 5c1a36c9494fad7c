/**
 * Test helpers: loading the hex fixtures and the records of a classic pcap file (enough of the
 * format to check dumps against captures without depending on the capture readers).
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const directory = fileURLToPath(new URL('../fixtures/hex/', import.meta.url));

export function fixtureText(name: string): string {
  return readFileSync(directory + name, 'utf8');
}

export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(directory + name));
}

/** The captured bytes of each record of a classic (not pcapng) capture file. */
export function pcapRecords(file: Uint8Array): Uint8Array[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const magic = view.getUint32(0, true);
  let little: boolean;
  if (magic === 0xa1b2c3d4 || magic === 0xa1b23c4d) little = true;
  else if (magic === 0xd4c3b2a1 || magic === 0x4d3cb2a1) little = false;
  else throw new Error(`not a pcap file (magic 0x${magic.toString(16)})`);
  const records: Uint8Array[] = [];
  let at = 24;
  while (at + 16 <= file.length) {
    const captured = view.getUint32(at + 8, little);
    records.push(file.slice(at + 16, at + 16 + captured));
    at += 16 + captured;
  }
  return records;
}

/** `53 41 4d` → bytes, for expectations written as hex. */
export function hex(text: string): Uint8Array {
  const digits = text.replace(/\s+/g, '');
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}
