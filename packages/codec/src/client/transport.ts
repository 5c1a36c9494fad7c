/**
 * The client's way to the network: host name lookup (`resolveTarget`) and its UDP sockets
 * (`Transport`) — one shared socket per address family, made on first use, or with the
 * `connect` option one connected socket per server, whose ICMP port unreachable Node
 * reports. What arrives goes to the client's handlers; pairing and retries are the client's.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import type { BuiltInProtocol as Protocol } from '../protocols/index.ts';
import type { Endpoint } from '../pairing/types.ts';
import { ResolveError } from './errors.ts';
import type { QueryTarget } from './session.ts';
import { canonicalAddress, showServer } from './target.ts';

/** A bound socket and its local address; `A` is what the client sends on it. */
export interface Bound<A> {
  readonly socket: Socket;
  readonly local: Endpoint;
  /** A connected socket's attempts in flight, which an ICMP port unreachable fails. */
  readonly attempts?: Set<A>;
}

/** Where a {@link Transport} hands what its sockets report. */
export interface TransportHandlers<A> {
  /** A datagram arrived on `bound`. */
  readonly message: (bound: Bound<A>, msg: Buffer, rinfo: RemoteInfo) => void;
  /** A socket failed after it was up (unconnected UDP sockets report little; nothing here brings the process down). */
  readonly error: () => void;
  /** The host of `server` says nothing listens on its port (ECONNREFUSED on its connected socket). */
  readonly unreachable: (bound: Bound<A>, server: QueryTarget) => void;
}

/** The address of `host` (an IP address as it is, else looked up), as a target of `port`. */
export async function resolveTarget(
  lookup: (host: string) => Promise<{ address: string; family: number }>,
  host: string,
  port: number,
  label: string,
  protocol: Protocol,
): Promise<QueryTarget> {
  const literal = isIP(host);
  if (literal) return { label, host, address: canonicalAddress(host), port, family: literal === 6 ? 6 : 4 };
  let found: { address: string; family: number };
  try {
    found = await lookup(host);
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new ResolveError(`cannot resolve ${JSON.stringify(host)}: ${code ?? (e instanceof Error ? e.message : String(e))}`, {
      code: 'resolve',
      server: label,
      protocol,
    });
  }
  const family = found.family === 6 ? 6 : 4;
  return { label, host, address: canonicalAddress(found.address), port, family };
}

/** The client's sockets: made on first use, kept (and keeping the process alive only while held) until closed. */
export class Transport<A> {
  readonly #local: { readonly 4: string; readonly 6: string };
  readonly #recvBufferSize: number;
  readonly #on: TransportHandlers<A>;
  readonly #sockets: { 4?: Promise<Bound<A>>; 6?: Promise<Bound<A>> } = {};
  readonly #bound: { 4?: Bound<A>; 6?: Bound<A> } = {};
  /** Connected sockets by server (`connect`), and those open. */
  readonly #connected = new Map<string, Promise<Bound<A>>>();
  readonly #open = new Set<Bound<A>>();
  /** Whether the sockets keep the process alive (the client has work under way). */
  #held = false;

  constructor(local: { readonly 4: string; readonly 6: string }, recvBufferSize: number, on: TransportHandlers<A>) {
    this.#local = local;
    this.#recvBufferSize = recvBufferSize;
    this.#on = on;
  }

  /** The shared socket of `family`, if it is bound. */
  shared(family: 4 | 6): Bound<A> | undefined {
    return this.#bound[family];
  }

  /** The shared socket of `family`, bound on first use; a failed bind may be retried by the next call. */
  socket(family: 4 | 6): Promise<Bound<A>> {
    const existing = this.#sockets[family];
    if (existing) return existing;
    const created = this.#newSocket(family, undefined, () => this.#on.error()).then((bound) => (this.#bound[family] = bound));
    created.catch(() => {
      if (this.#sockets[family] === created) delete this.#sockets[family];
    });
    this.#sockets[family] = created;
    return created;
  }

  /** The server's own socket, connected to it (`connect`): made on first use, kept until close. */
  connect(server: QueryTarget): Promise<Bound<A>> {
    const key = `${server.family} ${showServer(server.address, server.port)}`;
    const existing = this.#connected.get(key);
    if (existing) return existing;
    // ECONNREFUSED: the host's ICMP port unreachable for a datagram of ours.
    const created = this.#newSocket(server.family, server, (bound, e) =>
      e.code === 'ECONNREFUSED' ? this.#on.unreachable(bound, server) : this.#on.error(),
    );
    created.catch(() => {
      if (this.#connected.get(key) === created) this.#connected.delete(key);
    });
    this.#connected.set(key, created);
    return created;
  }

  /** The sockets keep the process alive (work is under way). */
  hold(): void {
    this.#held = true;
    for (const b of [this.#bound[4], this.#bound[6], ...this.#open]) b?.socket.ref();
  }

  /** The sockets no longer keep the process alive. */
  release(): void {
    this.#held = false;
    for (const b of [this.#bound[4], this.#bound[6], ...this.#open]) b?.socket.unref();
  }

  /** Closes every socket made, once its bind has settled. */
  async close(): Promise<void> {
    const sockets = await Promise.allSettled([this.#sockets[4], this.#sockets[6], ...this.#connected.values()]);
    await Promise.all(
      sockets.map((s) =>
        s.status === 'fulfilled' && s.value ? new Promise<void>((resolve) => s.value!.socket.close(() => resolve())) : undefined,
      ),
    );
  }

  /**
   * A new socket of `family` bound to the local address, connected to `server` if one is
   * given (its attempts then kept on it), reading replies; `onError` has its errors once it is up.
   */
  #newSocket(
    family: 4 | 6,
    server: QueryTarget | undefined,
    onError: (bound: Bound<A>, e: NodeJS.ErrnoException) => void,
  ): Promise<Bound<A>> {
    return new Promise<Bound<A>>((resolve, reject) => {
      const socket = createSocket(
        family === 6
          ? { type: 'udp6', ipv6Only: true, recvBufferSize: this.#recvBufferSize }
          : { type: 'udp4', recvBufferSize: this.#recvBufferSize },
      );
      const failed = (e: Error): void => {
        socket.close();
        reject(e);
      };
      socket.once('error', failed);
      const ready = (): void => {
        socket.off('error', failed);
        const a = socket.address();
        const local = { address: canonicalAddress(a.address), port: a.port };
        const bound: Bound<A> = server ? { socket, local, attempts: new Set() } : { socket, local };
        const message = this.#on.message;
        socket.on('error', (e: NodeJS.ErrnoException) => onError(bound, e));
        socket.on('message', (msg, rinfo) => message(bound, msg, rinfo));
        if (server) this.#open.add(bound);
        if (!this.#held) socket.unref();
        resolve(bound);
      };
      socket.bind({ address: this.#local[family], port: 0 }, server ? () => socket.connect(server.port, server.address, ready) : ready);
    });
  }
}
