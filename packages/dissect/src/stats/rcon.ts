/**
 * RCON attempts as the statistics read them: the password a SA:MP RCON request tries (hashed
 * by the caller, never kept) and whether a reply refuses it ("Invalid RCON password.", the
 * codec's INVALID_RCON_PASSWORD). Decoded only for RCON datagrams, a few in a capture.
 */
import { samp, type CodecOptions } from '@gamequery/codec';
import { INVALID_RCON_PASSWORD } from '@gamequery/codec/internal';

/** The password an RCON request tries (it is hashed, never kept). */
export function rconPassword(payload: Uint8Array, codec: CodecOptions): string {
  try {
    return String((samp.rconRequest.decode(payload, codec).value as { password?: unknown }).password ?? '');
  } catch {
    return '';
  }
}

/** Whether an RCON reply is the server refusing the password. */
export function rconDenies(payload: Uint8Array, codec: CodecOptions): boolean {
  try {
    return (samp.rconResponse.decode(payload, codec).value as { output?: unknown }).output === INVALID_RCON_PASSWORD;
  } catch {
    return false;
  }
}
