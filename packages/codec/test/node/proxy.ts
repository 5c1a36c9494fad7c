/**
 * A loopback UDP proxy that damages traffic on purpose: it drops, duplicates, reorders
 * and delays datagrams in both directions, and injects replies from the wrong source —
 * copies sent from a rogue socket on 127.0.0.2 (or another port), and one server's
 * replies sent from another server's front (cross-talk). Decisions come from a seeded
 * generator, so a run can be repeated. Every socket and timer is closed by `close()`.
 *
 *   client ──► front[i] (127.0.0.1:ephemeral) ──► upstream[i]
 *   client ◄── front[i] ◄─────────────────────── upstream[i]
 *   client ◄── rogue (127.0.0.2)                 copies of replies (wrong source)
 *   client ◄── front[j]                          replies of upstream[i] (cross-talk)
 */
import { createSocket, type Socket } from 'node:dgram';

export interface Endpoint {
  readonly address: string;
  readonly port: number;
}

export type Direction = 'request' | 'reply';

export interface Faults {
  /** Probability that a datagram is lost (each direction). */
  readonly drop?: number;
  /** Probability that a datagram is delivered twice. */
  readonly duplicate?: number;
  /** Probability that a datagram is held back 10–40 ms, so later ones overtake it. */
  readonly reorder?: number;
  /** Random delay of every datagram, ms. */
  readonly delayMs?: readonly [number, number];
  /** Probability that a copy of a reply also arrives from the rogue socket. */
  readonly wrongSource?: number;
  /** Probability that a reply is also sent to the client from another front. */
  readonly crossTalk?: number;
  /** Per-datagram override: 'drop', 'pass' (no faults), a delay in ms, or undefined for the random faults. */
  readonly rule?: (bytes: Uint8Array, direction: Direction, front: number) => 'drop' | 'pass' | number | undefined;
  readonly seed?: number;
  /** Address of the rogue socket. Default 127.0.0.2. */
  readonly rogueAddress?: string;
}

export interface ProxyStats {
  forwarded: number;
  dropped: number;
  duplicated: number;
  reordered: number;
  delayed: number;
  wrongSource: number;
  crossTalk: number;
}

export interface Proxy {
  /** Where the client should send: front i stands for upstream i. */
  readonly fronts: readonly Endpoint[];
  readonly stats: ProxyStats;
  /** Every datagram seen from the client, by front, with its arrival time (ms). */
  readonly requests: Array<{ front: number; bytes: Uint8Array; at: number }>;
  /** Every reply forwarded, by front, with the time it left (ms). */
  readonly replies: Array<{ front: number; bytes: Uint8Array; at: number }>;
  close(): Promise<void>;
}

/** mulberry32: small, seedable, good enough to pick faults. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function bind(address: string): Promise<Socket> {
  const socket = createSocket(address.includes(':') ? { type: 'udp6', ipv6Only: true } : { type: 'udp4' });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind({ address, port: 0 }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

const same = (a: Endpoint, b: Endpoint): boolean => a.address === b.address && a.port === b.port;

/** One front per upstream, on the loopback address of the upstream's family. */
export async function startProxy(upstreams: readonly Endpoint[], faults: Faults = {}): Promise<Proxy> {
  const random = seeded(faults.seed ?? 1);
  const chance = (p = 0): boolean => p > 0 && random() < p;
  const timers = new Set<NodeJS.Timeout>();
  const stats: ProxyStats = { forwarded: 0, dropped: 0, duplicated: 0, reordered: 0, delayed: 0, wrongSource: 0, crossTalk: 0 };
  const requests: Proxy['requests'] = [];
  const replies: Proxy['replies'] = [];
  const sockets: Socket[] = [];
  let closed = false;
  try {
    for (const u of upstreams) sockets.push(await bind(u.address.includes(':') ? '::1' : '127.0.0.1'));
    sockets.push(await bind(faults.rogueAddress ?? '127.0.0.2'));
  } catch (e) {
    for (const s of sockets) s.close();
    throw e;
  }
  const fronts = sockets.slice(0, upstreams.length);
  const rogue = sockets[upstreams.length]!;
  /** The client of each front: where its replies go. */
  const clients: Array<Endpoint | undefined> = upstreams.map(() => undefined);

  const later = (ms: number, fn: () => void): void => {
    if (ms <= 0) {
      fn();
      return;
    }
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    timers.add(t);
  };
  const send = (socket: Socket, bytes: Uint8Array, to: Endpoint): void => {
    if (!closed) socket.send(bytes, to.port, to.address, () => { /* loopback: nothing to report */ });
  };

  /** Delivers `bytes` through `socket` to `to`, with the faults. */
  const deliver = (socket: Socket, bytes: Uint8Array, to: Endpoint, direction: Direction, front: number, onSent?: () => void): void => {
    const rule = faults.rule?.(bytes, direction, front);
    if (rule === 'drop' || (rule === undefined && chance(faults.drop))) {
      stats.dropped++;
      return;
    }
    const copies = rule === undefined && chance(faults.duplicate) ? 2 : 1;
    if (copies === 2) stats.duplicated++;
    for (let n = 0; n < copies; n++) {
      let delay = typeof rule === 'number' ? rule : 0;
      if (rule === undefined && faults.delayMs) {
        const [lo, hi] = faults.delayMs;
        delay += lo + random() * (hi - lo);
        stats.delayed++;
      }
      if (rule === undefined && chance(faults.reorder)) {
        delay += 10 + random() * 30;
        stats.reordered++;
      }
      later(delay, () => {
        stats.forwarded++;
        onSent?.();
        send(socket, bytes, to);
      });
    }
  };

  fronts.forEach((front, i) => {
    const upstream = upstreams[i]!;
    front.on('message', (msg, rinfo) => {
      const bytes = new Uint8Array(msg);
      const from = { address: rinfo.address, port: rinfo.port };
      if (!same(from, upstream)) {
        clients[i] = from;
        requests.push({ front: i, bytes, at: performance.now() });
        deliver(front, bytes, upstream, 'request', i);
        return;
      }
      const client = clients[i];
      if (!client) return;
      deliver(front, bytes, client, 'reply', i, () => replies.push({ front: i, bytes, at: performance.now() }));
      if (faults.rule?.(bytes, 'reply', i) !== 'pass') {
        // A copy from an address the client never wrote to.
        if (chance(faults.wrongSource) && !client.address.includes(':')) {
          stats.wrongSource++;
          later(random() * 10, () => send(rogue, bytes, client));
        }
        // The same reply from another server's front.
        if (fronts.length > 1 && chance(faults.crossTalk)) {
          const j = (i + 1 + Math.floor(random() * (fronts.length - 1))) % fronts.length;
          if (fronts[j]!.address().family === front.address().family) {
            stats.crossTalk++;
            later(random() * 10, () => send(fronts[j]!, bytes, client));
          }
        }
      }
    });
  });

  return {
    fronts: fronts.map((s) => ({ address: s.address().address, port: s.address().port })),
    stats,
    requests,
    replies,
    close: async () => {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
