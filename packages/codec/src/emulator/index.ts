/**
 * @gamequery/codec/emulator — a query-server emulator (Node only) that answers SA-MP 0.3.7,
 * open.mp, VC:MP 0.4 and vanilla Minecraft queries from a JSON state, quirks included,
 * behind per-source abuse limits. Also part of `@gamequery/codec/node`.
 */
export {
  startEmulator,
  isLoopback,
  plainAddress,
  type Emulator,
  type EmulatorConfig,
  type EmulatedServer,
  type EmulatorStats,
  type LimitedEvent,
  type Counters,
} from './emulator.ts';
export {
  parseState,
  resolveServer,
  defaultRules,
  flavors,
  StateError,
  type EmulatorState,
  type ServerState,
  type SampServerState,
  type VcmpServerState,
  type MinecraftServerState,
  type PlayerState,
  type RconState,
  type Flavor,
  type ResolvedServer,
  type ResolvedSamp,
  type ResolvedVcmp,
  type ResolvedMinecraft,
  type ResolvedPlayer,
} from './state.ts';
export { SourceLimiter, defaultLimits, type AbuseLimits } from './limits.ts';
export {
  sampResponder,
  samp037Opcodes,
  openmpOpcodes,
  openmpEchoOpcodes,
  infoCaps,
  MAX_LISTED_PLAYERS,
  OMP_DISCORD_MAX,
  OMP_URL_MAX,
  FLOOD_SLOT_MS,
  INVALID_RCON_PASSWORD,
} from './samp.ts';
export { vcmpResponder, vcmpOpcodes } from './vcmp.ts';
export { minecraftResponder, TOKEN_PURGE_MS, MAX_CHALLENGES, SPLITNUM, vanillaToken, type MinecraftOptions } from './mcquery.ts';
export type { Responder, Source, Opcode, QueryHeader } from './responder.ts';
