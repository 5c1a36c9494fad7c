/**
 * Vanilla Minecraft (Java) query server (MJ QueryThreadGs4).
 *
 * - A datagram shorter than 3 bytes or not starting FE FD is dropped; so is any type
 *   other than 09 (handshake) and 00 (stat).
 * - A handshake draws a token in 0…16 777 215 and stores it, with the handshake's
 *   session id, under the sender's IP:port; a new handshake replaces the old one.
 * - Every `tokenPurgeMs` (vanilla: 30 s) all stored challenges are purged at once, so a
 *   token lives anywhere between 0 and 30 s.
 * - A stat from an address with no challenge, or with another token, is dropped. A stat
 *   shorter than 11 bytes is checked against token 0 (vanilla's reader returns 0 when
 *   fewer than 4 bytes remain).
 * - A valid stat of exactly 15 bytes gets the full stat, any other length the basic
 *   stat; both carry the session id stored at handshake time, not the request's.
 *
 * Not reproduced: vanilla sends the handshake reply through a UTF-8 round trip, which
 * turns each session-id byte ≥ 0x80 into EF BF BD; the emulator echoes the 4 bytes.
 * A handshake shorter than 7 bytes (vanilla: stale buffer bytes as session id) is
 * dropped. The full stat is built per request, not cached for 5 s. At most
 * {@link MAX_CHALLENGES} challenges are kept between purges.
 */
import { randomInt } from 'node:crypto';
import { HANDSHAKE, STAT } from '../protocols/mcquery/header.ts';
import { handshakeRequest, handshakeResponse } from '../protocols/mcquery/handshake.ts';
import { basicRequest, basicResponse } from '../protocols/mcquery/basic.ts';
import { fullResponse } from '../protocols/mcquery/full.ts';
import type { ResolvedMinecraft } from './state.ts';
import { BYTES, vanillaText } from './text.ts';
import type { Responder, Source } from './responder.ts';

/** Vanilla's purge period. */
export const TOKEN_PURGE_MS = 30_000;

/**
 * Challenges kept at most; beyond, the oldest is forgotten. Vanilla keeps them all until
 * the purge, which lets a flood of handshakes from spoofed addresses grow the table.
 */
export const MAX_CHALLENGES = 100_000;

/** Vanilla draws tokens from [0, 2^24). */
export const vanillaToken = (): number => randomInt(0, 0x1000000);

/** The GS3 split header: "splitnum\0", 0x80 (last packet, index 0), 0x00. */
export const SPLITNUM: Uint8Array = Uint8Array.from([...'splitnum\0'].map((c) => c.charCodeAt(0)).concat(0x80, 0x00));

/** Settings of a Minecraft query responder: the bound address and port, the token purge period and token source. */
export interface MinecraftOptions {
  /** Where the reply's hostport and hostip default to: the bound port and address. */
  readonly boundPort: number;
  readonly boundAddress: string;
  readonly tokenPurgeMs?: number;
  /** Token generator; defaults to vanilla's random 24-bit tokens. */
  readonly tokenSource?: () => number;
}

interface Challenge {
  readonly token: number;
  readonly sessionId: number;
}

type Handler = (datagram: Uint8Array, key: string) => Uint8Array[];

/** A vanilla Minecraft (Java) query server answering from `state`, with handshake challenges stored per sender IP:port. */
export function minecraftResponder(state: ResolvedMinecraft, options: MinecraftOptions): Responder {
  const challenges = new Map<string, Challenge>();
  const nextToken = options.tokenSource ?? vanillaToken;
  const purge = setInterval(() => challenges.clear(), options.tokenPurgeMs ?? TOKEN_PURGE_MS);
  purge.unref();

  const hostPort = state.hostPort ?? options.boundPort;
  const hostIp = vanillaText(state.hostIp ?? options.boundAddress);
  const players = state.players.map((p) => vanillaText(p.name));

  const handshake: Handler = (datagram, key) => {
    if (datagram.length < 7) return [];
    const { sessionId } = handshakeRequest.decode(datagram).value;
    const token = nextToken();
    challenges.delete(key);
    if (challenges.size >= MAX_CHALLENGES) challenges.delete(challenges.keys().next().value!);
    challenges.set(key, { token, sessionId });
    return [handshakeResponse.encode({ sessionId, token })];
  };

  const stat: Handler = (datagram, key) => {
    const challenge = challenges.get(key);
    if (!challenge) return [];
    const token = datagram.length >= 11 ? basicRequest.decode(datagram).value.token : 0;
    if (token !== challenge.token) return [];
    const sessionId = challenge.sessionId;
    if (datagram.length !== 15) {
      return [
        basicResponse.encode(
          {
            sessionId,
            motd: vanillaText(state.motd),
            gametype: vanillaText(state.gametype),
            map: vanillaText(state.map),
            numPlayers: players.length,
            maxPlayers: state.maxPlayers,
            hostPort,
            hostIp,
          },
          BYTES,
        ),
      ];
    }
    // Vanilla key order (MJ); hostport is decimal text here.
    const kv: Array<[string, string]> = [
      ['hostname', state.motd],
      ['gametype', state.gametype],
      ['game_id', state.gameId],
      ['version', state.version],
      ['plugins', state.plugins],
      ['map', state.map],
      ['numplayers', String(players.length)],
      ['maxplayers', String(state.maxPlayers)],
      ['hostport', String(hostPort)],
      ['hostip', hostIp],
    ];
    return [
      fullResponse.encode(
        {
          sessionId,
          splitnum: SPLITNUM,
          kv: kv.map(([k, v]) => ({ key: k, value: vanillaText(v) })),
          players,
        },
        BYTES,
      ),
    ];
  };

  const byType: Readonly<Record<number, Handler>> = { [HANDSHAKE]: handshake, [STAT]: stat };

  return {
    respond(datagram: Uint8Array, from: Source) {
      if (datagram.length < 3 || datagram[0] !== 0xfe || datagram[1] !== 0xfd) return [];
      const handler = byType[datagram[2]!];
      return handler ? handler(datagram, `${from.address}|${from.port}`) : [];
    },
    close() {
      clearInterval(purge);
      challenges.clear();
    },
  };
}
