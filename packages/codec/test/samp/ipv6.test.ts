/**
 * SA:MP over IPv6. Supported: today's 11-byte IPv4 header over IPv6 transport (what servers answer now; the
 * header's address is 0.0.0.0, which no server checks). Not decoded: the 24-byte `SAMP6` header proposed in
 * open.mp pull request #1204 (not merged) — and its first bytes are an IPv4 query's to a 54.x.x.x server
 * ('6' is 54), which must stay one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnknownOpcodeError, decodePacket, fromHex, recognize, samp } from '@gamequery/codec';
import { QueryClient, startEmulator, type Emulator } from '@gamequery/codec/node';

const to54 = { serverIp: '54.1.2.3', serverPort: 7777 };

describe('the proposed SAMP6 header does not capture IPv4 queries to 54.x.x.x servers', () => {
  it('reads 11- and 15-byte datagrams starting "SAMP6" as IPv4 queries', () => {
    const info = samp.infoRequest.encode(to54);
    expect([...info.subarray(0, 5)]).toEqual([0x53, 0x41, 0x4d, 0x50, 0x36]); // "SAMP6"
    expect(decodePacket(info)).toMatchObject({ message: 'info', direction: 'request', value: to54 });
    expect(decodePacket(samp.pingRequest.encode({ ...to54, nonce: 1 }))).toMatchObject({ message: 'ping', direction: 'either', value: { ...to54, nonce: 1 } });
    expect(decodePacket(samp.ompechoRequest.encode({ ...to54, nonce: 1 }))).toMatchObject({ message: 'ompecho', value: { ...to54, nonce: 1 } });
  });

  it('reads an RCON request of 24 bytes or more to 54.x.x.x as IPv4, which the proposal would take for its own', () => {
    // PR #1204's getQueryLayout: size >= 24 and "SAMP6" → the 24-byte header. This 30-byte request is IPv4.
    const rcon = samp.rconRequest.encode({ ...to54, password: 'changeme', command: 'players' });
    expect(rcon.length).toBe(30);
    expect(decodePacket(rcon)).toMatchObject({ message: 'rcon', direction: 'request', value: { ...to54, password: 'changeme', command: 'players' } });
  });

  it('does not decode a proposed 24-byte SAMP6 request: its byte 10 is an address byte, not an opcode', () => {
    // "SAMP6", ::1 (16 bytes), port 7777 LE, 'i' at byte 23
    const samp6 = fromHex(`53414d5036${'00'.repeat(15)}01611e69`);
    expect(samp6.length).toBe(24);
    expect(() => recognize(samp6)).toThrow(UnknownOpcodeError);
  });
});

describe('today\'s header over IPv6 transport, on ::1', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ host: '::1', servers: [{ flavor: 'openmp', port: 0, maxPlayers: 5, ompVersion: '1.2.0.2670', hostname: 'Сервер IPv6', charset: 'windows-1251', discord: 'discord.gg/v6' }] });
  });
  afterAll(() => emulator.close());

  it('queries an open.mp v1.2 server over ::1: i, r, c and the banners form of o, the hostname detected', async () => {
    const c = new QueryClient({ localAddress: { ipv6: '::1' }, timeoutMs: 400, retries: 1 });
    try {
      const r = await c.querySamp('::1', emulator.servers[0]!.port);
      expect(r).toMatchObject({ address: '::1', openmp: true, ompForm: 'banners', info: { hostname: 'Сервер IPv6' }, omp: { discord: 'discord.gg/v6', logo: '' } });
      expect(r.charsets).toEqual([{ field: 'samp.info.hostname', text: 'Сервер IPv6', charset: 'windows-1251', confidence: expect.any(Number) }]);
    } finally {
      await c.close();
    }
  });
});
