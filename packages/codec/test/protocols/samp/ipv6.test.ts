/**
 * SA:MP over IPv6. Supported: today's 11-byte IPv4 header over IPv6 transport (what servers answer now; the
 * header's address is 0.0.0.0, which no server checks). Read apart, by decodeSamp6 only: the 24-byte `SAMP6`
 * header proposed in open.mp pull request #1204 (not merged) — whose first bytes are an IPv4 query's to a
 * 54.x.x.x server ('6' is 54), which must stay one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnknownOpcodeError, decodePacket, fromHex, recognize, samp, toHex } from '@gamequery/codec';
import { decodeSamp6, ipv6Text } from '@gamequery/codec/internal';
import { encodeSamp6 } from '../../../src/protocols/samp/samp6.ts';
import { QueryClient, startEmulator, type Emulator } from '@gamequery/codec/node';

const to54 = { serverIp: '54.1.2.3', serverPort: 7777 };

describe('the proposed SAMP6 header does not capture IPv4 queries to 54.x.x.x servers', () => {
  it('reads 11- and 15-byte datagrams starting "SAMP6" as IPv4 queries', () => {
    const info = samp.infoRequest.encode(to54);
    expect([...info.subarray(0, 5)]).toEqual([0x53, 0x41, 0x4d, 0x50, 0x36]); // "SAMP6"
    expect(decodePacket(info)).toMatchObject({ message: 'info', direction: 'request', value: to54 });
    expect(decodePacket(samp.pingRequest.encode({ ...to54, nonce: 1 }))).toMatchObject({
      message: 'ping',
      direction: 'either',
      value: { ...to54, nonce: 1 },
    });
    expect(decodePacket(samp.ompechoRequest.encode({ ...to54, nonce: 1 }))).toMatchObject({
      message: 'ompecho',
      value: { ...to54, nonce: 1 },
    });
  });

  it('reads an RCON request of 24 bytes or more to 54.x.x.x as IPv4, which the proposal would take for its own', () => {
    // PR #1204's getQueryLayout: size >= 24 and "SAMP6" → the 24-byte header. This 30-byte request is IPv4.
    const rcon = samp.rconRequest.encode({ ...to54, password: 'changeme', command: 'players' });
    expect(rcon.length).toBe(30);
    expect(decodePacket(rcon)).toMatchObject({
      message: 'rcon',
      direction: 'request',
      value: { ...to54, password: 'changeme', command: 'players' },
    });
  });

  it('leaves a proposed 24-byte SAMP6 request to decodeSamp6: decodePacket finds byte 10 an address byte, not an opcode', () => {
    // "SAMP6", ::1 (16 bytes), port 7777 LE, 'i' at byte 23
    const samp6 = fromHex(`53414d5036${'00'.repeat(15)}01611e69`);
    expect(samp6.length).toBe(24);
    expect(() => recognize(samp6)).toThrow(UnknownOpcodeError);
    const six = decodeSamp6(samp6)!;
    expect(six).toMatchObject({ direction: 'request', message: 'info', serverIp6: '::1', serverPort: 7777 });
    expect(six.annotation.fields.map((n) => [n.abbrev, n.offset, n.length, n.show])).toEqual([
      ['samp.magic', 0, 5, 'SAMP6'],
      ['samp.server_ip6', 5, 16, '::1'],
      ['samp.server_port', 21, 2, '7777'],
      ['samp.opcode', 23, 1, 'i (Information) (0x69)'],
    ]);
  });

  it('reads a proposed SAMP6 reply whose lengths fit, and nothing that fits an IPv4 query', () => {
    const address = fromHex('20010db8000000000000000000000001');
    const reply = encodeSamp6(
      samp.infoResponse.encode({ ...to54, password: false, players: 2, maxPlayers: 10, hostname: 'v6', gamemode: 'DM', language: 'EN' }),
      address,
      7777,
    );
    expect(toHex(reply.subarray(0, 24))).toBe('53414d503620010db8000000000000000000000001611e69');
    const six = decodeSamp6(reply)!;
    expect(six).toMatchObject({ direction: 'response', message: 'info', serverIp6: '2001:db8::1' });
    expect(six.annotation.value).toEqual({
      serverIp6: '2001:db8::1',
      serverPort: 7777,
      password: false,
      players: 2,
      maxPlayers: 10,
      hostname: 'v6',
      gamemode: 'DM',
      language: 'EN',
    });
    expect(six.annotation.fields.find((n) => n.abbrev === 'samp.info.hostname')).toMatchObject({ offset: 33, length: 2 });
    // The IPv4 datagrams of the test above: none is read as the proposal.
    expect(decodeSamp6(samp.rconRequest.encode({ ...to54, password: 'changeme', command: 'players' }))).toBeUndefined();
    expect(decodeSamp6(samp.infoRequest.encode(to54))).toBeUndefined();
    // Cut by one byte, a SAMP6 reply fits nothing.
    expect(decodeSamp6(reply.subarray(0, reply.length - 1))).toBeUndefined();
    expect(ipv6Text(fromHex('fe800000000000000000000000000001'))).toBe('fe80::1');
    expect(ipv6Text(fromHex('00010002000300040005000600070008'))).toBe('1:2:3:4:5:6:7:8');
    // RFC 5952 §5: a mapped IPv4 address ends in dotted decimal; the 16 bytes may sit anywhere in a buffer.
    expect(ipv6Text(fromHex('00000000000000000000ffffc0000201'))).toBe('::ffff:192.0.2.1');
    expect(ipv6Text(fromHex('aabb20010db8000000000000000000000001'), 2)).toBe('2001:db8::1');
  });
});

describe("today's header over IPv6 transport, on ::1", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({
      host: '::1',
      servers: [
        {
          flavor: 'openmp',
          port: 0,
          maxPlayers: 5,
          ompVersion: '1.2.0.2670',
          hostname: 'Сервер IPv6',
          charset: 'windows-1251',
          discord: 'discord.gg/v6',
        },
      ],
    });
  });
  afterAll(() => emulator.close());

  it('queries an open.mp v1.2 server over ::1: i, r, c and the banners form of o, the hostname detected', async () => {
    const c = new QueryClient({ localAddress: { ipv6: '::1' }, timeoutMs: 400, retries: 1 });
    try {
      const r = await c.querySamp('::1', emulator.servers[0]!.port);
      expect(r).toMatchObject({
        address: '::1',
        openmp: true,
        ompForm: 'banners',
        info: { hostname: 'Сервер IPv6' },
        omp: { discord: 'discord.gg/v6', logo: '' },
      });
      expect(r.charsets).toEqual([
        { field: 'samp.info.hostname', text: 'Сервер IPv6', charset: 'windows-1251', confidence: expect.any(Number) },
      ]);
    } finally {
      await c.close();
    }
  });
});
