/**
 * A loopback UDP proxy that damages traffic on purpose: it drops, duplicates, reorders,
 * delays and truncates datagrams, and injects replies from the wrong source — copies sent
 * from a rogue socket on 127.0.0.2 (or another port), one server's replies sent from
 * another server's front (cross-talk), and forged replies: the request is also put to an
 * "evil twin" server (same protocol, other names and players) and its answer, a valid
 * reply that echoes the request's header, nonce or session id, is sent to the client at
 * once (ahead of the real reply) from 127.0.0.2 on the front's own port or from
 * 127.0.0.1 (::1) on another port. Decisions come from a seeded generator, so a run can be
 * repeated. Every socket and timer is closed by `close()`.
 *
 *   client ──► front[i] (127.0.0.1:ephemeral) ──► upstream[i]
 *   client ◄── front[i] ◄─────────────────────── upstream[i]
 *   client ◄── rogue (127.0.0.2)                 copies of replies (wrong source)
 *   client ◄── front[j]                          replies of upstream[i] (cross-talk)
 *   client ◄── alias[i] (127.0.0.2:front port)   forged: the twin's replies
 *   client ◄── spoofer (127.0.0.1:other port) ◄─► twin[i]
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
  /** Probability that a reply is cut short: 1 byte up to one less than its length is kept. */
  readonly truncate?: number;
  /** Forged replies: the request also goes to `twins[i]`, whose reply reaches the client first, from a wrong source. */
  readonly spoof?: { readonly twins: readonly Endpoint[]; readonly rate: number };
  /**
   * Per-datagram override: 'drop', 'pass' (no faults), a delay in ms, `{ cut: n }` (its first n bytes, no other
   * fault), or undefined for the random faults.
   */
  readonly rule?: (
    bytes: Uint8Array,
    direction: Direction,
    front: number,
  ) => 'drop' | 'pass' | number | { readonly cut: number } | undefined;
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
  truncated: number;
  /** Forged replies sent, by kind of source. */
  spoofed: { otherAddress: number; otherPort: number };
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

function bind(address: string, port = 0): Promise<Socket> {
  const socket = createSocket(address.includes(':') ? { type: 'udp6', ipv6Only: true } : { type: 'udp4' });
  return new Promise((resolve, reject) => {
    const failed = (e: Error): void => {
      socket.close();
      reject(e);
    };
    socket.once('error', failed);
    socket.bind({ address, port, exclusive: true }, () => {
      socket.off('error', failed);
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
  const stats: ProxyStats = {
    forwarded: 0,
    dropped: 0,
    duplicated: 0,
    reordered: 0,
    delayed: 0,
    wrongSource: 0,
    crossTalk: 0,
    truncated: 0,
    spoofed: { otherAddress: 0, otherPort: 0 },
  };
  const requests: Proxy['requests'] = [];
  const replies: Proxy['replies'] = [];
  const sockets: Socket[] = [];
  let closed = false;
  const twins = faults.spoof?.twins ?? [];
  const spoofers: { 4?: Socket; 6?: Socket } = {};
  const aliases: Array<Socket | undefined> = [];
  try {
    for (const u of upstreams) sockets.push(await bind(u.address.includes(':') ? '::1' : '127.0.0.1'));
    sockets.push(await bind(faults.rogueAddress ?? '127.0.0.2'));
    for (const t of twins) {
      const family = t.address.includes(':') ? 6 : 4;
      if (!spoofers[family]) sockets.push((spoofers[family] = await bind(family === 6 ? '::1' : '127.0.0.1')));
    }
    for (let i = 0; i < twins.length; i++) {
      const front = sockets[i]!.address();
      // 127.0.0.2 on the front's port: the same port, another address. (Taken already: no alias.)
      const alias = front.family === 'IPv4' ? await bind('127.0.0.2', front.port).catch(() => undefined) : undefined;
      if (alias) sockets.push(alias);
      aliases.push(alias);
    }
  } catch (e) {
    for (const s of sockets) s.close();
    throw e;
  }
  const fronts = sockets.slice(0, upstreams.length);
  const rogue = sockets[upstreams.length]!;
  const twinIndex = new Map(twins.map((t, i) => [`${t.address} ${t.port}`, i]));
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
    if (!closed)
      socket.send(bytes, to.port, to.address, () => {
        /* loopback: nothing to report */
      });
  };

  /** Delivers `bytes` through `socket` to `to`, with the faults. */
  const deliver = (
    socket: Socket,
    bytes: Uint8Array,
    to: Endpoint,
    direction: Direction,
    front: number,
    onSent?: (sent: Uint8Array) => void,
  ): void => {
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
      let out = bytes;
      if (typeof rule === 'object') {
        out = bytes.subarray(0, rule.cut);
        stats.truncated++;
      } else if (direction === 'reply' && rule === undefined && bytes.length > 1 && chance(faults.truncate)) {
        out = bytes.subarray(0, 1 + Math.floor(random() * (bytes.length - 1)));
        stats.truncated++;
      }
      later(delay, () => {
        stats.forwarded++;
        onSent?.(out);
        send(socket, out, to);
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
        const twin = twins[i];
        if (twin && faults.rule?.(bytes, 'request', i) !== 'pass' && chance(faults.spoof!.rate)) {
          send(spoofers[twin.address.includes(':') ? 6 : 4]!, bytes, twin);
        }
        deliver(front, bytes, upstream, 'request', i);
        return;
      }
      const client = clients[i];
      if (!client) return;
      deliver(front, bytes, client, 'reply', i, (sent) => replies.push({ front: i, bytes: sent, at: performance.now() }));
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

  // The twin's answer goes to the client of the front it stands behind, from a wrong source.
  let forged = 0;
  for (const spoofer of [spoofers[4], spoofers[6]]) {
    spoofer?.on('message', (msg, rinfo) => {
      const i = twinIndex.get(`${rinfo.address} ${rinfo.port}`);
      const client = i === undefined ? undefined : clients[i];
      if (i === undefined || !client) return;
      const alias = aliases[i];
      if (alias && forged++ % 2 === 0) {
        stats.spoofed.otherAddress++;
        send(alias, new Uint8Array(msg), client);
      } else {
        stats.spoofed.otherPort++;
        send(spoofer, new Uint8Array(msg), client);
      }
    });
  }

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
