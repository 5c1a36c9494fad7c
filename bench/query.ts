/**
 * The query client at scale: N emulated open.mp servers on loopback, each with its own
 * hostname, in one emulator process (`gamequery serve`, i.e. one `startEmulator` with N
 * servers on ephemeral ports, per-source limits raised since every query comes from one
 * address), all queried at once through one client socket. Every answer is checked
 * against its server's hostname: a mismatch is a reply attributed to the wrong server.
 *
 * Reference: gamedig 5.3.3 querying the first 1,000 of the same servers in the same run
 * (`gtasao`: i, r, c), 50 at a time, next to our client asking the same (i, r, o, c).
 * Wall time per server is bounded by the emulator (one process, a core of its own on a
 * 2-core machine); the client's own CPU time per server is given beside it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { QueryClient, type SampQueryResult } from '@gamequery/codec/node';
import { formatRate } from './harness.ts';

export interface QueryBenchOptions {
  /** Server counts for the `i`-only run. Default [1000, 10000]. */
  readonly sizes?: readonly number[];
  /** Servers gamedig (and our full query) are compared on. Default 1000. */
  readonly gamedigServers?: number;
  /** gamedig queries at once. Default 50. */
  readonly gamedigConcurrency?: number;
  /** Per-attempt timeout of both clients, ms. Default 1000. */
  readonly timeoutMs?: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const LOOPBACK = '127.0.0.1';

interface Server {
  readonly name: string;
  readonly port: number;
}

interface Tally {
  ok: number;
  failed: number;
  mismatched: number;
  seconds: number;
  cpuSeconds: number;
  reasons: Map<string, number>;
}

const nameOf = (i: number): string => `bench ${String(i).padStart(5, '0')}`;

/** `gamequery serve` on a generated state; resolves once every server is listening. */
async function startEmulatorProcess(count: number, dir: string): Promise<{ servers: Server[]; stop: () => Promise<string> }> {
  const file = join(dir, 'servers.json');
  const servers = Array.from({ length: count }, (_, i) => ({
    flavor: 'openmp',
    port: 0,
    hostname: nameOf(i),
    maxPlayers: 10,
    players: [{ name: `p${i}`, score: i }],
  }));
  writeFileSync(file, JSON.stringify({ servers }));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--conditions=@gamequery/source',
      '--import',
      'tsx',
      'packages/cli/src/main.ts',
      'serve',
      file,
      '--rate',
      '1000000',
      '--byte-rate',
      '1000000000',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const found: Server[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator: ${found.length} of ${count} servers up after 120 s`)), 120_000);
    const fail = (): void => {
      clearTimeout(timer);
      reject(new Error(`emulator exited early: ${stderr.trim()}`));
    };
    void exited.then(fail);
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const m = /^openmp "(.*)" on 127\.0\.0\.1:(\d+)$/.exec(line);
        if (m) found.push({ name: m[1]!, port: Number(m[2]) });
      }
      if (found.length === count) {
        clearTimeout(timer);
        void exited.then(() => undefined);
        resolve();
      }
    });
  });
  return {
    servers: found,
    stop: async () => {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      return stderr.trim();
    },
  };
}

/** Runs `fn` over `items`, at most `limit` at once. */
async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function timed(servers: readonly Server[], limit: number, query: (s: Server) => Promise<string>): Promise<Tally> {
  const tally: Tally = { ok: 0, failed: 0, mismatched: 0, seconds: 0, cpuSeconds: 0, reasons: new Map() };
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await pool(servers, limit, async (s) => {
    try {
      const name = await query(s);
      if (name === s.name) tally.ok++;
      else tally.mismatched++;
    } catch (e) {
      tally.failed++;
      const reason = (e instanceof Error ? e.message : String(e)).replace(/127\.0\.0\.1:\d+/g, 'SERVER');
      tally.reasons.set(reason, (tally.reasons.get(reason) ?? 0) + 1);
    }
  });
  tally.seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  tally.cpuSeconds = (used.user + used.system) / 1e6;
  return tally;
}

function report(label: string, servers: number, t: Tally, extra = ''): void {
  const perServerMs = (t.seconds * 1000) / servers;
  const cpuMs = (t.cpuSeconds * 1000) / servers;
  console.log(
    `  ${label.padEnd(52)} ${t.seconds.toFixed(2).padStart(6)} s  ${formatRate(servers / t.seconds).padStart(7)} servers/s  ` +
      `${perServerMs.toFixed(3)} ms/server (client CPU ${cpuMs.toFixed(3)} ms)  ${t.failed} failed, ${t.mismatched} mismatched${extra}`,
  );
  for (const [reason, n] of t.reasons) console.log(`      ${n} × ${reason}`);
}

/** gamedig's ESM entry, from the codec package that has it as a dev dependency. */
async function loadGamedig(): Promise<{ GameDig: new () => { query(o: Record<string, unknown>): Promise<{ name: string }> } } | undefined> {
  try {
    const require = createRequire(join(root, 'packages/codec/package.json'));
    const cjs = require.resolve('gamedig'); // …/gamedig/dist/index.cjs
    return (await import(pathToFileURL(join(dirname(cjs), '..', 'lib', 'index.js')).href)) as never;
  } catch {
    return undefined;
  }
}

export async function benchQuery(options: QueryBenchOptions = {}): Promise<void> {
  const sizes = options.sizes ?? [1000, 10_000];
  const compared = options.gamedigServers ?? 1000;
  const gdLimit = options.gamedigConcurrency ?? 50;
  const timeoutMs = options.timeoutMs ?? 1000;
  const count = Math.max(...sizes, compared);
  console.log(`\nQuery client: ${count} emulated open.mp servers on loopback (one emulator process), one client socket`);
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-bench-query-'));
  const started = process.hrtime.bigint();
  const emulator = await startEmulatorProcess(count, dir);
  console.log(`  emulator up in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
  try {
    const infoOnly = { rules: false, players: false, omp: false } as const;
    for (const n of sizes) {
      const client = new QueryClient({ timeoutMs, retries: 2, concurrency: n, localAddress: { ipv4: LOOPBACK } });
      try {
        const t = await timed(
          emulator.servers.slice(0, n),
          n,
          async (s) => (await client.querySamp(LOOPBACK, s.port, infoOnly)).info.hostname,
        );
        const st = client.stats();
        report(
          `gamequery, i only, ${n} servers at once`,
          n,
          t,
          `, ${st.retries} retries, ${st.unmatched} unmatched, ${st.duplicates} duplicates`,
        );
      } finally {
        await client.close();
      }
    }

    const subset = emulator.servers.slice(0, compared);
    const full = (r: SampQueryResult): string =>
      r.players?.length === 1 && r.players[0]!.name === `p${Number(r.info.hostname.slice(6))}` && r.omp
        ? r.info.hostname
        : `${r.info.hostname} (wrong players or no o)`;
    for (const limit of [compared, gdLimit]) {
      const client = new QueryClient({ timeoutMs, retries: 2, concurrency: 1024, localAddress: { ipv4: LOOPBACK } });
      try {
        const t = await timed(subset, limit, async (s) => full(await client.querySamp(LOOPBACK, s.port)));
        report(`gamequery, i r o c, ${compared} servers, ${limit} at once`, compared, t);
      } finally {
        await client.close();
      }
    }

    {
      // The same three requests gamedig sends (i r c), at gamedig's concurrency: the like-for-like figure.
      const asGamedig = (r: SampQueryResult): string =>
        r.players?.length === 1 && r.players[0]!.name === `p${Number(r.info.hostname.slice(6))}`
          ? r.info.hostname
          : `${r.info.hostname} (wrong players)`;
      const client = new QueryClient({ timeoutMs, retries: 2, concurrency: 1024, localAddress: { ipv4: LOOPBACK } });
      try {
        const t = await timed(subset, gdLimit, async (s) => asGamedig(await client.querySamp(LOOPBACK, s.port, { omp: false })));
        report(`gamequery, i r c (as gamedig), ${compared} servers, ${gdLimit} at once`, compared, t);
      } finally {
        await client.close();
      }
    }

    const gamedig = await loadGamedig();
    if (!gamedig) {
      console.log('  gamedig not installed: no reference figure');
    } else {
      const gd = new gamedig.GameDig();
      try {
        const t = await timed(
          subset,
          gdLimit,
          async (s) =>
            (
              await gd.query({
                type: 'gtasao',
                host: LOOPBACK,
                port: s.port,
                givenPortOnly: true,
                maxRetries: 2,
                socketTimeout: timeoutMs,
                attemptTimeout: 5 * timeoutMs,
              })
            ).name,
        );
        report(`gamedig 5.3.3 gtasao (i r c), ${compared} servers, ${gdLimit} at once`, compared, t);
      } finally {
        // gamedig has no close(): its one shared socket is closed by hand.
        (gd as unknown as { queryRunner: { udpSocket: { socket: { close(): void } | null } } }).queryRunner.udpSocket.socket?.close();
      }
    }
  } finally {
    const summary = await emulator.stop();
    if (summary) console.log(`  emulator: ${summary.split('\n').pop()}`);
    rmSync(dir, { recursive: true, force: true });
  }
}
