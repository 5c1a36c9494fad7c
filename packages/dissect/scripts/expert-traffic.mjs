#!/usr/bin/env node
// Datagrams for the captures of make-expert-captures.sh: replies the dissector warns about, Minecraft
// replies whose requests the capture filter leaves out, and RCON replies that echo a password.
// Loopback only (127.0.0.1); a responder here answers with the bytes chosen below.
//
//   node expert-traffic.mjs warnings   SA:MP i (password flag byte 2), r (3 rules declared, 2 sent),
//                                      c (2 players declared, 1 sent) to 47777; Minecraft handshake,
//                                      basic stat and full stat to 47778 (the capture keeps only the replies)
//   node expert-traffic.mjs rcon       SA:MP x: varlist, rcon_password NEWSECRET9, then echo with the new password
//   node expert-traffic.mjs rcon-escaped  SA:MP x with password back\\slash7: varlist, then rcon_password new<0x01>ctl
import dgram from 'node:dgram';

const SAMP_PORT = 47777;
const MC_PORT = 47778;
const HOST = '127.0.0.1';

const u16 = (n) => Buffer.from([n & 0xff, n >> 8]);
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const latin1 = (text) => Buffer.from(text, 'latin1');
const header = (opcode) => Buffer.concat([latin1('SAMP'), Buffer.from([127, 0, 0, 1]), u16(SAMP_PORT), latin1(opcode)]);
const pascal8 = (text) => Buffer.concat([Buffer.from([text.length]), latin1(text)]);
const pascal32 = (text) => Buffer.concat([u32(text.length), latin1(text)]);

/** Reply bodies with something to warn about. */
const SAMP_BODIES = {
  // password flag 2 (not 0 or 1), 3/50 players
  i: Buffer.concat([Buffer.from([2]), u16(3), u16(50), pascal32('expert fixture'), pascal32('warnings'), pascal32('English')]),
  // three rules declared, two sent
  r: Buffer.concat([u16(3), pascal8('lagcomp'), pascal8('On'), pascal8('version'), pascal8('0.3.7-R2')]),
  // two players declared, one sent
  c: Buffer.concat([u16(2), pascal8('alice'), u32(42)]),
};

const MC_HANDSHAKE = Buffer.from('fefd0900000003', 'hex');
const MC_HANDSHAKE_REPLY = Buffer.concat([Buffer.from('0900000003', 'hex'), latin1('-1234567\0')]);
const MC_BASIC = Buffer.from('fefd0000000003ffed2979', 'hex');
const MC_BASIC_REPLY = Buffer.concat([
  Buffer.from('0000000003', 'hex'),
  latin1('Mid-conversation\0SMP\0world\x003\x0020\0'),
  u16(25565),
  latin1('127.0.0.1\0'),
]);
const MC_FULL = Buffer.from('fefd0000000003ffed297900000000', 'hex');
const kv = [
  'hostname',
  'Mid-conversation',
  'gametype',
  'SMP',
  'game_id',
  'MINECRAFT',
  'version',
  '1.20.4',
  'plugins',
  '',
  'map',
  'world',
  'numplayers',
  '2',
  'maxplayers',
  '20',
  'hostport',
  '25565',
  'hostip',
  '127.0.0.1',
];
const MC_FULL_REPLY = Buffer.concat([
  Buffer.from('0000000003', 'hex'),
  latin1('splitnum\0'),
  Buffer.from([0x80, 0]),
  latin1(kv.join('\0') + '\0\0'),
  Buffer.from([1]),
  latin1('player_\0\0'),
  latin1('alice\0bob\0\0'),
]);

const RCON_LINES = {
  'changeme varlist': ['Console Variables:', '  rcon_password\t= "changeme"  (string)', '  hostname\t= "expert fixture"  (string)'],
  'changeme rcon_password NEWSECRET9': ['  rcon_password\t= "NEWSECRET9"  (string)'],
  'NEWSECRET9 echo hello': ['hello'],
  // Secrets that the tree and summary show escaped: a backslash, a control character.
  'back\\slash7 varlist': ['Console Variables:', '  rcon_password\t= "back\\slash7"  (string)'],
  'back\\slash7 rcon_password new\x01ctl': ['  rcon_password\t= "new\x01ctl"  (string)'],
};

const rconRequest = (password, command) =>
  Buffer.concat([header('x'), u16(password.length), latin1(password), u16(command.length), latin1(command)]);
const rconLine = (text) => Buffer.concat([header('x'), u16(text.length), latin1(text)]);

async function serve() {
  const samp = dgram.createSocket('udp4');
  samp.on('message', (msg, rinfo) => {
    const opcode = String.fromCharCode(msg[10]);
    if (opcode === 'x') {
      const p = msg.readUInt16LE(11);
      const password = msg.toString('latin1', 13, 13 + p);
      const command = msg.toString('latin1', 15 + p, 15 + p + msg.readUInt16LE(13 + p));
      for (const line of RCON_LINES[`${password} ${command}`] ?? ['Invalid RCON password.'])
        samp.send(rconLine(line), rinfo.port, rinfo.address);
    } else if (SAMP_BODIES[opcode]) {
      samp.send(Buffer.concat([msg.subarray(0, 11), SAMP_BODIES[opcode]]), rinfo.port, rinfo.address);
    }
  });
  const mc = dgram.createSocket('udp4');
  mc.on('message', (msg, rinfo) => {
    const reply = msg.equals(MC_HANDSHAKE)
      ? MC_HANDSHAKE_REPLY
      : msg.equals(MC_BASIC)
        ? MC_BASIC_REPLY
        : msg.equals(MC_FULL)
          ? MC_FULL_REPLY
          : undefined;
    if (reply) mc.send(reply, rinfo.port, rinfo.address);
  });
  await Promise.all([new Promise((r) => samp.bind(SAMP_PORT, HOST, r)), new Promise((r) => mc.bind(MC_PORT, HOST, r))]);
  return () => {
    samp.close();
    mc.close();
  };
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends each request from one client socket, waiting `ms` after each for its replies. */
async function send(requests, ms = 100) {
  const client = dgram.createSocket('udp4');
  await new Promise((r) => client.bind(0, HOST, r));
  for (const [bytes, port] of requests) {
    client.send(bytes, port, HOST);
    await pause(ms);
  }
  client.close();
}

const mode = process.argv[2];
const close = await serve();
if (mode === 'warnings') {
  await send([
    [header('i'), SAMP_PORT],
    [header('r'), SAMP_PORT],
    [header('c'), SAMP_PORT],
    [MC_HANDSHAKE, MC_PORT],
    [MC_BASIC, MC_PORT],
    [MC_FULL, MC_PORT],
  ]);
} else if (mode === 'rcon') {
  await send([
    [rconRequest('changeme', 'varlist'), SAMP_PORT],
    [rconRequest('changeme', 'rcon_password NEWSECRET9'), SAMP_PORT],
    [rconRequest('NEWSECRET9', 'echo hello'), SAMP_PORT],
  ]);
} else if (mode === 'rcon-escaped') {
  await send([
    [rconRequest('back\\slash7', 'varlist'), SAMP_PORT],
    [rconRequest('back\\slash7', 'rcon_password new\x01ctl'), SAMP_PORT],
  ]);
} else {
  console.error('usage: expert-traffic.mjs warnings | rcon | rcon-escaped');
  process.exitCode = 2;
}
close();
