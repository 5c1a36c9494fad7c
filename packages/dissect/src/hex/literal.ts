/**
 * Readers for dumps without an offset column: bare hex, `0x` lists, `\x` escapes and array
 * literals.
 *
 * ```
 * 534d41507f000001611e69                    bare (xxd -p, Wireshark "…as Hex Stream")
 * 53 4D 41 50   53:4d:41:50   53-4d-41-50   bare with separators
 * 0x53, 0x41, 0x4d                          prefixed
 * \x53\x41\x4d   "SAMP\x7f\x00"  b'SAMP'    escaped (Wireshark "…as Escaped String", C, Python)
 * { 0x53, 0x41 }   [83, 65]   new Uint8Array([83, 65])   new byte[] { (byte)0xfe, -3 }    c-array
 * ```
 *
 * @module
 */

export { looksLikeBareRow, readBareLine, type BareLineResult, type Nibble } from './bare.ts';
export { hasByteEscape, readEscapedLine, type EscapedLineResult } from './escaped.ts';
export { findArrayStart, readArrayContent, type ArrayContentResult, type ArrayStart, type ArrayState } from './array.ts';
