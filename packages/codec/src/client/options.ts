/**
 * A {@link QueryClient}'s settings as given (`QueryClientOptions`), as checked and filled in
 * with their defaults (`Settings`), and the counters it keeps (`ClientStats`).
 */
import type { PairingEvent } from '../pairing/types.ts';

/** Settings of a {@link QueryClient}: timeouts, retries and back-off, concurrency, sockets and host lookup. */
export interface QueryClientOptions {
  /** How long each attempt waits for its first reply. Default 1000. */
  readonly timeoutMs?: number;
  /** Attempts after the first when one goes unanswered. Default 2. RCON commands are not resent unless asked. */
  readonly retries?: number;
  /** Pause before the first retry; doubled for each further one, with jitter. Default 100. */
  readonly backoffMs?: number;
  /** Longest pause between attempts. Default 2000. */
  readonly maxBackoffMs?: number;
  /** Requests in flight at most, over all servers. Default 256. */
  readonly concurrency?: number;
  /** Default overall deadline of one query (all its requests and retries). Default none. */
  readonly deadlineMs?: number;
  /** RCON: output ends after this much silence. Default 500. */
  readonly rconQuietMs?: number;
  /** Local addresses to bind. Default `0.0.0.0` and `::`. */
  readonly localAddress?: { readonly ipv4?: string; readonly ipv6?: string };
  /**
   * One connected UDP socket per server instead of the shared one: the host's ICMP port
   * unreachable (which Node reports only on a connected socket) then fails the query at
   * once with an {@link UnreachableError} instead of after its timeouts. For a command that
   * asks a few servers; bulk querying keeps the shared socket (a socket per server costs a
   * file descriptor each). Default false.
   */
  readonly connect?: boolean;
  /** Socket receive buffer, bytes (the kernel may cap it). Default 4 MiB. */
  readonly recvBufferSize?: number;
  /** Host name lookup. Default `dns.promises.lookup`. Not called for IP addresses. */
  readonly lookup?: (host: string) => Promise<{ address: string; family: number }>;
  /**
   * Every pairing event, for diagnostics (unmatched, duplicate and undecodable datagrams
   * included). An RCON request's event carries its decoded value, password included.
   */
  readonly onEvent?: (event: PairingEvent<unknown>) => void;
}

/** Counters of a {@link QueryClient} since it was made: datagrams sent and received, and how they were paired. */
export interface ClientStats {
  /** Request datagrams sent, retries included. */
  sent: number;
  retries: number;
  /** Datagrams received. */
  received: number;
  /** Requests answered. */
  exchanges: number;
  /** Attempts that timed out. */
  unanswered: number;
  /** Replies that belong to no request of ours: late, from the wrong address, or for another request. */
  unmatched: number;
  /** Of the unmatched: late replies taken as the answer while their request waited to be resent. */
  lateTaken: number;
  /** Byte-identical copies of replies already paired. */
  duplicates: number;
  /** Datagrams that are no query message at all (a reply cut inside a field among them). */
  undecodable: number;
  /** Replies paired with a request but cut short (fewer list entries than declared): resent as if lost. */
  truncated: number;
  /** Request-shaped datagrams received (someone querying us): dropped unread. */
  foreign: number;
  sendErrors: number;
  inFlight: number;
  /** Most requests in flight at once so far. */
  peakInFlight: number;
  /** Requests waiting for a slot or for an identical request to settle. */
  waiting: number;
}

/** The options checked, with their defaults (the callbacks stay with the client). */
export type Settings = Required<Omit<QueryClientOptions, 'lookup' | 'onEvent' | 'localAddress' | 'deadlineMs' | 'connect'>> & {
  readonly connect: boolean;
  readonly deadlineMs: number | undefined;
  readonly local: { readonly 4: string; readonly 6: string };
};

const positive = (name: string, v: number, min = 0): number => {
  if (!(v >= min) || Number.isNaN(v)) throw new RangeError(`QueryClient: ${name} must be a number ≥ ${min}, got ${v}`);
  return v;
};

/** Checks the options (a RangeError names the bad one) and fills in the defaults. */
export const settingsOf = (options: QueryClientOptions): Settings => ({
  timeoutMs: positive('timeoutMs', options.timeoutMs ?? 1000, 1),
  retries: Math.floor(positive('retries', options.retries ?? 2)),
  backoffMs: positive('backoffMs', options.backoffMs ?? 100),
  maxBackoffMs: positive('maxBackoffMs', options.maxBackoffMs ?? 2000),
  concurrency: Math.floor(positive('concurrency', options.concurrency ?? 256, 1)),
  deadlineMs: options.deadlineMs === undefined ? undefined : positive('deadlineMs', options.deadlineMs, 1),
  rconQuietMs: positive('rconQuietMs', options.rconQuietMs ?? 500, 1),
  recvBufferSize: Math.floor(positive('recvBufferSize', options.recvBufferSize ?? 4 * 1024 * 1024, 1)),
  local: { 4: options.localAddress?.ipv4 ?? '0.0.0.0', 6: options.localAddress?.ipv6 ?? '::' },
  connect: !!options.connect,
});
