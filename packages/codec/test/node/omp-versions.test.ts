/**
 * The emulator answering `o` as a chosen open.mp release, and the query client asking each
 * in the form it understands, over real UDP on 127.0.0.1 (samp/omp.ts: echo up to v1.1,
 * banners in v1.2, logo from v1.3.1).
 */
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePacket, fromHex, samp, toHex } from '@gamequery/codec';
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
    expect(await ask('v11', samp.ompRequest.encode(head('v11')), 300)).toEqual([]);
    expect((await ask('byRule', echoOf('byRule'))).map(toHex)).toEqual([toHex(echoOf('byRule'))]);
  });

  it('v1.2 answers the 11 bytes with three strings, banners cut to 120 bytes, and ignores the echo', async () => {
    const [reply] = await ask('v12', samp.ompRequest.encode(head('v12')));
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
    const [reply] = await ask('v14', samp.ompRequest.encode(head('v14')));
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
    const c = new QueryClient({
      localAddress: { ipv4: '127.0.0.1' },
      timeoutMs: 300,
      retries: 1,
      backoffMs: 20,
    });
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

// open.mp v1.4's `o` reply as the fault run's server 3 sends it (discord.gg/fault3, no banners, a logo),
// its header here for 127.0.0.1:7777 (a reply echoes its request's 11 bytes):
// 00000000: 53 41 4d 50 7f 00 00 01 61 1e 6f 11 00 00 00 64  SAMP....a.o....d
// 00000010: 69 73 63 6f 72 64 2e 67 67 2f 66 61 75 6c 74 33  iscord.gg/fault3
// 00000020: 00 00 00 00 00 00 00 00 1f 00 00 00 68 74 74 70  ............http
// 00000030: 73 3a 2f 2f 65 78 61 6d 70 6c 65 2e 63 6f 6d 2f  s://example.com/
// 00000040: 66 61 75 6c 74 2f 33 2e 70 6e 67                 fault/3.png
const logoReply = fromHex(
  '53414d507f000001611e6f11000000646973636f72642e67672f6661756c7433' +
    '00000000000000001f00000068747470733a2f2f6578616d706c652e636f6d2f' +
    '6661756c742f332e706e67',
);
// The same reply cut after its dark banner (the logo length and the logo lost), as the fault proxy cut
// it: byte for byte a complete reply in the v1.2 banners form, which has no logo.
// 00000000: 53 41 4d 50 7f 00 00 01 61 1e 6f 11 00 00 00 64  SAMP....a.o....d
// 00000010: 69 73 63 6f 72 64 2e 67 67 2f 66 61 75 6c 74 33  iscord.gg/fault3
// 00000020: 00 00 00 00 00 00 00 00                          ........
const cutReply = logoReply.subarray(0, 0x28);
const fault3 = { discord: 'discord.gg/fault3', bannerLight: '', bannerDark: '', logo: 'https://example.com/fault/3.png' };

/**
 * A scripted open.mp server on 127.0.0.1: `i`, `r` (the given rules), an empty `c`, and its
 * `o` replies in turn (undefined: silence; the last one again once the script runs out), each
 * under the header of the request it answers.
 */
async function scripted(rules: Record<string, string>, oReplies: readonly (Uint8Array | undefined)[]) {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind({ address: '127.0.0.1', port: 0 }, () => resolve()));
  const port = socket.address().port;
  const head = { serverIp: '127.0.0.1', serverPort: port };
  let asked = 0;
  socket.on('message', (msg, from) => {
    const request = new Uint8Array(msg);
    let reply: Uint8Array | undefined;
    switch (String.fromCharCode(request[10]!)) {
      case 'i':
        reply = samp.infoResponse.encode({
          ...head,
          password: false,
          players: 0,
          maxPlayers: 10,
          hostname: 'scripted',
          gamemode: 'rp',
          language: 'EN',
        });
        break;
      case 'r':
        reply = samp.rulesResponse.encode({ ...head, rules: Object.entries(rules).map(([name, value]) => ({ name, value })) });
        break;
      case 'c':
        reply = samp.clientsResponse.encode({ ...head, clients: [] });
        break;
      case 'o':
        if (request.length !== 11) break;
        reply = oReplies[Math.min(asked++, oReplies.length - 1)]?.slice();
        reply?.set(request.subarray(0, 11));
        break;
    }
    if (reply) socket.send(reply, from.port, from.address);
  });
  return {
    port,
    /** `o` requests answered so far. */
    asked: () => asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

describe('querySamp and an `o` reply cut after its dark banner', () => {
  const query = async (rules: Record<string, string>, oReplies: readonly (Uint8Array | undefined)[]) => {
    const server = await scripted(rules, oReplies);
    const c = new QueryClient({
      localAddress: { ipv4: '127.0.0.1' },
      timeoutMs: 200,
      retries: 2,
      backoffMs: 10,
    });
    try {
      return { result: await c.querySamp('127.0.0.1', server.port), asked: server.asked(), stats: c.stats() };
    } finally {
      await c.close();
      await server.close();
    }
  };
  const v14 = { version: 'omp 1.4.0.2779', allowed_clients: '0.3.7, 0.3.DL' };
  const unmarked = { lagcomp: 'On', weather: '10' };

  it('decodes as a complete v1.2 reply: the bytes alone cannot tell', () => {
    const p = decodePacket(cutReply, { direction: 'response' });
    expect(p).toMatchObject({ message: 'ompbanners', warnings: [], value: { discord: fault3.discord, bannerLight: '', bannerDark: '' } });
    expect(decodePacket(logoReply, { direction: 'response' })).toMatchObject({ message: 'omp', warnings: [], value: fault3 });
  });

  it('from a release that sends the logo (its `version` rule), is taken as cut and asked again', async () => {
    const { result, asked } = await query(v14, [cutReply, logoReply]);
    expect(result).toMatchObject({ openmp: true, ompForm: 'logo', omp: fault3, notes: [] });
    expect(result.flavor.evidence).toContain('o=logo');
    expect(asked).toBe(2); // the probe (sent with the others, judged once the rules came), then once more
  });

  it('from such a release, cut every time: no extras, and a note that says why', async () => {
    const { result, asked, stats } = await query(v14, [cutReply]);
    expect(result.openmp).toBe(true);
    expect(result.omp).toBeUndefined();
    expect(result.ompForm).toBeUndefined();
    expect(asked).toBe(4); // the probe, then 3 attempts
    expect(stats).toMatchObject({ truncated: 3, retries: 2 });
    expect(result.notes).toEqual([
      '`o`: truncated reply (samp.omp.logo.len: absent, but open.mp v1.3.1 and later send the logo: a reply cut after its dark banner) to the last of 3 attempts, not used',
    ]);
  });

  it('where the rules name no release, is asked again: a logo reply then is the answer', async () => {
    const { result, asked } = await query(unmarked, [cutReply, logoReply]);
    expect(result).toMatchObject({ openmp: true, ompForm: 'logo', omp: fault3, notes: [] });
    expect(asked).toBe(2);
  });

  it('where the rules name no release, counts as the v1.2 form once answered alike again', async () => {
    const { result, asked } = await query(unmarked, [cutReply]);
    expect(result).toMatchObject({ openmp: true, ompForm: 'banners', omp: { ...fault3, logo: '' }, notes: [] });
    expect(asked).toBe(2);
  });

  it('where the rules name no release and asking again brings no reply, is not used, and a note says why', async () => {
    const { result, asked } = await query(unmarked, [cutReply, undefined]);
    expect(result.omp).toBeUndefined();
    expect(result.ompForm).toBeUndefined();
    expect(asked).toBe(4); // the probe, then 3 attempts
    expect(result.notes).toEqual([
      '`o`: answered once without a logo, not again when asked: not used (a logo reply cut after its dark banner reads the same)',
      'no reply to `d`: open.mp does not implement it, used `c`',
    ]);
  });

  it('from a v1.2 release (its `version` rule), is the answer at once', async () => {
    const { result, asked } = await query({ version: 'omp 1.2.0.2670' }, [cutReply]);
    expect(result).toMatchObject({ openmp: true, ompForm: 'banners', omp: { ...fault3, logo: '' }, notes: [] });
    expect(asked).toBe(1);
  });
});
