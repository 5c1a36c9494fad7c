/**
 * Minecraft query replies carry no magic (docs/protocols/mcquery.md): without their
 * request (a hex dump of a reply, a capture started mid-conversation) only their shape
 * tells them from other UDP. This is that recognition rule, strict enough that DNS and the
 * like, whose first byte is often 00 too, do not pass:
 *
 *   handshake  | 09 | session id (4) | "-"? decimal digits (1-10), within i32 | 00 |            (and nothing after)
 *   full stat  | 00 | session id (4) | 9 printable ASCII bytes ("splitnum\0", "GeyserMC\0") | 80 00 | ...
 *              | 00 01 "player_" 00 00 | names ... | 00 |                          (the player section, last byte 00)
 *   basic stat | 00 | session id (4) | motd\0 gametype\0 map\0 | digits\0 digits\0 | port LE (2) | hostip\0 |
 *              (hostip printable and non-empty, ending exactly at the end)
 *
 * The session id is any four bytes (a server echoes what its client chose), so it is read,
 * not tested.
 */
import { HANDSHAKE, STAT } from './header.ts';

/** Which Minecraft query reply a datagram looks like, as told by {@link minecraftReplyShape}. */
export type MinecraftReplyShape = 'handshake' | 'basic' | 'full';

const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;
const isPrintable = (b: number): boolean => b >= 0x20 && b < 0x7f;

/** The message a datagram has the shape of a Minecraft query reply of, or undefined. */
export function minecraftReplyShape(bytes: Uint8Array): MinecraftReplyShape | undefined {
  const n = bytes.length;
  if (n < 7) return undefined;
  const type = bytes[0];
  if (type === HANDSHAKE) return isHandshakeReply(bytes) ? 'handshake' : undefined;
  if (type !== STAT || bytes[n - 1] !== 0) return undefined;
  if (n >= 27 && bytes[13] === 0 && bytes[14] === 0x80 && bytes[15] === 0) return isFullReply(bytes) ? 'full' : undefined;
  return isBasicReply(bytes) ? 'basic' : undefined;
}

function isHandshakeReply(b: Uint8Array): boolean {
  const n = b.length;
  if (n > 17 || b[n - 1] !== 0) return false;
  let i = 5;
  if (b[i] === 0x2d) i++;
  if (i >= n - 1) return false;
  let text = '';
  for (let j = 5; j < n - 1; j++) {
    if (j >= i && !isDigit(b[j]!)) return false;
    text += String.fromCharCode(b[j]!);
  }
  const token = Number(text);
  return token >= -0x80000000 && token <= 0x7fffffff;
}

const PLAYERS = [0x00, 0x01, 0x70, 0x6c, 0x61, 0x79, 0x65, 0x72, 0x5f, 0x00, 0x00];

function isFullReply(b: Uint8Array): boolean {
  for (let i = 5; i < 13; i++) if (!isPrintable(b[i]!)) return false;
  // The player section's marker, after the key/value pairs.
  outer: for (let at = 16; at + PLAYERS.length <= b.length; at++) {
    for (let k = 0; k < PLAYERS.length; k++) if (b[at + k] !== PLAYERS[k]) continue outer;
    return true;
  }
  return false;
}

function isBasicReply(b: Uint8Array): boolean {
  const n = b.length;
  let at = 5;
  // motd, gametype, map: any bytes but NUL
  for (let field = 0; field < 3; field++) {
    while (at < n && b[at] !== 0) at++;
    if (at++ >= n) return false;
  }
  // numplayers, maxplayers: 1-6 decimal digits each
  for (let field = 0; field < 2; field++) {
    const start = at;
    while (at < n && isDigit(b[at]!)) at++;
    if (at === start || at - start > 6 || b[at] !== 0) return false;
    at++;
  }
  // hostport (2 bytes, any), then hostip: printable, non-empty, its NUL the last byte
  at += 2;
  if (at >= n - 1) return false;
  for (let i = at; i < n - 1; i++) if (!isPrintable(b[i]!)) return false;
  return true;
}
