/**
 * Generates classic pcap bytes of query traffic (Ethernet/IPv4/UDP, all three
 * protocols, requests and replies) for the benchmarks, chunk by chunk, so even a
 * capture of hundreds of megabytes never exists in memory at once.
 */
import { mcquery, samp, vcmp } from '@gamequery/codec';

const server = { serverIp: '127.0.0.1', serverPort: 7777 };
const vserver = { serverIp: '127.0.0.1', serverPort: 8192 };

/**
 * One query round, variant `v`: [payload, fromServer, port] per datagram. Variants
 * differ in names, counts, scores, session ids and tokens, so that no two neighbouring
 * rounds carry the same bytes (nothing can be answered from a cache of payloads).
 */
function round(v: number): [Uint8Array, boolean, number][] {
  const players = 8 + (v % 9);
  const clients = Array.from({ length: players }, (_, i) => ({ name: `Player_${v}_${i}`, score: (i * 37 + v) % 5000 }));
  const sessionId = (0x01020304 + v * 0x00010101) & 0x0f0f0f0f;
  const token = 9513307 + v * 7919;
  return [
    [samp.infoRequest.encode(server), false, 7777],
    [
      samp.infoResponse.encode({
        ...server,
        password: v % 5 === 0,
        players,
        maxPlayers: 100,
        hostname: `Benchmark Server #${v}`,
        gamemode: `Freeroam ${v % 7}`,
        language: 'English',
      }),
      true,
      7777,
    ],
    [samp.clientsRequest.encode(server), false, 7777],
    [samp.clientsResponse.encode({ ...server, clients }), true, 7777],
    [vcmp.infoRequest.encode(vserver), false, 8192],
    [
      vcmp.infoResponse.encode({
        ...vserver,
        version: '04rel006',
        password: false,
        players: v % 50,
        maxPlayers: 50,
        hostname: `VC:MP bench ${v}`,
        gamemode: 'TDM',
        map: 'Vice City',
      }),
      true,
      8192,
    ],
    [mcquery.handshakeRequest.encode({ sessionId }), false, 25565],
    [mcquery.handshakeResponse.encode({ sessionId, token }), true, 25565],
    [mcquery.basicRequest.encode({ sessionId, token }), false, 25565],
    [
      mcquery.basicResponse.encode({
        sessionId,
        motd: `A Minecraft Server ${v}`,
        gametype: 'SMP',
        map: 'world',
        numPlayers: v % 20,
        maxPlayers: 20,
        hostPort: 25565,
        hostIp: '127.0.0.1',
      }),
      true,
      25565,
    ],
  ];
}

const VARIANTS = 97;

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

/** Yields pcap chunks until `packets` packets or `bytes` bytes have been written (whole chunks); returns the packet count. */
export function* generateCapture(limit: { packets?: number; bytes?: number }, chunkPackets = 2048): Generator<Uint8Array, number> {
  const header = new Uint8Array(24);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, 0xa1b2c3d4, true);
  hv.setUint16(4, 2, true);
  hv.setUint16(6, 4, true);
  hv.setUint32(16, 262144, true);
  hv.setUint32(20, 1, true);
  yield header;
  const variants = Array.from({ length: VARIANTS }, (_, v) => round(v));
  let n = 0;
  let written = 24;
  let usec = 0;
  let clientPort = 40000;
  while ((limit.packets === undefined || n < limit.packets) && (limit.bytes === undefined || written < limit.bytes)) {
    const frames: Uint8Array[] = [];
    let size = 0;
    for (let i = 0; i < chunkPackets; i++, n++) {
      const templates = variants[Math.floor(n / 10) % VARIANTS]!;
      const [payload, fromServer, port] = templates[n % templates.length]!;
      // A stat request comes from the port its handshake came from (the token is per client).
      if (!fromServer && n % 10 !== 8) clientPort = 40000 + ((n >> 1) % 20000);
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
    for (const r of frames) {
      chunk.set(r, at);
      at += r.length;
    }
    written += size;
    yield chunk;
  }
  return n;
}
