/**
 * The emulator answering `o` as a chosen open.mp release, and the query client asking each
 * in the form it understands, over real UDP on 127.0.0.1 (samp/omp.ts: echo up to v1.1,
 * banners in v1.2, logo from v1.3.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePacket, ompRequest, samp, toHex } from '@gamequery/codec';
import { QueryClient, resolveServer, StateError, type SampServerState } from '@gamequery/codec/node';
import { setup, type Client } from './udp.ts';

const extras = {
  discord: 'discord.gg/openmp',
  bannerLight: `https://e.com/${'l'.repeat(150)}`,
  bannerDark: 'https://e.com/d.png',
  logo: 'https://e.com/logo.png',
};
const servers = {
  v11: { port: 0, maxPlayers: 10, flavor: 'openmp', ompVersion: '1.1.0.2612', ...extras },
  v12: { port: 0, maxPlayers: 10, flavor: 'openmp', ompVersion: '1.2.0.2670', ...extras },
  v14: { port: 0, maxPlayers: 10, flavor: 'openmp', ...extras },
  // No ompVersion: the `version` rule says which release this is.
  byRule: { port: 0, maxPlayers: 10, flavor: 'openmp', rules: { version: 'omp 1.1.0.2612', allowed_clients: '0.3.7' } },
} satisfies Record<string, SampServerState>;
type Role = keyof typeof servers;
const roles = Object.keys(servers) as Role[];

let client: Client;
let done: () => Promise<void>;
const port: Partial<Record<Role, number>> = {};
beforeAll(async () => {
  const s = await setup({ servers: roles.map((r) => servers[r]) });
  client = s.client;
  done = s.done;
  roles.forEach((r, i) => (port[r] = s.server(i).port));
});
afterAll(() => done());

const head = (r: Role) => ({ serverIp: '127.0.0.1', serverPort: port[r]! });
const ask = (r: Role, bytes: Uint8Array, timeoutMs?: number) =>
  client.query(bytes, { address: '127.0.0.1', port: port[r]! }, timeoutMs ? { timeoutMs } : {});
const echoOf = (r: Role) => samp.ompechoRequest.encode({ ...head(r), nonce: 0x01020304 });

describe('the emulator as an open.mp release', () => {
  it('v1.1 echoes a 15-byte `o` and ignores the 11-byte one', async () => {
    const got = await ask('v11', echoOf('v11'));
    expect(got.map(toHex)).toEqual([toHex(echoOf('v11'))]);
    expect(await ask('v11', ompRequest.encode(head('v11')), 300)).toEqual([]);
    expect((await ask('byRule', echoOf('byRule'))).map(toHex)).toEqual([toHex(echoOf('byRule'))]);
  });

  it('v1.2 answers the 11 bytes with three strings, banners cut to 120 bytes, and ignores the echo', async () => {
    const [reply] = await ask('v12', ompRequest.encode(head('v12')));
    const p = decodePacket(reply!);
    expect(p.message).toBe('ompbanners');
    expect(p.value).toEqual({
      ...head('v12'),
      discord: extras.discord,
      bannerLight: extras.bannerLight.slice(0, 120),
      bannerDark: extras.bannerDark,
    });
    expect(await ask('v12', echoOf('v12'), 300)).toEqual([]);
  });

  it('v1.3.1 and later answer with four strings cut to 160 bytes', async () => {
    const [reply] = await ask('v14', ompRequest.encode(head('v14')));
    const p = decodePacket(reply!);
    expect(p.message).toBe('omp');
    expect(p.value).toMatchObject({ bannerLight: extras.bannerLight.slice(0, 160), logo: extras.logo });
    expect(await ask('v14', echoOf('v14'), 300)).toEqual([]);
  });

  it('refuses a version that is none, or one on a SA-MP server', () => {
    expect(() => resolveServer({ flavor: 'openmp', port: 0, maxPlayers: 1, ompVersion: 'latest' }, 's')).toThrow(StateError);
    expect(() => resolveServer({ flavor: 'samp037', port: 0, maxPlayers: 1, ompVersion: '1.2.0.2670' }, 's')).toThrow(
      /only an open.mp server/,
    );
    expect(resolveServer({ flavor: 'openmp', port: 0, maxPlayers: 1, ompVersion: '1.2.0.2670' }, 's')).toMatchObject({
      ompForm: 'banners',
      rules: { version: 'omp 1.2.0.2670' },
    });
  });
});

describe('querySamp asks `o` in the form the server understands', () => {
  const query = async (r: Role) => {
    const c = new QueryClient({ localAddress: '127.0.0.1', timeoutMs: 300, retries: 1, backoffMs: 20 });
    try {
      return await c.querySamp('127.0.0.1', port[r]!);
    } finally {
      await c.close();
    }
  };

  it.each([
    ['v11', 'echo', undefined],
    ['byRule', 'echo', undefined],
    ['v12', 'banners', { discord: extras.discord, bannerLight: extras.bannerLight.slice(0, 120), bannerDark: extras.bannerDark, logo: '' }],
    ['v14', 'logo', { ...extras, bannerLight: extras.bannerLight.slice(0, 160) }],
  ] as const)('%s: form %s', async (role, form, omp) => {
    const r = await query(role);
    expect(r.openmp).toBe(true);
    expect(r.ompForm).toBe(form);
    expect(r.omp).toEqual(omp);
    expect(r.notes.filter((n) => n.includes('`o`'))).toEqual([]);
  });
});
