/**
 * The query-server emulator: several emulated servers, each on its own UDP socket,
 * in one process, behind shared per-source abuse limits (see limits.ts).
 *
 * Binds to loopback unless told otherwise: a public emulator answers anybody, and
 * since SA:MP/VC:MP replies go to the claimed source address, it can be used to
 * reflect traffic at a spoofed victim. `allowPublic` must be set to bind anything else.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { BlockList, isIP } from 'node:net';
import type { BuiltInProtocol as Protocol } from '../protocols/index.ts';
import { hostPort } from '../grammar/display.ts';
import { CodecError } from '../errors.ts';
import { resolveServer, type Flavor, type ResolvedServer, type ServerState } from './state.ts';
import { SourceLimiter, type AbuseLimits } from './limits.ts';
import { sampResponder } from './samp.ts';
import { vcmpResponder } from './vcmp.ts';
import { minecraftResponder } from './mcquery.ts';
import type { Responder } from './responder.ts';

/** What the per-source limits dropped of one source since it was last told (see {@link EmulatorConfig.onLimited}). */
export interface LimitedEvent {
  readonly source: string;
  /** The server it was sending to (the first one limited in this report). */
  readonly server: string;
  readonly requests: number;
  readonly replies: number;
}

/** What {@link startEmulator} starts: the servers, where they bind, and the abuse limits and Minecraft token settings. */
export interface EmulatorConfig {
  readonly servers: readonly ServerState[];
  /** Bind address of servers that name none. Default 127.0.0.1. */
  readonly host?: string;
  /** Added to every non-zero port (so a state file can be run beside a real server). Default 0. */
  readonly portOffset?: number;
  /** Required to bind an address that is not loopback. Default false. */
  readonly allowPublic?: boolean;
  readonly limits?: Partial<AbuseLimits>;
  /**
   * Told when the limits drop a source's datagrams: at most once per source and second, with
   * how many requests (over the request rate) and replies (over the byte rate) it lost since.
   */
  readonly onLimited?: (event: LimitedEvent) => void;
  /** Minecraft: how often all challenge tokens are purged. Default 30 000 (vanilla). */
  readonly tokenPurgeMs?: number;
  /** Minecraft: token generator. Default: vanilla's random integer in 0…16 777 215. */
  readonly tokenSource?: () => number;
}

/** One running emulated server: its name, protocol, flavor and the address and port it is bound to. */
export interface EmulatedServer {
  /** Hostname (SA:MP, VC:MP) or MOTD (Minecraft). */
  readonly name: string;
  readonly protocol: Protocol;
  readonly flavor: Flavor;
  /** The bound address and port (the actual port when 0 was asked for). */
  readonly address: string;
  readonly port: number;
}

/** Traffic counts of one emulated server (or of all): datagrams and bytes in and out, and why requests went unanswered. */
export interface Counters {
  /** Datagrams received. */
  received: number;
  bytesIn: number;
  /** Requests that got at least one reply datagram out. */
  answered: number;
  /** Requests the emulated server does not answer (wrong length, unknown opcode, bad token, > 100 players…). */
  silent: number;
  /** Reply datagrams sent, and their bytes. */
  replies: number;
  bytesOut: number;
  /** Requests dropped by the per-source request rate. */
  rateLimited: number;
  /** Reply datagrams dropped by the per-source byte budget. */
  byteCapped: number;
  /** Reply datagrams the socket failed to send. */
  sendErrors: number;
  /** Requests that raised an unexpected error (a bug; the server keeps running). */
  errors: number;
}

/** The counters of a running emulator, summed and per server, and how many source addresses the limiter tracks. */
export interface EmulatorStats {
  readonly total: Counters;
  readonly servers: ReadonlyArray<EmulatedServer & Counters>;
  /** Source addresses the limiter currently tracks. */
  readonly sources: number;
}

/** A running emulator as {@link startEmulator} returns it: its servers, their counters, and `close`. */
export interface Emulator {
  readonly servers: readonly EmulatedServer[];
  /** Closes every socket and timer. */
  close(): Promise<void>;
  stats(): EmulatorStats;
}

const protocolOf: Record<Flavor, Protocol> = { samp037: 'samp', openmp: 'samp', vcmp: 'vcmp', minecraft: 'mcquery' };

const zero = (): Counters => ({
  received: 0,
  bytesIn: 0,
  answered: 0,
  silent: 0,
  replies: 0,
  bytesOut: 0,
  rateLimited: 0,
  byteCapped: 0,
  sendErrors: 0,
  errors: 0,
});

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is the IPv4 address. */
export const plainAddress = (address: string): string => {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : address;
};

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 and ::1 (in any spelling). */
export function isLoopback(address: string): boolean {
  const a = plainAddress(address);
  const family = isIP(a);
  return family !== 0 && loopback.check(a, family === 6 ? 'ipv6' : 'ipv4');
}

function bindAddress(host: string, allowPublic: boolean, path: string): string {
  const address = host === 'localhost' ? '127.0.0.1' : host;
  if (!isIP(address)) throw new Error(`${path}: ${JSON.stringify(host)} is not an IP address`);
  if (!allowPublic && !isLoopback(address)) {
    throw new Error(`${path}: refusing to bind ${address}, which is not loopback (set allowPublic to serve other hosts)`);
  }
  return address;
}

/**
 * Receive buffer of each server socket (the kernel may cap it: net.core.rmem_max). Under a
 * flood, a full buffer drops datagrams before the limiter sees them — other sources' too —
 * so it is sized to absorb a burst while the event loop is busy.
 */
const RECV_BUFFER = 1 << 20;

function bind(address: string, port: number): Promise<Socket> {
  const socket = createSocket(
    isIP(address) === 6 ? { type: 'udp6', ipv6Only: true, recvBufferSize: RECV_BUFFER } : { type: 'udp4', recvBufferSize: RECV_BUFFER },
  );
  return new Promise((resolve, reject) => {
    const failed = (e: Error): void => {
      socket.close();
      reject(new Error(`cannot bind ${hostPort(address, port)}: ${e.message}`));
    };
    socket.once('error', failed);
    socket.bind({ address, port, exclusive: true }, () => {
      socket.off('error', failed);
      resolve(socket);
    });
  });
}

const nameOf = (s: ResolvedServer): string => (s.flavor === 'minecraft' ? s.motd : s.hostname);

/**
 * Starts every server of `config`. Resolves once all sockets are bound; if one cannot
 * be bound, the others are closed again and the promise rejects.
 */
export async function startEmulator(config: EmulatorConfig): Promise<Emulator> {
  const resolved = config.servers.map((s, i) => resolveServer(s, `servers[${i}]`));
  const offset = config.portOffset ?? 0;
  const defaultHost = config.host ?? '127.0.0.1';
  const plan = resolved.map((s, i) => {
    const port = s.port === 0 ? 0 : s.port + offset;
    if (port < 0 || port > 0xffff || (s.port !== 0 && port === 0)) {
      throw new Error(`servers[${i}].port: ${s.port} + offset ${offset} = ${port} is not a port in 1..65535`);
    }
    return { state: s, port, address: bindAddress(s.host ?? defaultHost, config.allowPublic ?? false, `servers[${i}].host`) };
  });

  if (config.tokenPurgeMs !== undefined && !(config.tokenPurgeMs > 0))
    throw new RangeError('tokenPurgeMs: expected a positive number of milliseconds');
  const limiter = new SourceLimiter(config.limits);
  const reporter = config.onLimited ? new LimitReporter(config.onLimited) : undefined;
  const limited = reporter
    ? (source: string, server: string, what: 'requests' | 'replies') => reporter.drop(source, server, what)
    : undefined;
  const sockets: Socket[] = [];
  try {
    for (const p of plan) sockets.push(await bind(p.address, p.port));
  } catch (e) {
    await Promise.all(sockets.map((s) => new Promise<void>((r) => s.close(() => r()))));
    throw e;
  }

  const total = zero();
  const running = plan.map((p, i) => {
    const socket = sockets[i]!;
    const port = socket.address().port;
    const info: EmulatedServer = {
      name: nameOf(p.state),
      protocol: protocolOf[p.state.flavor],
      flavor: p.state.flavor,
      address: p.address,
      port,
    };
    const responder: Responder =
      p.state.flavor === 'minecraft'
        ? minecraftResponder(p.state, {
            boundPort: port,
            boundAddress: p.address,
            ...(config.tokenPurgeMs === undefined ? {} : { tokenPurgeMs: config.tokenPurgeMs }),
            ...(config.tokenSource === undefined ? {} : { tokenSource: config.tokenSource }),
          })
        : p.state.flavor === 'vcmp'
          ? vcmpResponder(p.state)
          : sampResponder(p.state);
    const server = hostPort(p.address, port);
    const counters = zero();
    const count = (key: keyof Counters, n = 1): void => {
      counters[key] += n;
      total[key] += n;
    };

    socket.on('message', (msg: Buffer, rinfo: RemoteInfo) => {
      count('received');
      count('bytesIn', msg.length);
      const source = plainAddress(rinfo.address);
      if (!limiter.admitRequest(source)) {
        count('rateLimited');
        limited?.(source, server, 'requests');
        return;
      }
      let replies: Uint8Array[];
      try {
        replies = responder.respond(
          new Uint8Array(msg.buffer, msg.byteOffset, msg.length),
          { address: source, port: rinfo.port },
          performance.now(),
        );
      } catch (e) {
        // A request the codec cannot decode is one the server ignores; anything else is a bug.
        count(e instanceof CodecError ? 'silent' : 'errors');
        return;
      }
      if (replies.length === 0) {
        count('silent');
        return;
      }
      let sent = 0;
      for (const reply of replies) {
        if (!limiter.admitReply(source, reply.length)) {
          count('byteCapped');
          limited?.(source, server, 'replies');
          continue;
        }
        sent++;
        socket.send(reply, rinfo.port, rinfo.address, (err) => {
          if (err) {
            count('sendErrors');
          } else {
            count('replies');
            count('bytesOut', reply.length);
          }
        });
      }
      if (sent > 0) count('answered');
    });
    socket.on('error', () => count('errors'));
    return { info, socket, responder, counters };
  });

  let closed: Promise<void> | undefined;
  return {
    servers: running.map((r) => r.info),
    stats: () => ({
      total: { ...total },
      servers: running.map((r) => ({ ...r.info, ...r.counters })),
      sources: limiter.size,
    }),
    close: () =>
      (closed ??= Promise.all(
        running.map((r) => {
          r.responder.close();
          return new Promise<void>((resolve) => r.socket.close(() => resolve()));
        }),
      ).then(() => reporter?.flush())),
  };
}

/**
 * Tells what the limits drop, per source: at once the first time, then at most once a
 * second with what was dropped since (and the rest when the emulator closes), so that a
 * throttled client is never a mystery and a flood is not a flood of log lines.
 */
class LimitReporter {
  readonly #sources = new Map<string, { told: number; server: string; requests: number; replies: number }>();

  constructor(private readonly tell: (event: LimitedEvent) => void) {}

  drop(source: string, server: string, what: 'requests' | 'replies'): void {
    const now = performance.now();
    let s = this.#sources.get(source);
    if (!s) {
      // Bounded: sources told and owed nothing go first.
      if (this.#sources.size >= 10_000) for (const [k, v] of this.#sources) if (v.requests + v.replies === 0) this.#sources.delete(k);
      this.#sources.set(source, (s = { told: -Infinity, server, requests: 0, replies: 0 }));
    }
    if (s.requests + s.replies === 0) s.server = server;
    s[what]++;
    if (now - s.told >= 1000) this.#tell(source, s, now);
  }

  /** What is owed, told now. */
  flush(): void {
    const now = performance.now();
    for (const [source, s] of this.#sources) if (s.requests + s.replies > 0) this.#tell(source, s, now);
  }

  #tell(source: string, s: { told: number; server: string; requests: number; replies: number }, now: number): void {
    this.tell({ source, server: s.server, requests: s.requests, replies: s.replies });
    s.told = now;
    s.requests = 0;
    s.replies = 0;
  }
}
