/**
 * Who is in the flood capture (bench/flood.ts): the attacked server and what it sends, the named
 * hosts' addresses, and where spoofed sources' addresses come from.
 */
import { samp } from '@gamequery/codec';
import { INVALID_RCON_PASSWORD } from '@gamequery/codec/emulator';
import { ipText, type Endpoint, type Rng } from './traffic.ts';

/** The attacked server. */
export const SERVER: Endpoint = { id: -1, ip: 0x0a000001, port: 7777 };
/** The header a request to it and its replies carry. */
export const AT = { serverIp: ipText(SERVER.ip), serverPort: SERVER.port };
/** 198.51.100.1–5 and 203.0.113.66: documentation addresses (RFC 5737), which no spoofed source takes. */
export const HEAVY_IPS = [1, 2, 3, 4, 5].map((n) => ((198 << 24) | (51 << 16) | (100 << 8) | n) >>> 0);
export const GUESSER_IP = ((203 << 24) | (0 << 16) | (113 << 8) | 66) >>> 0;
/** Visitors' requests by opcode (the flood's are the `i`). */
export const REQUESTS = {
  i: samp.infoRequest.encode(AT),
  r: samp.rulesRequest.encode(AT),
  c: samp.clientsRequest.encode(AT),
};
/** Their message names, as `gamequery stats` counts requests. */
export const MESSAGE = { i: samp.infoRequest.message, r: samp.rulesRequest.message, c: samp.clientsRequest.message };
/** What the server answers every wrong RCON password with. */
export const INVALID_LINE = samp.rconResponse.encode({ ...AT, output: INVALID_RCON_PASSWORD });

/** What the server answers from (it builds its replies once, as open.mp does); the `i` reply is 71 bytes, as docs/traffic.md's. */
export function serverReplies(): Record<keyof typeof REQUESTS, Uint8Array> {
  const names = ['Carl_Johnson', 'Tommy_Vercetti', '[LSPD]Frank_Tenpenny', 'Ivan_Petrov', 'Lucas_Silva', 'Kevin_Novak'];
  const clients = Array.from({ length: 12 }, (_, i) => ({ name: `${names[i % names.length]}${i < names.length ? '' : i}`, score: i * 37 }));
  const replies = {
    i: samp.infoResponse.encode({
      ...AT,
      password: false,
      players: clients.length,
      maxPlayers: 100,
      hostname: 'San Andreas Freeroam + Stunt',
      gamemode: 'Freeroam',
      language: 'English',
    }),
    r: samp.rulesResponse.encode({
      ...AT,
      rules: [
        { name: 'lagcomp', value: 'On' },
        { name: 'mapname', value: 'San Andreas' },
        { name: 'version', value: '0.3.7-R2' },
        { name: 'weather', value: '10' },
        { name: 'weburl', value: 'www.sa-mp.com' },
        { name: 'worldtime', value: '12:00' },
      ],
    }),
    c: samp.clientsResponse.encode({ ...AT, clients }),
  };
  if (replies.i.length !== 71) throw new Error(`flood: the server's i reply is ${replies.i.length} bytes, not 71`);
  return replies;
}

/**
 * A bijection of 32-bit numbers that scatters a counter (Wellons' lowbias32: xor-shifts and odd
 * multiplies, each invertible), so spoofed addresses look random and never repeat without a set of
 * millions to remember them by.
 */
export function scatter(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Whether a spoofed packet could plausibly carry this source: not private, loopback, multicast, reserved or documentation. */
export function publicAddress(ip: number): boolean {
  const a = ip >>> 24;
  const b = (ip >>> 16) & 255;
  const c = (ip >>> 8) & 255;
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if ((a === 100 && (b & 0xc0) === 64) || (a === 169 && b === 254) || (a === 172 && (b & 0xf0) === 16)) return false;
  if (a === 192 && (b === 168 || (b === 0 && (c === 0 || c === 2)))) return false;
  if (a === 198 && ((b & 0xfe) === 18 || (b === 51 && c === 100))) return false;
  return !(a === 203 && b === 0 && c === 113);
}

/** A port from Linux's ephemeral range, as a client's socket gets. */
export const ephemeralPort = (rng: Rng): number => 32768 + rng.int(28232);
