/**
 * The server flavor from the rules (client/flavor.ts) and as the query client reports and uses it, over real
 * UDP on 127.0.0.1 with the emulator configured as open.mp releases and as SA-MP 0.3.7.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flavorOfRules, ompFormOfFlavor, QueryClient, type SampServerState } from '@gamequery/codec/node';
import { setup } from './udp.ts';

describe('flavorOfRules', () => {
  it.each([
    [
      { version: 'omp 1.2.0.2670', allowed_clients: '0.3.7, 0.3.DL', artwork: 'No', lagcomp: 'On' },
      'openmp',
      ['version=omp 1.2.0.2670', 'allowed_clients=0.3.7, 0.3.DL', 'artwork=No'],
    ],
    // `allowed_clients` alone says open.mp (a script may overwrite `version`).
    [{ version: '0.3.7-R2', allowed_clients: '0.3.DL' }, 'openmp', ['version=0.3.7-R2', 'allowed_clients=0.3.DL']],
    [{ version: '0.3.7-R2', weburl: 'www.sa-mp.com' }, 'samp-0.3.7', ['version=0.3.7-R2']],
    [{ version: '0.3.7-R4', allow_DL: '1' }, 'samp-0.3.7', ['version=0.3.7-R4', 'allow_DL=1']],
    [{ version: '0.3.7' }, 'samp-0.3.7', ['version=0.3.7']],
    [{ version: '0.3.DL-R1', artwork: 'Yes' }, 'samp', ['version=0.3.DL-R1', 'artwork=Yes']],
    [{ version: '0.3.70' }, 'samp', ['version=0.3.70']],
    [{ version: 'omp' }, 'samp', ['version=omp']],
    [{ lagcomp: 'On', artwork: 'No' }, 'unknown', ['artwork=No']],
    [{}, 'unknown', []],
    [undefined, 'unknown', []],
  ] as const)('%j → %s', (rules, name, evidence) => {
    expect(flavorOfRules(rules)).toEqual({ name, evidence });
  });

  it('gives the `o` form an open.mp version names, and none otherwise', () => {
    expect(ompFormOfFlavor(flavorOfRules({ version: 'omp 1.1.0.2612' }))).toBe('echo');
    expect(ompFormOfFlavor(flavorOfRules({ version: 'omp 1.2.0.2670' }))).toBe('banners');
    expect(ompFormOfFlavor(flavorOfRules({ version: 'omp 1.5.8.3079' }))).toBe('logo');
    expect(ompFormOfFlavor(flavorOfRules({ allowed_clients: '0.3.DL' }))).toBeUndefined();
    expect(ompFormOfFlavor(flavorOfRules({ version: '0.3.7-R2' }))).toBeUndefined();
  });

  it('does not take inherited properties for rules', () => {
    expect(flavorOfRules(Object.create({ version: 'omp 1.4.0.2779' }) as Record<string, string>)).toEqual({
      name: 'unknown',
      evidence: [],
    });
  });
});

const servers = {
  omp14: { port: 0, maxPlayers: 10, flavor: 'openmp', players: [{ name: 'Bob', score: 3 }] },
  omp11: { port: 0, maxPlayers: 10, flavor: 'openmp', ompVersion: '1.1.0.2612' },
  ompDL: { port: 0, maxPlayers: 10, flavor: 'openmp', rules: { version: 'omp 1.4.0.2779', allowed_clients: '0.3.DL', artwork: 'Yes' } },
  samp: { port: 0, maxPlayers: 10, flavor: 'samp037', players: [{ name: 'Alice', score: 7, ping: 30 }] },
  sampDL: { port: 0, maxPlayers: 10, flavor: 'samp037', rules: { version: '0.3.DL-R1', artwork: 'Yes' } },
  sampNoVersion: { port: 0, maxPlayers: 10, flavor: 'samp037', rules: { lagcomp: 'On' } },
} satisfies Record<string, SampServerState>;
type Role = keyof typeof servers;
const roles = Object.keys(servers) as Role[];

let done: () => Promise<void>;
const port: Partial<Record<Role, number>> = {};
beforeAll(async () => {
  const s = await setup({ servers: roles.map((r) => servers[r]) });
  done = s.done;
  roles.forEach((r, i) => (port[r] = s.server(i).port));
});
afterAll(() => done());

const query = async (r: Role, parts: { rules?: boolean } = {}) => {
  const c = new QueryClient({
    localAddress: { ipv4: '127.0.0.1' },
    timeoutMs: 300,
    retries: 1,
    backoffMs: 20,
  });
  try {
    return await c.querySamp('127.0.0.1', port[r]!, parts);
  } finally {
    await c.close();
  }
};

describe('querySamp reports the flavor and acts on it', () => {
  it.each([
    ['omp14', 'openmp', ['version=omp 1.4.0.2779', 'allowed_clients=0.3.7, 0.3.DL', 'artwork=No', 'o=logo'], 'c', 'logo'],
    ['omp11', 'openmp', ['version=omp 1.1.0.2612', 'allowed_clients=0.3.7, 0.3.DL', 'artwork=No', 'o=echo'], 'c', 'echo'],
    ['ompDL', 'openmp', ['version=omp 1.4.0.2779', 'allowed_clients=0.3.DL', 'artwork=Yes', 'o=logo'], 'c', 'logo'],
    ['samp', 'samp-0.3.7', ['version=0.3.7-R2'], 'd', undefined],
    ['sampDL', 'samp', ['version=0.3.DL-R1', 'artwork=Yes'], 'd', undefined],
    // No `version` rule: the `o` probe decides, and SA-MP does not answer it.
    ['sampNoVersion', 'unknown', [], 'd', undefined],
  ] as const)('%s: %s', async (role, name, evidence, from, form) => {
    const r = await query(role);
    expect(r.flavor).toEqual({ name, evidence });
    expect(r.openmp).toBe(name === 'openmp');
    expect(r.playersFrom).toBe(from);
    expect(r.ompForm).toBe(form);
    expect(r.notes).toEqual([]);
  });

  it('without the rules, an answered `o` is the evidence', async () => {
    expect((await query('omp14', { rules: false })).flavor).toEqual({ name: 'openmp', evidence: ['o=logo'] });
    const samp = await query('samp', { rules: false });
    expect(samp.flavor).toEqual({ name: 'unknown', evidence: [] });
    expect(samp.playersFrom).toBe('d');
  });
});
