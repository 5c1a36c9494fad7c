/**
 * One query with a client of its own, closed afterwards: for a script that asks one server
 * once. Many queries share one {@link QueryClient} instead (`withClient`). The client's
 * socket is connected to the server (`connect: true` unless the options say otherwise), so
 * a closed port fails at once with `UnreachableError`, as `gamequery query` finds it, and
 * not after every attempt's timeout.
 */
import { QueryClient } from './client.ts';
import type { QueryClientOptions } from './options.ts';
import type { MinecraftQueryResult, PingResult, RconResult, SampParts, SampQueryResult, VcmpParts, VcmpQueryResult } from './queries.ts';
import type { CallOptions } from './session.ts';
import { defaultPorts } from './target.ts';

/** Runs `fn` with a client of `options` and closes it afterwards. */
export async function withClient<T>(options: QueryClientOptions, fn: (client: QueryClient) => Promise<T>): Promise<T> {
  const client = new QueryClient(options);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** A one-shot client's options: connected to its one server unless told otherwise. */
const own = (options: QueryClientOptions): QueryClientOptions => ({ connect: true, ...options });

/** One SA:MP / open.mp query with a client of its own. */
export const querySamp = (
  host: string,
  port: number = defaultPorts.samp,
  options: QueryClientOptions & CallOptions & SampParts = {},
): Promise<SampQueryResult> => withClient(own(options), (c) => c.querySamp(host, port, options));

/** One VC:MP query with a client of its own. */
export const queryVcmp = (
  host: string,
  port: number = defaultPorts.vcmp,
  options: QueryClientOptions & CallOptions & VcmpParts = {},
): Promise<VcmpQueryResult> => withClient(own(options), (c) => c.queryVcmp(host, port, options));

/** One Minecraft query with a client of its own. */
export const queryMinecraft = (
  host: string,
  port: number = defaultPorts.mcquery,
  options: QueryClientOptions & CallOptions & { readonly mode?: 'full' | 'basic' } = {},
): Promise<MinecraftQueryResult> => withClient(own(options), (c) => c.queryMinecraft(host, port, options));

/** One `p` with a client of its own. */
export const ping = (
  host: string,
  port: number = defaultPorts.samp,
  options: QueryClientOptions & CallOptions & { readonly protocol?: 'samp' | 'vcmp' } = {},
): Promise<PingResult> => withClient(own(options), (c) => c.ping(host, port, options));

/** One RCON command with a client of its own. */
export const rcon = (
  host: string,
  port: number,
  password: string,
  command: string,
  options: QueryClientOptions & CallOptions = {},
): Promise<RconResult> => withClient(own(options), (c) => c.rcon(host, port, password, command, options));
