/**
 * What a query asks (`SampParts`, `VcmpParts`) and what it resolves to: the result of each
 * query procedure (queries.ts), as the client's public API types them.
 */
import type { OmpForm } from '../protocols/samp/omp.ts';
import type { ServerFlavor } from './flavor.ts';

/* ---------- what to ask ---------- */

/** What a SA:MP query asks besides `i`; everything by default. */
export interface SampParts {
  /** `r`. */
  readonly rules?: boolean;
  /** `d` or `c`. */
  readonly players?: boolean;
  /** open.mp's `o`. */
  readonly omp?: boolean;
}

/** What a VC:MP query asks besides `i`. */
export interface VcmpParts {
  /** `c`. Default true. */
  readonly players?: boolean;
}

/* ---------- results ---------- */

/** What every query result tells: the server, the first round trip, notes and detected charsets. */
export interface Where {
  /** The server as given, `host:port`. */
  readonly server: string;
  /** The address queried. */
  readonly address: string;
  readonly port: number;
  /** Round-trip time of the first exchange (`i`; Minecraft: the stat), in ms, sub-millisecond. */
  readonly rttMs: number;
  /** What did not go as asked, in words: lists withheld, fallbacks, retries that mattered. */
  readonly notes: readonly string[];
  /**
   * Charset `auto` (the default): every string that is not all ASCII, by field abbreviation
   * (`samp.info.hostname`), with the charset chosen for it and how sure (0.5…1). Absent when
   * every string was ASCII or a charset was named.
   */
  readonly charsets?: readonly DetectedText[];
}

/** A string decoded with charset `auto`, and what was chosen for it. */
export interface DetectedText {
  readonly field: string;
  readonly text: string;
  readonly charset: string;
  readonly confidence: number;
}

/** A SA:MP `i` reply: password flag, player counts, hostname, gamemode and language. */
export interface SampInfo {
  readonly password: boolean;
  readonly players: number;
  readonly maxPlayers: number;
  readonly hostname: string;
  readonly gamemode: string;
  readonly language: string;
}

/** One player of a SA:MP `c` or `d` reply. */
export interface SampPlayer {
  readonly name: string;
  readonly score: number;
  /** `d` only: the low 8 bits of the player id. */
  readonly id?: number;
  /** `d` only, ms. */
  readonly ping?: number;
}

/** open.mp's `o` strings; empty where not set, and `logo` empty where the form has none (v1.2). */
export interface OmpExtras {
  readonly discord: string;
  readonly bannerLight: string;
  readonly bannerDark: string;
  readonly logo: string;
}

/** What `QueryClient.querySamp` resolves to: the server's info, flavor, and the rules, players and open.mp extras it answered. */
export interface SampQueryResult extends Where {
  readonly protocol: 'samp';
  /** Answered `o`, or has open.mp's rules (`version` "omp …", `allowed_clients`): `flavor.name === 'openmp'`. */
  readonly openmp: boolean;
  /**
   * What the server is, from its rules (flavor.ts) and its `o` reply, with the evidence:
   * `{ name: 'openmp', evidence: ['version=omp 1.4.0.2779', 'allowed_clients=0.3.7, 0.3.DL', 'artwork=No', 'o=logo'] }`.
   * The same facts chose `c` or `d` and the `o` form.
   */
  readonly flavor: ServerFlavor;
  readonly info: SampInfo;
  readonly rules?: Readonly<Record<string, string>>;
  /** Absent when withheld (more than 100 players) or not answered: see `notes`. */
  readonly players?: readonly SampPlayer[];
  readonly playersFrom?: 'd' | 'c';
  /** The extras; absent from v1.1 and older servers, whose `o` is an echo (see `ompForm`). */
  readonly omp?: OmpExtras;
  /** The form `o` was answered in: `echo` (v1.1 and older), `banners` (v1.2), `logo` (v1.3.1 and later). */
  readonly ompForm?: OmpForm;
}

/** A VC:MP `i` reply: version, password flag, player counts, hostname, gamemode and map. */
export interface VcmpInfo {
  readonly version: string;
  readonly password: boolean;
  readonly players: number;
  readonly maxPlayers: number;
  readonly hostname: string;
  readonly gamemode: string;
  readonly map: string;
}

/** What `QueryClient.queryVcmp` resolves to: the server's info and, when answered, its player names. */
export interface VcmpQueryResult extends Where {
  readonly protocol: 'vcmp';
  readonly info: VcmpInfo;
  readonly players?: readonly { readonly name: string }[];
}

/** The fields of a Minecraft basic or full stat reply that both share, and the full stat's extra ones. */
export interface MinecraftInfo {
  readonly motd: string;
  readonly gametype: string;
  readonly map: string;
  readonly numPlayers: number;
  readonly maxPlayers: number;
  readonly hostPort: number;
  readonly hostIp: string;
  /** Full stat only. */
  readonly gameId?: string;
  readonly version?: string;
  readonly plugins?: string;
}

/** What `QueryClient.queryMinecraft` resolves to: the stat's info, and with a full stat its keys and player names. */
export interface MinecraftQueryResult extends Where {
  readonly protocol: 'mcquery';
  /** The stat that came back (Geyser answers a basic request with a full stat). */
  readonly mode: 'full' | 'basic';
  readonly info: MinecraftInfo;
  /** Full stat: every key and value as sent. */
  readonly kv?: Readonly<Record<string, string>>;
  /** Full stat: player names. */
  readonly players?: readonly string[];
  /** 1, or 2 when the first token was not accepted. */
  readonly handshakes: number;
}

/** What `QueryClient.ping` resolves to: the server, round-trip time of the answered `p` in ms, and attempts made. */
export interface PingResult {
  readonly protocol: 'samp' | 'vcmp';
  readonly server: string;
  readonly address: string;
  readonly port: number;
  readonly rttMs: number;
  readonly attempts: number;
}

/** What `QueryClient.rcon` resolves to: the command and its output lines. */
export interface RconResult {
  readonly server: string;
  readonly address: string;
  readonly port: number;
  readonly command: string;
  /** One per reply datagram, in arrival order; empty never (silence is an error). */
  readonly lines: readonly string[];
  /** Time to the first line, ms. */
  readonly rttMs: number;
}
