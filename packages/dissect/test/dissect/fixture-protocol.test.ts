/**
 * A protocol declared outside the codec, dissected from a capture like a built-in one: the
 * TinyQ fixture (packages/codec/test/fixtures/protocols/tinyq) given to the dissector among
 * its protocols is recognised, decoded, and its requests linked with their replies by its
 * declared pairing key.
 */
import { describe, expect, it } from 'vitest';
import { builtInProtocols, fromHex } from '@gamequery/codec';
import { udpFrame, writePcap } from '../capture/helpers.ts';
import { packetText } from '@gamequery/dissect';
import { dissectBytes } from './helpers.ts';
import { tinyqProtocol } from '../../../codec/test/fixtures/protocols/tinyq/protocol.ts';

// `bye` with token 42, a reply to token 43, the reply to token 42; `status` and its reply.
const bye = fromHex('544e5951622a000000');
const otherReply = fromHex('544e5951622b0000000d73657276657220636c6f736564');
const byeReply = fromHex('544e5951622a0000000d73657276657220636c6f736564');
const status = fromHex('544e595173');
const statusReply = fromHex('544e59517304686f6d650300');

const CLIENT = 50000;
const SERVER = tinyqProtocol.defaultPort;
const at = (us: number, data: Uint8Array) => ({ seconds: 1_795_346_153, ticks: us, data });
const capture = writePcap(
  [
    at(0, udpFrame(bye, CLIENT, SERVER)),
    at(100, udpFrame(otherReply, SERVER, CLIENT)),
    at(200, udpFrame(byeReply, SERVER, CLIENT)),
    at(300, udpFrame(status, CLIENT, SERVER)),
    at(400, udpFrame(statusReply, SERVER, CLIENT)),
  ],
  { linkType: 1 },
);

describe('a declared protocol in a capture', () => {
  it('is paired by its declared key when the dissector is given it', async () => {
    const { packets, stats } = await dissectBytes(capture, { protocols: [...builtInProtocols, tinyqProtocol] });
    expect(packets.map((p) => [p.frame, p.kind.protocol, p.kind.message, p.kind.direction, p.responseIn, p.requestIn])).toEqual([
      [1, 'tinyq', 'bye', 'request', 3, undefined],
      [2, 'tinyq', 'bye', 'response', undefined, undefined],
      [3, 'tinyq', 'bye', 'response', undefined, 1],
      [4, 'tinyq', 'status', 'request', 5, undefined],
      [5, 'tinyq', 'status', 'response', undefined, 4],
    ]);
    expect(packets[1]!.unmatched).toBe('no pending request for this reply');
    expect(packets[2]!.summary).toBe('TinyQ bye response: "server closed"');
    expect(stats).toMatchObject({ exchanges: 2, unmatched: 1 });
    // Its tree is titled by its declaration, as a built-in protocol's is.
    expect(packetText(packets[2]!).split('\n')).toContain('TinyQ Query Protocol, bye response');
  });

  it('is other traffic to a dissector that does not know it (the default)', async () => {
    const { packets } = await dissectBytes(capture);
    expect(packets.every((p) => p.responseIn === undefined && p.requestIn === undefined)).toBe(true);
    expect(packets.some((p) => p.kind.protocol === 'tinyq')).toBe(false);
  });
});
