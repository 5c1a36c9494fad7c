/** VC:MP 0.4 emulation over real UDP on 127.0.0.1 (src/protocols/vcmp/README.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHex, samp, vcmp } from '@gamequery/codec';
import type { VcmpServerState } from '@gamequery/codec/node';
import { ascii, concat, setup, type Client } from './udp.ts';

const state: VcmpServerState = {
  flavor: 'vcmp',
  port: 0,
  version: '04rel006',
  hostname: 'Vice Test',
  gamemode: 'Deathmatch',
  map: 'Vice City',
  password: true,
  maxPlayers: 40,
  players: [{ name: 'Tommy' }, { name: 'Lance' }],
};
const crowded: VcmpServerState = { ...state, players: Array.from({ length: 101 }, (_, i) => ({ name: `P${i}` })) };

let client: Client;
let done: () => Promise<void>;
let vc: { address: string; port: number };
let vc101: { address: string; port: number };

beforeAll(async () => {
  const s = await setup({ servers: [state, crowded] });
  ({ client, done } = s);
  vc = { address: '127.0.0.1', port: s.server(0).port };
  vc101 = { address: '127.0.0.1', port: s.server(1).port };
});
afterAll(() => done());

const head = () => ({ serverIp: '127.0.0.1', serverPort: vc.port });
const silent = async (bytes: Uint8Array, to = vc) => expect(await client.query(bytes, to, { timeoutMs: 300 })).toEqual([]);

describe('VC:MP i', () => {
  it('replies MP04 + the request bytes 4–10, version, counts and the map as third string', async () => {
    const req = vcmp.infoRequest.encode(head());
    const [r] = await client.query(req, vc);
    expect(toHex(r!.subarray(0, 4))).toBe(toHex(ascii('MP04')));
    expect(toHex(r!.subarray(4, 11))).toBe(toHex(req.subarray(4, 11)));
    expect(vcmp.infoResponse.decode(r!).value).toEqual({
      ...head(),
      version: '04rel006',
      password: true,
      players: 2,
      maxPlayers: 40,
      hostname: 'Vice Test',
      gamemode: 'Deathmatch',
      map: 'Vice City',
    });
  });

  it('does not answer the SA:MP magic', async () => {
    await silent(samp.infoRequest.encode(head()));
  });
});

describe('VC:MP c', () => {
  it('lists names only, no scores', async () => {
    const [r] = await client.query(vcmp.clientsRequest.encode(head()), vc);
    const d = vcmp.clientsResponse.decode(r!);
    expect(d.value.clients).toEqual([{ name: 'Tommy' }, { name: 'Lance' }]);
    expect(d.bytesRead).toBe(r!.length);
    // 11 + count 2 + (1 + 5) + (1 + 5)
    expect(r!.length).toBe(25);
  });

  it('withholds the list above 100 players', async () => {
    await silent(vcmp.clientsRequest.encode({ ...head(), serverPort: vc101.port }), vc101);
  });
});

describe('VC:MP p', () => {
  it('echoes the 4 nonce bytes behind the MP04 header', async () => {
    const req = vcmp.pingRequest.encode({ ...head(), nonce: 0xdeadbeef });
    const [r] = await client.query(req, vc);
    expect(toHex(r!)).toBe(toHex(concat(ascii('MP04'), req.subarray(4))));
    expect(vcmp.pingResponse.decode(r!).value.nonce).toBe(0xdeadbeef);
  });

  it('needs exactly 15 bytes', async () => {
    const req = vcmp.pingRequest.encode({ ...head(), nonce: 1 });
    await silent(req.subarray(0, 11));
    await silent(concat(req, [0]));
  });
});

describe('VC:MP other opcodes', () => {
  it('has no r, d, x or o', async () => {
    const i = vcmp.infoRequest.encode(head());
    for (const op of 'rdxo') await silent(concat(i.subarray(0, 10), ascii(op)));
  });
});
