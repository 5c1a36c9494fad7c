/**
 * VC:MP test vectors: `i`, `c` and `p`, both directions.
 */
import { B, CONSTRUCTED, badMagic, caseList } from './builder.ts';
import { samp } from './samp/header.ts';

const header = (magic: string, op: string, ip = '127.0.0.1', port = 8192) =>
  new B().ascii(magic, 'vcmp.magic').ip(ip, 'vcmp.server_ip').u16le(port, 'vcmp.server_port').u8(op.charCodeAt(0), 'vcmp.opcode');
const vcmpReq = (op: string, ip?: string, port?: number) => header('VCMP', op, ip, port);
const vcmpRes = (op: string) => header('MP04', op);
const vlocal = { serverIp: '127.0.0.1', serverPort: 8192 };
const info = (b: B, password: boolean, players: number, maxPlayers: number, hostname: string, gamemode: string, map: string) =>
  b
    .u8(Number(password), { abbrev: 'vcmp.info.password', value: password })
    .u16le(players, 'vcmp.info.players')
    .u16le(maxPlayers, 'vcmp.info.max_players')
    .str32(hostname, 'vcmp.info.hostname')
    .str32(gamemode, 'vcmp.info.gamemode')
    .str32(map, 'vcmp.info.map');
const clients = (names: string[]) => {
  const b = vcmpRes('c').u16le(names.length, 'vcmp.clients.count');
  for (const name of names) b.group('vcmp.client', (c) => c.str8(name, 'vcmp.client.name'));
  return b;
};

const [vcmpCases, add] = caseList();
export { vcmpCases };

/* ---------------- VC:MP ---------------- */
for (const [op, message] of [
  ['i', 'info'],
  ['c', 'clients'],
] as const) {
  add({
    protocol: 'vcmp',
    message,
    direction: 'request',
    name: 'basic',
    description: `${message} request to 127.0.0.1:8192`,
    source: CONSTRUCTED,
    bytes: vcmpReq(op),
    value: vlocal,
  });
  add({
    protocol: 'vcmp',
    message,
    direction: 'request',
    name: 'broadcast-address',
    description: 'VCB LAN discovery sends FF FF FF FF as address',
    source: 'the LAN scan of VCMPBrowser (ysc3839/VCMPBrowser ServerQueryUtil.h at 5ed9fdb; packages/codec/src/protocols/vcmp/README.md)',
    bytes: vcmpReq(op, '255.255.255.255', 8000),
    value: { serverIp: '255.255.255.255', serverPort: 8000 },
  });
  add({
    protocol: 'vcmp',
    message,
    direction: 'request',
    name: 'bad-magic',
    description: 'SA:MP magic in a VC:MP request',
    source: CONSTRUCTED,
    bytes: new B().fault(badMagic('vcmp.magic', 'VCMP', 'SAMP')).raw(...samp(op).out),
  });
}
/** The 12-byte version field, NUL-padded. */
const version = (b: B, s: string) =>
  b.bytes([...s].map((c) => c.charCodeAt(0)).concat(new Array(12 - s.length).fill(0)), { abbrev: 'vcmp.info.version', value: s });
add({
  protocol: 'vcmp',
  message: 'info',
  direction: 'response',
  name: 'basic',
  description: '04rel006 server, map name as third string',
  source: CONSTRUCTED,
  bytes: info(version(vcmpRes('i'), '04rel006'), false, 3, 100, 'VC:MP Server', 'Freeroam', 'Vice City'),
  value: {
    ...vlocal,
    version: '04rel006',
    password: false,
    players: 3,
    maxPlayers: 100,
    hostname: 'VC:MP Server',
    gamemode: 'Freeroam',
    map: 'Vice City',
  },
});
add({
  protocol: 'vcmp',
  message: 'info',
  direction: 'response',
  name: 'full-width-version-empty-strings',
  description: '12-character version with no NUL; empty strings; password set',
  source: CONSTRUCTED,
  bytes: info(version(vcmpRes('i'), '04rel006-abc'), true, 0, 0, '', '', ''),
  value: { ...vlocal, version: '04rel006-abc', password: true, players: 0, maxPlayers: 0, hostname: '', gamemode: '', map: '' },
});
add({
  protocol: 'vcmp',
  message: 'info',
  direction: 'response',
  name: 'truncated-version',
  description: 'shorter than the 32 bytes VCB requires',
  source: CONSTRUCTED,
  bytes: version(vcmpRes('i'), '04rel006').cutAt(17, 'vcmp.info.version'),
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'basic',
  description: 'names only, no scores (gamedig HEAD wrongly reads scores)',
  source: CONSTRUCTED,
  bytes: clients(['Tommy', 'Lance']),
  value: { ...vlocal, clients: [{ name: 'Tommy' }, { name: 'Lance' }] },
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'empty',
  description: 'no players',
  source: CONSTRUCTED,
  bytes: clients([]),
  value: { ...vlocal, clients: [] },
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'truncated-name',
  description: 'the second name is cut',
  source: CONSTRUCTED,
  bytes: clients(['Tommy', 'Lance']).cutAt(22, 'vcmp.client.name'),
});
for (const [direction, head] of [
  ['request', vcmpReq],
  ['response', vcmpRes],
] as const) {
  add({
    protocol: 'vcmp',
    message: 'ping',
    direction,
    name: 'basic',
    description: 'ping with nonce 12 34 56 78 (layout by lineage from SA:MP, unconfirmed)',
    source: CONSTRUCTED,
    bytes: head('p').u32be(0x12345678, 'vcmp.ping.nonce'),
    value: { ...vlocal, nonce: 0x12345678 },
  });
  add({
    protocol: 'vcmp',
    message: 'ping',
    direction,
    name: 'zero-nonce',
    description: 'nonce 0',
    source: CONSTRUCTED,
    bytes: head('p').u32be(0, 'vcmp.ping.nonce'),
    value: { ...vlocal, nonce: 0 },
  });
  add({
    protocol: 'vcmp',
    message: 'ping',
    direction,
    name: 'truncated-nonce',
    description: 'nonce missing',
    source: CONSTRUCTED,
    bytes: head('p').u32be(0x12345678, 'vcmp.ping.nonce').cutAt(11, 'vcmp.ping.nonce'),
  });
}
