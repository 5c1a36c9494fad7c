/** `gamequery serve`: answer queries as the servers of a JSON state file describe, until SIGINT/SIGTERM. */
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { escapeControls } from '@gamequery/codec/internal';
import { isLoopback, parseState, showServer, startEmulator, type Emulator, type EmulatedServer } from '@gamequery/codec/node';

interface Opts {
  host: string;
  portOffset: number;
  public?: boolean;
  rate?: number;
  byteRate?: number;
}

/** Per-source limits: reachable from anywhere, a reflector's damage bounded; on loopback, what a local tool querying hundreds of servers needs. */
const PUBLIC_LIMITS = { rate: 50, byteRate: 65_536 };
const LOOPBACK_LIMITS = { rate: 100_000, byteRate: 100_000_000 };

const WHY_LOOPBACK = `SA:MP and VC:MP queries have no handshake, so a reachable emulator answers whatever
source address a datagram claims: anyone can make it send its replies to a third party,
up to ~300 times the bytes they sent (an 11-byte 'd' request brings back up to 3.4 KB).
It would also show servers that do not exist to real players' browsers. The per-source
limits (--rate, --byte-rate) bound the damage but do not remove it.
`;

const integer =
  (min: number, max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer in ${min}..${max}`);
    return n;
  };

const endpoint = (s: EmulatedServer): string => showServer(s.address, s.port);

/** The state file's JSON; what cannot be read or parsed is said with the file's name (a usage error). */
function readState(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${escapeControls(file)}: cannot read it (${(e as { code?: string }).code ?? String(e)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`${escapeControls(file)}: not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Resolves on the first SIGINT or SIGTERM. */
const untilSignal = (): Promise<NodeJS.Signals> =>
  new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

export function serveCommand(): Command {
  return new Command('serve')
    .description('emulate SA-MP 0.3.7, open.mp, VC:MP and Minecraft query servers from a JSON state file until SIGINT/SIGTERM')
    .argument('<state>', 'state file, e.g. examples/servers.json')
    .option('--host <address>', 'bind address of servers whose state names none', '127.0.0.1')
    .option('--port-offset <n>', 'added to every non-zero port of the state', integer(-65535, 65535), 0)
    .option('--public', 'allow binding addresses that are not loopback (see below)')
    .option(
      '--rate <n>',
      `requests per second answered per source address (default ${PUBLIC_LIMITS.rate} with --public; on loopback ${LOOPBACK_LIMITS.rate})`,
      integer(1, 1_000_000),
    )
    .option(
      '--byte-rate <n>',
      `reply bytes per second sent per source address (default ${PUBLIC_LIMITS.byteRate} with --public; on loopback ${LOOPBACK_LIMITS.byteRate})`,
      integer(1, 1_000_000_000),
    )
    .addHelpText(
      'after',
      `\nOnly loopback addresses (127.0.0.0/8, ::1) are bound unless --public is given:\n${WHY_LOOPBACK}` +
        `On loopback only local programs can reach the servers, so the limits default to what a local
tool needs (every query of 'query --file' comes from 127.0.0.1). A source over a limit is
said on stderr, once a second at most, with how many requests and replies it lost.\n`,
    )
    .action(async (file: string, opts: Opts) => {
      const state = parseState(readState(file));
      // More players than the server has slots: served as given (a test of a client may want it), but said.
      state.servers.forEach((s, i) => {
        const npcs = s.players.filter((p) => p.npc).length;
        const players = s.players.length - npcs;
        const slots = s.maxPlayers - npcs;
        if (players > slots)
          process.stderr.write(
            `gamequery serve: servers[${i}]: ${players} players in ${slots} slots (maxPlayers ${s.maxPlayers}${npcs ? `, less ${npcs} NPC${npcs === 1 ? '' : 's'}` : ''}): no real server says so; served as given\n`,
          );
      });
      const hosts = state.servers.map((s) => s.host ?? opts.host);
      const outside = hosts.find((h) => !isLoopback(h === 'localhost' ? '127.0.0.1' : h));
      if (outside !== undefined && !opts.public) {
        throw new Error(
          `refusing to bind ${outside}, which is not a loopback address; pass --public to do it anyway.\n${WHY_LOOPBACK.trimEnd()}`,
        );
      }
      const defaults = opts.public ? PUBLIC_LIMITS : LOOPBACK_LIMITS;
      const rate = opts.rate ?? defaults.rate;
      const byteRate = opts.byteRate ?? defaults.byteRate;
      const emulator: Emulator = await startEmulator({
        servers: state.servers,
        host: opts.host,
        portOffset: opts.portOffset,
        allowPublic: !!opts.public,
        limits: { requestsPerSecond: rate, requestBurst: rate, bytesPerSecond: byteRate, byteBurst: byteRate },
        onLimited: (e) =>
          process.stderr.write(
            `gamequery serve: ${e.source} over the limit of ${rate} requests and ${byteRate} bytes a second (--rate, --byte-rate): ` +
              `${e.requests} requests and ${e.replies} replies dropped (${e.server})\n`,
          ),
      });
      for (const s of emulator.servers) process.stdout.write(`${s.flavor} ${JSON.stringify(s.name)} on ${endpoint(s)}\n`);
      const signal = await untilSignal();
      const t = emulator.stats().total;
      await emulator.close();
      process.stderr.write(
        `${signal}: ${t.received} requests, ${t.replies} replies (${t.bytesOut} bytes), ` +
          `${t.silent} unanswered, ${t.rateLimited} over the request rate, ${t.byteCapped} replies over the byte rate\n`,
      );
    });
}
