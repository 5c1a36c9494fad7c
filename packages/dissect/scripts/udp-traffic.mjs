#!/usr/bin/env node
// Sends a few recognisable game-query datagrams so that captures/make-captures.sh can record them.
// Everything stays on this machine: loopback, or a veth pair between two network namespaces.
//
//   node udp-traffic.mjs loopback             SA:MP + Minecraft query exchanges over 127.0.0.1 and ::1
//   node udp-traffic.mjs serve ADDR           answer queries on ADDR (ports 47777 SA:MP, 47778 Minecraft)
//   node udp-traffic.mjs query ADDR           query a server started with `serve`; asks for a 100-player
//                                             `d` list (a 3413-byte reply, IP-fragmented at MTU 1500)
//   node udp-traffic.mjs dns                  DNS-shaped datagrams 127.0.0.1:47053 -> 127.0.0.1:53 and back
//   node udp-traffic.mjs unknown              query signatures with messages no protocol has, 127.0.0.1:47054 ->
//                                             SA:MP opcode 'A', VC:MP opcode 'z', Minecraft type 0x42 (no replies)
import dgram from 'node:dgram';
import net from 'node:net';

const SAMP_PORT = 47777;
const MC_PORT = 47778;

const lengthPrefixed = (text) => {
  const body = Buffer.from(text, 'latin1');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(body.length);
  return Buffer.concat([len, body]);
};

/** The 11-byte SA:MP query header: "SAMP", server IPv4 octets, port LE, opcode. */
const sampHeader = (ipv4, port, opcode) => {
  const header = Buffer.alloc(11);
  header.write('SAMP', 0, 'latin1');
  ipv4.split('.').forEach((octet, i) => header.writeUInt8(Number(octet), 4 + i));
  header.writeUInt16LE(port, 8);
  header.write(opcode, 10, 'latin1');
  return header;
};

/** Reply body for a SA:MP request (header echoed by the caller). */
const sampReply = (opcode) => {
  if (opcode === 'i') {
    const fixed = Buffer.from([0, 100, 0, 200, 0]); // password 0, players 100, max 200
    return Buffer.concat([fixed, lengthPrefixed('gamequery fixture server'), lengthPrefixed('capture test'), lengthPrefixed('English')]);
  }
  if (opcode === 'd') {
    // 100 players with 24-character names: 13 + 100 * 34 = 3413 bytes in all.
    const entries = [Buffer.from([100, 0])];
    for (let id = 0; id < 100; id++) {
      const entry = Buffer.alloc(1 + 1 + 24 + 4 + 4);
      entry.writeUInt8(id, 0);
      entry.writeUInt8(24, 1);
      entry.write(`player_${String(id).padStart(3, '0')}_gamequery_fx`.slice(0, 24), 2, 'latin1');
      entry.writeInt32LE(id * 10 - 50, 26);
      entry.writeUInt32LE(20 + id, 30);
      entries.push(entry);
    }
    return Buffer.concat(entries);
  }
  return Buffer.alloc(0);
};

const MC_HANDSHAKE = Buffer.from([0xfe, 0xfd, 0x09, 0x00, 0x00, 0x00, 0x01]);
const MC_HANDSHAKE_REPLY = Buffer.concat([Buffer.from([0x09, 0, 0, 0, 1]), Buffer.from('9513307\0', 'latin1')]);
const MC_BASIC_STAT = Buffer.from([0xfe, 0xfd, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x91, 0x29, 0x5b]);
const MC_BASIC_REPLY = Buffer.from(
  '000000000141204d696e6563726166742053657276657200534d5000776f726c64003200323000dd633132372e302e302e3100',
  'hex',
);

/** Starts the SA:MP and Minecraft responders on `address`. Resolves to a close function. */
async function serve(address) {
  const type = net.isIPv6(address) ? 'udp6' : 'udp4';
  const samp = dgram.createSocket(type);
  samp.on('message', (msg, rinfo) => {
    if (msg.length < 11 || msg.toString('latin1', 0, 4) !== 'SAMP') return;
    const opcode = String.fromCharCode(msg[10]);
    const reply = opcode === 'p' ? msg : Buffer.concat([msg.subarray(0, 11), sampReply(opcode)]);
    samp.send(reply, rinfo.port, rinfo.address);
  });
  const mc = dgram.createSocket(type);
  mc.on('message', (msg, rinfo) => {
    if (msg.equals(MC_HANDSHAKE)) mc.send(MC_HANDSHAKE_REPLY, rinfo.port, rinfo.address);
    else if (msg.equals(MC_BASIC_STAT)) mc.send(MC_BASIC_REPLY, rinfo.port, rinfo.address);
  });
  await Promise.all([
    new Promise((resolve) => samp.bind(SAMP_PORT, address, resolve)),
    new Promise((resolve) => mc.bind(MC_PORT, address, resolve)),
  ]);
  return () => {
    samp.close();
    mc.close();
  };
}

/** Sends `request` from a fresh socket and waits for one reply (or 2 s). */
function exchange(address, port, request) {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(address) ? 'udp6' : 'udp4');
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no reply from ${address}:${port}`));
    }, 2000);
    socket.on('message', (msg) => {
      clearTimeout(timer);
      socket.close();
      resolve(msg);
    });
    socket.send(request, port, address);
  });
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The query sequence: SA:MP i, p, optionally d; Minecraft handshake and basic stat. */
async function query(address, { detailed }) {
  const ipv4 = net.isIPv4(address) ? address : '127.0.0.1';
  const replies = [];
  replies.push(await exchange(address, SAMP_PORT, sampHeader(ipv4, SAMP_PORT, 'i')));
  await pause(10);
  const ping = Buffer.concat([sampHeader(ipv4, SAMP_PORT, 'p'), Buffer.from([0xde, 0xad, 0xbe, 0xef])]);
  replies.push(await exchange(address, SAMP_PORT, ping));
  await pause(10);
  if (detailed) {
    replies.push(await exchange(address, SAMP_PORT, sampHeader(ipv4, SAMP_PORT, 'd')));
    await pause(10);
  }
  replies.push(await exchange(address, MC_PORT, MC_HANDSHAKE));
  await pause(10);
  replies.push(await exchange(address, MC_PORT, MC_BASIC_STAT));
  for (const reply of replies) console.log(`${address}: reply of ${reply.length} bytes`);
}

async function dns() {
  // A DNS-shaped exchange (not a game protocol): query for example.com A and a one-answer reply.
  const server = dgram.createSocket('udp4');
  server.on('message', (msg, rinfo) => {
    const reply = Buffer.concat([
      msg.subarray(0, 2),
      Buffer.from('81800001000100000000', 'hex'),
      msg.subarray(12),
      Buffer.from('c00c000100010000012c00045db8d822', 'hex'),
    ]);
    server.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise((resolve) => server.bind(53, '127.0.0.1', resolve));
  const client = dgram.createSocket('udp4');
  await new Promise((resolve) => client.bind(47053, '127.0.0.1', resolve));
  for (const [id, name] of [
    [0x1234, 'example.com'],
    [0x1235, 'samp.example.org'],
  ]) {
    const labels = name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]));
    const q = Buffer.concat([
      Buffer.from([id >> 8, id & 0xff]),
      Buffer.from('01000001000000000000', 'hex'),
      ...labels,
      Buffer.from('0000010001', 'hex'),
    ]);
    await new Promise((resolve) => {
      client.once('message', resolve);
      client.send(q, 53, '127.0.0.1');
    });
    await pause(10);
  }
  client.close();
  server.close();
}

async function unknown() {
  const client = dgram.createSocket('udp4');
  await new Promise((resolve) => client.bind(47054, '127.0.0.1', resolve));
  const vcmp = sampHeader('127.0.0.1', 47779, 'z');
  vcmp.write('VCMP', 0, 'latin1');
  const datagrams = [
    [sampHeader('127.0.0.1', SAMP_PORT, 'A'), SAMP_PORT],
    [vcmp, 47779],
    [Buffer.from([0xfe, 0xfd, 0x42, 0x00, 0x00, 0x00, 0x01]), MC_PORT],
  ];
  for (const [bytes, port] of datagrams) {
    await new Promise((resolve) => client.send(bytes, port, '127.0.0.1', resolve));
    await pause(10);
  }
  client.close();
}

const [mode, address] = process.argv.slice(2);
if (mode === 'loopback') {
  for (const addr of ['127.0.0.1', '::1']) {
    const close = await serve(addr);
    await query(addr, { detailed: false });
    close();
  }
} else if (mode === 'serve') {
  const close = await serve(address);
  setTimeout(close, Number(process.argv[4] ?? 10_000));
} else if (mode === 'query') {
  await query(address, { detailed: true });
} else if (mode === 'dns') {
  await dns();
} else if (mode === 'unknown') {
  await unknown();
} else {
  console.error('usage: udp-traffic.mjs loopback | serve ADDR [ms] | query ADDR | dns | unknown');
  process.exit(2);
}
