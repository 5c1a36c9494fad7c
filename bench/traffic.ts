/**
 * Query traffic as users capture it, for the dissector's benchmark and its pairing test: a
 * classic pcap (Ethernet, IPv4, UDP; nanosecond times) of SA:MP, open.mp, VC:MP and Minecraft
 * exchanges in the proportions and at the rate of docs/traffic.md, with what real
 * captures add (100-player lists split into IP fragments, long full-stat player lists,
 * cp1251/cp1252 text, multi-line RCON output and admin tools sending command after command on
 * one socket, replies with trailing bytes or cut short, silent servers, duplicated, late and
 * misdirected replies, DNS, QUIC and TCP around it), and the ground truth: what the dissector
 * must say of every frame.
 *
 * Deterministic: one seed gives the same bytes. Streamed: the capture comes as chunks, and
 * what is held is what is in flight (datagrams scheduled but not yet sent), so millions of
 * frames generate in flat memory. Every payload is made by the codec's encoders; each server's
 * replies are encoded once at the start (a server answers from what it is, as open.mp answers
 * from prebuilt buffers), Minecraft stat replies with the session id patched in per exchange
 * (what vanilla does with its cached full stat: packages/codec/src/protocols/mcquery/README.md).
 *
 * How it runs: an exchange starts every 5–40 µs of capture time (divided by `rate`); round trips
 * are short, but a request nobody answers (about 2 %) stays open for the dissector's 5 s
 * timeout, so thousands are open at any moment. When an exchange
 * starts, all its datagrams are planned (request, replies after a round trip of 0.04–0.9 ms,
 * copies, late replies, an RCON session's later commands, a Minecraft handshake's stat request)
 * and queued by time; frames are numbered as they leave the queue, and the truth is written
 * then. A request goes out only from a client endpoint that has no request with the same
 * pairing key to that server still open (its replies, copies and the dissector's 5 s timeout
 * included): two such requests could not be told apart by anyone. The one exception is the
 * point of the RCON sessions: the next command on the same socket follows 0.1–5 ms after the
 * last line of the previous one's output, which is unambiguous in time.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { mcquery, samp, vcmp, type Charset } from '@gamequery/codec';

// ---------------------------------------------------------------------------------------
// Ground truth

/**
 * What a frame is, and so what the dissector must say of it:
 *
 * | category | record | links expected |
 * |---|---|---|
 * | request, rcon-request, rcon-next-request | yes | `responseIn` = the first reply (line) |
 * | reply, warning-reply, fragmented-reply, rcon-line, rcon-next-line | yes | `requestIn` = its request |
 * | unanswered, late-request | yes | `unanswered` set, nothing else |
 * | late | yes | `requestIn` = the request that timed out, `unmatched` set (docs/cli.md: `--duplicate-window`) |
 * | duplicate | yes | `requestIn` = the request, `duplicateOf` = the first copy |
 * | unexpected-port | yes | `requestIn` = the request it answers, `unmatched` set (a reply from the wrong address) |
 * | fragment | no | (its datagram's record is at the frame of its last fragment) |
 * | other | no | (DNS, QUIC, TCP) |
 * | malformed-request, malformed-reply | yes | debatable (see {@link DEBATABLE}) |
 *
 * `rcon-next-*` are the commands that follow the previous command's output on the same socket
 * within milliseconds, and their lines. A request whose reply the capture does not contain
 * (the capture ends first) is `unanswered`.
 */
export const CATEGORIES = [
  'request',
  'reply',
  'rcon-request',
  'rcon-line',
  'rcon-next-request',
  'rcon-next-line',
  'unanswered',
  'late-request',
  'late',
  'duplicate',
  'unexpected-port',
  'warning-reply',
  'fragmented-reply',
  'fragment',
  'other',
  'malformed-request',
  'malformed-reply',
] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * Categories whose right answer is open to argument, reported apart and never a failure. A
 * reply cut short inside a field: the truth records the request it answers (as Wireshark links
 * a malformed reply), but whether a dissector should pair bytes it cannot decode, and leave the
 * request answered by them, is a choice; today's reads them as no reply at all.
 */
export const DEBATABLE: ReadonlySet<Category> = new Set<Category>(['malformed-request', 'malformed-reply']);

const C = Object.fromEntries(CATEGORIES.map((c, i) => [c, i + 1])) as Record<Category, number>;
/** Categories of requests that expect a reply: unanswered if the capture ends before it. */
const AWAITING = new Set([C.request, C['rcon-request'], C['rcon-next-request'], C['malformed-request']]);
const NO_RECORD = new Set([C.fragment, C.other]);
const UNANSWERED = new Set([C.unanswered, C['late-request']]);
const UNMATCHED = new Set([C.late, C['unexpected-port']]);

/** What the dissector must say of one frame; 0 for a link that must be absent. */
export interface Expected {
  readonly category: Category;
  readonly record: boolean;
  readonly requestIn: number;
  readonly responseIn: number;
  readonly duplicateOf: number;
  readonly unanswered: boolean;
  readonly unmatched: boolean;
}

/**
 * The truth of a generated capture, a row per frame (1-based) in typed arrays grown in blocks:
 * 13 bytes a frame. Complete once the generator has returned.
 */
export class Truth {
  frames = 0;
  category = new Uint8Array(1 << 16);
  requestIn = new Int32Array(1 << 16);
  responseIn = new Int32Array(1 << 16);
  duplicateOf = new Int32Array(1 << 16);

  /** Makes room for frame `f`. */
  reserve(f: number): void {
    if (f < this.category.length) return;
    const size = Math.max(f + 1, this.category.length * 2);
    const grow = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.category = grow(this.category, (n) => new Uint8Array(n));
    this.requestIn = grow(this.requestIn, (n) => new Int32Array(n));
    this.responseIn = grow(this.responseIn, (n) => new Int32Array(n));
    this.duplicateOf = grow(this.duplicateOf, (n) => new Int32Array(n));
  }

  categoryOf(f: number): Category | undefined {
    const c = f >= 1 && f <= this.frames ? this.category[f]! : 0;
    return c === 0 ? undefined : CATEGORIES[c - 1];
  }

  expected(f: number): Expected | undefined {
    const category = this.categoryOf(f);
    if (!category) return undefined;
    const c = this.category[f]!;
    return {
      category,
      record: !NO_RECORD.has(c),
      requestIn: this.requestIn[f]!,
      responseIn: this.responseIn[f]!,
      duplicateOf: this.duplicateOf[f]!,
      unanswered: UNANSWERED.has(c),
      unmatched: UNMATCHED.has(c),
    };
  }

  /** Frames per category. */
  counts(): Record<Category, number> {
    const out = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
    for (let f = 1; f <= this.frames; f++) out[CATEGORIES[this.category[f]! - 1]!]++;
    return out;
  }

  /** Requests still waiting when the capture ended never got a reply in it. */
  finish(): void {
    for (let f = 1; f <= this.frames; f++) {
      if (AWAITING.has(this.category[f]!) && this.responseIn[f] === 0) this.category[f] = C.unanswered;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Checking the dissector's links against the truth

/** The link fields of a dissected packet, as in `PacketRecord` and the NDJSON lines. */
export interface LinkRecord {
  readonly frame: number;
  readonly requestIn?: number | undefined;
  readonly responseIn?: number | undefined;
  readonly unanswered?: string | undefined;
  readonly duplicateOf?: number | undefined;
  readonly unmatched?: string | undefined;
}

export interface Mismatch {
  readonly frame: number;
  /** The frame's category, or `no such frame`. */
  readonly category: string;
  readonly expected: string;
  readonly got: string;
}

export interface LinkReport {
  /** Per category: frames in the capture, and how many of them the dissector got wrong. */
  readonly byCategory: Record<Category, { frames: number; mismatched: number }>;
  /** Wrong answers outside the debatable categories, and records of frames not in the capture: what fails the check. */
  readonly failures: number;
  /** Wrong answers in the debatable categories. */
  readonly debatable: number;
  /** Records of frames the capture does not have. */
  readonly strays: number;
  /** The first of each kind, in frame order. */
  readonly mismatches: readonly Mismatch[];
  readonly debatableMismatches: readonly Mismatch[];
}

const showLinks = (l: { requestIn: number; responseIn: number; duplicateOf: number; unanswered: boolean; unmatched: boolean }): string => {
  const parts: string[] = [];
  if (l.requestIn) parts.push(`requestIn ${l.requestIn}`);
  if (l.responseIn) parts.push(`responseIn ${l.responseIn}`);
  if (l.duplicateOf) parts.push(`duplicateOf ${l.duplicateOf}`);
  if (l.unanswered) parts.push('unanswered');
  if (l.unmatched) parts.push('unmatched');
  return parts.length ? parts.join(', ') : 'no links';
};

const linksOf = (r: LinkRecord): string =>
  showLinks({
    requestIn: r.requestIn ?? 0,
    responseIn: r.responseIn ?? 0,
    duplicateOf: r.duplicateOf ?? 0,
    unanswered: !!r.unanswered,
    unmatched: !!r.unmatched,
  }) +
  (r.unmatched ? ` (${r.unmatched})` : '') +
  (r.unanswered ? ` (${r.unanswered})` : '');

const SEEN = 1;
const TWICE = 2;
const GOT_UNANSWERED = 4;
const GOT_UNMATCHED = 8;

/**
 * Takes the dissector's packets as they come (in any order; only their links are kept, in
 * typed arrays, so millions of NDJSON lines are checked without being held) and compares them
 * with the truth at the end: a request's truth is complete only once its reply has been
 * generated, which may be after the dissector let the request's record go.
 */
export class LinkChecker {
  readonly #truth: Truth;
  readonly #keep: number;
  #flags = new Uint8Array(1 << 16);
  #requestIn = new Int32Array(1 << 16);
  #responseIn = new Int32Array(1 << 16);
  #duplicateOf = new Int32Array(1 << 16);
  /** Why, for the records that say unanswered or unmatched: shown with a mismatch. */
  readonly #reasons = new Map<number, string>();
  #last = 0;
  readonly #strays: Mismatch[] = [];
  #strayCount = 0;

  constructor(truth: Truth, keep = 20) {
    this.#truth = truth;
    this.#keep = keep;
  }

  add(r: LinkRecord): void {
    const f = r.frame;
    if (!(Number.isInteger(f) && f >= 1 && f < 2 ** 31)) {
      if (this.#strays.length < this.#keep)
        this.#strays.push({ frame: f, category: 'no such frame', expected: 'no record', got: linksOf(r) });
      this.#strayCount++;
      return;
    }
    this.#reserve(f);
    if (this.#flags[f]! & SEEN) {
      this.#flags[f]! |= TWICE;
      return;
    }
    this.#flags[f] = SEEN | (r.unanswered ? GOT_UNANSWERED : 0) | (r.unmatched ? GOT_UNMATCHED : 0);
    this.#requestIn[f] = r.requestIn ?? 0;
    this.#responseIn[f] = r.responseIn ?? 0;
    this.#duplicateOf[f] = r.duplicateOf ?? 0;
    const why = r.unmatched ?? r.unanswered;
    if (why) this.#reasons.set(f, why);
    if (f > this.#last) this.#last = f;
  }

  finish(): LinkReport {
    const truth = this.#truth;
    const wrong = new Uint32Array(CATEGORIES.length + 1);
    const mismatches: Mismatch[] = [];
    const debatableMismatches: Mismatch[] = [];
    let failures = 0;
    let debatable = 0;
    let strays = this.#strayCount;
    const strayList = [...this.#strays];
    const flags = this.#flags;
    for (let f = 1; f <= Math.max(truth.frames, this.#last); f++) {
      const e = truth.expected(f);
      const got = f < flags.length ? flags[f]! : 0;
      if (!e) {
        if (got & SEEN) {
          strays++;
          if (strayList.length < this.#keep)
            strayList.push({ frame: f, category: 'no such frame', expected: 'no record', got: this.#show(f) });
        }
        continue;
      }
      let expected: string | undefined;
      let shown = '';
      if (got & TWICE) {
        expected = 'one record';
        shown = 'two or more';
      } else if (!(got & SEEN)) {
        if (e.record) {
          expected = showLinks(e);
          shown = 'no record';
        }
      } else if (!e.record) {
        expected = 'no record';
        shown = this.#show(f);
      } else if (
        this.#requestIn[f] !== e.requestIn ||
        this.#responseIn[f] !== e.responseIn ||
        this.#duplicateOf[f] !== e.duplicateOf ||
        !!(got & GOT_UNANSWERED) !== e.unanswered ||
        !!(got & GOT_UNMATCHED) !== e.unmatched
      ) {
        expected = showLinks(e);
        shown = this.#show(f);
      }
      if (expected === undefined) continue;
      wrong[C[e.category]]!++;
      const isDebatable = DEBATABLE.has(e.category);
      if (isDebatable) debatable++;
      else failures++;
      const list = isDebatable ? debatableMismatches : mismatches;
      if (list.length < this.#keep) list.push({ frame: f, category: e.category, expected, got: shown });
    }
    const counts = truth.counts();
    const byCategory = Object.fromEntries(
      CATEGORIES.map((c, i) => [c, { frames: counts[c], mismatched: wrong[i + 1]! }]),
    ) as LinkReport['byCategory'];
    return {
      byCategory,
      failures: failures + strays,
      debatable,
      strays,
      mismatches: [...strayList, ...mismatches].sort((a, b) => a.frame - b.frame).slice(0, this.#keep),
      debatableMismatches,
    };
  }

  #show(f: number): string {
    const flags = this.#flags[f]!;
    const links = showLinks({
      requestIn: this.#requestIn[f]!,
      responseIn: this.#responseIn[f]!,
      duplicateOf: this.#duplicateOf[f]!,
      unanswered: !!(flags & GOT_UNANSWERED),
      unmatched: !!(flags & GOT_UNMATCHED),
    });
    const why = this.#reasons.get(f);
    return why ? `${links} (${why})` : links;
  }

  #reserve(f: number): void {
    if (f < this.#flags.length) return;
    const size = Math.max(f + 1, this.#flags.length * 2);
    const grow = <T extends Uint8Array | Int32Array>(a: T, b: T): T => {
      b.set(a);
      return b;
    };
    this.#flags = grow(this.#flags, new Uint8Array(size));
    this.#requestIn = grow(this.#requestIn, new Int32Array(size));
    this.#responseIn = grow(this.#responseIn, new Int32Array(size));
    this.#duplicateOf = grow(this.#duplicateOf, new Int32Array(size));
  }
}

/** Checks every record against the truth: {@link LinkChecker} over a list. */
export function checkLinks(records: Iterable<LinkRecord>, truth: Truth, keep = 20): LinkReport {
  const checker = new LinkChecker(truth, keep);
  for (const r of records) checker.add(r);
  return checker.finish();
}

/** The report as lines of text: counts per category, then the mismatches. */
export function formatLinkReport(report: LinkReport): string {
  const lines = ['category              frames  mismatched'];
  for (const c of CATEGORIES) {
    const { frames, mismatched } = report.byCategory[c];
    if (frames || mismatched)
      lines.push(
        `${c.padEnd(20)} ${String(frames).padStart(8)}  ${String(mismatched).padStart(10)}${DEBATABLE.has(c) ? '  (debatable)' : ''}`,
      );
  }
  lines.push(`failures: ${report.failures}, debatable: ${report.debatable}, records of frames not in the capture: ${report.strays}`);
  const show = (m: Mismatch): string => `  frame ${m.frame} (${m.category}): expected ${m.expected}; got ${m.got}`;
  if (report.mismatches.length) lines.push('first mismatches:', ...report.mismatches.map(show));
  if (report.debatableMismatches.length) lines.push('first debatable ones:', ...report.debatableMismatches.map(show));
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------
// Randomness

/** Xorshift (Marsaglia's 13/17/5) with its output scrambled by a multiply: small, seeded, fast enough. */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = (seed ^ 0x5bd1e995) >>> 0 || 0x9e3779b9;
    for (let i = 0; i < 8; i++) this.u32();
  }

  u32(): number {
    let x = this.#s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#s = x >>> 0;
    return Math.imul(this.#s ^ (this.#s >>> 16), 0x45d9f3b) >>> 0;
  }

  /** In [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** In [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** In [a, b). */
  range(a: number, b: number): number {
    return a + this.float() * (b - a);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}

// ---------------------------------------------------------------------------------------
// The world: servers and their replies, clients

type Flavour = 'samp037' | 'openmp' | 'vcmp' | 'java' | 'pocketmine';

/** An RCON command and the server's output to it, a datagram per line. */
interface RconCommand {
  readonly request: Uint8Array;
  readonly lines: readonly Uint8Array[];
}

interface Server {
  readonly id: number;
  readonly ip: number;
  readonly port: number;
  readonly flavour: Flavour;
  /** Answers nothing (down, or query disabled). */
  readonly down: boolean;
  /** SA:MP / VC:MP requests (11 bytes each) by opcode. */
  readonly requests: Readonly<Record<string, Uint8Array>>;
  /** Replies by opcode, a few variants each (players come and go); none where the server stays silent. */
  readonly replies: Readonly<Record<string, readonly Uint8Array[]>>;
  /** Replies cut inside a field (they do not decode), by opcode (Minecraft: `full`). */
  readonly cut: Readonly<Record<string, Uint8Array>>;
  /** Replies that decode with a warning: trailing bytes, or fewer list entries than their count. */
  readonly odd: Readonly<Record<string, Uint8Array>>;
  readonly rcon?: { readonly enabled: boolean; readonly commands: readonly RconCommand[]; readonly wrong: RconCommand };
  /** Minecraft: stat replies with session id 0, to patch. */
  readonly full?: readonly Uint8Array[];
  readonly basic?: readonly Uint8Array[];
  readonly signedTokens?: boolean;
}

const FIRST = [
  'Carl',
  'Sean',
  'Tommy',
  'Luis',
  'Mike',
  'John',
  'Alex',
  'Ivan',
  'Dmitry',
  'Sergey',
  'Pedro',
  'Juan',
  'Lucas',
  'Ryan',
  'Kevin',
  'Marco',
  'Andrei',
  'Nikita',
  'Jamal',
  'Victor',
  'Oscar',
  'Frank',
  'Tony',
  'Ken',
  'Lance',
  'Mateo',
  'Hugo',
];
const LAST = [
  'Johnson',
  'Vercetti',
  'Lopez',
  'Toreno',
  'Petrov',
  'Ivanov',
  'Smith',
  'Garcia',
  'Rosenberg',
  'Carlton',
  'Wilson',
  'Kuznetsov',
  'Santos',
  'Moreno',
  'Brown',
  'Miller',
  'Novak',
  'Kowalski',
  'Dubois',
  'Silva',
  'Costa',
  'Fischer',
];
const TAGS = ['[FSD]', '[LSPD]', '[NG]', '[RU]', '[BR]', '(ADM)', '[KG]', '$', '[TR]', '[PL]'];
const MC_NAMES = [
  'Notch',
  'jeb_',
  'Dinnerbone',
  'xXSlayerXx',
  'CreeperHunter',
  'Steve_',
  'Alex2009',
  'BlockMaster',
  'DiamondDigger',
  'EnderKing',
  'Redstoner',
  'PixelPanda',
  'MinerMike',
  'lava_surfer',
  'Skyblocker',
  'NetherNomad',
];

type ServerText = { hostname: string; gamemode: string; language: string; mapname: string; charset: Charset; say: string };
const SAMP_TEXTS: readonly ServerText[] = [
  {
    hostname: 'Los Santos Roleplay | lsrp',
    gamemode: 'LS-RP v4.2',
    language: 'English',
    mapname: 'San Andreas',
    charset: 'windows-1252',
    say: 'Server restart in 5 minutes',
  },
  {
    hostname: 'Freeroam Stunts DM TDM Race',
    gamemode: 'Freeroam',
    language: 'English',
    mapname: 'San Andreas',
    charset: 'windows-1252',
    say: 'Welcome!',
  },
  {
    hostname: 'Русский Сервер | Ролевая игра',
    gamemode: 'RP 3.1',
    language: 'Русский',
    mapname: 'Лос-Сантос',
    charset: 'windows-1251',
    say: 'Рестарт через 5 минут',
  },
  {
    hostname: 'Servidor Español — Roleplay',
    gamemode: 'Vida Real',
    language: 'Español',
    mapname: 'San Andreas',
    charset: 'windows-1252',
    say: '¡Bienvenidos!',
  },
  {
    hostname: 'Über Drift & Tuning Deutschland',
    gamemode: 'Drift',
    language: 'Deutsch',
    mapname: 'San Fierro',
    charset: 'windows-1252',
    say: 'Viel Spaß',
  },
  {
    hostname: 'Brasil Play Start | RPG',
    gamemode: 'BPS RPG',
    language: 'Português',
    mapname: 'São Paulo',
    charset: 'windows-1252',
    say: 'Olá a todos',
  },
  {
    hostname: 'Arizona Role Play | Сервер 1',
    gamemode: 'Arizona RP',
    language: 'Русский',
    mapname: 'Штат Аризона',
    charset: 'windows-1251',
    say: 'Всем привет',
  },
  {
    hostname: 'Call of Duty: Modern Warfare TDM',
    gamemode: 'COD TDM',
    language: 'English',
    mapname: 'Las Venturas',
    charset: 'windows-1252',
    say: 'GG',
  },
  {
    hostname: 'Français Cops & Robbers',
    gamemode: 'CnR',
    language: 'Français',
    mapname: 'San Andreas',
    charset: 'windows-1252',
    say: 'Bonne journée',
  },
  {
    hostname: '[0.3.7] Zombie Survival | Апокалипсис',
    gamemode: 'Zombies',
    language: 'Русский',
    mapname: 'Лас-Вентурас',
    charset: 'windows-1251',
    say: 'Зомби близко',
  },
];
const VCMP_TEXTS = [
  'Vice City Multiplayer Official',
  'VCMP Stunt Heaven',
  'Liberty City Killers',
  'VC:MP Roleplay | Vice Life',
  'Vice City Deathmatch',
  'Lu Revival: Vice',
];
const MC_MOTDS = [
  '§aA Minecraft Server§r - §6Survival',
  'Hypixel-like Network §c[1.8-1.20]',
  'Vanilla SMP',
  '§bSkyblock §fand §ePrison',
  'Creative Plots',
  'Anarchy §4no rules',
  'Mineplex Lobby',
  'Hardcore Survival',
];
const PM_MOTDS = ['PocketMine-MP Server', 'Bedrock SMP | Выживание', 'Lifeboat Survival Games', 'Nukkit Factions', 'Cubecraft Bedrock'];

export const ipText = (ip: number): string => `${ip >>> 24}.${(ip >>> 16) & 255}.${(ip >>> 8) & 255}.${ip & 255}`;

function playerName(rng: Rng, i: number): string {
  const base = `${rng.pick(FIRST)}_${rng.pick(LAST)}`;
  const r = rng.float();
  const name = r < 0.15 ? `${rng.pick(TAGS)}${base}` : r < 0.3 ? `${base}${i % 100}` : base;
  return name.slice(0, 24);
}

/** A SA:MP or VC:MP reply cut inside its last string, checked not to decode (so a short list is not mistaken for one). */
function cutReply(reply: Uint8Array, decode: (b: Uint8Array) => unknown): Uint8Array | undefined {
  for (let cut = reply.length - 1; cut >= 13; cut--) {
    const bytes = reply.slice(0, cut);
    try {
      decode(bytes);
    } catch {
      return bytes;
    }
  }
  return undefined;
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

function sampServer(rng: Rng, id: number, ip: number, port: number, openmp: boolean, down: boolean, crowded: boolean): Server {
  const text = rng.pick(SAMP_TEXTS);
  const codec = { charset: text.charset };
  const at = { serverIp: ipText(ip), serverPort: port };
  const maxPlayers = crowded ? rng.pick([300, 500, 1000]) : rng.pick([50, 100, 100, 100, 150, 200]);
  // Most servers are small; some full at 100 (lists of 100, the 100-player `d` that fragments); a few past 100 (no lists).
  const base = crowded
    ? 101 + rng.int(maxPlayers - 100)
    : rng.chance(0.12)
      ? 100
      : rng.chance(0.5)
        ? rng.int(20)
        : rng.int(Math.min(maxPlayers, 100));
  const hostname = `${text.hostname}${rng.chance(0.5) ? ` #${1 + rng.int(9)}` : ''}`;
  const password = rng.chance(0.1);
  const replies: Record<string, Uint8Array[]> = { i: [], r: [], c: [], d: [], o: [] };
  const roster = Array.from({ length: Math.min(base + 3, 103) }, (_, i) => ({
    id: i,
    name: playerName(rng, i),
    score: rng.int(3000) - 50,
    ping: 20 + rng.int(250),
  }));
  let players = roster;
  for (let v = 0; v < 3; v++) {
    const n = crowded ? base + v : Math.max(0, Math.min(base - v, 100));
    players = roster.slice(0, Math.min(n, roster.length));
    replies['i']!.push(
      samp.infoResponse.encode(
        { ...at, password, players: n, maxPlayers, hostname, gamemode: text.gamemode, language: text.language },
        codec,
      ),
    );
    if (!crowded) {
      replies['c']!.push(samp.clientsResponse.encode({ ...at, clients: players.map(({ name, score }) => ({ name, score })) }, codec));
      if (!openmp)
        replies['d']!.push(samp.playersResponse.encode({ ...at, players: players.map((p) => ({ ...p, id: p.id & 255 })) }, codec));
    }
  }
  const version = openmp ? `omp 1.${rng.int(4)}.0.${2600 + rng.int(200)}` : '0.3.7-R2';
  for (let v = 0; v < 2; v++) {
    const rules = [
      ...(openmp ? [{ name: 'allowed_clients', value: '0.3.7, 0.3.DL' }] : []),
      { name: 'lagcomp', value: rng.chance(0.8) ? 'On' : 'Off' },
      { name: 'mapname', value: text.mapname },
      { name: 'version', value: version },
      { name: 'weather', value: String(rng.int(20)) },
      {
        name: 'weburl',
        value: rng.chance(0.7)
          ? `www.${
              hostname
                .replace(/[^A-Za-z]/g, '')
                .slice(0, 12)
                .toLowerCase() || 'sa-mp'
            }.com`
          : 'www.sa-mp.com',
      },
      { name: 'worldtime', value: `${rng.int(24)}:00` },
    ];
    replies['r']!.push(samp.rulesResponse.encode({ ...at, rules }, codec));
  }
  if (openmp) {
    replies['o']!.push(
      samp.ompResponse.encode(
        {
          ...at,
          discord: rng.chance(0.7)
            ? `discord.gg/${hostname
                .replace(/[^A-Za-z]/g, '')
                .slice(0, 10)
                .toLowerCase()}`
            : '',
          bannerLight: rng.chance(0.3) ? `https://cdn.example.com/${id}/light.png` : '',
          bannerDark: '',
          logo: rng.chance(0.3) ? `https://cdn.example.com/${id}/logo.png` : '',
        },
        codec,
      ),
    );
  }
  const requests = {
    i: samp.infoRequest.encode(at),
    r: samp.rulesRequest.encode(at),
    c: samp.clientsRequest.encode(at),
    d: samp.playersRequest.encode(at),
    o: samp.ompRequest.encode(at),
  };
  const cut: Record<string, Uint8Array> = {};
  const cutInfo = cutReply(replies['i']![0]!, (b) => samp.infoResponse.decode(b));
  const cutRules = cutReply(replies['r']![0]!, (b) => samp.rulesResponse.decode(b));
  if (cutInfo) cut['i'] = cutInfo;
  if (cutRules) cut['r'] = cutRules;
  const odd: Record<string, Uint8Array> = {
    i: concat(replies['i']![0]!, Uint8Array.of(0xde, 0xad, 0xbe)),
    r: concat(replies['r']![1]!, Uint8Array.of(0x00, 0x00)),
  };
  const listed = replies['c']![0];
  if (listed) {
    // A plugin-modified count: more players announced than listed (packages/codec/src/protocols/samp/README.md), read as a short list.
    const short = listed.slice();
    const view = new DataView(short.buffer);
    view.setUint16(11, view.getUint16(11, true) + 2, true);
    odd['c'] = short;
  }
  // RCON: the password, and what a handful of commands print (one line each mostly; `players` and `varlist` many).
  const rconPassword = `${rng.pick(['changeme', 'adminpass', 'Sup3rS3cret', 'rcon2024', 'qwerty123'])}${rng.int(100)}`;
  const line = (s: string): Uint8Array => samp.rconResponse.encode({ ...at, output: s }, codec);
  const command = (cmd: string, output: readonly string[], pw = rconPassword): RconCommand => ({
    request: samp.rconRequest.encode({ ...at, password: pw, command: cmd }, codec),
    lines: output.map(line),
  });
  const listing = roster.slice(0, Math.min(base, 39));
  const commands: RconCommand[] = [
    command('players', [
      'ID\tName\tPing\tIP',
      ...listing.map((p) => `${p.id}\t${p.name}\t${p.ping}\t${ipText(0x51000000 + rng.int(0xffffff))}`),
    ]),
    command('varlist', [
      'Console Variables:',
      ...[
        'announce',
        'bind',
        'filterscripts',
        'gamemode0',
        'gamemodetext',
        'gravity',
        'hostname',
        'instagib',
        'lagcompmode',
        'language',
        'lanmode',
        'mapname',
        'maxnpc',
        'maxplayers',
        'myriad',
        'nosign',
        'onfoot_rate',
        'password',
        'plugins',
        'port',
        'query',
        'rcon',
        'sleep',
        'stream_distance',
        'version',
        'weather',
        'weburl',
        'worldtime',
      ].map((v, i) => `${v}\t= ${i % 3 ? i * 7 : `"${v}"`}  (${i % 3 ? 'int' : 'string'})`),
    ]),
    command(`echo ${text.say}`, [text.say]),
    command(`say ${text.say}`, [`* Admin: ${text.say}`]),
    command(`kick ${rng.int(100)}`, [`${rng.pick(FIRST)}_${rng.pick(LAST)} <#${rng.int(100)}> has been kicked.`]),
    command(`ban ${rng.int(100)}`, [`${rng.pick(FIRST)}_${rng.pick(LAST)} <#${rng.int(100)}> has been banned.`, 'Ban list updated.']),
    command(`weather ${rng.int(20)}`, ['Weather set.']),
    command(`worldtime ${rng.int(24)}`, ['World time set.']),
    command('reloadfs admin', ["Filterscript 'admin.amx' unloaded.", "Filterscript 'admin.amx' loaded."]),
    command('loadfs gates', ["Filterscript 'gates.amx' loaded."]),
    command('gmx', ['Exiting the gamemode...', 'Loading gamemode...']),
    command(`password ${rng.pick(['event', 'closed', 'test1'])}`, ['Setting server password to: "********"']),
  ];
  const rcon = { enabled: !rng.chance(0.05), commands, wrong: command('players', ['Invalid RCON password.'], `${rconPassword}x`) };
  return { id, ip, port, flavour: openmp ? 'openmp' : 'samp037', down, requests, replies, cut, odd, rcon };
}

function vcmpServer(rng: Rng, id: number, ip: number, port: number, down: boolean): Server {
  const at = { serverIp: ipText(ip), serverPort: port };
  const maxPlayers = rng.pick([50, 100, 100]);
  const base = rng.chance(0.1) ? maxPlayers : rng.int(40);
  const hostname = `${rng.pick(VCMP_TEXTS)}${rng.chance(0.4) ? ` [${rng.pick(['EU', 'US', 'RU', 'IN', 'PK'])}]` : ''}`;
  const names = Array.from({ length: base + 2 }, (_, i) => playerName(rng, i));
  const replies: Record<string, Uint8Array[]> = { i: [], c: [] };
  for (let v = 0; v < 3; v++) {
    const n = Math.max(0, Math.min(base - v, maxPlayers));
    replies['i']!.push(
      vcmp.infoResponse.encode({
        ...at,
        version: '04rel006',
        password: rng.chance(0.1),
        players: n,
        maxPlayers,
        hostname,
        gamemode: rng.pick(['Freeroam', 'TDM', 'Roleplay', 'Stunt']),
        map: 'Vice City',
      }),
    );
    replies['c']!.push(vcmp.clientsResponse.encode({ ...at, clients: names.slice(0, n).map((name) => ({ name })) }));
  }
  const cutInfo = cutReply(replies['i']![0]!, (b) => vcmp.infoResponse.decode(b));
  const cut: Record<string, Uint8Array> = cutInfo ? { i: cutInfo } : {};
  return {
    id,
    ip,
    port,
    flavour: 'vcmp',
    down,
    requests: { i: vcmp.infoRequest.encode(at), c: vcmp.clientsRequest.encode(at) },
    replies,
    cut,
    odd: { i: concat(replies['i']![1]!, Uint8Array.of(0, 0, 0, 0)) },
  };
}

/** GS3's split header, "splitnum\0" 80 00 (packages/codec/src/protocols/mcquery/README.md). */
const SPLITNUM = Uint8Array.of(0x73, 0x70, 0x6c, 0x69, 0x74, 0x6e, 0x75, 0x6d, 0x00, 0x80, 0x00);
/** Full-stat padding: zeros, or what GameDig and UT3 send (packages/codec/src/protocols/mcquery/README.md). */
const ZERO_PADDING = new Uint8Array(4);
const GAMEDIG_PADDING = Uint8Array.of(0xff, 0xff, 0xff, 0x01);

function minecraftServer(rng: Rng, id: number, ip: number, port: number, bedrock: boolean, down: boolean): Server {
  const maxPlayers = rng.pick([20, 50, 100, 200]);
  // Some crowded lobbies: their full stat lists 100–150 names and is IP-fragmented.
  const base = rng.chance(0.15) ? 100 + rng.int(50) : rng.int(Math.min(maxPlayers, 40));
  const motd = bedrock ? rng.pick(PM_MOTDS) : rng.pick(MC_MOTDS);
  const charset: Charset = bedrock ? 'utf8' : 'latin1';
  const names = Array.from({ length: base + 2 }, (_, i) => `${rng.pick(MC_NAMES)}${i}`.slice(0, 16));
  const full: Uint8Array[] = [];
  const basic: Uint8Array[] = [];
  for (let v = 0; v < 3; v++) {
    const n = Math.max(0, base - v);
    const kv = bedrock
      ? [
          ['hostname', motd],
          ['gametype', 'SMP'],
          ['game_id', 'MINECRAFTPE'],
          ['version', 'v1.20.50'],
          ['server_engine', 'PocketMine-MP 5.10.0'],
          ['plugins', 'PocketMine-MP 5.10.0: EconomyAPI 5.7; PurePerms 1.4'],
          ['map', 'world'],
          ['numplayers', String(n)],
          ['maxplayers', String(maxPlayers)],
          ['whitelist', 'off'],
          ['hostip', ipText(ip)],
          ['hostport', String(port)],
        ]
      : [
          ['hostname', motd],
          ['gametype', 'SMP'],
          ['game_id', 'MINECRAFT'],
          ['version', rng.pick(['1.20.4', '1.19.2', '1.8.9', '1.21'])],
          ['plugins', rng.chance(0.5) ? '' : 'Paper on 1.20.4-R0.1-SNAPSHOT: EssentialsX 2.20.1; LuckPerms 5.4'],
          ['map', 'world'],
          ['numplayers', String(n)],
          ['maxplayers', String(maxPlayers)],
          ['hostport', String(port)],
          ['hostip', ipText(ip)],
        ];
    full.push(
      mcquery.fullResponse.encode(
        { sessionId: 0, splitnum: SPLITNUM, kv: kv.map(([key, value]) => ({ key: key!, value: value! })), players: names.slice(0, n) },
        { charset },
      ),
    );
    basic.push(
      mcquery.basicResponse.encode(
        { sessionId: 0, motd, gametype: 'SMP', map: 'world', numPlayers: n, maxPlayers, hostPort: port, hostIp: ipText(ip) },
        { charset },
      ),
    );
  }
  const cut = { full: full[0]!.slice(0, full[0]!.length - 3 - rng.int(20)) };
  return {
    id,
    ip,
    port,
    flavour: bedrock ? 'pocketmine' : 'java',
    down,
    requests: {},
    replies: {},
    cut,
    odd: {},
    full,
    basic,
    signedTokens: bedrock,
  };
}

// ---------------------------------------------------------------------------------------
// Frames

export interface Endpoint {
  /** Distinct per client endpoint (address and port); servers' are unused. */
  readonly id: number;
  readonly ip: number;
  readonly port: number;
}

/** One exchange's frame numbers, filled in as its datagrams go out. */
class Exchange {
  requestFrame = 0;
  firstReply = 0;
  constructor(readonly requestCategory: number) {}
}

const ROLE_REQUEST = 0;
const ROLE_REPLY = 1;
const ROLE_DUPLICATE = 2;
const ROLE_STRAY = 3; // late, from the wrong port: linked to the request, not its reply
const ROLE_FRAGMENT = 4;
const ROLE_OTHER = 5;
const ROLE_MALFORMED = 6;

const PROTO_UDP = 17;
const PROTO_TCP = 6;

/** A datagram (or fragment, or TCP segment) scheduled to go out at `t`. */
class Item {
  constructor(
    readonly t: number,
    readonly seq: number,
    readonly ex: Exchange | null,
    readonly role: number,
    readonly category: number,
    readonly src: Endpoint,
    readonly dst: Endpoint,
    /** The UDP payload; for a fragment, its share of the IP payload; for TCP, the segment's data. */
    readonly bytes: Uint8Array,
    readonly protocol: number,
    /** -1 for a whole datagram, else the fragment's offset in 8-byte units, with 0x2000 when more follow. */
    readonly fragment: number,
    readonly ipId: number,
  ) {}
}

/** What a {@link TimeQueue} orders: a time, then the order it was queued in. */
export interface Timed {
  readonly t: number;
  readonly seq: number;
}

/** Datagrams not yet due, soonest first: a binary heap by time, then by the order they were queued. */
export class TimeQueue<T extends Timed> {
  readonly #heap: T[] = [];

  get size(): number {
    return this.#heap.length;
  }

  peek(): T | undefined {
    return this.#heap[0];
  }

  push(item: T): void {
    const h = this.#heap;
    let i = h.length;
    h.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(item, h[parent]!)) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = item;
  }

  pop(): T | undefined {
    const h = this.#heap;
    const top = h[0];
    const last = h.pop();
    if (h.length === 0 || !last) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && before(h[r]!, h[l]!) ? r : l;
      if (!before(h[c]!, last)) break;
      h[i] = h[c]!;
      i = c;
    }
    h[i] = last;
    return top;
  }
}

const before = (a: Timed, b: Timed): boolean => a.t < b.t || (a.t === b.t && a.seq < b.seq);

/** A capture written into its writer in steps (a request each, with what falls due before it), then the replies still due. */
export interface Stepped<S> {
  readonly writer: ChunkWriter;
  /** Step `k`: its request(s), after the replies due before it. */
  step(k: number): void;
  /** When the next reply still due is (ns), or undefined: none is. */
  nextDue(): number | undefined;
  /** Writes the replies due by `t`. */
  repliesUntil(t: number): void;
  summary(): S;
}

/**
 * The capture `g` makes in `steps` steps, a chunk at a time (about its writer's size each; the
 * first is the pcap header), every reply still due at the end included; returns its summary.
 */
export function* steppedCapture<S>(g: Stepped<S>, steps: number): Generator<Uint8Array, S> {
  yield pcapHeader();
  for (let k = 0; k < steps; k++) {
    g.step(k);
    if (g.writer.full) yield g.writer.take();
  }
  for (let t = g.nextDue(); t !== undefined; t = g.nextDue()) {
    g.repliesUntil(t);
    if (g.writer.full) yield g.writer.take();
  }
  if (g.writer.at > 0) yield g.writer.take();
  return g.summary();
}

/** Writes a generator's chunks to `file` as they come (flat memory); returns what it returns (its summary). */
export function writeChunks<S>(file: string, chunks: Generator<Uint8Array, S>): S {
  const fd = openSync(file, 'w');
  try {
    for (;;) {
      const r = chunks.next();
      if (r.done) return r.value;
      writeSync(fd, r.value);
    }
  } finally {
    closeSync(fd);
  }
}

const ETHERNET = 14;
const IPV4 = 20;
const UDP = 8;
const TCP = 20;
const RECORD = 16;
/** IP payload per fragment at a 1500-byte MTU (a multiple of 8). */
const FRAGMENT_DATA = 1480;
const MAC_ROUTER = Uint8Array.of(0x00, 0x1b, 0x21, 0x3a, 0x4f, 0x10);
const MAC_HOST = Uint8Array.of(0x52, 0x54, 0x00, 0x12, 0x34, 0x56);
/** Capture time 0 in Unix seconds: 2023-11-14. */
const EPOCH = 1_700_000_000;

/** Pcap records written into a chunk buffer; a new buffer per chunk (the consumer may keep views of the old one). */
export class ChunkWriter {
  buf: Uint8Array;
  view: DataView;
  at = 0;
  constructor(readonly size: number) {
    this.buf = new Uint8Array(size + 4096);
    this.view = new DataView(this.buf.buffer);
  }

  get full(): boolean {
    return this.at >= this.size;
  }

  take(): Uint8Array {
    const out = this.buf.subarray(0, this.at);
    this.buf = new Uint8Array(this.size + 4096);
    this.view = new DataView(this.buf.buffer);
    this.at = 0;
    return out;
  }

  /**
   * Writes the record header, Ethernet and IPv4 headers of a frame carrying `ipPayload` bytes
   * of IP payload, padded to Ethernet's 60-byte minimum when `pad` (frames that came in over
   * the wire); returns where the IP payload starts.
   */
  ip(t: number, src: number, dst: number, protocol: number, ipPayload: number, id: number, fragment: number, pad: boolean): number {
    const v = this.view;
    const b = this.buf;
    const ipLength = IPV4 + ipPayload;
    const frameLength = pad ? Math.max(60, ETHERNET + ipLength) : ETHERNET + ipLength;
    const at = this.at;
    const seconds = Math.floor(t / 1e9);
    v.setUint32(at, EPOCH + seconds, true);
    v.setUint32(at + 4, t - seconds * 1e9, true);
    v.setUint32(at + 8, frameLength, true);
    v.setUint32(at + 12, frameLength, true);
    const e = at + RECORD;
    b.set(pad ? MAC_HOST : MAC_ROUTER, e);
    b.set(pad ? MAC_ROUTER : MAC_HOST, e + 6);
    v.setUint16(e + 12, 0x0800);
    const h = e + ETHERNET;
    b[h] = 0x45;
    b[h + 1] = 0;
    v.setUint16(h + 2, ipLength);
    v.setUint16(h + 4, id);
    v.setUint16(h + 6, fragment < 0 ? 0x4000 : fragment); // DF on whole datagrams, as Linux sends them
    b[h + 8] = 64;
    b[h + 9] = protocol;
    v.setUint16(h + 10, 0);
    v.setUint32(h + 12, src);
    v.setUint32(h + 16, dst);
    let sum = 0;
    for (let i = 0; i < IPV4; i += 2) sum += (b[h + i]! << 8) | b[h + i + 1]!;
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    v.setUint16(h + 10, ~sum & 0xffff);
    const end = h + ipLength;
    if (frameLength > ETHERNET + ipLength) b.fill(0, end, e + frameLength);
    this.at = e + frameLength;
    return h + IPV4;
  }

  udp(t: number, src: Endpoint, dst: Endpoint, payload: Uint8Array, id: number, pad: boolean): void {
    const p = this.ip(t, src.ip, dst.ip, PROTO_UDP, UDP + payload.length, id, -1, pad);
    this.#udpHeader(p, src, dst, payload.length);
    this.buf.set(payload, p + UDP);
  }

  /** A fragment: `data` is its share of the IP payload (the first one's starts with the UDP header). */
  fragment(t: number, src: Endpoint, dst: Endpoint, data: Uint8Array, id: number, fragment: number): void {
    const p = this.ip(t, src.ip, dst.ip, PROTO_UDP, data.length, id, fragment, false);
    this.buf.set(data, p);
  }

  tcp(t: number, src: Endpoint, dst: Endpoint, data: Uint8Array, id: number, seq: number): void {
    const p = this.ip(t, src.ip, dst.ip, PROTO_TCP, TCP + data.length, id, -1, false);
    const v = this.view;
    v.setUint16(p, src.port);
    v.setUint16(p + 2, dst.port);
    v.setUint32(p + 4, seq >>> 0);
    v.setUint32(p + 8, (seq * 7 + 1) >>> 0);
    this.buf[p + 12] = 5 << 4;
    this.buf[p + 13] = data.length ? 0x18 : 0x10; // PSH+ACK with data, a bare ACK without
    v.setUint16(p + 14, 501);
    v.setUint32(p + 16, 0);
    this.buf.set(data, p + TCP);
  }

  #udpHeader(p: number, src: Endpoint, dst: Endpoint, length: number): void {
    const v = this.view;
    v.setUint16(p, src.port);
    v.setUint16(p + 2, dst.port);
    v.setUint16(p + 4, UDP + length);
    v.setUint16(p + 6, 0); // no checksum, as IPv4 allows
  }
}

/** The UDP datagram (header and payload) a fragmented reply's fragments carry. */
function udpDatagram(src: Endpoint, dst: Endpoint, payload: Uint8Array): Uint8Array {
  const d = new Uint8Array(UDP + payload.length);
  const v = new DataView(d.buffer);
  v.setUint16(0, src.port);
  v.setUint16(2, dst.port);
  v.setUint16(4, d.length);
  d.set(payload, UDP);
  return d;
}

// ---------------------------------------------------------------------------------------
// The generator

export interface TrafficOptions {
  /** Frames to write. */
  readonly frames: number;
  /** Default 1. */
  readonly seed?: number;
  /** Capture rate as a multiple of docs/traffic.md's (exchanges start `rate` times as often). Default 1. */
  readonly rate?: number;
  /** Bytes per chunk, about. Default 1 MiB. */
  readonly chunkBytes?: number;
  /** Filled with the truth of every frame when given. */
  readonly truth?: Truth;
}

/** What was generated, counted by the generator (tests count it again from the dissector's output). */
export interface TrafficSummary {
  readonly frames: number;
  readonly bytes: number;
  /** Capture time from the first frame to the last. */
  readonly seconds: number;
  /** Requests sent, by `protocol.message` (RCON: commands). */
  readonly requests: Readonly<Record<string, number>>;
  readonly clientEndpoints: number;
  readonly servers: number;
  /** Replies sent as IP fragments. */
  readonly fragmented: number;
  readonly duplicates: number;
  readonly late: number;
  readonly wrongPort: number;
  readonly malformed: number;
  readonly warnings: number;
  /** Requests the server never answers (down, silent by design, a stale token); not those whose reply the capture's end cuts off. */
  readonly silent: number;
  readonly otherFrames: number;
}

/** The request kinds an exchange starts with, and their weight per 100 exchanges (docs/traffic.md; stat requests follow handshakes). */
type Kind = 'i' | 'r' | 'x' | 'c' | 'p' | 'd' | 'o' | 'mc' | 'vi' | 'vc';
const K_INFO = 0;
const K_RULES = 1;
const K_CLIENTS = 2;
const K_PLAYERS = 3;
const K_PING = 4;
const K_RCON = 5;
const K_OMP = 6;
const K_MC = 7;
const KINDS = 8;
const KIND_CODES: Record<string, number> = { i: K_INFO, r: K_RULES, c: K_CLIENTS, d: K_PLAYERS, o: K_OMP, vi: K_INFO, vc: K_CLIENTS };

/** RCON sessions: mean commands per session, for the weight that makes 9.7 commands per 100 exchanges. */
const RCON_WRONG = 0.08;
const RCON_LONE = 0.55;
const RCON_MEAN_COMMANDS = RCON_WRONG + (1 - RCON_WRONG) * (RCON_LONE + (1 - RCON_LONE) * 4);
/** Of handshakes answered, the share followed by a stat request: 9.5 of 14.2 (a little more, as some handshakes go unanswered). */
const STAT_AFTER_HANDSHAKE = 9.5 / 14.2 / 0.975;
const WEIGHTS: readonly [Kind, number][] = [
  ['i', 21.3],
  ['r', 16.6],
  ['x', 9.7 / RCON_MEAN_COMMANDS],
  ['c', 9.4],
  ['p', 4.9],
  ['d', 4.8],
  ['o', 0.5],
  ['mc', 14.2],
  ['vi', 4.8],
  ['vc', 4.9],
];
/**
 * A slot starts one of the exchanges above, and some bring more (an RCON session's later
 * commands, a handshake's stat request): slots are this much further apart than 5–40 µs, so
 * that exchanges of any kind start every 5–40 µs on average.
 */
const SLOT_SCALE =
  (WEIGHTS.reduce((sum, [, w]) => sum + w, 0) + 9.7 - 9.7 / RCON_MEAN_COMMANDS + 9.5) / WEIGHTS.reduce((sum, [, w]) => sum + w, 0);

/** How long the dissector waits for a reply by default, and a margin past it. */
const TIMEOUT_NS = 5e9;
const QUIET_NS = 0.5e9;
const MARGIN_NS = 0.3e9;

class TrafficGenerator {
  readonly rng: Rng;
  readonly truth: Truth | undefined;
  readonly limit: number;
  readonly rate: number;
  readonly writer: ChunkWriter;
  readonly schedule = new TimeQueue<Item>();
  readonly samp: Server[] = [];
  readonly openmp: Server[] = [];
  readonly legacy: Server[] = [];
  readonly vcmp: Server[] = [];
  readonly minecraft: Server[] = [];
  readonly servers: Server[] = [];
  readonly pool: Endpoint[] = [];
  readonly clientIps: number[] = [];
  /** Pairing keys (client, server, kind) in use, until when. Swept each second of capture time. */
  busy = new Map<number, number>();
  nextSweep = 1e9;
  nextEndpoint = 0;
  readonly usedEndpoints = new Set<number>();
  readonly cumulative: number[] = [];
  readonly resolvers: Endpoint[];
  readonly webServers: Endpoint[];
  readonly noise: Uint8Array;
  frames = 0;
  bytes = 24;
  seq = 0;
  now = 0;
  nextSlot = 0;
  ipId: number;
  lastTime = 0;
  readonly stats = { fragmented: 0, duplicates: 0, late: 0, wrongPort: 0, malformed: 0, warnings: 0, silent: 0, otherFrames: 0 };
  readonly requests: Record<string, number> = {};

  constructor(options: TrafficOptions) {
    this.rng = new Rng(options.seed ?? 1);
    this.truth = options.truth;
    this.limit = options.frames;
    this.rate = options.rate ?? 1;
    this.writer = new ChunkWriter(options.chunkBytes ?? 1 << 20);
    this.ipId = this.rng.int(65536);
    const rng = this.rng;
    const usedIps = new Set<number>();
    const address = (prefixes: readonly number[]): number => {
      for (;;) {
        const ip = ((rng.pick(prefixes) << 24) | (rng.int(0xfffe) << 8) | (1 + rng.int(253))) >>> 0;
        if (!usedIps.has(ip)) {
          usedIps.add(ip);
          return ip;
        }
      }
    };
    // Servers: SA:MP hosts often run several servers on one address (7777, 7778, …); two are down, three too full to list players.
    const sampPorts = [7777, 7777, 7777, 7777, 7777, 7778, 7779, 7780, 8888, 7000, 5555, 1337, 2302];
    for (let n = 0; n < 140;) {
      const ip = address([51, 54, 91, 137, 145, 185, 193, 213]);
      const count = rng.chance(0.2) ? 2 + rng.int(2) : 1;
      for (let k = 0; k < count && n < 140; k++, n++) {
        const port = count > 1 ? 7777 + k : rng.pick(sampPorts);
        const s = sampServer(rng, this.servers.length, ip, port, rng.chance(0.45), n === 17 || n === 88, n % 47 === 5);
        this.servers.push(s);
        this.samp.push(s);
        (s.flavour === 'openmp' ? this.openmp : this.legacy).push(s);
      }
    }
    for (let n = 0; n < 25; n++) {
      const s = vcmpServer(rng, this.servers.length, address([46, 89, 103, 176]), rng.chance(0.8) ? 8192 : 8192 + 1 + rng.int(8), n === 11);
      this.servers.push(s);
      this.vcmp.push(s);
    }
    for (let n = 0; n < 50; n++) {
      const bedrock = rng.chance(0.4);
      const port = bedrock ? 19132 : rng.chance(0.8) ? 25565 : 25565 + 1 + rng.int(10);
      const s = minecraftServer(rng, this.servers.length, address([5, 62, 78, 95, 141, 162]), port, bedrock, n === 23);
      this.servers.push(s);
      this.minecraft.push(s);
    }
    // Clients: 1500 addresses (homes, NATs), 5000 endpoints to begin with; ports churn.
    for (let n = 0; n < 1500; n++) this.clientIps.push(address([31, 37, 77, 81, 86, 88, 94, 109, 178, 188, 212]));
    for (let n = 0; n < 5000; n++) this.pool.push(this.freshEndpoint());
    let total = 0;
    for (const [, w] of WEIGHTS) this.cumulative.push((total += w));
    this.resolvers = [
      { id: -1, ip: 0x08080808, port: 53 },
      { id: -1, ip: 0x01010101, port: 53 },
      { id: -1, ip: 0x0a000035, port: 53 },
    ];
    this.webServers = Array.from({ length: 8 }, (_, i) => ({ id: -1, ip: address([142, 151, 104, 172]), port: i % 4 === 0 ? 80 : 443 }));
    this.noise = Uint8Array.from({ length: 4096 }, () => rng.int(256));
  }

  freshEndpoint(): Endpoint {
    return { id: this.nextEndpoint++, ip: this.rng.pick(this.clientIps), port: 32768 + this.rng.int(28232) };
  }

  /**
   * A client endpoint with no request under the pairing key (this server, this kind) open
   * until `until`, which it then holds. Endpoints come back (a pool); now and then a slot of the
   * pool takes a new port, as clients restart.
   */
  client(server: Server, kind: number, until: number): Endpoint {
    const rng = this.rng;
    for (let tries = 0; tries < 8; tries++) {
      const slot = rng.int(this.pool.length);
      if (rng.chance(0.03)) this.pool[slot] = this.freshEndpoint();
      const c = this.pool[slot]!;
      const key = (c.id * this.servers.length + server.id) * KINDS + kind;
      const held = this.busy.get(key);
      if (held === undefined || held < this.now) {
        this.busy.set(key, until);
        return c;
      }
    }
    const c = this.freshEndpoint();
    this.busy.set((c.id * this.servers.length + server.id) * KINDS + kind, until);
    return c;
  }

  push(t: number, ex: Exchange | null, role: number, category: number, src: Endpoint, dst: Endpoint, bytes: Uint8Array): void {
    if (role === ROLE_OTHER || UDP + bytes.length <= FRAGMENT_DATA) {
      this.schedule.push(new Item(t, this.seq++, ex, role, category, src, dst, bytes, PROTO_UDP, -1, 0));
      return;
    }
    // Larger than one Ethernet frame: IP fragments, 1480 bytes of IP payload each, the last one carrying the record.
    const datagram = udpDatagram(src, dst, bytes);
    const id = (this.ipId = (this.ipId + 1) & 0xffff);
    for (let off = 0; off < datagram.length; off += FRAGMENT_DATA) {
      const last = off + FRAGMENT_DATA >= datagram.length;
      const field = (off >> 3) | (last ? 0 : 0x2000);
      this.schedule.push(
        new Item(
          t,
          this.seq++,
          ex,
          last ? role : ROLE_FRAGMENT,
          last ? category : C.fragment,
          src,
          dst,
          datagram.subarray(off, off + FRAGMENT_DATA),
          PROTO_UDP,
          field,
          id,
        ),
      );
      t += 12_000; // 1500 bytes at 1 Gb/s
    }
    if (role === ROLE_REPLY) this.stats.fragmented++;
  }

  rtt(): number {
    return Math.round(this.rng.range(40_000, 900_000));
  }

  count(name: string): void {
    this.requests[name] = (this.requests[name] ?? 0) + 1;
  }

  /**
   * One request and its reply, or what happens to it instead: silence, a late reply, one from
   * the wrong port, one cut short, one with a warning; and sometimes a copy of the reply.
   */
  simple(
    t: number,
    server: Server,
    kind: number,
    request: Uint8Array,
    reply: Uint8Array | undefined,
    odd: Uint8Array | undefined,
    cut: Uint8Array | undefined,
    protocolMessage: string,
  ): void {
    const rng = this.rng;
    const rtt = this.rtt();
    let outcome: 'reply' | 'silent' | 'late' | 'port' | 'cut' | 'odd' = 'reply';
    if (server.down || !reply) outcome = 'silent';
    else {
      const r = rng.float();
      const small = reply.length + UDP <= FRAGMENT_DATA;
      if (r < 0.0008 && small) outcome = 'late';
      else if (r < 0.0028 && small && kind !== K_PING) outcome = 'port';
      else if (r < 0.0058 && cut) outcome = 'cut';
      else if (r < 0.0118 && odd) outcome = 'odd';
    }
    const replyAt = t + rtt;
    const copyAt =
      outcome === 'reply' && reply!.length + UDP <= FRAGMENT_DATA && rng.chance(0.01)
        ? replyAt + Math.round(rng.range(100_000, 5_000_000))
        : 0;
    const lateAt = outcome === 'late' ? t + Math.round(rng.range(5.2e9, 6e9)) : 0;
    const until =
      outcome === 'reply' || outcome === 'odd' ? Math.max(replyAt, copyAt) + 1e6 : Math.max(t + TIMEOUT_NS + MARGIN_NS, lateAt + 1e6);
    const client = this.client(server, kind, until);
    const category =
      outcome === 'silent' || outcome === 'port'
        ? C.unanswered
        : outcome === 'late'
          ? C['late-request']
          : outcome === 'cut'
            ? C['malformed-request']
            : C.request;
    const ex = new Exchange(category);
    this.push(t, ex, ROLE_REQUEST, 0, client, server, request);
    this.count(protocolMessage);
    switch (outcome) {
      case 'silent':
        this.stats.silent++;
        break;
      case 'late':
        this.stats.late++;
        this.push(lateAt, ex, ROLE_STRAY, C.late, server, client, reply!);
        break;
      case 'port': {
        this.stats.wrongPort++;
        // NAT on the server's side, or a reply from another socket of the host.
        const from = { id: -1, ip: server.ip, port: 1024 + rng.int(60000) };
        this.push(replyAt, ex, ROLE_STRAY, C['unexpected-port'], from, client, reply!);
        break;
      }
      case 'cut':
        this.stats.malformed++;
        this.push(replyAt, ex, ROLE_MALFORMED, C['malformed-reply'], server, client, cut!);
        break;
      case 'odd':
        this.stats.warnings++;
        this.push(replyAt, ex, ROLE_REPLY, C['warning-reply'], server, client, odd!);
        break;
      case 'reply':
        this.push(replyAt, ex, ROLE_REPLY, reply!.length + UDP > FRAGMENT_DATA ? C['fragmented-reply'] : C.reply, server, client, reply!);
        if (copyAt) {
          this.stats.duplicates++;
          this.push(copyAt, ex, ROLE_DUPLICATE, C.duplicate, server, client, reply!);
        }
        break;
    }
  }

  /**
   * An RCON session: a wrong password (one line), RCON off (silence), or one command or several
   * from an admin tool on one socket, each sent 0.1–5 ms after the last line of the one before.
   */
  rcon(t: number, server: Server): void {
    const rng = this.rng;
    const rcon = server.rcon!;
    const wrong = rng.chance(RCON_WRONG);
    const commands = wrong ? 1 : rng.chance(RCON_LONE) ? 1 : 2 + rng.int(5);
    const silent = server.down || !rcon.enabled;
    // Plan the whole session first: the socket is held until its last line, plus the dissector's quiet period.
    const plan: { at: number; command: RconCommand; lines: number[] }[] = [];
    let at = t;
    for (let k = 0; k < commands; k++) {
      // Most commands print a line or two (docs/traffic.md: 19 bytes a reply, median); `players` and `varlist` print pages.
      const command = wrong
        ? rcon.wrong
        : rng.chance(0.06)
          ? rcon.commands[rng.int(2)]!
          : rcon.commands[2 + rng.int(rcon.commands.length - 2)]!;
      const lines: number[] = [];
      if (!silent) {
        let lineAt = at + this.rtt();
        for (let i = 0; i < command.lines.length; i++) {
          lines.push(lineAt);
          lineAt += Math.round(rng.range(10_000, 80_000));
        }
      }
      plan.push({ at, command, lines });
      if (silent) break;
      at = lines[lines.length - 1]! + Math.round(rng.range(100_000, 5_000_000));
    }
    const last = plan[plan.length - 1]!;
    const until = silent ? t + TIMEOUT_NS + MARGIN_NS : last.lines[last.lines.length - 1]! + QUIET_NS + MARGIN_NS;
    const client = this.client(server, K_RCON, until);
    plan.forEach(({ at, command, lines }, k) => {
      const ex = new Exchange(silent ? C.unanswered : k === 0 ? C['rcon-request'] : C['rcon-next-request']);
      this.push(at, ex, ROLE_REQUEST, 0, client, server, command.request);
      this.count('samp.rcon');
      if (silent) this.stats.silent++;
      lines.forEach((lineAt, i) =>
        this.push(lineAt, ex, ROLE_REPLY, k === 0 ? C['rcon-line'] : C['rcon-next-line'], server, client, command.lines[i]!),
      );
    });
  }

  /** A handshake, and mostly a stat request with its token from the same socket once the token is in. */
  minecraftQuery(t: number, server: Server): void {
    const rng = this.rng;
    const sessionId = rng.u32() & 0x0f0f0f0f;
    const token = server.signedTokens ? rng.u32() | 0 : rng.int(1 << 24);
    const hsReply = mcquery.handshakeResponse.encode({ sessionId, token });
    const rtt = this.rtt();
    let outcome: 'reply' | 'silent' | 'late' = server.down ? 'silent' : 'reply';
    if (outcome === 'reply' && rng.chance(0.0008)) outcome = 'late';
    const replyAt = t + rtt;
    const withStat = outcome === 'reply' && rng.chance(STAT_AFTER_HANDSHAKE);
    const copyAt = outcome === 'reply' && rng.chance(0.01) ? replyAt + Math.round(rng.range(100_000, 5_000_000)) : 0;
    const lateAt = outcome === 'late' ? t + Math.round(rng.range(5.2e9, 6e9)) : 0;
    // The stat exchange, planned now: its request 0.05–2 ms after the token arrives.
    const statAt = replyAt + Math.round(rng.range(50_000, 2_000_000));
    const full = rng.chance(0.84);
    const statRtt = this.rtt();
    const r = rng.float();
    const statOutcome: 'reply' | 'silent' | 'cut' = r < 0.015 ? 'silent' : r < 0.018 && full ? 'cut' : 'reply';
    const statCopyAt = statOutcome === 'reply' && rng.chance(0.01) ? statAt + statRtt + Math.round(rng.range(100_000, 5_000_000)) : 0;
    let until = outcome === 'reply' ? Math.max(replyAt, copyAt) + 1e6 : Math.max(t + TIMEOUT_NS + MARGIN_NS, lateAt + 1e6);
    if (withStat)
      until = Math.max(until, statOutcome === 'reply' ? Math.max(statAt + statRtt, statCopyAt) + 1e6 : statAt + TIMEOUT_NS + MARGIN_NS);
    const client = this.client(server, K_MC, until);
    const hs = new Exchange(outcome === 'silent' ? C.unanswered : outcome === 'late' ? C['late-request'] : C.request);
    this.push(t, hs, ROLE_REQUEST, 0, client, server, mcquery.handshakeRequest.encode({ sessionId }));
    this.count('mcquery.handshake');
    if (outcome === 'silent') this.stats.silent++;
    if (outcome === 'late') {
      this.stats.late++;
      this.push(lateAt, hs, ROLE_STRAY, C.late, server, client, hsReply);
    }
    if (outcome !== 'reply') return;
    this.push(replyAt, hs, ROLE_REPLY, C.reply, server, client, hsReply);
    if (copyAt) {
      this.stats.duplicates++;
      this.push(copyAt, hs, ROLE_DUPLICATE, C.duplicate, server, client, hsReply);
    }
    if (!withStat) return;
    // A stale token now and then: the server drops the request (packages/codec/src/protocols/mcquery/README.md).
    const quoted = statOutcome === 'silent' ? (token + 1) | 0 : token;
    const request = full
      ? mcquery.fullRequest.encode({ sessionId, token: quoted, padding: rng.chance(0.5) ? ZERO_PADDING : GAMEDIG_PADDING })
      : mcquery.basicRequest.encode({ sessionId, token: quoted });
    const stat = new Exchange(statOutcome === 'silent' ? C.unanswered : statOutcome === 'cut' ? C['malformed-request'] : C.request);
    this.push(statAt, stat, ROLE_REQUEST, 0, client, server, request);
    this.count(full ? 'mcquery.full' : 'mcquery.basic');
    if (statOutcome === 'silent') {
      this.stats.silent++;
      return;
    }
    let reply: Uint8Array;
    if (statOutcome === 'cut') {
      this.stats.malformed++;
      reply = server.cut['full']!.slice();
    } else {
      reply = rng.pick(full ? server.full! : server.basic!).slice();
    }
    new DataView(reply.buffer).setUint32(1, sessionId);
    const fragmented = reply.length + UDP > FRAGMENT_DATA;
    this.push(
      statAt + statRtt,
      stat,
      statOutcome === 'cut' ? ROLE_MALFORMED : ROLE_REPLY,
      statOutcome === 'cut' ? C['malformed-reply'] : fragmented ? C['fragmented-reply'] : C.reply,
      server,
      client,
      reply,
    );
    if (statCopyAt && !fragmented) {
      this.stats.duplicates++;
      this.push(statCopyAt, stat, ROLE_DUPLICATE, C.duplicate, server, client, reply);
    }
  }

  /** Whatever else crosses the link: DNS lookups, QUIC, TCP segments. */
  other(t: number): void {
    const rng = this.rng;
    const client = rng.pick(this.pool);
    const r = rng.float();
    if (r < 0.45) {
      const resolver = rng.pick(this.resolvers);
      const [query, answer] = dns(rng);
      this.push(t, null, ROLE_OTHER, C.other, client, resolver, query);
      this.push(t + Math.round(rng.range(2e6, 30e6)), null, ROLE_OTHER, C.other, resolver, client, answer);
    } else if (r < 0.6) {
      // QUIC, long header (first byte 0xc0–0xff): nothing any query protocol starts with.
      const web = rng.pick(this.webServers);
      const n = 40 + rng.int(1200);
      const start = rng.int(this.noise.length - n);
      const bytes = this.noise.slice(start, start + n);
      bytes[0] = 0xc0 | (bytes[0]! & 0x3f);
      this.push(t, null, ROLE_OTHER, C.other, client, { ...web, port: 443 }, bytes);
    } else {
      const web = rng.pick(this.webServers);
      const segments = 1 + rng.int(3);
      for (let k = 0; k < segments; k++) {
        const n = k === segments - 1 ? 0 : rng.int(1200);
        const start = rng.int(this.noise.length - n);
        const down = k % 2 === 0;
        this.schedule.push(
          new Item(
            t + k * 30_000,
            this.seq++,
            null,
            ROLE_OTHER,
            C.other,
            down ? web : client,
            down ? client : web,
            this.noise.subarray(start, start + n),
            PROTO_TCP,
            -1,
            0,
          ),
        );
      }
    }
  }

  /** A new exchange begins (and, now and then, something else). */
  slot(t: number): void {
    const rng = this.rng;
    if (t >= this.nextSweep) {
      for (const [key, until] of this.busy) if (until < t) this.busy.delete(key);
      this.nextSweep = t + 1e9;
    }
    if (rng.chance(0.04)) this.other(t);
    const x = rng.float() * this.cumulative[this.cumulative.length - 1]!;
    let k = 0;
    while (this.cumulative[k]! <= x) k++;
    const kind = WEIGHTS[k]![0];
    const variant = <T>(xs: readonly T[] | undefined): T | undefined => (xs && xs.length ? rng.pick(xs) : undefined);
    switch (kind) {
      case 'i':
      case 'r':
      case 'c': {
        const s = rng.pick(this.samp);
        this.simple(
          t,
          s,
          KIND_CODES[kind]!,
          s.requests[kind]!,
          variant(s.replies[kind]),
          rng.chance(0.5) ? s.odd[kind] : undefined,
          s.cut[kind],
          `samp.${kind === 'i' ? 'info' : kind === 'r' ? 'rules' : 'clients'}`,
        );
        break;
      }
      case 'd': {
        // Mostly to SA-MP servers; one in ten to an open.mp one, which never answers `d`.
        const s = rng.chance(0.9) ? rng.pick(this.legacy) : rng.pick(this.openmp);
        this.simple(t, s, K_PLAYERS, s.requests['d']!, variant(s.replies['d']), undefined, undefined, 'samp.players');
        break;
      }
      case 'o': {
        // open.mp clients ask every server; SA-MP ones stay silent.
        const s = rng.chance(0.7) ? rng.pick(this.openmp) : rng.pick(this.legacy);
        this.simple(t, s, K_OMP, s.requests['o']!, variant(s.replies['o']), undefined, undefined, 'samp.omp');
        break;
      }
      case 'p': {
        const s = rng.pick(this.samp);
        const ping = samp.pingRequest.encode({ serverIp: ipText(s.ip), serverPort: s.port, nonce: rng.u32() });
        this.simple(t, s, K_PING, ping, ping, undefined, undefined, 'samp.ping');
        break;
      }
      case 'x':
        this.rcon(t, rng.pick(this.samp));
        break;
      case 'mc':
        this.minecraftQuery(t, rng.pick(this.minecraft));
        break;
      case 'vi':
      case 'vc': {
        const s = rng.pick(this.vcmp);
        const op = kind === 'vi' ? 'i' : 'c';
        this.simple(
          t,
          s,
          KIND_CODES[kind]!,
          s.requests[op]!,
          variant(s.replies[op]),
          op === 'i' && rng.chance(0.5) ? s.odd['i'] : undefined,
          s.cut[op],
          `vcmp.${op === 'i' ? 'info' : 'clients'}`,
        );
        break;
      }
    }
  }

  /** Sends the next scheduled datagram: numbers its frame, records its truth, writes it. */
  emit(item: Item): void {
    const f = ++this.frames;
    this.lastTime = item.t;
    const ex = item.ex;
    const truth = this.truth;
    if (truth) {
      truth.reserve(f);
      truth.frames = f;
    }
    let category = item.category;
    switch (item.role) {
      case ROLE_REQUEST:
        ex!.requestFrame = f;
        category = ex!.requestCategory;
        if (item.src.id >= 0) this.usedEndpoints.add(item.src.id);
        break;
      case ROLE_REPLY:
      case ROLE_MALFORMED:
        if (ex!.firstReply === 0) {
          ex!.firstReply = f;
          if (truth) truth.responseIn[ex!.requestFrame] = f;
        }
        if (truth) truth.requestIn[f] = ex!.requestFrame;
        break;
      case ROLE_DUPLICATE:
        if (truth) {
          truth.requestIn[f] = ex!.requestFrame;
          truth.duplicateOf[f] = ex!.firstReply;
        }
        break;
      case ROLE_STRAY:
        if (truth) truth.requestIn[f] = ex!.requestFrame;
        break;
    }
    if (truth) truth.category[f] = category;
    const w = this.writer;
    const start = w.at;
    if (item.protocol === PROTO_TCP) {
      this.stats.otherFrames++;
      w.tcp(item.t, item.src, item.dst, item.bytes, this.nextIpId(), item.seq * 1447);
    } else if (item.fragment >= 0) {
      w.fragment(item.t, item.src, item.dst, item.bytes, item.ipId, item.fragment);
    } else {
      if (item.role === ROLE_OTHER) this.stats.otherFrames++;
      // What comes in from a client crossed the wire and is padded to Ethernet's minimum; what the host sends is not.
      w.udp(item.t, item.src, item.dst, item.bytes, this.nextIpId(), item.role === ROLE_REQUEST);
    }
    this.bytes += w.at - start;
  }

  nextIpId(): number {
    return (this.ipId = (this.ipId + 1) & 0xffff);
  }

  /** Writes frames until the chunk is full or the capture is complete. */
  fill(): void {
    const schedule = this.schedule;
    while (!this.writer.full && this.frames < this.limit) {
      const next = schedule.peek();
      if (next && next.t <= this.nextSlot) {
        this.emit(schedule.pop()!);
        continue;
      }
      this.now = this.nextSlot;
      this.slot(this.nextSlot);
      this.nextSlot += Math.round((this.rng.range(5_000, 40_000) * SLOT_SCALE) / this.rate);
    }
  }

  summary(): TrafficSummary {
    return {
      frames: this.frames,
      bytes: this.bytes,
      seconds: this.lastTime / 1e9,
      requests: { ...this.requests },
      clientEndpoints: this.usedEndpoints.size,
      servers: this.servers.length,
      ...this.stats,
    };
  }
}

/** A DNS query for an A record and its answer, with a transaction id that starts no query protocol's signature. */
function dns(rng: Rng): [Uint8Array, Uint8Array] {
  const names = [
    'www.google.com',
    'api.open.mp',
    'sa-mp.mp',
    'cdn.discordapp.com',
    'vc-mp.org',
    'mc.hypixel.net',
    'play.cubecraft.net',
    'time.windows.com',
  ];
  const labels = rng.pick(names).split('.');
  const qname: number[] = [];
  for (const l of labels) qname.push(l.length, ...Array.from(l, (ch) => ch.charCodeAt(0)));
  qname.push(0);
  const id = ((0x10 + rng.int(0xe0)) << 8) | rng.int(256);
  const question = [...qname, 0, 1, 0, 1];
  const query = Uint8Array.of(id >> 8, id & 255, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, ...question);
  const answer = Uint8Array.of(
    id >> 8,
    id & 255,
    0x81,
    0x80,
    0,
    1,
    0,
    1,
    0,
    0,
    0,
    0,
    ...question,
    0xc0,
    0x0c,
    0,
    1,
    0,
    1,
    0,
    0,
    0x0e,
    0x10,
    0,
    4,
    142,
    250,
    rng.int(256),
    rng.int(256),
  );
  return [query, answer];
}

/** The classic pcap file header the generators write: nanosecond timestamps, Ethernet. */
export function pcapHeader(): Uint8Array {
  const header = new Uint8Array(24);
  const v = new DataView(header.buffer);
  v.setUint32(0, 0xa1b23c4d, true); // nanosecond timestamps
  v.setUint16(4, 2, true);
  v.setUint16(6, 4, true);
  v.setUint32(16, 65535, true);
  v.setUint32(20, 1, true); // Ethernet
  return header;
}

/**
 * Generates the capture, a chunk at a time (about `chunkBytes` each; the first is the pcap
 * header), and returns what it generated. Fills `options.truth` when given; the truth is
 * complete when the generator returns.
 */
export function* generateTraffic(options: TrafficOptions): Generator<Uint8Array, TrafficSummary> {
  const g = new TrafficGenerator(options);
  yield pcapHeader();
  while (g.frames < g.limit) {
    g.fill();
    if (g.writer.at > 0) yield g.writer.take();
  }
  options.truth?.finish();
  return g.summary();
}
