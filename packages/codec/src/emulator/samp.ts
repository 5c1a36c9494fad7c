/**
 * SA-MP 0.3.7 and open.mp query servers (OMP query.cpp, YSF Hooks.cpp).
 *
 * Requests are decoded and replies encoded with the codec's layouts; what differs
 * between the two servers is the table below each flavor: which opcodes exist, which
 * request lengths each accepts, and the string caps.
 *
 * | | SA-MP 0.3.7 (YSF) | open.mp |
 * |---|---|---|
 * | `i r c` | any length ≥ 11 | exactly 11 |
 * | `d` | any length ≥ 11 | never |
 * | `o` | never | exactly 11 (up to v1.1: exactly 15, echoed; see `ompVersion`) |
 * | `p` | exactly 15 | exactly 15 |
 * | `x` | ≥ 11, see {@link rcon} | any length but 11 |
 * | caps hostname/gamemode/language | 50/30/30 | 63/39/39 |
 * | flood guard | optional (25 ms slot) | none |
 */
import { infoRequest, infoResponse } from '../protocols/samp/info.ts';
import { rulesRequest, rulesResponse } from '../protocols/samp/rules.ts';
import { MAX_LISTED_PLAYERS, clientsRequest, clientsResponse } from '../protocols/samp/clients.ts';
import { playersRequest, playersResponse } from '../protocols/samp/players.ts';
import { pingRequest, pingResponse } from '../protocols/samp/ping.ts';
import { INVALID_RCON_PASSWORD, rconRequest, rconResponse } from '../protocols/samp/rcon.ts';
import { ompForms, ompRequest, ompResponse, ompbannersResponse, ompechoRequest, ompechoResponse } from '../protocols/samp/omp.ts';
import { textCodec } from '../grammar/charset.ts';
import type { ResolvedPlayer, ResolvedSamp } from './state.ts';
import { BYTES, byteLength, cString, wireText } from './text.ts';
import {
  atLeast,
  exactly,
  respondByOpcode,
  type AnyRequest,
  type Opcode,
  type QueryHeader,
  type Responder,
  type Source,
} from './responder.ts';

// Facts of the protocol, declared with its layouts; re-exported for `@gamequery/codec/emulator` and `/node`.
export { INVALID_RCON_PASSWORD, MAX_LISTED_PLAYERS };

/** Byte caps of the `i` strings. */
export const infoCaps = {
  samp037: { hostname: 50, gamemode: 30, language: 30 },
  openmp: { hostname: 63, gamemode: 39, language: 39 },
} as const;

/** open.mp `o` (the current, v1.3.1+ form): a longer Discord invite is sent empty; URLs are cut (every form in `ompForms`). */
export const OMP_DISCORD_MAX = 50;
/** open.mp `o` (the current form): URLs are cut to this many bytes. */
export const OMP_URL_MAX = 160;

/** YSF's flood slot: another source address within this many ms of the last one is dropped. */
export const FLOOD_SLOT_MS = 25;

/** Humans only; NPCs are neither counted nor listed (OMP `players()`, YSF `GetPlayerCount`). */
const humans = (s: ResolvedSamp): readonly ResolvedPlayer[] => s.players.filter((p) => !p.npc);

function info(s: ResolvedSamp, _request: AnyRequest, header: QueryHeader): Uint8Array[] {
  const caps = infoCaps[s.flavor];
  const npcs = s.players.length - humans(s).length;
  // 0.3.7 sends the `mapname` rule when `language` is empty (YSF).
  const language = s.flavor === 'samp037' && s.language === '' ? (s.rules['mapname'] ?? '') : s.language;
  return [
    infoResponse.encode(
      {
        ...header,
        password: s.password,
        players: humans(s).length,
        maxPlayers: Math.max(0, s.maxPlayers - npcs),
        hostname: wireText(s.hostname, s.charset, caps.hostname),
        gamemode: wireText(s.gamemode, s.charset, caps.gamemode),
        language: wireText(language, s.charset, caps.language),
      },
      BYTES,
    ),
  ];
}

function rules(s: ResolvedSamp, _request: AnyRequest, header: QueryHeader): Uint8Array[] {
  // Sorted by the bytes of the name: open.mp keeps an ordered map, and live 0.3.7 servers agree.
  const list = Object.entries(s.rules)
    .map(([name, value]) => ({ name: wireText(name, s.charset), value: wireText(value, s.charset) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [rulesResponse.encode({ ...header, rules: list }, BYTES)];
}

function clients(s: ResolvedSamp, _request: AnyRequest, header: QueryHeader): Uint8Array[] {
  const list = humans(s);
  if (list.length > MAX_LISTED_PLAYERS) return [];
  return [
    clientsResponse.encode(
      {
        ...header,
        clients: list.map((p) => ({ name: wireText(p.name, s.charset), score: p.score })),
      },
      BYTES,
    ),
  ];
}

function players(s: ResolvedSamp, _request: AnyRequest, header: QueryHeader): Uint8Array[] {
  const list = humans(s);
  if (list.length > MAX_LISTED_PLAYERS) return [];
  return [
    playersResponse.encode(
      {
        ...header,
        // YSF copies one byte of the 16-bit id: ids ≥ 256 wrap.
        players: list.map((p) => ({ id: p.id & 0xff, name: wireText(p.name, s.charset), score: p.score, ping: p.ping })),
      },
      BYTES,
    ),
  ];
}

function ping(_s: ResolvedSamp, request: AnyRequest): Uint8Array[] {
  // The reply is the request, byte for byte.
  return [pingResponse.encode(request.value, BYTES)];
}

function omp(s: ResolvedSamp, request: AnyRequest, header: QueryHeader): Uint8Array[] {
  const form = ompForms.find((f) => f.form === s.ompForm)!;
  // Up to v1.1 the 15-byte request comes back unchanged.
  if (form.form === 'echo') return [ompechoResponse.encode(request.value, BYTES)];
  const urlMax = form.urlMax!;
  const strings = {
    ...header,
    discord: byteLength(s.discord, s.charset) > form.discordMax! ? '' : wireText(s.discord, s.charset),
    bannerLight: wireText(s.bannerLight, s.charset, urlMax),
    bannerDark: wireText(s.bannerDark, s.charset, urlMax),
  };
  return [
    form.form === 'banners'
      ? ompbannersResponse.encode(strings, BYTES)
      : ompResponse.encode({ ...strings, logo: wireText(s.logo, s.charset, urlMax) }, BYTES),
  ];
}

/**
 * `x`. One reply datagram per output line.
 *
 * | case | 0.3.7 (YSF) | open.mp |
 * |---|---|---|
 * | fewer than 13 bytes (no password length) | silence | silence |
 * | password field shorter than its length | silence | invalid |
 * | password differs | invalid (compared as C strings: a NUL ends it) | invalid (length and bytes) |
 * | command length or command cut short | silence | silence |
 * | bytes after the command | accepted (command read as a C string) | silence |
 */
function rcon(s: ResolvedSamp, request: AnyRequest, header: QueryHeader, datagram: Uint8Array): Uint8Array[] {
  const conf = s.rcon!;
  const isOmp = s.flavor === 'openmp';
  const line = (text: string): Uint8Array => rconResponse.encode({ ...header, output: wireText(text, s.charset) }, BYTES);
  const v = request.partial as { password?: string; command?: string };
  const stoppedAt = request.error?.info.field;

  if (stoppedAt === 'samp.rcon.password.len') return [];
  if (stoppedAt === 'samp.rcon.password') return isOmp ? [line(INVALID_RCON_PASSWORD)] : [];
  const given = v.password ?? '';
  const real = wireText(conf.password, s.charset);
  if ((isOmp ? given : cString(given)) !== real) return [line(INVALID_RCON_PASSWORD)];
  if (request.error) return [];
  if (isOmp && request.bytesRead !== datagram.length) return [];

  const raw = isOmp ? (v.command ?? '') : cString(v.command ?? '');
  const command = textCodec(s.charset).decode(Uint8Array.from(raw, (c) => c.charCodeAt(0)));
  const name = command.trim().split(/\s+/)[0] ?? '';
  const output = conf.commands[command] ?? conf.commands[name] ?? [conf.unknownCommand.replaceAll('{command}', command)];
  return output.map(line);
}

const rconEnabled = (s: ResolvedSamp): boolean => s.rcon !== undefined && s.rcon.enabled;

/** SA-MP 0.3.7 per YSF: lenient lengths, `d` but no `o`. */
export const samp037Opcodes: Readonly<Record<string, Opcode<ResolvedSamp>>> = {
  i: { request: infoRequest, accepts: atLeast(11), flooded: true, reply: info },
  r: { request: rulesRequest, accepts: atLeast(11), flooded: true, reply: rules },
  c: { request: clientsRequest, accepts: atLeast(11), flooded: true, reply: clients },
  d: { request: playersRequest, accepts: atLeast(11), flooded: true, reply: players },
  x: { request: rconRequest, accepts: atLeast(11), enabled: rconEnabled, flooded: true, reply: rcon },
  // Neither flood-checked nor switched off by `query 0` (YSF).
  p: { request: pingRequest, accepts: exactly(15), reply: ping },
};

/** open.mp (v1.2 and later): exact lengths, `o` but no `d`. */
export const openmpOpcodes: Readonly<Record<string, Opcode<ResolvedSamp>>> = {
  i: { request: infoRequest, accepts: exactly(11), reply: info },
  r: { request: rulesRequest, accepts: exactly(11), reply: rules },
  c: { request: clientsRequest, accepts: exactly(11), reply: clients },
  o: { request: ompRequest, accepts: exactly(11), reply: omp },
  // An 11-byte `x` falls into open.mp's exact-length branch, which has no `x`.
  x: { request: rconRequest, accepts: (n) => n !== 11, enabled: rconEnabled, reply: rcon },
  p: { request: pingRequest, accepts: exactly(15), reply: ping },
};

/** open.mp up to v1.1: `o` only at 15 bytes, echoed (d96fde3; the check sat before the 11-byte branch). */
export const openmpEchoOpcodes: Readonly<Record<string, Opcode<ResolvedSamp>>> = {
  ...openmpOpcodes,
  o: { request: ompechoRequest, accepts: exactly(15), reply: omp },
};

/** A SA-MP 0.3.7 or open.mp server answering from `state`. */
export function sampResponder(state: ResolvedSamp): Responder {
  const table = state.flavor === 'samp037' ? samp037Opcodes : state.ompForm === 'echo' ? openmpEchoOpcodes : openmpOpcodes;
  // YSF CheckQueryFlood: one slot per server, moved only when the address changes.
  let lastTick: number | undefined;
  let lastAddress = '';
  let from: Source = { address: '', port: 0 };
  let now = 0;
  const flooding = (): boolean => {
    if (!state.floodGuard) return false;
    if (lastTick === undefined) {
      lastTick = now;
      lastAddress = from.address;
      return false;
    }
    if (from.address !== lastAddress) {
      if (now - lastTick < FLOOD_SLOT_MS) return true;
      lastTick = now;
      lastAddress = from.address;
    }
    return false;
  };
  return {
    respond(datagram, source, at) {
      from = source;
      now = at;
      return respondByOpcode('samp', table, state, datagram, flooding);
    },
    close() {},
  };
}
