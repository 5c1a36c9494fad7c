import { describe, expect, it } from 'vitest';
import { UnknownOpcodeError, UnrecognizedPacketError, decodePacket, encodePacket, fromHex, toHex } from '@gamequery/codec';

describe('decodePacket', () => {
  it('tells SA:MP requests from responses by length', () => {
    expect(decodePacket(fromHex('53414d507f000001611e69'))).toMatchObject({ protocol: 'samp', direction: 'request', message: 'info' });
    expect(() => decodePacket(fromHex('53414d507f000001611e6300'))).toThrow(
      'samp.clients.count: requested 2 bytes, but only 1 bytes available at offset 11',
    );
    expect(decodePacket(fromHex('53414d507f000001611e630000'))).toMatchObject({
      direction: 'response',
      message: 'clients',
      value: { clients: [] },
    });
  });

  it('says a SA:MP ping is either direction unless told', () => {
    const ping = fromHex('53414d507f000001611e7012345678');
    expect(decodePacket(ping)).toMatchObject({ direction: 'either', message: 'ping', value: { nonce: 0x12345678 } });
    expect(decodePacket(ping, { direction: 'response' })).toMatchObject({ direction: 'response' });
    expect(
      toHex(
        encodePacket({
          protocol: 'samp',
          direction: 'either',
          message: 'ping',
          value: { serverIp: '127.0.0.1', serverPort: 7777, nonce: 0x12345678 },
        }),
      ),
    ).toBe(toHex(ping));
  });

  it('tells an RCON request from a reply line by which one fits the datagram', () => {
    expect(decodePacket(fromHex('53414d507f000001611e78050077726f6e670700706c6179657273'))).toMatchObject({
      direction: 'request',
      value: { password: 'wrong', command: 'players' },
    });
    expect(decodePacket(fromHex('53414d507f000001611e7802006869'))).toMatchObject({ direction: 'response', value: { output: 'hi' } });
  });

  it('reads VC:MP direction from the magic', () => {
    expect(decodePacket(fromHex('56434d507f00000100206369'.slice(0, 22)))).toMatchObject({
      protocol: 'vcmp',
      direction: 'request',
      message: 'clients',
    });
    expect(decodePacket(fromHex('4d5030347f000001002063000000'.slice(0, 26) + '00'))).toMatchObject({
      protocol: 'vcmp',
      direction: 'response',
      value: { clients: [] },
    });
  });

  it('reads Minecraft requests by type and length', () => {
    expect(decodePacket(fromHex('fefd0900000001'))).toMatchObject({ protocol: 'mcquery', message: 'handshake', direction: 'request' });
    expect(decodePacket(fromHex('fefd00000000010091295b'))).toMatchObject({ message: 'basic', value: { token: 9513307 } });
    expect(decodePacket(fromHex('fefd00000000010091295b00000000'))).toMatchObject({ message: 'full' });
  });

  it('asks for context before decoding a Minecraft response, then tells basic from full', () => {
    const handshake = fromHex('09000000013935313333303700');
    expect(() => decodePacket(handshake)).toThrow(UnrecognizedPacketError);
    expect(() => decodePacket(handshake)).toThrow('carries no magic');
    expect(decodePacket(handshake, { protocol: 'mcquery' })).toMatchObject({
      message: 'handshake',
      direction: 'response',
      value: { token: 9513307 },
    });
    const basic = fromHex('0000000001412000534d5000776f726c6400320032300063dd3132372e302e302e3100');
    expect(decodePacket(basic, { protocol: 'mcquery', direction: 'response' })).toMatchObject({ message: 'basic' });
    // 00 | session 1 | "splitnum\0" 80 00 | 00 (no pairs) | 01 "player_\0" 00 | 00 (no players)
    const full = fromHex('0000000001' + '73706c69746e756d00' + '8000' + '00' + '01' + '706c617965725f00' + '00' + '00');
    expect(decodePacket(full, { protocol: 'mcquery' })).toMatchObject({ message: 'full', value: { kv: [], players: [] } });
  });

  it('names unknown opcodes and foreign bytes', () => {
    expect(() => decodePacket(fromHex('53414d507f000001611e7a'))).toThrow(UnknownOpcodeError);
    expect(() => decodePacket(fromHex('53414d507f000001611e7a'))).toThrow('samp.opcode: unknown opcode 0x7a at offset 10');
    expect(() => decodePacket(fromHex('deadbeef'))).toThrow('no SA:MP, VC:MP or Minecraft query signature (starts de ad be ef)');
    expect(() => decodePacket(fromHex('53414d50'))).toThrow('at least 11 bytes');
  });
});
