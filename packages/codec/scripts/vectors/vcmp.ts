/**
 * VC:MP test vectors: `i`, `c` and `p`, both directions.
 */
import { B, CONSTRUCTED, caseList } from './builder.ts';
import { samp } from './samp/header.ts';

const vcmpReq = (op: string) => new B().ascii('VCMP').raw(127, 0, 0, 1).u16le(8192).ascii(op);
const vcmpRes = (op: string) => new B().ascii('MP04').raw(127, 0, 0, 1).u16le(8192).ascii(op);
const vlocal = { serverIp: '127.0.0.1', serverPort: 8192 };

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
    hex: vcmpReq(op).hexString,
    value: vlocal,
  });
  add({
    protocol: 'vcmp',
    message,
    direction: 'request',
    name: 'broadcast-address',
    description: 'VCB LAN discovery sends FF FF FF FF as address',
    source: 'the LAN scan of VCMPBrowser (ysc3839/VCMPBrowser ServerQueryUtil.h at 5ed9fdb; packages/codec/src/protocols/vcmp/README.md)',
    hex: new B().ascii('VCMP').raw(255, 255, 255, 255).u16le(8000).ascii(op).hexString,
    value: { serverIp: '255.255.255.255', serverPort: 8000 },
  });
  add({
    protocol: 'vcmp',
    message,
    direction: 'request',
    name: 'bad-magic',
    description: 'SA:MP magic in a VC:MP request',
    source: CONSTRUCTED,
    hex: samp(op).hexString,
    error: { type: 'BadMagicError', offset: 0, field: 'vcmp.magic' },
  });
}
const version = (s: string) => new B().ascii(s).raw(...new Array(12 - s.length).fill(0)).hexString;
add({
  protocol: 'vcmp',
  message: 'info',
  direction: 'response',
  name: 'basic',
  description: '04rel006 server, map name as third string',
  source: CONSTRUCTED,
  hex: vcmpRes('i').hex(version('04rel006')).u8(0).u16le(3).u16le(100).str32('VC:MP Server').str32('Freeroam').str32('Vice City').hexString,
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
  hex: vcmpRes('i').ascii('04rel006-abc').u8(1).u16le(0).u16le(0).u32le(0).u32le(0).u32le(0).hexString,
  value: { ...vlocal, version: '04rel006-abc', password: true, players: 0, maxPlayers: 0, hostname: '', gamemode: '', map: '' },
});
add({
  protocol: 'vcmp',
  message: 'info',
  direction: 'response',
  name: 'truncated-version',
  description: 'shorter than the 32 bytes VCB requires',
  source: CONSTRUCTED,
  hex: vcmpRes('i').ascii('04rel0').hexString,
  error: { type: 'TruncatedError', offset: 11, field: 'vcmp.info.version' },
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'basic',
  description: 'names only, no scores (gamedig HEAD wrongly reads scores)',
  source: CONSTRUCTED,
  hex: vcmpRes('c').u16le(2).str8('Tommy').str8('Lance').hexString,
  value: { ...vlocal, clients: [{ name: 'Tommy' }, { name: 'Lance' }] },
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'empty',
  description: 'no players',
  source: CONSTRUCTED,
  hex: vcmpRes('c').u16le(0).hexString,
  value: { ...vlocal, clients: [] },
});
add({
  protocol: 'vcmp',
  message: 'clients',
  direction: 'response',
  name: 'truncated-name',
  description: 'the second name is cut',
  source: CONSTRUCTED,
  hex: vcmpRes('c').u16le(2).str8('Tommy').u8(5).ascii('La').hexString,
  error: { type: 'TruncatedError', offset: 20, field: 'vcmp.client.name' },
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
    hex: head('p').u32be(0x12345678).hexString,
    value: { ...vlocal, nonce: 0x12345678 },
  });
  add({
    protocol: 'vcmp',
    message: 'ping',
    direction,
    name: 'zero-nonce',
    description: 'nonce 0',
    source: CONSTRUCTED,
    hex: head('p').u32be(0).hexString,
    value: { ...vlocal, nonce: 0 },
  });
  add({
    protocol: 'vcmp',
    message: 'ping',
    direction,
    name: 'truncated-nonce',
    description: 'nonce missing',
    source: CONSTRUCTED,
    hex: head('p').hexString,
    error: { type: 'TruncatedError', offset: 11, field: 'vcmp.ping.nonce' },
  });
}
