/**
 * The emulator's state: what each emulated server says about itself. A state file is
 * JSON of the shape `EmulatorState` (state-shape.ts; see `examples/servers.json`); `parseState`
 * checks it and fills the defaults of each server type, so a mistake is reported with
 * its path (`servers[1].players[3].name: ...`) before any socket is opened.
 */
import { textCodec, type Charset } from '../grammar/charset.ts';
import { editDistance } from '../grammar/naming.ts';
import { ompFormOf } from '../protocols/samp/omp.ts';
import {
  flavors,
  type RconState,
  type ResolvedPlayer,
  type ResolvedSamp,
  type ResolvedVcmp,
  type ResolvedMinecraft,
  type ResolvedServer,
} from './state-shape.ts';

export { flavors } from './state-shape.ts';
export type {
  Flavor,
  PlayerState,
  RconState,
  SampServerState,
  VcmpServerState,
  MinecraftServerState,
  ServerState,
  EmulatorState,
  ResolvedPlayer,
  ResolvedSamp,
  ResolvedVcmp,
  ResolvedMinecraft,
  ResolvedServer,
} from './state-shape.ts';

/** Stock rules of a fresh server. */
export const defaultRules: Readonly<Record<'samp037' | 'openmp', Readonly<Record<string, string>>>> = {
  samp037: { lagcomp: 'On', mapname: 'San Andreas', version: '0.3.7-R2', weather: '10', weburl: 'www.sa-mp.com', worldtime: '12:00' },
  openmp: {
    allowed_clients: '0.3.7, 0.3.DL',
    artwork: 'No',
    lagcomp: 'On',
    mapname: 'San Andreas',
    version: 'omp 1.4.0.2779',
    weather: '10',
    worldtime: '12:00',
  },
};

/** A state that cannot be served, with the path of the offending value. */
export class StateError extends Error {
  override readonly name = 'StateError';
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

type Obj = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The objects of the state being checked, each with the keys its checks read (every key they
 * know, given or not: an optional one is read to see it is absent). A key no check read is one
 * no server would show, a misspelling (`hostnmae`): refused, with the known key nearest it.
 * Checking is synchronous: one list at a time.
 */
let reads: { readonly target: Obj; readonly path: string; readonly keys: Set<string> }[] | undefined;

function object(v: unknown, path: string): Obj {
  if (!isObject(v)) throw new StateError(path, 'expected an object');
  if (!reads) return v;
  const keys = new Set<string>();
  reads.push({ target: v, path, keys });
  return new Proxy(v, {
    get(target, key) {
      if (typeof key === 'string') keys.add(key);
      return target[key as string];
    },
  });
}

/** Runs `check` with the objects it reads recorded, then refuses a key none of its checks read. */
function withKnownKeys<T>(check: () => T): T {
  const outer = reads;
  reads = [];
  try {
    const out = check();
    for (const { target, path, keys } of reads) {
      for (const key of Object.keys(target)) {
        if (keys.has(key)) continue;
        const near = nearest(key, [...keys]);
        throw new StateError(`${path}.${key}`, `no such key${near ? ` (did you mean ${near}?)` : ''}`);
      }
    }
    return out;
  } finally {
    reads = outer;
  }
}

/** The known key a misspelling is nearest (a third of its letters wrong at most, two at least: `scroe`). */
function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.ceil(key.length / 3)) + 1;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

function optString(o: Obj, key: string, path: string, fallback: string): string {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'string') throw new StateError(`${path}.${key}`, 'expected a string');
  return v;
}

function optInt(o: Obj, key: string, path: string, min: number, max: number, fallback: number | undefined): number | undefined {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new StateError(`${path}.${key}`, `expected an integer in ${min}..${max}`);
  }
  return v;
}

function int(o: Obj, key: string, path: string, min: number, max: number, fallback?: number): number {
  const v = optInt(o, key, path, min, max, fallback);
  if (v === undefined) throw new StateError(`${path}.${key}`, 'missing');
  return v;
}

function optBool(o: Obj, key: string, path: string, fallback: boolean): boolean {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new StateError(`${path}.${key}`, 'expected true or false');
  return v;
}

/** Checks that `text` has bytes in `charset` and at most `max` of them. */
function encodable(text: string, charset: Charset, path: string, max = Infinity): string {
  const n = textCodec(charset).byteLength(text);
  if (n === undefined) throw new StateError(path, `has characters that ${charset} cannot encode`);
  if (n > max) throw new StateError(path, `is ${n} bytes in ${charset}, at most ${max} fit`);
  return text;
}

const CHARSETS: readonly Charset[] = ['latin1', 'windows-1252', 'windows-1251', 'utf8'];

function charsetOf(o: Obj, path: string): Charset {
  const v = o['charset'] ?? 'windows-1252';
  if (!CHARSETS.includes(v as Charset)) throw new StateError(`${path}.charset`, `expected one of ${CHARSETS.join(', ')}`);
  return v as Charset;
}

/** Names at most `maxName` bytes; SA:MP ids 0…999, scores i32, pings u32. */
function players(o: Obj, path: string, charset: Charset, maxName: number): ResolvedPlayer[] {
  const v = o['players'] ?? [];
  if (!Array.isArray(v)) throw new StateError(`${path}.players`, 'expected an array');
  return v.map((item: unknown, i) => {
    const at = `${path}.players[${i}]`;
    const p = object(item, at);
    const name = optString(p, 'name', at, '');
    if (name === '') throw new StateError(`${at}.name`, 'expected a non-empty string');
    encodable(name, charset, `${at}.name`, maxName);
    return {
      name,
      score: int(p, 'score', at, -0x80000000, 0x7fffffff, 0),
      ping: int(p, 'ping', at, 0, 0xffffffff, 0),
      id: int(p, 'id', at, 0, 999, i),
      npc: optBool(p, 'npc', at, false),
    };
  });
}

function stringRecord(v: unknown, path: string): Record<string, string> {
  const o = object(v, path);
  for (const [k, value] of Object.entries(o)) {
    if (typeof value !== 'string') throw new StateError(`${path}.${k}`, 'expected a string');
  }
  return o as Record<string, string>;
}

function rcon(o: Obj, path: string, charset: Charset): Required<RconState> | undefined {
  if (o['rcon'] === undefined) return undefined;
  const at = `${path}.rcon`;
  const r = object(o['rcon'], at);
  const password = optString(r, 'password', at, '');
  if (password === '') throw new StateError(`${at}.password`, 'expected a non-empty string');
  encodable(password, charset, `${at}.password`, 0xffff);
  const commands: Record<string, readonly string[]> = {};
  const given = r['commands'] === undefined ? {} : object(r['commands'], `${at}.commands`);
  for (const [command, lines] of Object.entries(given)) {
    const lp = `${at}.commands[${JSON.stringify(command)}]`;
    if (!Array.isArray(lines) || !lines.every((l) => typeof l === 'string')) throw new StateError(lp, 'expected an array of strings');
    lines.forEach((l: string, i) => encodable(l, charset, `${lp}[${i}]`, 0xffff));
    commands[command] = lines as string[];
  }
  return {
    password,
    enabled: optBool(r, 'enabled', at, true),
    commands,
    unknownCommand: optString(r, 'unknownCommand', at, 'Unknown command or variable: {command}'),
  };
}

function host(o: Obj, path: string): string | undefined {
  const v = o['host'];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new StateError(`${path}.host`, 'expected an address');
  return v;
}

function samp(o: Obj, path: string, flavor: 'samp037' | 'openmp'): ResolvedSamp {
  const charset = charsetOf(o, path);
  const omp = flavor === 'openmp';
  const text = (key: string, fallback: string): string => encodable(optString(o, key, path, fallback), charset, `${path}.${key}`);
  const ompVersion = o['ompVersion'] === undefined ? undefined : optString(o, 'ompVersion', path, '');
  if (ompVersion !== undefined && (!omp || !ompFormOf(ompVersion))) {
    throw new StateError(`${path}.ompVersion`, omp ? 'expected an open.mp release such as "1.2.0.2670"' : 'only an open.mp server has one');
  }
  const rules =
    o['rules'] !== undefined
      ? stringRecord(o['rules'], `${path}.rules`)
      : ompVersion !== undefined
        ? { ...defaultRules.openmp, version: `omp ${ompVersion.replace(/^omp\s+/, '')}` }
        : defaultRules[flavor];
  const ompForm = ompFormOf(ompVersion ?? (rules['version']?.startsWith('omp ') ? rules['version'] : '') ?? '')?.form ?? 'logo';
  for (const [k, v] of Object.entries(rules)) {
    encodable(k, charset, `${path}.rules[${JSON.stringify(k)}]`, 0xff);
    encodable(v, charset, `${path}.rules[${JSON.stringify(k)}]`, 0xff);
  }
  return {
    flavor,
    port: int(o, 'port', path, 0, 0xffff),
    host: host(o, path),
    hostname: text('hostname', omp ? 'open.mp server' : 'SA-MP 0.3 Server'),
    gamemode: text('gamemode', 'Unknown'),
    language: text('language', omp ? 'EN' : ''),
    password: optBool(o, 'password', path, false),
    maxPlayers: int(o, 'maxPlayers', path, 0, 0xffff),
    players: players(o, path, charset, 24),
    rules,
    rcon: rcon(o, path, charset),
    discord: text('discord', ''),
    bannerLight: text('bannerLight', ''),
    bannerDark: text('bannerDark', ''),
    logo: text('logo', ''),
    ompForm,
    charset,
    floodGuard: optBool(o, 'floodGuard', path, false),
  };
}

function vcmp(o: Obj, path: string): ResolvedVcmp {
  const charset = charsetOf(o, path);
  const text = (key: string, fallback: string): string => encodable(optString(o, key, path, fallback), charset, `${path}.${key}`);
  const version = optString(o, 'version', path, '04rel006');
  // eslint-disable-next-line no-control-regex -- any ASCII but NUL, as the reply's fixed field holds it
  if (!/^[\x01-\x7f]{0,12}$/.test(version)) throw new StateError(`${path}.version`, 'expected at most 12 ASCII characters');
  return {
    flavor: 'vcmp',
    port: int(o, 'port', path, 0, 0xffff),
    host: host(o, path),
    version,
    hostname: text('hostname', 'VC:MP Server'),
    gamemode: text('gamemode', 'Default'),
    map: text('map', 'Vice-City'),
    password: optBool(o, 'password', path, false),
    maxPlayers: int(o, 'maxPlayers', path, 0, 0xffff),
    players: players(o, path, charset, 0xff),
    charset,
  };
}

/** Vanilla's `writeBytes`: the low byte of each UTF-16 unit; a zero low byte would end the string early. */
function vanillaText(o: Obj, key: string, path: string, fallback: string): string {
  const text = optString(o, key, path, fallback);
  for (let i = 0; i < text.length; i++) {
    if ((text.charCodeAt(i) & 0xff) === 0) {
      throw new StateError(
        `${path}.${key}`,
        `character ${i} would be written as a NUL byte (vanilla sends the low byte of each character)`,
      );
    }
  }
  return text;
}

function minecraft(o: Obj, path: string): ResolvedMinecraft {
  const list = players(o, path, 'utf8', 0xffff);
  list.forEach((p, i) => vanillaText(p as unknown as Obj, 'name', `${path}.players[${i}]`, ''));
  const hostIp = o['hostIp'] === undefined ? undefined : vanillaText(o, 'hostIp', path, '');
  return {
    flavor: 'minecraft',
    port: int(o, 'port', path, 0, 0xffff),
    host: host(o, path),
    motd: vanillaText(o, 'motd', path, 'A Minecraft Server'),
    gametype: vanillaText(o, 'gametype', path, 'SMP'),
    gameId: vanillaText(o, 'gameId', path, 'MINECRAFT'),
    version: vanillaText(o, 'version', path, '1.21.4'),
    plugins: vanillaText(o, 'plugins', path, ''),
    map: vanillaText(o, 'map', path, 'world'),
    maxPlayers: int(o, 'maxPlayers', path, 0, 0x7fffffff, 20),
    players: list,
    hostPort: optInt(o, 'hostPort', path, 0, 0xffff, undefined),
    hostIp,
  };
}

/** Checks one server description and fills its defaults; a key it does not know is an error (a misspelling). */
export function resolveServer(value: unknown, path = 'server'): ResolvedServer {
  return withKnownKeys(() => serverOf(value, path));
}

/** The servers this module resolved: given again (the CLI's, to `startEmulator`), each is taken as it is. */
const resolvedServers = new WeakSet<object>();

function serverOf(value: unknown, path: string): ResolvedServer {
  if (isObject(value) && resolvedServers.has(value)) return value as unknown as ResolvedServer;
  const s = resolvedServer(value, path);
  resolvedServers.add(s);
  return s;
}

function resolvedServer(value: unknown, path: string): ResolvedServer {
  const o = object(value, path);
  switch (o['flavor']) {
    case 'samp037':
      return samp(o, path, 'samp037');
    case 'openmp':
      return samp(o, path, 'openmp');
    case 'vcmp':
      return vcmp(o, path);
    case 'minecraft':
      return minecraft(o, path);
    default:
      throw new StateError(`${path}.flavor`, `expected one of ${flavors.join(', ')}`);
  }
}

/** Checks a state document (parsed JSON) and fills the defaults of every server. */
export function parseState(value: unknown): { readonly servers: readonly ResolvedServer[] } {
  return withKnownKeys(() => {
    const o = object(value, 'state');
    const list = o['servers'];
    if (!Array.isArray(list)) throw new StateError('servers', 'expected an array of servers');
    return { servers: list.map((s: unknown, i) => serverOf(s, `servers[${i}]`)) };
  });
}
