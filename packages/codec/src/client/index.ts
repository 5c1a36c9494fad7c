/**
 * @gamequery/codec/client — the query client (Node only): SA:MP / open.mp, VC:MP and
 * Minecraft queries, ping and RCON over UDP, with retries, deadlines and typed errors,
 * plus the server-address parsing and flavor detection it uses. Also part of
 * `@gamequery/codec/node`.
 */
export { QueryClient } from './client.ts';
export type { QueryClientOptions, ClientStats } from './options.ts';
export type { CallOptions, QueryTarget } from './session.ts';
export { withClient, querySamp, queryVcmp, queryMinecraft, ping, rcon } from './once.ts';
export type {
  SampQueryResult,
  SampInfo,
  SampPlayer,
  OmpExtras,
  DetectedText,
  VcmpQueryResult,
  VcmpInfo,
  MinecraftQueryResult,
  MinecraftInfo,
  PingResult,
  RconResult,
  SampParts,
  VcmpParts,
} from './queries.ts';
export {
  QueryError,
  NoReplyError,
  RconSilenceError,
  WrongPasswordError,
  DeadlineError,
  AbortedError,
  ClientClosedError,
  ResolveError,
  SendError,
  BadReplyError,
  UnreachableError,
  type QueryFailure,
  type QueryErrorInfo,
} from './errors.ts';
export { flavorOfRules, ompFormOfFlavor, FLAVOR_RULES, type ServerFlavor, type ServerFlavorName } from './flavor.ts';
export { parseServer, showServer, canonicalAddress, defaultPorts, TargetError, type ServerAddress } from './target.ts';
