/**
 * A SA:MP query flood as the attacked server records it (docs/traffic.md, "A query flood"),
 * for the dissector's benchmark: a classic pcap (Ethernet, IPv4, UDP; nanosecond times) and the
 * exact counts a dissector's statistics must give of it.
 *
 * The server is 10.0.0.1:7777. The flood is `i` requests at 500 000 a second of capture time (one
 * per 2 µs slot, at a random point of its first half), almost all from spoofed sources: each from an
 * address no other frame has, and a random port. Five unspoofed hosts, 198.51.100.1–5, send 1 % of
 * the flood each from four ports apiece. The server answers one flood request in 30, at random (its rate
 * limit), 0.2 ms later. Mixed in, in the second half of a slot: one host, 203.0.113.66 on one socket,
 * guessing the RCON password every 1000 slots (a new password each time, each answered by one line
 * `Invalid RCON password.`), and in one slot of 100 an ordinary visitor's `i`, `r` or `c` (300
 * clients, all answered 0.04–0.9 ms later, never two requests of one client waiting at once).
 *
 * Every answered request has its reply in the capture (the replies still due when the flood ends
 * close it), so the counts are exact: answered, unanswered and replies do not depend on how a
 * dissector pairs twins (a heavy host's requests from one port are byte for byte the same).
 *
 * Deterministic (one seed, the same bytes) and streamed: what is held is the few replies not yet
 * due, so millions of requests generate in flat memory.
 *
 * Run alone, it writes a capture and prints its summary:
 *   node --conditions=@gamequery/source --import tsx bench/flood.ts FILE [requests] [seed]
 */
import { pathToFileURL } from 'node:url';
import { samp } from '@gamequery/codec';
import {
  AT,
  GUESSER_IP,
  HEAVY_IPS,
  INVALID_LINE,
  MESSAGE,
  REQUESTS,
  SERVER,
  ephemeralPort,
  publicAddress,
  scatter,
  serverReplies,
} from './flood-hosts.ts';
import { ChunkWriter, Rng, ipText, steppedCapture, writeChunks, type Endpoint } from './traffic.ts';

export interface FloodOptions {
  /** Flood requests (spoofed and the heavy hosts'); the guesser's and visitors' come on top. */
  readonly requests: number;
  /** Default 1. */
  readonly seed?: number;
  /** Flood requests per second of capture time. Default 500 000. */
  readonly rate?: number;
  /** Bytes per chunk, about. Default 1 MiB. */
  readonly chunkBytes?: number;
  /**
   * An IP fragment flood beside the query flood: in each slot, after its flood request, a
   * first fragment from a spoofed source (8 bytes of UDP header to the server's port and 16
   * of data, "more fragments" set, a random IP id) whose datagram never completes. Default false.
   */
  readonly fragments?: boolean;
}

export interface HeavyHost {
  readonly address: string;
  readonly ports: readonly number[];
  readonly requests: number;
  readonly answered: number;
}

/** What was generated: the truth a dissector's statistics of the capture must match. */
export interface FloodSummary {
  readonly frames: number;
  /** Bytes of the file, its header included. */
  readonly bytes: number;
  /** Capture time from the first frame to the last. */
  readonly seconds: number;
  /** The attacked server, `10.0.0.1:7777`. */
  readonly server: string;
  /** Requests by message name (`info`, `rules`, `clients`, `rcon`), as `gamequery stats` names them. */
  readonly requests: Readonly<Record<string, number>>;
  readonly answered: number;
  readonly unanswered: number;
  /** Datagrams the server sent: one per answered request (the guesser's one line included). */
  readonly replies: number;
  /** Flood requests: the spoofed ones and the heavy hosts'. */
  readonly flood: number;
  /** Flood requests from spoofed sources: as many distinct addresses. */
  readonly spoofed: number;
  /** Distinct source addresses of requests. */
  readonly sources: number;
  readonly heavyHosts: readonly HeavyHost[];
  readonly guesser: { readonly address: string; readonly port: number; readonly guesses: number; readonly distinctPasswords: number };
  readonly visitors: { readonly clients: number; readonly exchanges: number };
  /** Every request, per second of capture time. */
  readonly requestsPerSecond: number;
  /** First fragments of datagrams that never complete (with `fragments`). */
  readonly fragments: number;
}

const HEAVY_SHARE = 0.01;
const HEAVY_PORTS = 4;
const ANSWER_ONE_IN = 30;
const GUESS_EVERY = 1000;
const VISIT_ONE_IN = 100;
const VISITORS = 300;
const FLOOD_DELAY_NS = 200_000;
/** Visitors' requests by weight, as the mix of docs/traffic.md has them. */
const VISITS: readonly [keyof typeof REQUESTS, number][] = [
  ['i', 21.3],
  ['r', 16.6],
  ['c', 9.4],
];
const VISIT_WEIGHT = VISITS.reduce((sum, [, w]) => sum + w, 0);

/** A reply not yet due. */
interface Due {
  readonly t: number;
  readonly to: Endpoint;
  readonly bytes: Uint8Array;
}

class FloodGenerator {
  readonly rng: Rng;
  readonly writer: ChunkWriter;
  readonly slotNs: number;
  readonly replies = serverReplies();
  readonly heavy: { readonly ip: number; readonly ports: Endpoint[]; requests: number; answered: number }[];
  readonly guesser: Endpoint;
  readonly visitors: Endpoint[] = [];
  readonly visitorIps = new Set<number>();
  /** When each visitor's reply has gone out: until then it sends nothing (no two of its requests wait at once). */
  readonly visitorBusy = new Float64Array(VISITORS);
  readonly visitorSeen = new Uint8Array(VISITORS);
  /** Replies not yet due, by time (a handful: a few flood replies and visitors' in 0.9 ms). */
  readonly due: Due[] = [];
  readonly scratch = { id: -1, ip: 0, port: 0 };
  readonly offset: number;
  nextSpoof = 0;
  ipId: number;
  frames = 0;
  bytes = 24;
  first = -1;
  last = 0;
  readonly requests: Record<string, number> = {};
  answered = 0;
  spoofed = 0;
  guesses = 0;
  readonly passwords = new Set<string>();
  visits = 0;
  readonly fragmentFlood: boolean;
  fragments = 0;
  /** A fragment's IP data: the UDP header of a datagram far longer than it, then 16 bytes. */
  readonly fragmentData = new Uint8Array(24);

  constructor(options: FloodOptions) {
    const rng = (this.rng = new Rng(options.seed ?? 1));
    this.writer = new ChunkWriter(options.chunkBytes ?? 1 << 20);
    this.slotNs = 1e9 / (options.rate ?? 500_000);
    this.offset = rng.u32();
    this.ipId = rng.int(65536);
    this.heavy = HEAVY_IPS.map((ip) => ({
      ip,
      ports: Array.from({ length: HEAVY_PORTS }, () => ({ id: -1, ip, port: ephemeralPort(rng) })),
      requests: 0,
      answered: 0,
    }));
    this.guesser = { id: -1, ip: GUESSER_IP, port: ephemeralPort(rng) };
    this.fragmentFlood = options.fragments ?? false;
    const udp = new DataView(this.fragmentData.buffer);
    udp.setUint16(2, SERVER.port);
    udp.setUint16(4, 1400);
    while (this.visitors.length < VISITORS) {
      const ip = rng.u32();
      if (!publicAddress(ip) || this.visitorIps.has(ip)) continue;
      this.visitorIps.add(ip);
      this.visitors.push({ id: this.visitors.length, ip, port: ephemeralPort(rng) });
    }
  }

  /** The next spoofed address: a public one no visitor has, never the same twice. */
  spoofedAddress(): number {
    for (;;) {
      const ip = scatter((this.nextSpoof++ + this.offset) >>> 0);
      if (publicAddress(ip) && !this.visitorIps.has(ip)) return ip;
    }
  }

  count(message: string): void {
    this.requests[message] = (this.requests[message] ?? 0) + 1;
  }

  send(t: number, src: Endpoint, dst: Endpoint, bytes: Uint8Array, incoming: boolean, ipId: number): void {
    const start = this.writer.at;
    // What comes in crossed the wire and is padded to Ethernet's minimum; what the server sends is not.
    this.writer.udp(t, src, dst, bytes, ipId, incoming);
    this.wrote(t, start);
  }

  /** A frame written at `t` from `start` in the writer: counted. */
  wrote(t: number, start: number): void {
    this.bytes += this.writer.at - start;
    this.frames++;
    if (this.first < 0) this.first = t;
    this.last = t;
  }

  nextIpId(): number {
    return (this.ipId = (this.ipId + 1) & 0xffff);
  }

  /** Queues a reply, after those due at the same time or earlier. */
  answer(t: number, to: Endpoint, bytes: Uint8Array): void {
    const due = this.due;
    let i = due.length;
    while (i > 0 && due[i - 1]!.t > t) i--;
    due.splice(i, 0, { t, to, bytes });
    this.answered++;
  }

  /** The next reply's time: the server answers what it took before the flood ended, so every answered request's reply is in the capture. */
  nextDue(): number | undefined {
    return this.due[0]?.t;
  }

  /** Sends the replies due by `t`. */
  repliesUntil(t: number): void {
    while (this.due.length && this.due[0]!.t <= t) {
      const r = this.due.shift()!;
      this.send(r.t, SERVER, r.to, r.bytes, false, this.nextIpId());
    }
  }

  /** One flood request at `t`, from a spoofed source or a heavy host; the server answers one in 30. */
  flood(t: number): void {
    const rng = this.rng;
    const roll = rng.float();
    const answered = rng.int(ANSWER_ONE_IN) === 0;
    const at = t + FLOOD_DELAY_NS - 10_000 + rng.int(20_000);
    this.count(MESSAGE.i);
    if (roll < HEAVY_SHARE * HEAVY_IPS.length) {
      const host = this.heavy[Math.floor(roll / HEAVY_SHARE)]!;
      const src = host.ports[rng.int(HEAVY_PORTS)]!;
      host.requests++;
      this.send(t, src, SERVER, REQUESTS.i, true, this.nextIpId());
      if (answered) {
        host.answered++;
        this.answer(at, src, this.replies.i);
      }
      return;
    }
    const ip = this.spoofedAddress();
    const port = 1024 + rng.int(64512);
    const src = this.scratch;
    src.ip = ip;
    src.port = port;
    this.spoofed++;
    // Flooding tools randomise the IP id too.
    this.send(t, src, SERVER, REQUESTS.i, true, rng.int(65536));
    if (answered) this.answer(at, { id: -1, ip, port }, this.replies.i);
  }

  /** A password guess at `t`: a dictionary word and a counter, so never the same twice. */
  guess(t: number): void {
    const words = ['admin', 'rcon', 'password', 'samp', 'server', 'changeme', 'qwerty', 'letmein'];
    const password = `${words[this.guesses % words.length]}${Math.floor(this.guesses / words.length)}`;
    this.guesses++;
    this.passwords.add(password);
    this.send(t, this.guesser, SERVER, samp.rconRequest.encode({ ...AT, password, command: 'varlist' }), true, this.nextIpId());
    this.count(samp.rconRequest.message);
    this.answer(t + this.rtt(), this.guesser, INVALID_LINE);
  }

  /** An ordinary visitor's request at `t`, from a client with no request waiting. */
  visit(t: number): void {
    const rng = this.rng;
    let v = rng.int(VISITORS);
    while (this.visitorBusy[v]! >= t) v = rng.int(VISITORS);
    let pick = rng.float() * VISIT_WEIGHT;
    let n = 0;
    while (n < VISITS.length - 1 && (pick -= VISITS[n]![1]) >= 0) n++;
    const kind = VISITS[n]![0];
    const client = this.visitors[v]!;
    this.send(t, client, SERVER, REQUESTS[kind], true, this.nextIpId());
    this.count(MESSAGE[kind]);
    const at = t + this.rtt();
    this.visitorBusy[v] = at;
    this.visitorSeen[v] = 1;
    this.visits++;
    this.answer(at, client, this.replies[kind]);
  }

  rtt(): number {
    return Math.round(this.rng.range(40_000, 900_000));
  }

  /** A first fragment at `t` from a spoofed source, whose datagram never completes. */
  fragment(t: number): void {
    const rng = this.rng;
    const src = this.scratch;
    src.ip = this.spoofedAddress();
    src.port = 1024 + rng.int(64512);
    new DataView(this.fragmentData.buffer).setUint16(0, src.port);
    const start = this.writer.at;
    this.writer.fragment(t, src, SERVER, this.fragmentData, rng.int(65536), 0x2000);
    this.wrote(t, start);
    this.fragments++;
  }

  /**
   * Slot `k`: its flood request (and, in a fragment flood, a fragment right after it), then a
   * guess or a visitor's request if it has one, each after the replies due before it.
   */
  step(k: number): void {
    const rng = this.rng;
    const start = Math.round(k * this.slotNs);
    const half = Math.floor(this.slotNs / 2);
    const t = start + rng.int(half);
    this.repliesUntil(t);
    this.flood(t);
    if (this.fragmentFlood) {
      this.repliesUntil(t + 1);
      this.fragment(t + 1);
    }
    const guessAt = (k + 1) % GUESS_EVERY === 0 ? start + half + rng.int(half) : Infinity;
    const visitAt = rng.int(VISIT_ONE_IN) === 0 ? start + half + rng.int(half) : Infinity;
    if (guessAt <= visitAt) {
      this.extra(guessAt, true);
      this.extra(visitAt, false);
    } else {
      this.extra(visitAt, false);
      this.extra(guessAt, true);
    }
  }

  extra(at: number, guess: boolean): void {
    if (at === Infinity) return;
    this.repliesUntil(at);
    if (guess) this.guess(at);
    else this.visit(at);
  }

  summary(): FloodSummary {
    const total = Object.values(this.requests).reduce((a, b) => a + b, 0);
    const seconds = this.first < 0 ? 0 : (this.last - this.first) / 1e9;
    const heavyHosts = this.heavy.map((h) => ({
      address: ipText(h.ip),
      ports: h.ports.map((p) => p.port),
      requests: h.requests,
      answered: h.answered,
    }));
    const visitors = this.visitorSeen.reduce((a, b) => a + b, 0);
    return {
      frames: this.frames,
      bytes: this.bytes,
      seconds,
      server: `${AT.serverIp}:${AT.serverPort}`,
      requests: { ...this.requests },
      answered: this.answered,
      unanswered: total - this.answered,
      replies: this.answered,
      flood: this.spoofed + heavyHosts.reduce((a, h) => a + h.requests, 0),
      spoofed: this.spoofed,
      sources: this.spoofed + heavyHosts.filter((h) => h.requests > 0).length + (this.guesses ? 1 : 0) + visitors,
      heavyHosts,
      guesser: { address: ipText(GUESSER_IP), port: this.guesser.port, guesses: this.guesses, distinctPasswords: this.passwords.size },
      visitors: { clients: visitors, exchanges: this.visits },
      requestsPerSecond: seconds > 0 ? total / seconds : 0,
      fragments: this.fragments,
    };
  }
}

/**
 * Generates the flood, a chunk at a time (about `chunkBytes` each; the first is the pcap header),
 * and returns its summary.
 */
export function generateFlood(options: FloodOptions): Generator<Uint8Array, FloodSummary> {
  return steppedCapture(new FloodGenerator(options), options.requests);
}

/** Writes the flood to `file`, a chunk at a time (flat memory); returns its summary. */
export function writeFlood(file: string, options: FloodOptions): FloodSummary {
  return writeChunks(file, generateFlood(options));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, requests, seed] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/flood.ts FILE [requests] [seed]');
  console.log(JSON.stringify(writeFlood(file, { requests: Number(requests ?? 2_000_000), seed: Number(seed ?? 1) }), null, 2));
}
