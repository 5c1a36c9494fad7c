/**
 * The network-fault experiment, shared by the client's fault tests and `pnpm bench faults`:
 * a fleet of emulated servers (SA-MP 0.3.7, open.mp, VC:MP, Minecraft in turn), each with
 * a name, players and rules of its own; an "evil twin" fleet of the same flavors with
 * other names and players, whose replies the proxy forges from wrong sources (proxy.ts);
 * and the answers each server gives over a clean path, to compare every faulty result with.
 *
 * Every query ends in one of four ways, counted in a {@link Tally}:
 *   complete    every part equal to the server's own
 *   partial     the parts present are the server's own, some are missing (with a note why)
 *   failed      a typed QueryError with its reason (no reply after n attempts…)
 *   mismatched  some part present is not the server's own: the bug this hunts
 * and, from the client's pairing events, `misattributed` counts exchanges whose reply did
 * not come from the address and port the request went to (must stay 0 too).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  QueryClient,
  QueryError,
  startEmulator,
  type ClientStats,
  type Emulator,
  type MinecraftQueryResult,
  type QueryClientOptions,
  type SampQueryResult,
  type ServerState,
  type VcmpQueryResult,
} from '@gamequery/codec/node';
import { startProxy, type Faults, type ProxyStats } from './proxy.ts';

/** No per-source limit: every query of the experiment comes from 127.0.0.1. */
export const NO_LIMITS = { requestsPerSecond: 1e6, requestBurst: 1e6, bytesPerSecond: 1e9, byteBurst: 1e9 };

const FLAVORS = ['samp037', 'openmp', 'vcmp', 'minecraft'] as const;

/** `size` servers, the flavors in turn; `label` goes into every name, so two fleets never share one. */
export function fleet(size: number, label: string): ServerState[] {
  return Array.from({ length: size }, (_, k): ServerState => {
    const n = k >> 2;
    const name = (x: string): string => `${label}${n}${x}`;
    switch (FLAVORS[k % 4]!) {
      case 'samp037':
        return {
          flavor: 'samp037',
          port: 0,
          hostname: `${label} samp ${n}`,
          gamemode: `mode ${n}`,
          language: label,
          maxPlayers: 10 + n,
          players: [
            { name: name('a'), score: n, ping: 30 + (n % 50), id: n % 200 },
            { name: name('b'), score: -n, ping: 99, id: 201 },
          ],
          rules: { version: '0.3.7-R2', mapname: `${label} map ${n}`, weather: String(n % 20) },
        };
      case 'openmp':
        return {
          flavor: 'openmp',
          port: 0,
          hostname: `${label} omp ${n}`,
          gamemode: `rp ${n}`,
          maxPlayers: 20 + n,
          players: [{ name: name('o'), score: 7 * n }],
          discord: `discord.gg/${label}${n}`,
          logo: `https://example.com/${label}/${n}.png`,
        };
      case 'vcmp':
        return {
          flavor: 'vcmp',
          port: 0,
          hostname: `${label} vcmp ${n}`,
          gamemode: `dm ${n}`,
          map: `${label} city ${n}`,
          maxPlayers: 30,
          players: [{ name: name('v') }, { name: name('w') }],
        };
      case 'minecraft':
        return {
          flavor: 'minecraft',
          port: 0,
          motd: `${label} mc ${n}`,
          map: `${label}world${n}`,
          maxPlayers: 40,
          players: [{ name: name('m') }, { name: name('n') }, { name: name('x') }],
        };
    }
  });
}

type Result = SampQueryResult | VcmpQueryResult | MinecraftQueryResult;

/** What one query of a server asks: the full query, and for SA:MP and VC:MP a `p` too. */
export type Ask = 'query' | 'ping';

export interface Tally {
  queries: number;
  complete: number;
  partial: number;
  mismatched: number;
  misattributed: number;
  /** Failures by reason (addresses and ports replaced by SERVER). */
  readonly failed: Map<string, number>;
  /** What made results partial: their notes, counted. */
  readonly notes: Map<string, number>;
  /** A few mismatches, described, for the report. */
  readonly examples: string[];
}

export const newTally = (): Tally => ({
  queries: 0,
  complete: 0,
  partial: 0,
  mismatched: 0,
  misattributed: 0,
  failed: new Map(),
  notes: new Map(),
  examples: [],
});

export const failures = (t: Tally): number => [...t.failed.values()].reduce((a, b) => a + b, 0);

const bump = (m: Map<string, number>, key: string): void => {
  m.set(key, (m.get(key) ?? 0) + 1);
};

/** Every server's answer over a clean path: what a faulty result must agree with. */
export interface Testbed {
  readonly states: readonly ServerState[];
  readonly real: Emulator;
  readonly twin: Emulator;
  readonly reference: readonly Result[];
  close(): Promise<void>;
}

const LOCAL = { ipv4: '127.0.0.1', ipv6: '::1' };

function ask(c: QueryClient, s: ServerState, at: { address: string; port: number }): Promise<Result> {
  switch (s.flavor) {
    case 'samp037':
    case 'openmp':
      return c.querySamp(at.address, at.port);
    case 'vcmp':
      return c.queryVcmp(at.address, at.port);
    case 'minecraft':
      return c.queryMinecraft(at.address, at.port);
  }
}

const nameOf = (r: Result): string => (r.protocol === 'mcquery' ? r.info.motd : r.info.hostname);
const playerNames = (r: Result): string[] => (r.players ?? []).map((p) => (typeof p === 'string' ? p : p.name));

/**
 * Starts the fleet and its evil twin (one constant Minecraft token in both, so that the
 * twin's stat replies are valid for the client's token too), and queries every server once
 * directly, checking the answer against the state it was started from.
 */
export async function startTestbed(size: number): Promise<Testbed> {
  const states = fleet(size, 'fault');
  const tokenSource = (): number => 9513307;
  const real = await startEmulator({ servers: states, limits: NO_LIMITS, tokenSource });
  const twin = await startEmulator({ servers: fleet(size, 'SPOOFED'), limits: NO_LIMITS, tokenSource }).catch(async (e: unknown) => {
    await real.close();
    throw e;
  });
  const c = new QueryClient({ localAddress: LOCAL, timeoutMs: 2000, retries: 2, concurrency: 512 });
  try {
    const reference = await Promise.all(
      states.map(async (s, i) => {
        const r = await ask(c, s, real.servers[i]!);
        const expected = s.flavor === 'minecraft' ? s.motd : s.hostname;
        if (
          nameOf(r) !== expected ||
          !isDeepStrictEqual(
            playerNames(r),
            (s.players ?? []).map((p) => p.name),
          )
        ) {
          throw new Error(`testbed: server ${i} answered ${JSON.stringify(nameOf(r))} over a clean path`);
        }
        return r;
      }),
    );
    return {
      states,
      real,
      twin,
      reference,
      close: async () => {
        await Promise.all([real.close(), twin.close()]);
      },
    };
  } catch (e) {
    await Promise.all([real.close(), twin.close()]);
    throw e;
  } finally {
    await c.close();
  }
}

/** 'complete', 'partial' or a description of what is not the server's own. */
export function judge(r: Result, ref: Result): 'complete' | 'partial' | string {
  const wrong: string[] = [];
  let missing = false;
  const part = (name: string, got: unknown, want: unknown): void => {
    if (got === undefined) missing ||= want !== undefined;
    else if (!isDeepStrictEqual(got, want)) wrong.push(`${name}: ${JSON.stringify(got)} is not ${JSON.stringify(want)}`);
  };
  if (r.protocol !== ref.protocol) return `protocol ${r.protocol}`;
  part('info', r.info, ref.info);
  switch (r.protocol) {
    case 'samp': {
      const f = ref as SampQueryResult;
      part('rules', r.rules, f.rules);
      part('omp', r.omp, f.omp);
      // From `c` (after `d` went unanswered) a list has names and scores only.
      const fields = (p: { name: string; score: number; id?: number; ping?: number }): object =>
        r.playersFrom === 'd' ? p : { name: p.name, score: p.score };
      part('players', r.players?.map(fields), r.players === undefined ? undefined : f.players?.map(fields));
      if (r.openmp !== f.openmp || r.playersFrom !== f.playersFrom) missing = true;
      break;
    }
    case 'vcmp':
      part('players', r.players, (ref as VcmpQueryResult).players);
      break;
    case 'mcquery': {
      const f = ref as MinecraftQueryResult;
      part('mode', r.mode, f.mode);
      part('kv', r.kv, f.kv);
      part('players', r.players, f.players);
      break;
    }
  }
  if (wrong.length) return `${nameOf(ref)}: ${wrong.join('; ')}`;
  return missing ? 'partial' : 'complete';
}

/** A reply that did not come from where its request went: the pairing events show it. */
export function attributionCheck(tally: Tally): (e: Parameters<NonNullable<QueryClientOptions['onEvent']>>[0]) => void {
  return (e) => {
    if (e.kind !== 'exchange') return;
    const to = e.request.datagram.to;
    for (const r of e.responses) {
      if (r.datagram.from.address !== to.address || r.datagram.from.port !== to.port) {
        tally.misattributed++;
        if (tally.examples.length < 5)
          tally.examples.push(
            `reply from ${r.datagram.from.address}:${r.datagram.from.port} taken for a request to ${to.address}:${to.port}`,
          );
      }
    }
  };
}

const reasonOf = (e: QueryError): string => `${e.name}: ${e.message.replace(/(127\.0\.0\.1|\[::1\]):\d+/g, 'SERVER')}`;

/** Queries (and pings) every server of the testbed once through `at[i]`, into `tally`. */
export async function round(
  c: QueryClient,
  bed: Testbed,
  at: ReadonlyArray<{ address: string; port: number }>,
  tally: Tally,
): Promise<void> {
  const jobs = bed.states.flatMap((s, i): Array<[Ask, number]> =>
    s.flavor === 'minecraft'
      ? [['query', i]]
      : [
          ['query', i],
          ['ping', i],
        ],
  );
  await Promise.all(
    jobs.map(async ([what, i]) => {
      const s = bed.states[i]!;
      const front = at[i]!;
      tally.queries++;
      try {
        if (what === 'ping') {
          await c.ping(front.address, front.port, { protocol: s.flavor === 'vcmp' ? 'vcmp' : 'samp' });
          tally.complete++;
          return;
        }
        const r = await ask(c, s, front);
        const verdict = judge(r, bed.reference[i]!);
        if (verdict === 'complete') {
          tally.complete++;
        } else if (verdict === 'partial') {
          tally.partial++;
          for (const n of r.notes) bump(tally.notes, n);
        } else {
          tally.mismatched++;
          if (tally.examples.length < 5) tally.examples.push(verdict);
        }
      } catch (e) {
        if (!(e instanceof QueryError)) throw e;
        bump(tally.failed, reasonOf(e));
      }
    }),
  );
}

/** The faults of a run; `spoof` is the share of requests that also get a forged reply. */
export type RunFaults = Omit<Faults, 'spoof'> & { readonly spoof?: number };

export interface RunResult {
  readonly tally: Tally;
  readonly proxy: ProxyStats;
  readonly client: ClientStats;
  readonly seconds: number;
}

/** `rounds` rounds of every server through a fresh proxy with `faults`, one client. */
export async function runFaults(bed: Testbed, faults: RunFaults, client: QueryClientOptions, rounds = 1): Promise<RunResult> {
  const { spoof, ...rest } = faults;
  const proxy = await startProxy(
    bed.real.servers.map((s) => ({ address: s.address, port: s.port })),
    {
      ...rest,
      ...(spoof ? { spoof: { rate: spoof, twins: bed.twin.servers.map((s) => ({ address: s.address, port: s.port })) } } : {}),
    },
  );
  const tally = newTally();
  const c = new QueryClient({ localAddress: LOCAL, ...client, onEvent: attributionCheck(tally) });
  const started = performance.now();
  try {
    for (let n = 0; n < rounds; n++) await round(c, bed, proxy.fronts, tally);
    // The last copies and forgeries still on their way.
    await new Promise((r) => setTimeout(r, 30));
    return { tally, proxy: structuredClone(proxy.stats), client: c.stats(), seconds: (performance.now() - started) / 1000 };
  } finally {
    await c.close();
    await proxy.close();
  }
}
