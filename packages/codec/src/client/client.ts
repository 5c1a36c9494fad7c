/**
 * The query client: any number of concurrent queries to any number of servers over one
 * UDP socket per address family (`udp4`, `udp6`, each created on first use). Every
 * datagram, sent or received, goes through one {@link QueryPairer} — the pairing rules a
 * capture's datagrams are paired by too (on numbers, pairing/capture/) — so what counts as
 * "the reply to this request" is decided in one place:
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
 * far as it goes, or one that decodes cleanly but the request's `cut` test knows is cut
 * (open.mp's `o` without the logo its release sends) — is not taken as the answer: the
 * attempt counts as unanswered and is resent; if every attempt brings a cut reply, the
 * query says so.
 *
 * Datagrams go to the given targets only. Times come from `process.hrtime.bigint()`, so
 * round-trip times are exact to the nanosecond before they become milliseconds.
 *
 * Why this file is over 400 lines: `QueryClient` is one class on purpose. Its request
 * scheduler (slots, lock keys, back-off) and the pairer's events (exchange, unanswered, late
 * reply) settle the same attempts and count into the same stats, so they share private
 * state. Everything else has its own file: the options and stats (options.ts), the sockets
 * and host lookup (transport.ts), a query's lifetime (scope.ts), the ready queue
 * (queue.ts), the one-shot helpers (once.ts) and what each protocol asks (queries.ts).
 */
import type { RemoteInfo } from 'node:dgram';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { BuiltInProtocol as Protocol } from '../protocols/index.ts';
import { SHORT_LIST, type DecodeWarning } from '../grammar/expert.ts';
import { identify } from '../packet.ts';
import { QueryPairer } from '../pairing/pairer.ts';
import type { Datagram, DecodedDatagram, ExchangeEvent, PairingEvent } from '../pairing/types.ts';
import { ClientClosedError, DeadlineError, QueryError, SendError, TRUNCATED_REPLY, UnreachableError } from './errors.ts';
import { canonicalAddress, defaultPorts, showServer } from './target.ts';
import { settingsOf, type ClientStats, type QueryClientOptions, type Settings } from './options.ts';
import { Queue } from './queue.ts';
import { FINISHED, Scope, stopError, type StopReason } from './scope.ts';
import { Transport, resolveTarget, type Bound } from './transport.ts';
import {
  minecraftQuery,
  pingQuery,
  rconQuery,
  sampQuery,
  vcmpQuery,
  type MinecraftQueryResult,
  type PingResult,
  type RconResult,
  type SampParts,
  type SampQueryResult,
  type VcmpParts,
  type VcmpQueryResult,
} from './queries.ts';
import type { CallOptions, Outcome, QueryTarget, Session } from './session.ts';

export type { CallOptions, QueryTarget } from './session.ts';
export type { ClientStats, QueryClientOptions } from './options.ts';

type Settle =
  | { readonly kind: 'exchange'; readonly exchange: ExchangeEvent<unknown> }
  | { readonly kind: 'unanswered'; readonly reason: string; readonly cut?: DecodeWarning }
  | { readonly kind: 'error'; readonly error: QueryError };

interface Job {
  readonly server: QueryTarget;
  /** The server's own connected socket (the `connect` option), else the shared one of its family. */
  readonly bound: Bound<Attempt> | undefined;
  readonly protocol: Protocol;
  readonly build: (attempt: number) => Uint8Array;
  readonly lockKey: string | undefined;
  readonly retries: number;
  /** The request's own test for a reply cut short (RequestOptions.cut), besides a short list. */
  readonly cut: ((reply: DecodedDatagram<unknown>) => DecodeWarning | undefined) | undefined;
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

const now = (): bigint => process.hrtime.bigint();

/**
 * Queries SA:MP, VC:MP and Minecraft servers over shared UDP sockets, with timeouts, retries and a
 * concurrency limit. Each query resolves to its result or rejects with a {@link QueryError}.
 */
export class QueryClient {
  readonly #o: Settings;
  readonly #lookup: (host: string) => Promise<{ address: string; family: number }>;
  readonly #onEvent: ((event: PairingEvent<unknown>) => void) | undefined;
  readonly #pairer: QueryPairer<Attempt>;
  readonly #transport: Transport<Attempt>;
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
    sent: 0,
    retries: 0,
    received: 0,
    exchanges: 0,
    unanswered: 0,
    unmatched: 0,
    duplicates: 0,
    undecodable: 0,
    truncated: 0,
    foreign: 0,
    sendErrors: 0,
    peakInFlight: 0,
    lateTaken: 0,
  };

  constructor(options: QueryClientOptions = {}) {
    this.#o = settingsOf(options);
    this.#transport = new Transport<Attempt>(this.#o.local, this.#o.recvBufferSize, {
      message: this.#onMessage,
      error: () => this.#stats.sendErrors++,
      unreachable: (bound, server) => this.#unreachable(bound, server),
    });
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
  querySamp(host: string, port: number = defaultPorts.samp, options: CallOptions & SampParts = {}): Promise<SampQueryResult> {
    return this.#session('samp', host, port, options, (s) => sampQuery(s, options));
  }

  /** VC:MP 0.4: `i` and the player names (`c`). */
  queryVcmp(host: string, port: number = defaultPorts.vcmp, options: CallOptions & VcmpParts = {}): Promise<VcmpQueryResult> {
    return this.#session('vcmp', host, port, options, (s) => vcmpQuery(s, options));
  }

  /** Minecraft (GameSpy4): handshake, then the full stat (or the basic one). */
  queryMinecraft(
    host: string,
    port: number = defaultPorts.mcquery,
    options: CallOptions & { readonly mode?: 'full' | 'basic' } = {},
  ): Promise<MinecraftQueryResult> {
    return this.#session('mcquery', host, port, options, (s) => minecraftQuery(s, options));
  }

  /** SA:MP (or VC:MP) `p`: the round-trip time of one echoed nonce. */
  ping(
    host: string,
    port: number = defaultPorts.samp,
    options: CallOptions & { readonly protocol?: 'samp' | 'vcmp' } = {},
  ): Promise<PingResult> {
    const protocol = options.protocol ?? 'samp';
    return this.#session(protocol, host, port, options, (s) => pingQuery(s, protocol));
  }

  /**
   * SA:MP `x`: runs a console command and collects its output lines until
   * `rconQuietMs` of silence. Not resent unless `retries` is given: a command may act twice.
   */
  rcon(host: string, port: number, password: string, command: string, options: CallOptions = {}): Promise<RconResult> {
    return this.#session('samp', host, port, { ...options, retries: options.retries ?? 0 }, (s) =>
      rconQuery(s, password, command, options),
    );
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
      await this.#transport.close();
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
    const unwatch = user ? whenAborted(user, onUserAbort) : undefined;
    const deadlineMs = options.deadlineMs ?? this.#o.deadlineMs;
    const timer =
      deadlineMs === undefined
        ? undefined
        : setTimeout(
            () =>
              scope.stop(
                new DeadlineError(`no complete answer from ${label} within the deadline of ${deadlineMs} ms`, {
                  code: 'deadline',
                  server: label,
                  protocol,
                }),
              ),
            deadlineMs,
          );
    this.#scopes.add(scope);
    this.#enter();
    // The deadline, an abort or close ends the wait wherever the query is (a DNS lookup, a queue).
    const stopped = scope.until((r) => stopError(r, label, protocol));
    const first = <X>(p: Promise<X>): Promise<X> => {
      p.catch(() => undefined); // the loser's failure is nobody's business
      return Promise.race([p, stopped]);
    };
    try {
      const server = await first(resolveTarget(this.#lookup, host, port, label, protocol));
      const bound = await first(
        (this.#o.connect ? this.#transport.connect(server) : this.#transport.socket(server.family)).catch((e: unknown) => {
          throw new SendError(
            `cannot open a UDP socket on ${showServer(this.#o.local[server.family], 0).replace(/:0$/, '')}: ${(e as { code?: string }).code ?? String(e)}`,
            {
              code: 'send',
              server: label,
              protocol,
            },
          );
        }),
      );
      const retries = options.retries ?? this.#o.retries;
      const session: Session = {
        server,
        protocol,
        timeoutMs: this.#o.timeoutMs,
        retries,
        rconQuietMs: this.#o.rconQuietMs,
        request: (build, o = {}) =>
          this.#request({
            server,
            bound: this.#o.connect ? bound : undefined,
            protocol,
            build,
            lockKey: o.lockKey === undefined ? undefined : `${protocol} ${showServer(server.address, server.port)} ${o.lockKey}`,
            retries: o.retries ?? retries,
            cut: o.cut,
            scope,
          }),
        exclusive: (key, f) => this.#exclusive(`${protocol} ${showServer(server.address, server.port)} ${key}`, f),
      };
      return await first(fn(session));
    } finally {
      clearTimeout(timer);
      unwatch?.();
      // Whatever this query left running (an `o` it stopped waiting for) gives back its slot.
      scope.stop(FINISHED);
      this.#scopes.delete(scope);
      this.#leave();
    }
  }

  /** Nothing listens on the server's port: its attempts in flight fail now, without retries. */
  #unreachable(bound: Bound<Attempt>, server: QueryTarget): void {
    for (const attempt of [...bound.attempts!]) {
      this.#settle(attempt, { kind: 'error', error: unreachableError(server, attempt.job.protocol) });
    }
    this.#pump();
  }

  /** Serialises `fn` behind every earlier call with the same key. */
  #exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#chains.get(key);
    const result = previous ? previous.then(fn) : fn();
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#chains.set(key, tail);
    void tail.then(() => {
      if (this.#chains.get(key) === tail) this.#chains.delete(key);
    });
    return result;
  }

  #enter(): void {
    if (this.#busy++ === 0) this.#transport.hold();
  }

  #leave(): void {
    if (--this.#busy === 0) this.#transport.release();
  }

  /* ---------- requests, attempts, slots ---------- */

  #request(spec: Pick<Job, 'server' | 'bound' | 'protocol' | 'build' | 'lockKey' | 'retries' | 'cut' | 'scope'>): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      const job: Job = {
        ...spec,
        resolve,
        state: 'waiting',
        attempts: 0,
        holdsKey: false,
        current: undefined,
        backoff: undefined,
        unsubscribe: undefined,
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
    const bound = job.bound ?? this.#transport.shared(job.server.family);
    if (!bound) {
      this.#finish(job, {
        kind: 'error',
        error: new SendError(`no ${job.server.family === 6 ? 'IPv6' : 'IPv4'} socket`, { code: 'send', server: job.server.label }),
      });
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = job.build(job.attempts);
    } catch (e) {
      this.#finish(job, {
        kind: 'error',
        error: new SendError(`cannot build the request: ${e instanceof Error ? e.message : String(e)}`, {
          code: 'send',
          server: job.server.label,
          protocol: job.protocol,
        }),
      });
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
      bytes,
      from: bound.local,
      to: { address: job.server.address, port: job.server.port },
      time,
      meta: attempt,
    };
    this.#dispatch(this.#pairer.receive(datagram, time));
    this.#stats.sent++;
    const sent = (err: Error | null): void => {
      if (!err) return;
      this.#stats.sendErrors++;
      const code = (err as { code?: string }).code;
      this.#settle(attempt, {
        kind: 'error',
        error:
          code === 'ECONNREFUSED'
            ? unreachableError(job.server, job.protocol)
            : new SendError(`cannot send to ${job.server.label}: ${code ?? err.message}`, {
                code: 'send',
                server: job.server.label,
                protocol: job.protocol,
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
    attempt.timedOut = result.kind === 'unanswered';
    attempt.job.bound?.attempts!.delete(attempt);
    this.#freeSlot(attempt);
    const job = attempt.job;
    if (job.current === attempt) job.current = undefined;
    if (job.state === 'done') {
      // Aborted while this attempt was out: only now may an identical request follow.
      this.#releaseKey(job);
      return;
    }
    if (result.kind === 'unanswered' && job.attempts <= job.retries) {
      const base = Math.min(this.#o.maxBackoffMs, this.#o.backoffMs * 2 ** (job.attempts - 1));
      job.state = 'backoff';
      job.backoff = setTimeout(
        () => {
          job.backoff = undefined;
          if (job.state !== 'backoff') return;
          job.state = 'ready';
          this.#ready.pushFront(job);
          this.#pump();
        },
        base * (0.5 + Math.random() * 0.5),
      );
      return;
    }
    switch (result.kind) {
      case 'exchange':
        this.#finish(job, { kind: 'reply', exchange: result.exchange, attempts: job.attempts, rttMs: Number(result.exchange.rtt) / 1e6 });
        break;
      case 'unanswered':
        this.#finish(job, { kind: 'unanswered', reason: result.reason, attempts: job.attempts, cut: result.cut });
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

  /** A datagram arrived (the transport calls this field directly: no wrapper per datagram). */
  readonly #onMessage = (bound: Bound<Attempt>, msg: Buffer, rinfo: RemoteInfo): void => {
    const time = now();
    this.#stats.received++;
    const bytes = new Uint8Array(msg.buffer, msg.byteOffset, msg.length);
    if (isRequest(bytes)) {
      this.#stats.foreign++;
      return;
    }
    const datagram: Datagram<Attempt> = {
      bytes,
      from: { address: canonicalAddress(rinfo.address), port: rinfo.port },
      to: bound.local,
      time,
    };
    this.#dispatch(this.#pairer.receive(datagram, time));
    this.#pump();
    this.#arm();
  };

  #dispatch(events: readonly PairingEvent<Attempt>[]): void {
    for (const e of events) {
      switch (e.kind) {
        case 'exchange': {
          this.#stats.exchanges++;
          const a = e.request.datagram.meta;
          const cut = truncation(e.responses, a?.job.cut);
          if (cut !== undefined) this.#stats.truncated++;
          if (a)
            this.#settle(
              a,
              cut === undefined
                ? { kind: 'exchange', exchange: e }
                : { kind: 'unanswered', reason: `${TRUNCATED_REPLY} (${cut.message})`, cut },
            );
          break;
        }
        case 'unanswered':
        case 'overflow': {
          const a = e.request.datagram.meta;
          if (!a) break; // a request-shaped datagram somebody sent us
          this.#stats.unanswered++;
          this.#settle(a, { kind: 'unanswered', reason: e.reason });
          break;
        }
        case 'unmatched': {
          this.#stats.unmatched++;
          const a = e.request?.datagram.meta;
          if (a && e.decoded && this.#takeLate(a, e.request!, e.decoded, e.datagram)) this.#stats.lateTaken++;
          break;
        }
        case 'duplicate':
          this.#stats.duplicates++;
          break;
        case 'undecodable':
          this.#stats.undecodable++;
          break;
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
    if (truncation([reply], job.cut) !== undefined) return false;
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
 * The codec's warning for a list that ends before its count does (code `short-list`:
 * `samp.rules.count: 7 entries declared, 4 present before the end of the message`), if a reply has one;
 * else what the request's own `cut` test says of it (a cut that decodes cleanly: samp/omp.ts `ompLogoCut`).
 */
function truncation(
  replies: readonly DecodedDatagram<unknown>[],
  cut?: (reply: DecodedDatagram<unknown>) => DecodeWarning | undefined,
): DecodeWarning | undefined {
  for (const r of replies) for (const w of r.packet.warnings) if (w.code === SHORT_LIST.code) return w;
  if (cut) {
    for (const r of replies) {
      const w = cut(r);
      if (w) return w;
    }
  }
  return undefined;
}

const unreachableError = (server: QueryTarget, protocol: Protocol): UnreachableError =>
  new UnreachableError(`${server.label}: port unreachable (the host says nothing listens on UDP port ${server.port})`, {
    code: 'unreachable',
    server: server.label,
    protocol,
  });

/** A datagram that reads as a query request: ours go out, such ones never come back to us. */
function isRequest(bytes: Uint8Array): boolean {
  // Not recognised: no magic (a Minecraft reply) or not a query at all; the pairer says which.
  return identify(bytes)?.direction === 'request';
}

/** What each caller's signal stops when it aborts: the queries in flight that were given it. */
const watched = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `f` when `signal` aborts, until the returned function is called. One listener per
 * signal, whatever the number of queries in flight that share it: an `AbortSignal` warns
 * (MaxListenersExceededWarning) past ten listeners, and a list of servers queried with one
 * overall deadline shares one signal among all of them.
 */
function whenAborted(signal: AbortSignal, f: () => void): () => void {
  let fs = watched.get(signal);
  if (!fs) {
    const all = new Set<() => void>();
    watched.set(signal, (fs = all));
    signal.addEventListener(
      'abort',
      () => {
        for (const g of [...all]) g();
      },
      { once: true },
    );
  }
  const set = fs;
  set.add(f);
  return () => set.delete(f);
}
