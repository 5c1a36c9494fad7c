/**
 * The query client: any number of concurrent queries to any number of servers over one
 * UDP socket per address family (`udp4`, `udp6`, each created on first use). Every
 * datagram, sent or received, goes through one {@link QueryPairer} — the same core that
 * pairs the datagrams of a capture — so what counts as "the reply to this request" is
 * decided in one place:
 *
 *   request ─ key free? ─ slot free? ─► pairer.receive(request) ─► socket.send
 *   datagram ──────────────────────────► pairer.receive(reply) ─► exchange ─► settle
 *   timer at pairer.nextDeadline() ────► pairer.expire(now) ───► unanswered ─► retry after back-off
 *
 * Keys. A reply names its request only by what it echoes: SA:MP
 * and VC:MP echo the 11-byte header, so two identical requests to one server cannot be
 * told apart and the second waits until the first has settled (a `p` carries a fresh
 * random nonce instead); Minecraft echoes a session id, fresh and masked per exchange, and
 * a whole handshake → stat sequence holds its server because vanilla keeps one challenge
 * per client address.
 *
 * A reply cut short — a list with fewer entries than its count, which the codec reads as
 * far as it goes — is not taken as the answer: the attempt counts as
 * unanswered and is resent; if every attempt brings a cut reply, the query says so.
 *
 * Datagrams go to the given targets only. Times come from `process.hrtime.bigint()`, so
 * round-trip times are exact to the nanosecond before they become milliseconds.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Protocol } from '../grammar/layout.ts';
import { recognize } from '../packet.ts';
import { QueryPairer } from '../pairing/pairer.ts';
import type { Datagram, DecodedDatagram, Endpoint, ExchangeEvent, PairingEvent } from '../pairing/types.ts';
import {
  AbortedError, ClientClosedError, DeadlineError, QueryError, ResolveError, SendError, TRUNCATED_REPLY, UnreachableError,
} from './errors.ts';
import { canonicalAddress, showServer } from './target.ts';
import {
  minecraftQuery, pingQuery, rconQuery, sampQuery, vcmpQuery,
  type MinecraftQueryResult, type PingResult, type RconResult, type SampParts, type SampQueryResult, type VcmpParts, type VcmpQueryResult,
} from './queries.ts';
import type { CallOptions, Outcome, QueryTarget, Session } from './session.ts';

export type { CallOptions, QueryTarget } from './session.ts';

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

interface Bound {
  readonly socket: Socket;
  readonly local: Endpoint;
  /** A connected socket's attempts in flight, which an ICMP port unreachable fails. */
  readonly attempts?: Set<Attempt>;
}

type Settle =
  | { readonly kind: 'exchange'; readonly exchange: ExchangeEvent<unknown> }
  | { readonly kind: 'silence'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: QueryError };

interface Job {
  readonly server: QueryTarget;
  /** The server's own connected socket (the `connect` option), else the shared one of its family. */
  readonly bound: Bound | undefined;
  readonly protocol: Protocol;
  readonly build: (attempt: number) => Uint8Array;
  readonly lockKey: string | undefined;
  readonly retries: number;
  readonly scope: Scope;
  readonly resolve: (o: Outcome) => void;
  state: 'waiting' | 'ready' | 'in-flight' | 'backoff' | 'done';
  attempts: number;
  holdsKey: boolean;
  current: Attempt | undefined;
  backoff: NodeJS.Timeout | undefined;
  unsubscribe: (() => void) | undefined;
}

interface Attempt {
  readonly job: Job;
  /** 0 for the first. */
  readonly index: number;
  settled: boolean;
  timedOut: boolean;
  holdsSlot: boolean;
}

/** A FIFO with cheap shifts and a front door for retries. */
class Queue<T> {
  #items: T[] = [];
  #head = 0;
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(x: T): void {
    this.#items.push(x);
  }
  pushFront(x: T): void {
    if (this.#head > 0) this.#items[--this.#head] = x;
    else this.#items.unshift(x);
  }
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const x = this.#items[this.#head]!;
    this.#items[this.#head++] = undefined as T;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return x;
  }
}

const now = (): bigint => process.hrtime.bigint();

const positive = (name: string, v: number, min = 0): number => {
  if (!(v >= min) || Number.isNaN(v)) throw new RangeError(`QueryClient: ${name} must be a number ≥ ${min}, got ${v}`);
  return v;
};

/** Why a query stopped: a QueryError, or what an AbortSignal carried. */
type StopReason = QueryError | { readonly signal: unknown } | typeof FINISHED;

/** The query returned: whatever it left running (an `o` it stopped waiting for) stops too. */
const FINISHED = Symbol('finished');

/** The reason as a QueryError of this server. */
function stopError(r: StopReason, server: string, protocol: Protocol): QueryError {
  if (r instanceof QueryError) return r;
  const carried = r === FINISHED ? 'the query has finished' : r.signal;
  if (carried instanceof QueryError) {
    // A QueryError given to an AbortSignal (a run-wide deadline, say): the same, for this server.
    const Kind = carried.constructor as new (message: string, info: QueryError['info']) => QueryError;
    return new Kind(carried.message, { ...carried.info, server, protocol });
  }
  const why = carried instanceof Error ? carried.message : String(carried);
  return new AbortedError(`query of ${server} aborted: ${why}`, { code: 'aborted', server, protocol });
}

/**
 * One query's lifetime: stopped by its deadline, the caller's AbortSignal, the client's
 * close, or its own end. (An EventTarget per query and per request costs more than the
 * queries themselves at 10 000 servers.)
 */
class Scope {
  reason: StopReason | undefined;
  readonly #listeners = new Set<(r: StopReason) => void>();

  stop(reason: StopReason): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    for (const l of this.#listeners) l(reason);
    this.#listeners.clear();
  }

  /** Calls `l` once when stopped; returns the unsubscription. */
  on(l: (r: StopReason) => void): () => void {
    this.#listeners.add(l);
    return () => this.#listeners.delete(l);
  }

  /** Rejects when stopped, with the reason as an error. */
  until(error: (r: StopReason) => QueryError): Promise<never> {
    return new Promise<never>((_, reject) => {
      if (this.reason !== undefined) reject(error(this.reason));
      else this.on((r) => reject(error(r)));
    });
  }
}

/**
 * Queries SA:MP, VC:MP and Minecraft servers over shared UDP sockets, with timeouts, retries and a
 * concurrency limit. Each query resolves to its result or rejects with a {@link QueryError}.
 */
export class QueryClient {
  readonly #o: Required<Omit<QueryClientOptions, 'lookup' | 'onEvent' | 'localAddress' | 'deadlineMs' | 'connect'>> & {
    readonly connect: boolean;
    readonly deadlineMs: number | undefined;
    readonly local: { readonly 4: string; readonly 6: string };
  };
  readonly #lookup: (host: string) => Promise<{ address: string; family: number }>;
  readonly #onEvent: ((event: PairingEvent<unknown>) => void) | undefined;
  readonly #pairer: QueryPairer<Attempt>;
  readonly #sockets: { 4?: Promise<Bound>; 6?: Promise<Bound> } = {};
  readonly #bound: { 4?: Bound; 6?: Bound } = {};
  /** Connected sockets by server (`connect`), and those open. */
  readonly #connected = new Map<string, Promise<Bound>>();
  readonly #open = new Set<Bound>();
  readonly #ready = new Queue<Job>();
  /** Lock key → jobs waiting for it; a key present here is held. */
  readonly #keys = new Map<string, Job[]>();
  readonly #chains = new Map<string, Promise<unknown>>();
  /** Queries under way, to stop on close. */
  readonly #scopes = new Set<Scope>();
  #closeReason: ClientClosedError | undefined;
  #closed: Promise<void> | undefined;
  #isClosed = false;
  #timer: NodeJS.Timeout | undefined;
  #timerAt: bigint | undefined;
  #inFlight = 0;
  #waiting = 0;
  /** Queries and jobs under way: the sockets keep the process alive only while this is > 0. */
  #busy = 0;
  readonly #stats = {
    sent: 0, retries: 0, received: 0, exchanges: 0, unanswered: 0, unmatched: 0, duplicates: 0, undecodable: 0, truncated: 0,
    foreign: 0, sendErrors: 0, peakInFlight: 0, lateTaken: 0,
  };

  constructor(options: QueryClientOptions = {}) {
    this.#o = {
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
    };
    this.#lookup = options.lookup ?? ((host) => dnsLookup(host));
    this.#onEvent = options.onEvent;
    this.#pairer = new QueryPairer<Attempt>({
      timeoutMs: this.#o.timeoutMs,
      rconQuietMs: this.#o.rconQuietMs,
      // Enough that our own requests never overflow, however many wait in the queue.
      maxPending: Math.max(100_000, this.#o.concurrency * 4),
    });
  }

  /** SA:MP / open.mp: `i`, `r`, the player list (`d`, or `c`), and open.mp's `o`; `rules`, `players`, `omp: false` leave parts out. */
  querySamp(host: string, port = 7777, options: CallOptions & SampParts = {}): Promise<SampQueryResult> {
    return this.#session('samp', host, port, options, (s) => sampQuery(s, options));
  }

  /** VC:MP 0.4: `i` and the player names (`c`). */
  queryVcmp(host: string, port = 8192, options: CallOptions & VcmpParts = {}): Promise<VcmpQueryResult> {
    return this.#session('vcmp', host, port, options, (s) => vcmpQuery(s, options));
  }

  /** Minecraft (GameSpy4): handshake, then the full stat (or the basic one). */
  queryMinecraft(host: string, port = 25565, options: CallOptions & { readonly mode?: 'full' | 'basic' } = {}): Promise<MinecraftQueryResult> {
    return this.#session('mcquery', host, port, options, (s) => minecraftQuery(s, options));
  }

  /** SA:MP (or VC:MP) `p`: the round-trip time of one echoed nonce. */
  ping(host: string, port = 7777, options: CallOptions & { readonly protocol?: 'samp' | 'vcmp' } = {}): Promise<PingResult> {
    const protocol = options.protocol ?? 'samp';
    return this.#session(protocol, host, port, options, (s) => pingQuery(s, protocol));
  }

  /**
   * SA:MP `x`: runs a console command and collects its output lines until
   * `rconQuietMs` of silence. Not resent unless `retries` is given: a command may act twice.
   */
  rcon(host: string, port: number, password: string, command: string, options: CallOptions = {}): Promise<RconResult> {
    return this.#session('samp', host, port, { ...options, retries: options.retries ?? 0 }, (s) => rconQuery(s, password, command, options));
  }

  stats(): ClientStats {
    return { ...this.#stats, inFlight: this.#inFlight, waiting: this.#waiting };
  }

  /** Fails every query under way with a ClientClosedError and closes the sockets. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#isClosed = true;
      this.#closeReason = new ClientClosedError('the query client was closed', { code: 'closed', server: '' });
      for (const scope of [...this.#scopes]) scope.stop(this.#closeReason);
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#dispatch(this.#pairer.flush());
      const sockets = await Promise.allSettled([this.#sockets[4], this.#sockets[6], ...this.#connected.values()]);
      await Promise.all(sockets.map((s) => (s.status === 'fulfilled' && s.value
        ? new Promise<void>((resolve) => s.value!.socket.close(() => resolve()))
        : undefined)));
    })();
    return this.#closed;
  }

  /* ---------- one query ---------- */

  async #session<T>(protocol: Protocol, host: string, port: number, options: CallOptions, fn: (s: Session) => Promise<T>): Promise<T> {
    const label = showServer(host, port);
    if (this.#closeReason) throw this.#closeReason;
    if (!Number.isInteger(port) || port < 1 || port > 0xffff) throw new RangeError(`${label}: the port must be in 1..65535`);
    const scope = new Scope();
    const user = options.signal;
    if (user?.aborted) throw stopError({ signal: user.reason }, label, protocol);
    const onUserAbort = (): void => scope.stop({ signal: user!.reason });
    user?.addEventListener('abort', onUserAbort, { once: true });
    const deadlineMs = options.deadlineMs ?? this.#o.deadlineMs;
    const timer = deadlineMs === undefined ? undefined : setTimeout(() => scope.stop(new DeadlineError(
      `no complete answer from ${label} within the deadline of ${deadlineMs} ms`, { code: 'deadline', server: label, protocol },
    )), deadlineMs);
    this.#scopes.add(scope);
    this.#enter();
    // The deadline, an abort or close ends the wait wherever the query is (a DNS lookup, a queue).
    const stopped = scope.until((r) => stopError(r, label, protocol));
    const first = <X>(p: Promise<X>): Promise<X> => {
      p.catch(() => undefined); // the loser's failure is nobody's business
      return Promise.race([p, stopped]);
    };
    try {
      const server = await first(this.#resolve(host, port, label, protocol));
      const bound = await first((this.#o.connect ? this.#connect(server) : this.#socket(server.family)).catch((e: unknown) => {
        throw new SendError(`cannot open a UDP socket on ${showServer(this.#o.local[server.family], 0).replace(/:0$/, '')}: ${(e as { code?: string }).code ?? String(e)}`, {
          code: 'send', server: label, protocol,
        });
      }));
      const retries = options.retries ?? this.#o.retries;
      const session: Session = {
        server, protocol, timeoutMs: this.#o.timeoutMs, retries, rconQuietMs: this.#o.rconQuietMs,
        request: (build, o = {}) => this.#request({
          server, bound: this.#o.connect ? bound : undefined, protocol, build,
          lockKey: o.lockKey === undefined ? undefined : `${protocol} ${showServer(server.address, server.port)} ${o.lockKey}`,
          retries: o.retries ?? retries,
          scope,
        }),
        exclusive: (key, f) => this.#exclusive(`${protocol} ${showServer(server.address, server.port)} ${key}`, f),
      };
      return await first(fn(session));
    } finally {
      clearTimeout(timer);
      user?.removeEventListener('abort', onUserAbort);
      // Whatever this query left running (an `o` it stopped waiting for) gives back its slot.
      scope.stop(FINISHED);
      this.#scopes.delete(scope);
      this.#leave();
    }
  }

  async #resolve(host: string, port: number, label: string, protocol: Protocol): Promise<QueryTarget> {
    const literal = isIP(host);
    if (literal) return { label, host, address: canonicalAddress(host), port, family: literal === 6 ? 6 : 4 };
    let found: { address: string; family: number };
    try {
      found = await this.#lookup(host);
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw new ResolveError(`cannot resolve ${JSON.stringify(host)}: ${code ?? (e instanceof Error ? e.message : String(e))}`, { code: 'resolve', server: label, protocol });
    }
    const family = found.family === 6 ? 6 : 4;
    return { label, host, address: canonicalAddress(found.address), port, family };
  }

  #socket(family: 4 | 6): Promise<Bound> {
    const existing = this.#sockets[family];
    if (existing) return existing;
    // Unconnected UDP sockets report little; nothing here should bring the process down.
    const created = this.#newSocket(family, undefined, () => this.#stats.sendErrors++).then((bound) => (this.#bound[family] = bound));
    // A failed bind may be retried by the next query.
    created.catch(() => {
      if (this.#sockets[family] === created) delete this.#sockets[family];
    });
    this.#sockets[family] = created;
    return created;
  }

  /** The server's own socket, connected to it (`connect`): made on first use, kept until close. */
  #connect(server: QueryTarget): Promise<Bound> {
    const key = `${server.family} ${showServer(server.address, server.port)}`;
    const existing = this.#connected.get(key);
    if (existing) return existing;
    // ECONNREFUSED: the host's ICMP port unreachable for a datagram of ours.
    const created = this.#newSocket(server.family, server, (bound, e) => (e.code === 'ECONNREFUSED' ? this.#unreachable(bound, server) : this.#stats.sendErrors++));
    created.catch(() => {
      if (this.#connected.get(key) === created) this.#connected.delete(key);
    });
    this.#connected.set(key, created);
    return created;
  }

  /**
   * A new socket of `family` bound to the local address, connected to `server` if one is
   * given (its attempts then kept on it), reading replies; `onError` has its errors once it is up.
   */
  #newSocket(family: 4 | 6, server: QueryTarget | undefined, onError: (bound: Bound, e: NodeJS.ErrnoException) => void): Promise<Bound> {
    return new Promise<Bound>((resolve, reject) => {
      const socket = createSocket(family === 6
        ? { type: 'udp6', ipv6Only: true, recvBufferSize: this.#o.recvBufferSize }
        : { type: 'udp4', recvBufferSize: this.#o.recvBufferSize });
      const failed = (e: Error): void => {
        socket.close();
        reject(e);
      };
      socket.once('error', failed);
      const ready = (): void => {
        socket.off('error', failed);
        const a = socket.address();
        const local = { address: canonicalAddress(a.address), port: a.port };
        const bound: Bound = server ? { socket, local, attempts: new Set() } : { socket, local };
        socket.on('error', (e: NodeJS.ErrnoException) => onError(bound, e));
        socket.on('message', (msg, rinfo) => this.#onMessage(bound, msg, rinfo));
        if (server) this.#open.add(bound);
        if (this.#busy === 0) socket.unref();
        resolve(bound);
      };
      socket.bind({ address: this.#o.local[family], port: 0 }, server ? () => socket.connect(server.port, server.address, ready) : ready);
    });
  }

  /** Nothing listens on the server's port: its attempts in flight fail now, without retries. */
  #unreachable(bound: Bound, server: QueryTarget): void {
    for (const attempt of [...bound.attempts!]) {
      this.#settle(attempt, { kind: 'error', error: unreachableError(server, attempt.job.protocol) });
    }
    this.#pump();
  }

  /** Serialises `fn` behind every earlier call with the same key. */
  #exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#chains.get(key);
    const result = previous ? previous.then(fn) : fn();
    const tail = result.then(() => undefined, () => undefined);
    this.#chains.set(key, tail);
    void tail.then(() => {
      if (this.#chains.get(key) === tail) this.#chains.delete(key);
    });
    return result;
  }

  #enter(): void {
    if (this.#busy++ === 0) for (const b of [this.#bound[4], this.#bound[6], ...this.#open]) b?.socket.ref();
  }

  #leave(): void {
    if (--this.#busy === 0) for (const b of [this.#bound[4], this.#bound[6], ...this.#open]) b?.socket.unref();
  }

  /* ---------- requests, attempts, slots ---------- */

  #request(spec: Pick<Job, 'server' | 'bound' | 'protocol' | 'build' | 'lockKey' | 'retries' | 'scope'>): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      const job: Job = {
        ...spec, resolve, state: 'waiting', attempts: 0, holdsKey: false, current: undefined, backoff: undefined, unsubscribe: undefined,
      };
      if (spec.scope.reason !== undefined) {
        resolve({ kind: 'error', error: stopError(spec.scope.reason, spec.server.label, spec.protocol) });
        return;
      }
      job.unsubscribe = spec.scope.on((reason) => this.#abort(job, reason));
      this.#enter();
      this.#waiting++;
      const waiters = job.lockKey === undefined ? undefined : this.#keys.get(job.lockKey);
      if (waiters) {
        waiters.push(job);
      } else {
        if (job.lockKey !== undefined) {
          this.#keys.set(job.lockKey, []);
          job.holdsKey = true;
        }
        job.state = 'ready';
        this.#ready.push(job);
        this.#pump();
      }
    });
  }

  /** Sends attempts while slots are free. */
  #pump(): void {
    while (this.#inFlight < this.#o.concurrency) {
      const job = this.#ready.shift();
      if (!job) break;
      if (job.state === 'ready') this.#send(job);
    }
  }

  #send(job: Job): void {
    const bound = job.bound ?? this.#bound[job.server.family];
    if (!bound) {
      this.#finish(job, { kind: 'error', error: new SendError(`no ${job.server.family === 6 ? 'IPv6' : 'IPv4'} socket`, { code: 'send', server: job.server.label }) });
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = job.build(job.attempts);
    } catch (e) {
      this.#finish(job, { kind: 'error', error: new SendError(`cannot build the request: ${e instanceof Error ? e.message : String(e)}`, { code: 'send', server: job.server.label, protocol: job.protocol }) });
      return;
    }
    if (job.attempts === 0) this.#waiting--;
    else this.#stats.retries++;
    job.attempts++;
    const attempt: Attempt = { job, index: job.attempts - 1, settled: false, timedOut: false, holdsSlot: true };
    job.current = attempt;
    job.state = 'in-flight';
    this.#inFlight++;
    if (this.#inFlight > this.#stats.peakInFlight) this.#stats.peakInFlight = this.#inFlight;
    const time = now();
    const datagram: Datagram<Attempt> = {
      bytes, from: bound.local, to: { address: job.server.address, port: job.server.port }, time, meta: attempt,
    };
    this.#dispatch(this.#pairer.receive(datagram, time));
    this.#stats.sent++;
    const sent = (err: Error | null): void => {
      if (!err) return;
      this.#stats.sendErrors++;
      const code = (err as { code?: string }).code;
      this.#settle(attempt, {
        kind: 'error',
        error: code === 'ECONNREFUSED' ? unreachableError(job.server, job.protocol) : new SendError(`cannot send to ${job.server.label}: ${code ?? err.message}`, {
          code: 'send', server: job.server.label, protocol: job.protocol,
        }),
      });
      this.#pump();
    };
    if (job.bound) {
      job.bound.attempts!.add(attempt);
      job.bound.socket.send(bytes, sent);
    } else {
      bound.socket.send(bytes, job.server.port, job.server.address, sent);
    }
    this.#arm();
  }

  /** An attempt ended: answered, unanswered, or unsendable. */
  #settle(attempt: Attempt, result: Settle): void {
    if (attempt.settled) return;
    attempt.settled = true;
    attempt.timedOut = result.kind === 'silence';
    attempt.job.bound?.attempts!.delete(attempt);
    this.#freeSlot(attempt);
    const job = attempt.job;
    if (job.current === attempt) job.current = undefined;
    if (job.state === 'done') {
      // Aborted while this attempt was out: only now may an identical request follow.
      this.#releaseKey(job);
      return;
    }
    if (result.kind === 'silence' && job.attempts <= job.retries) {
      const base = Math.min(this.#o.maxBackoffMs, this.#o.backoffMs * 2 ** (job.attempts - 1));
      job.state = 'backoff';
      job.backoff = setTimeout(() => {
        job.backoff = undefined;
        if (job.state !== 'backoff') return;
        job.state = 'ready';
        this.#ready.pushFront(job);
        this.#pump();
      }, base * (0.5 + Math.random() * 0.5));
      return;
    }
    switch (result.kind) {
      case 'exchange':
        this.#finish(job, { kind: 'reply', exchange: result.exchange, attempts: job.attempts, rttMs: Number(result.exchange.rtt) / 1e6 });
        break;
      case 'silence':
        this.#finish(job, { kind: 'silence', reason: result.reason, attempts: job.attempts });
        break;
      case 'error':
        this.#finish(job, { kind: 'error', error: result.error });
        break;
    }
  }

  #freeSlot(attempt: Attempt): void {
    if (!attempt.holdsSlot) return;
    attempt.holdsSlot = false;
    this.#inFlight--;
  }

  #finish(job: Job, outcome: Outcome): void {
    if (job.state === 'done') return;
    if (job.attempts === 0) this.#waiting--;
    job.state = 'done';
    clearTimeout(job.backoff);
    job.unsubscribe?.();
    if (!job.current) this.#releaseKey(job);
    this.#leave();
    job.resolve(outcome);
  }

  /** The query's deadline passed, it was aborted, or it no longer needs this request. */
  #abort(job: Job, reason: StopReason): void {
    if (job.state === 'done') return;
    // An attempt still out keeps the key (its reply could be taken for the next one's) but not its slot.
    if (job.current) this.#freeSlot(job.current);
    this.#finish(job, { kind: 'error', error: stopError(reason, job.server.label, job.protocol) });
    this.#pump();
  }

  /** Hands the key to the next identical request waiting for it. */
  #releaseKey(job: Job): void {
    if (!job.holdsKey || job.lockKey === undefined) return;
    job.holdsKey = false;
    const waiters = this.#keys.get(job.lockKey)!;
    for (let next = waiters.shift(); next; next = waiters.shift()) {
      if (next.state !== 'waiting') continue;
      next.holdsKey = true;
      next.state = 'ready';
      this.#ready.push(next); // the caller pumps
      return;
    }
    this.#keys.delete(job.lockKey);
  }

  /* ---------- datagrams in, the pairer's clock ---------- */

  #onMessage(bound: Bound, msg: Buffer, rinfo: RemoteInfo): void {
    const time = now();
    this.#stats.received++;
    const bytes = new Uint8Array(msg.buffer, msg.byteOffset, msg.length);
    if (isRequest(bytes)) {
      this.#stats.foreign++;
      return;
    }
    const datagram: Datagram<Attempt> = { bytes, from: { address: canonicalAddress(rinfo.address), port: rinfo.port }, to: bound.local, time };
    this.#dispatch(this.#pairer.receive(datagram, time));
    this.#pump();
    this.#arm();
  }

  #dispatch(events: readonly PairingEvent<Attempt>[]): void {
    for (const e of events) {
      switch (e.kind) {
        case 'exchange': {
          this.#stats.exchanges++;
          const a = e.request.datagram.meta;
          const cut = truncation(e.responses);
          if (cut !== undefined) this.#stats.truncated++;
          if (a) this.#settle(a, cut === undefined ? { kind: 'exchange', exchange: e } : { kind: 'silence', reason: `${TRUNCATED_REPLY} (${cut})` });
          break;
        }
        case 'unanswered':
        case 'overflow': {
          const a = e.request.datagram.meta;
          if (!a) break; // a request-shaped datagram somebody sent us
          this.#stats.unanswered++;
          this.#settle(a, { kind: 'silence', reason: e.reason });
          break;
        }
        case 'unmatched': {
          this.#stats.unmatched++;
          const a = e.request?.datagram.meta;
          if (a && e.decoded && this.#takeLate(a, e.request!, e.decoded, e.datagram)) this.#stats.lateTaken++;
          break;
        }
        case 'duplicate': this.#stats.duplicates++; break;
        case 'undecodable': this.#stats.undecodable++; break;
      }
      this.#onEvent?.(e);
    }
  }

  /**
   * A reply to the latest attempt of a request that timed out and now waits to be resent:
   * from the server it was sent to, to the same message — as good as an answer. (A reply
   * from another address, or to another message, is a near miss and stays unmatched.)
   */
  #takeLate(a: Attempt, request: DecodedDatagram<Attempt>, reply: DecodedDatagram<Attempt>, datagram: Datagram<Attempt>): boolean {
    const job = a.job;
    if (job.state !== 'backoff' || !a.timedOut || a.index !== job.attempts - 1) return false;
    if (request.message === 'rcon' || reply.protocol !== request.protocol || reply.message !== request.message) return false;
    if (truncation([reply]) !== undefined) return false;
    const to = request.datagram.to;
    if (datagram.from.address !== to.address || datagram.from.port !== to.port) return false;
    const rtt = datagram.time - request.datagram.time;
    const exchange: ExchangeEvent<unknown> = { kind: 'exchange', request, responses: [reply], rtt };
    this.#finish(job, { kind: 'reply', exchange, attempts: job.attempts, rttMs: Number(rtt) / 1e6 });
    return true;
  }

  /** Wakes at the pairer's next deadline. An early wake-up is harmless: it re-arms. */
  #arm(): void {
    if (this.#isClosed) return;
    const at = this.#pairer.nextDeadline();
    if (at === undefined || (this.#timerAt !== undefined && this.#timerAt <= at)) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    const delay = Math.max(0, Math.ceil(Number(at - now()) / 1e6));
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = undefined;
      this.#dispatch(this.#pairer.expire(now()));
      this.#pump();
      this.#arm();
    }, delay);
    this.#timer.unref();
  }
}

/**
 * The codec's warning for a list that ends before its count does (`samp.rules.count: 7
 * entries declared, 4 present before the end of the message`), if a reply has one.
 */
function truncation(replies: readonly DecodedDatagram<unknown>[]): string | undefined {
  for (const r of replies) for (const w of r.packet.warnings) if (/ entries declared, \d+ present /.test(w.message)) return w.message;
  return undefined;
}

const unreachableError = (server: QueryTarget, protocol: Protocol): UnreachableError => new UnreachableError(
  `${server.label}: port unreachable (the host says nothing listens on UDP port ${server.port})`, { code: 'unreachable', server: server.label, protocol },
);

/** A datagram that reads as a query request: ours go out, such ones never come back to us. */
function isRequest(bytes: Uint8Array): boolean {
  try {
    return recognize(bytes).direction === 'request';
  } catch {
    return false; // no magic (a Minecraft reply) or not a query at all: the pairer says which
  }
}

/** Runs `fn` with a client of `options` and closes it afterwards. */
export async function withClient<T>(options: QueryClientOptions, fn: (client: QueryClient) => Promise<T>): Promise<T> {
  const client = new QueryClient(options);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** One SA:MP / open.mp query with a client of its own. */
export const querySamp = (host: string, port = 7777, options: QueryClientOptions & CallOptions & SampParts = {}): Promise<SampQueryResult> =>
  withClient(options, (c) => c.querySamp(host, port, options));

/** One VC:MP query with a client of its own. */
export const queryVcmp = (host: string, port = 8192, options: QueryClientOptions & CallOptions & VcmpParts = {}): Promise<VcmpQueryResult> =>
  withClient(options, (c) => c.queryVcmp(host, port, options));

/** One Minecraft query with a client of its own. */
export const queryMinecraft = (host: string, port = 25565, options: QueryClientOptions & CallOptions & { readonly mode?: 'full' | 'basic' } = {}): Promise<MinecraftQueryResult> =>
  withClient(options, (c) => c.queryMinecraft(host, port, options));

/** One `p` with a client of its own. */
export const ping = (host: string, port = 7777, options: QueryClientOptions & CallOptions & { readonly protocol?: 'samp' | 'vcmp' } = {}): Promise<PingResult> =>
  withClient(options, (c) => c.ping(host, port, options));

/** One RCON command with a client of its own. */
export const rcon = (host: string, port: number, password: string, command: string, options: QueryClientOptions & CallOptions = {}): Promise<RconResult> =>
  withClient(options, (c) => c.rcon(host, port, password, command, options));
