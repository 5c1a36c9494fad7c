/**
 * Generates classic pcap bytes of query traffic (Ethernet/IPv4/UDP, all three
 * protocols, requests and replies) for the benchmarks, chunk by chunk, so even a
 * capture of hundreds of megabytes never exists in memory at once.
 */
import {
  infoRequest, infoResponse, clientsRequest, clientsResponse, handshakeRequest, handshakeResponse,
  basicRequest, basicResponse, vcmpInfoRequest, vcmpInfoResponse,
} from '@gamequery/codec';

const server = { serverIp: '127.0.0.1', serverPort: 7777 };
const vserver = { serverIp: '127.0.0.1', serverPort: 8192 };

/** One query round: [payload, fromServer, port] per datagram. */
function round(): [Uint8Array, boolean, number][] {
  const clients = Array.from({ length: 12 }, (_, i) => ({ name: `Player_${i}`, score: i * 10 }));
  return [
    [infoRequest.encode(server), false, 7777],
    [infoResponse.encode({ ...server, password: false, players: 12, maxPlayers: 100, hostname: 'Benchmark Server', gamemode: 'Freeroam', language: 'English' }), true, 7777],
    [clientsRequest.encode(server), false, 7777],
    [clientsResponse.encode({ ...server, clients }), true, 7777],
    [vcmpInfoRequest.encode(vserver), false, 8192],
    [vcmpInfoResponse.encode({ ...vserver, version: '04rel006', password: false, players: 3, maxPlayers: 50, hostname: 'VC:MP bench', gamemode: 'TDM', map: 'Vice City' }), true, 8192],
    [handshakeRequest.encode({ sessionId: 1 }), false, 25565],
    [handshakeResponse.encode({ sessionId: 1, token: 9513307 }), true, 25565],
    [basicRequest.encode({ sessionId: 1, token: 9513307 }), false, 25565],
    [basicResponse.encode({ sessionId: 1, motd: 'A Minecraft Server', gametype: 'SMP', map: 'world', numPlayers: 2, maxPlayers: 20, hostPort: 25565, hostIp: '127.0.0.1' }), true, 25565],
  ];
}

function frame(payload: Uint8Array, fromServer: boolean, serverPort: number, clientPort: number): Uint8Array {
  const f = new Uint8Array(14 + 20 + 8 + payload.length);
  const v = new DataView(f.buffer);
  v.setUint16(12, 0x0800);
  f[14] = 0x45;
  v.setUint16(16, 28 + payload.length);
  f[22] = 64;
  f[23] = 17;
  f.set([127, 0, 0, 1], 26);
  f.set([127, 0, 0, 1], 30);
  v.setUint16(34, fromServer ? serverPort : clientPort);
  v.setUint16(36, fromServer ? clientPort : serverPort);
  v.setUint16(38, 8 + payload.length);
  f.set(payload, 42);
  return f;
}

/** Yields pcap chunks until `packets` packets or `bytes` bytes have been written. */
export function* generateCapture(limit: { packets?: number; bytes?: number }, chunkPackets = 2048): Generator<Uint8Array> {
  const header = new Uint8Array(24);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, 0xa1b2c3d4, true);
  hv.setUint16(4, 2, true);
  hv.setUint16(6, 4, true);
  hv.setUint32(16, 262144, true);
  hv.setUint32(20, 1, true);
  yield header;
  const templates = round();
  let n = 0;
  let written = 24;
  let usec = 0;
  let clientPort = 40000;
  while ((limit.packets === undefined || n < limit.packets) && (limit.bytes === undefined || written < limit.bytes)) {
    const frames: Uint8Array[] = [];
    let size = 0;
    for (let i = 0; i < chunkPackets; i++, n++) {
      const [payload, fromServer, port] = templates[n % templates.length]!;
      if (!fromServer) clientPort = 40000 + ((n >> 1) % 20000);
      const f = frame(payload, fromServer, port, clientPort);
      const rec = new Uint8Array(16 + f.length);
      const rv = new DataView(rec.buffer);
      usec += fromServer ? 150 : 850;
      rv.setUint32(0, 1_700_000_000 + Math.floor(usec / 1e6), true);
      rv.setUint32(4, usec % 1e6, true);
      rv.setUint32(8, f.length, true);
      rv.setUint32(12, f.length, true);
      rec.set(f, 16);
      frames.push(rec);
      size += rec.length;
    }
    const chunk = new Uint8Array(size);
    let at = 0;
    for (const r of frames) { chunk.set(r, at); at += r.length; }
    written += size;
    yield chunk;
  }
}
