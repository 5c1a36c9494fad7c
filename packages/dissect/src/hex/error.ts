/**
 * The throwing entry point, for callers that expect exactly one clean packet (a CLI argument, a
 * test fixture).
 *
 * @module
 */

import { parseHexDump } from './parse.ts';
import type { HexDumpDiagnostic, HexDumpOptions, HexDumpResult } from './types.ts';

/** Thrown by {@link bytesFromHexDump}; `info` is the first error (or a `no-packet` / `several-packets` diagnostic). */
export class HexDumpError extends Error {
  override readonly name = 'HexDumpError';
  readonly info: HexDumpDiagnostic;
  /** The whole parse, for callers that want the other diagnostics. */
  readonly result: HexDumpResult;

  constructor(info: HexDumpDiagnostic, result: HexDumpResult) {
    super(info.message);
    this.info = info;
    this.result = result;
  }
}

/**
 * The bytes of the one packet in `text`. Throws {@link HexDumpError} if the text has an error
 * diagnostic, no packet, or more than one packet. Warnings are allowed.
 */
export function bytesFromHexDump(text: string, options?: HexDumpOptions): Uint8Array {
  const result = parseHexDump(text, options);
  const error = result.diagnostics.find((d) => d.severity === 'error');
  if (error !== undefined) throw new HexDumpError(error, result);
  const [first, second] = result.packets;
  if (first === undefined) {
    throw new HexDumpError(
      { severity: 'error', code: 'no-packet', message: 'line 1, column 1: no hex dump found', line: 1, column: 1 },
      result,
    );
  }
  if (second !== undefined) {
    const message = `line ${second.firstLine}, column 1: a second packet starts here (expected one, found ${result.packets.length})`;
    throw new HexDumpError({ severity: 'error', code: 'several-packets', message, line: second.firstLine, column: 1, packet: 1 }, result);
  }
  return first.bytes;
}
