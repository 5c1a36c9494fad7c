/**
 * A server-list scan as its client records it, for the dissector's benchmark: one socket
 * (192.0.2.10:50000) asking every SA:MP server of a master list for its information (`i`),
 * a third of those that answer for their rules (`r`) too, the way a server-list site refreshes
 * its list. A classic pcap (Ethernet, IPv4, UDP; nanosecond times) and the exact counts a
 * dissector's statistics must give of it.
 *
 * The servers are `servers` distinct public addresses, nine in ten on port 7777, the rest on
 * 7778–7797. They are asked at `rate` a second of capture time (default 50 000: a scanner that
 * paces itself); 85 % answer, 20–250 ms later (the Internet's round trips, each its own), each
 * with its own name, player count and game mode; the others never do (a list holds dead entries).
 * An `r` goes 1 ms after its server's `i` reply. So each server is one to two exchanges, and
 * what a dissector's statistics hold is one state per server: 150 000 of them by default, where
 * a capture of one busy server holds one.
 *
 * Deterministic (one seed, the same bytes) and streamed: what is held is the replies not yet
 * due (a quarter of a second of them).
 *
 * Run alone, it writes a capture and prints its summary:
 *   node --conditions=@gamequery/source --import tsx bench/scan.ts FILE [servers] [seed]
 */
import { pathToFileURL } from 'node:url';
import { samp } from '@gamequery/codec';
import { publicAddress, scatter } from './flood-hosts.ts';
import { ChunkWriter, Rng, TimeQueue, ipText, pcapHeader, steppedCapture, writeChunks, type Endpoint } from './traffic.ts';

export interface ScanOptions {
  /** Servers asked. */
  readonly servers: number;
  /** Default 1. */
  readonly seed?: number;
  /** Servers asked per second of capture time. Default 50 000. */
  readonly rate?: number;
  /** Bytes per chunk, about. Default 1 MiB. */
  readonly chunkBytes?: number;
}

/** What was generated: the truth a dissector's statistics of the capture must match. */
export interface ScanSummary {
  readonly frames: number;
  /** Bytes of the file, its header included. */
  readonly bytes: number;
  /** Capture time from the first frame to the last. */
  readonly seconds: number;
  /** The scanning client, `192.0.2.10:50000`. */
  readonly client: string;
  readonly servers: number;
  /** Servers that never answered. */
  readonly silent: number;
  /** Requests by message name (`info`, `rules`), as `gamequery stats` names them. */
  readonly requests: Readonly<Record<string, number>>;
  readonly answered: number;
  readonly unanswered: number;
  /** Datagrams the servers sent: one per answered request. */
  readonly replies: number;
}

const CLIENT: Endpoint = { id: 1, ip: ((192 << 24) | (0 << 16) | (2 << 8) | 10) >>> 0, port: 50000 };
const ANSWERS = 0.85;
const RULES = 1 / 3;
const GAMEMODES = ['Freeroam', 'Roleplay', 'Deathmatch', 'Stunt', 'Race', 'Cops and Robbers', 'Drift'];
const LANGUAGES = ['English', 'Русский', 'Español', 'Português', 'Polski', 'Deutsch', 'Türkçe'];

/** A datagram due at `t` (ns) from `server` to the client. */
interface Due {
  readonly t: number;
  readonly server: Endpoint;
  readonly payload: Uint8Array;
  /** Whether the client asks its rules once it has it (an `i` reply of a server asked for them). */
  readonly thenRules: boolean;
  /** Its place in the order queued: of two due at once, the first queued goes first. */
  readonly seq: number;
}

class ScanGenerator {
  readonly writer: ChunkWriter;
  readonly #rng: Rng;
  readonly #gap: number;
  /** Replies not yet due (some 12 000 at a time). */
  readonly due = new TimeQueue<Due>();
  #queued = 0;
  #id = 1;
  /** The counter the servers' addresses are scattered from. */
  #addresses = 0;
  #frames = 0;
  #bytes = 0;
  #last = 0;
  #silent = 0;
  #info = 0;
  #rules = 0;
  #answered = 0;

  constructor(readonly options: ScanOptions) {
    this.writer = new ChunkWriter(options.chunkBytes ?? 1 << 20);
    this.#rng = new Rng(options.seed ?? 1);
    this.#gap = 1e9 / (options.rate ?? 50_000);
  }

  /** The next server: its address (public, and distinct: the scatter of a counter that never repeats) and port. */
  #server(): Endpoint {
    let ip: number;
    do ip = scatter(this.#addresses++);
    while (!publicAddress(ip));
    return { id: -1, ip, port: this.#rng.float() < 0.9 ? 7777 : 7778 + this.#rng.int(20) };
  }

  #write(t: number, src: Endpoint, dst: Endpoint, payload: Uint8Array, fromServer: boolean): void {
    const before = this.writer.at;
    this.writer.udp(t, src, dst, payload, this.#id++ & 0xffff, fromServer);
    this.#bytes += this.writer.at - before;
    this.#frames++;
    this.#last = t;
  }

  #queue(t: number, server: Endpoint, payload: Uint8Array, thenRules: boolean): void {
    this.due.push({ t, server, payload, thenRules, seq: this.#queued++ });
  }

  /** The next reply's time: every reply of a server that answers is in the capture (and the `r` it brings, and its reply). */
  nextDue(): number | undefined {
    return this.due.peek()?.t;
  }

  /** The replies due before `t`, and the `r` requests they bring. */
  repliesUntil(t: number): void {
    const q = this.due;
    while (q.size && q.peek()!.t <= t) {
      const d = q.pop()!;
      this.#write(d.t, d.server, CLIENT, d.payload, true);
      this.#answered++;
      if (!d.thenRules) continue;
      const at = { serverIp: ipText(d.server.ip), serverPort: d.server.port };
      const ask = d.t + 1e6;
      this.#write(ask, CLIENT, d.server, samp.rulesRequest.encode(at), false);
      this.#rules++;
      const rules = samp.rulesResponse.encode({
        ...at,
        rules: [
          { name: 'lagcomp', value: this.#rng.float() < 0.7 ? 'On' : 'Off' },
          { name: 'mapname', value: 'San Andreas' },
          { name: 'version', value: this.#rng.float() < 0.6 ? '0.3.7-R2' : 'omp 1.2.0.2670' },
          { name: 'weather', value: String(this.#rng.int(20)) },
          { name: 'weburl', value: `www.server${this.#rng.int(100000)}.example` },
          { name: 'worldtime', value: `${this.#rng.int(24)}:00` },
        ],
      });
      this.#queue(ask + this.#rtt(), d.server, rules, false);
    }
  }

  /** A round trip, 20–250 ms. */
  #rtt(): number {
    return Math.round(20e6 + this.#rng.float() * 230e6);
  }

  /** Server `k` is asked for its information. */
  step(k: number): void {
    const t = Math.round(k * this.#gap);
    this.repliesUntil(t);
    const server = this.#server();
    const at = { serverIp: ipText(server.ip), serverPort: server.port };
    this.#write(t, CLIENT, server, samp.infoRequest.encode(at), false);
    this.#info++;
    if (this.#rng.float() >= ANSWERS) {
      this.#silent++;
      return;
    }
    const maxPlayers = [50, 100, 200, 500, 1000][this.#rng.int(5)]!;
    const language = LANGUAGES[this.#rng.int(LANGUAGES.length)]!;
    const info = samp.infoResponse.encode(
      {
        ...at,
        password: this.#rng.float() < 0.05,
        players: this.#rng.int(maxPlayers + 1),
        maxPlayers,
        hostname: `${GAMEMODES[k % GAMEMODES.length]} server #${k} | ${this.#rng.int(1000)}`,
        gamemode: `${GAMEMODES[this.#rng.int(GAMEMODES.length)]} v${1 + this.#rng.int(9)}.${this.#rng.int(10)}`,
        language,
      },
      // A Russian server writes its strings in its own code page.
      { charset: language === 'Русский' ? 'windows-1251' : 'windows-1252' },
    );
    this.#queue(t + this.#rtt(), server, info, this.#rng.float() < RULES);
  }

  summary(): ScanSummary {
    const requests = this.#info + this.#rules;
    return {
      frames: this.#frames,
      bytes: this.#bytes + pcapHeader().length,
      seconds: this.#last / 1e9,
      client: `${ipText(CLIENT.ip)}:${CLIENT.port}`,
      servers: this.options.servers,
      silent: this.#silent,
      requests: { [samp.infoRequest.message]: this.#info, [samp.rulesRequest.message]: this.#rules },
      answered: this.#answered,
      unanswered: requests - this.#answered,
      replies: this.#answered,
    };
  }
}

/** Generates the scan, a chunk at a time (about `chunkBytes` each; the first is the pcap header), and returns its summary. */
export function generateScan(options: ScanOptions): Generator<Uint8Array, ScanSummary> {
  return steppedCapture(new ScanGenerator(options), options.servers);
}

/** Writes the scan to `file`, a chunk at a time (flat memory); returns its summary. */
export function writeScan(file: string, options: ScanOptions): ScanSummary {
  return writeChunks(file, generateScan(options));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, servers, seed] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/scan.ts FILE [servers] [seed]');
  console.log(JSON.stringify(writeScan(file, { servers: Number(servers ?? 150_000), seed: Number(seed ?? 1) }), null, 2));
}
