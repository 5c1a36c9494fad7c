/**
 * The emulator under a flood, shared by limits.test.ts and `pnpm bench faults`: one
 * loopback source (127.0.0.1) sends the same request as fast as asked for a while, a
 * second source (127.0.0.2) keeps asking `i` at a polite pace, and the figures say what
 * the per-source limits let through: reply bytes per request byte, reply bytes per second,
 * and how much of the second source's asking was answered.
 */
import { samp } from '@gamequery/codec';
import { defaultLimits, startEmulator, type AbuseLimits, type ServerState } from '@gamequery/codec/node';
import { client } from './udp.ts';

/** The worst case of limits.ts: 100 players with 24-byte names, a 3413-byte `d` reply to 11 bytes. */
export const crowded: ServerState = {
  flavor: 'samp037',
  port: 0,
  hostname: 'Flood target',
  maxPlayers: 100,
  players: Array.from({ length: 100 }, (_, i) => ({ name: `Player_${String(i).padStart(17, '0')}`, score: i, ping: 50 })),
};

export interface FloodOptions {
  /** The request, built for the server's port. */
  readonly request: (port: number) => Uint8Array;
  readonly durationMs: number;
  /** Datagrams per second the flooding source sends. */
  readonly rate: number;
  /** Default: the emulator's defaults (50 requests/s, 64 KiB/s per source). */
  readonly limits?: Partial<AbuseLimits>;
  /** The second source's pace: one `i` every this many ms. Default 50. */
  readonly politeEveryMs?: number;
}

export interface FloodFigures {
  readonly seconds: number;
  /** The flooding source: what it sent, and what came back to it. */
  readonly requests: number;
  readonly requestBytes: number;
  readonly replies: number;
  readonly replyBytes: number;
  /** Reply bytes per request byte, and per second, at the flooding source. */
  readonly amplification: number;
  readonly replyBytesPerSecond: number;
  /** What the limits allow over `seconds`: the burst plus the rate. */
  readonly allowedBytes: number;
  readonly allowedRequests: number;
  /** The emulator's counters (both sources). */
  readonly received: number;
  readonly answered: number;
  readonly rateLimited: number;
  readonly byteCapped: number;
  /** The second source: `i` asked and answered. */
  readonly polite: { readonly asked: number; readonly answered: number };
}

export async function flood(o: FloodOptions): Promise<FloodFigures> {
  const emulator = await startEmulator({ servers: [crowded], ...(o.limits ? { limits: o.limits } : {}) });
  const loud = await client('127.0.0.1');
  const quiet = await client('127.0.0.2');
  try {
    const to = { address: emulator.servers[0]!.address, port: emulator.servers[0]!.port };
    const bytes = o.request(to.port);
    const info = samp.infoRequest.encode({ serverIp: to.address, serverPort: to.port });
    const start = performance.now();
    const end = start + o.durationMs;
    let requests = 0;

    // The flood: every 5 ms, as many as the rate asks for since the start.
    const flooding = (async () => {
      while (performance.now() < end) {
        const due = Math.floor(((performance.now() - start) / 1000) * o.rate);
        for (; requests < due; requests++) await loud.send(bytes, to);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    // The polite source, one request at a time.
    const polite = { asked: 0, answered: 0 };
    const asking = (async () => {
      while (performance.now() < end) {
        const started = performance.now();
        polite.asked++;
        if ((await quiet.query(info, to, { timeoutMs: 1000, quietMs: 0 })).length > 0) polite.answered++;
        await new Promise((r) => setTimeout(r, Math.max(0, (o.politeEveryMs ?? 50) - (performance.now() - started))));
      }
    })();
    await Promise.all([flooding, asking]);
    await new Promise((r) => setTimeout(r, 100)); // the last replies
    const seconds = (performance.now() - start) / 1000;
    const got = loud.drain(to);
    const replyBytes = got.reduce((n, b) => n + b.length, 0);
    const limits = { ...defaultLimits, ...o.limits };
    const t = emulator.stats().total;
    return {
      seconds,
      requests,
      requestBytes: requests * bytes.length,
      replies: got.length,
      replyBytes,
      amplification: replyBytes / (requests * bytes.length),
      replyBytesPerSecond: replyBytes / seconds,
      allowedBytes: limits.byteBurst + limits.bytesPerSecond * seconds,
      allowedRequests: limits.requestBurst + limits.requestsPerSecond * seconds,
      received: t.received,
      answered: t.answered,
      rateLimited: t.rateLimited,
      byteCapped: t.byteCapped,
      polite,
    };
  } finally {
    await Promise.all([loud.close(), quiet.close()]);
    await emulator.close();
  }
}
