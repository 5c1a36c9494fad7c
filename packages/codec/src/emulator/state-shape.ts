/**
 * What an emulator state file holds ({@link EmulatorState}, as written: see
 * `examples/servers.json`) and what each server becomes once checked, every default filled
 * (`Resolved…`, what the responders answer from). Types and the list of flavors only;
 * state.ts checks a state and turns it into these.
 */
import type { Charset } from '../grammar/charset.ts';
import type { OmpForm } from '../protocols/samp/omp.ts';

/**
 * `samp037`: SA-MP 0.3.7 as YSF reimplements it; `openmp`: open.mp;
 * `vcmp`: VC:MP 0.4; `minecraft`: the vanilla Java server's GameSpy4 query.
 */
export type Flavor = 'samp037' | 'openmp' | 'vcmp' | 'minecraft';

/** Every {@link Flavor}, in the order the state file's error message lists them. */
export const flavors: readonly Flavor[] = ['samp037', 'openmp', 'vcmp', 'minecraft'];

/** One player of an emulated server as a state file gives it; only `name` is required. */
export interface PlayerState {
  /** Nickname. SA:MP caps it at 24 bytes (MAX_PLAYER_NAME). */
  readonly name: string;
  /** SA:MP `c`/`d` score (signed 32-bit). Default 0. */
  readonly score?: number;
  /** SA:MP `d` ping in ms. Default 0. */
  readonly ping?: number;
  /** SA:MP player id 0…999; `d` sends its low 8 bits. Default: the index in the list. */
  readonly id?: number;
  /** SA:MP NPC: left out of the count and the lists, and subtracted from max players. */
  readonly npc?: boolean;
}

/** A SA:MP server's RCON: its password, whether it is on, and the canned output of commands. */
export interface RconState {
  readonly password: string;
  /** `rcon 0` / `rcon.enable=false`: every `x` request is met with silence. Default true. */
  readonly enabled?: boolean;
  /**
   * Canned console output, one array element per line (each line is one reply
   * datagram). Looked up by the whole command, then by its first word.
   */
  readonly commands?: Readonly<Record<string, readonly string[]>>;
  /** The line for any other command; `{command}` is replaced. */
  readonly unknownCommand?: string;
}

interface ServerBase {
  /** UDP port; 0 picks an ephemeral one. The CLI's `--port-offset` is added to non-zero ports. */
  readonly port: number;
  /** Bind address. Default: the emulator's `host` (127.0.0.1). */
  readonly host?: string;
}

/** A SA-MP 0.3.7 or open.mp server in a state file; what is left out takes the flavor's default. */
export interface SampServerState extends ServerBase {
  readonly flavor: 'samp037' | 'openmp';
  /** Default "SA-MP 0.3 Server" (0.3.7), "open.mp server" (open.mp). Capped at 50 / 63 bytes. */
  readonly hostname?: string;
  /** Default "Unknown". Capped at 30 / 39 bytes. */
  readonly gamemode?: string;
  /**
   * Third `i` string. Default "" for 0.3.7, which then sends the `mapname` rule
   * instead (YSF); "EN" for open.mp. Capped at 30 / 39 bytes.
   */
  readonly language?: string;
  readonly password?: boolean;
  readonly maxPlayers: number;
  readonly players?: readonly PlayerState[];
  /** Rule name → value; sent sorted by name. Default: the stock rules of the flavor. */
  readonly rules?: Readonly<Record<string, string>>;
  /** Absent: RCON disabled (silence). */
  readonly rcon?: RconState;
  /**
   * open.mp only: the release to answer `o` as (`1.1.0.2612`, `1.2.0.2670`, `1.4.0.2779`):
   * before 1.2 the 15-byte echo, 1.2 three strings with banners cut to 120 bytes, from 1.3.1
   * four strings cut to 160 (samp/omp.ts). Default: the `version` rule's ("omp 1.4.0.2779"),
   * which then says this one too.
   */
  readonly ompVersion?: string;
  /** open.mp `o`: Discord invite, sent empty when longer than 50 bytes. */
  readonly discord?: string;
  /** open.mp `o`: banner and logo URLs, cut to 160 bytes. */
  readonly bannerLight?: string;
  readonly bannerDark?: string;
  readonly logo?: string;
  /** Code page of the strings on the wire. Default windows-1252. */
  readonly charset?: Charset;
  /**
   * 0.3.7 only: YSF's `CheckQueryFlood` — `i r c d x` from a source address other than
   * the last one answered are dropped within 25 ms of it (one slot per server).
   * Default off: it makes one slow client starve every other.
   */
  readonly floodGuard?: boolean;
}

/** A VC:MP 0.4 server in a state file; what is left out takes its default. */
export interface VcmpServerState extends ServerBase {
  readonly flavor: 'vcmp';
  /** Server build, at most 12 bytes. Default "04rel006". */
  readonly version?: string;
  readonly hostname?: string;
  readonly gamemode?: string;
  /** The third `i` string (a map name, not a language). */
  readonly map?: string;
  readonly password?: boolean;
  readonly maxPlayers: number;
  /** Only the names are sent. */
  readonly players?: readonly PlayerState[];
  readonly charset?: Charset;
}

/** A vanilla Minecraft (Java) query server in a state file; what is left out takes its default. */
export interface MinecraftServerState extends ServerBase {
  readonly flavor: 'minecraft';
  /** `motd`, also the full stat's `hostname`. Written as vanilla does: the low byte of each character. */
  readonly motd?: string;
  /** Default "SMP". */
  readonly gametype?: string;
  /** The full stat's `game_id`. Default "MINECRAFT". */
  readonly gameId?: string;
  /** Default "1.21.4". */
  readonly version?: string;
  /** Empty on vanilla (the default); "Paper on 1.16.5-R0.1-SNAPSHOT: …" on Bukkit servers. */
  readonly plugins?: string;
  /** World name. Default "world". */
  readonly map?: string;
  readonly maxPlayers?: number;
  /** Only the names are sent. */
  readonly players?: readonly PlayerState[];
  /** The game port the query reports. Default: the port the emulator bound. */
  readonly hostPort?: number;
  /** Default: the bind address. */
  readonly hostIp?: string;
}

/** One server of a state file, told apart by `flavor`. */
export type ServerState = SampServerState | VcmpServerState | MinecraftServerState;

/** The JSON document `gamequery serve` reads. */
export interface EmulatorState {
  readonly servers: readonly ServerState[];
}

/* ---------- checked, with defaults filled ---------- */

/** A player as {@link resolveServer} returns it: checked, every default filled. */
export interface ResolvedPlayer {
  readonly name: string;
  readonly score: number;
  readonly ping: number;
  readonly id: number;
  readonly npc: boolean;
}

/** A SA-MP 0.3.7 or open.mp server state as {@link resolveServer} returns it: checked, every default filled. */
export interface ResolvedSamp {
  readonly flavor: 'samp037' | 'openmp';
  readonly port: number;
  readonly host: string | undefined;
  readonly hostname: string;
  readonly gamemode: string;
  readonly language: string;
  readonly password: boolean;
  readonly maxPlayers: number;
  readonly players: readonly ResolvedPlayer[];
  readonly rules: Readonly<Record<string, string>>;
  readonly rcon: Required<RconState> | undefined;
  readonly discord: string;
  readonly bannerLight: string;
  readonly bannerDark: string;
  readonly logo: string;
  /** open.mp: the form `o` is answered in (from `ompVersion`). */
  readonly ompForm: OmpForm;
  readonly charset: Charset;
  readonly floodGuard: boolean;
}

/** A VC:MP server state as {@link resolveServer} returns it: checked, every default filled. */
export interface ResolvedVcmp {
  readonly flavor: 'vcmp';
  readonly port: number;
  readonly host: string | undefined;
  readonly version: string;
  readonly hostname: string;
  readonly gamemode: string;
  readonly map: string;
  readonly password: boolean;
  readonly maxPlayers: number;
  readonly players: readonly ResolvedPlayer[];
  readonly charset: Charset;
}

/** A Minecraft server state as {@link resolveServer} returns it: checked, every default filled. */
export interface ResolvedMinecraft {
  readonly flavor: 'minecraft';
  readonly port: number;
  readonly host: string | undefined;
  readonly motd: string;
  readonly gametype: string;
  readonly gameId: string;
  readonly version: string;
  readonly plugins: string;
  readonly map: string;
  readonly maxPlayers: number;
  readonly players: readonly ResolvedPlayer[];
  readonly hostPort: number | undefined;
  readonly hostIp: string | undefined;
}

/** A checked server state with its defaults filled, told apart by `flavor`; what the responders answer from. */
export type ResolvedServer = ResolvedSamp | ResolvedVcmp | ResolvedMinecraft;
