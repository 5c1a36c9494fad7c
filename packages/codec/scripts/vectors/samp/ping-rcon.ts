/**
 * SA:MP test vectors: `p` (ping) and `x` (RCON), both directions.
 */
import { fromHex, toHex } from '@gamequery/codec';
import { CONSTRUCTED, caseList } from '../builder.ts';
import { local, samp } from './header.ts';

const [pingRconCases, add] = caseList();
export { pingRconCases };

/* ---------------- SA:MP p ---------------- */
const pingHex = '53 41 4D 50 7F 00 00 01 61 1E 70 12 34 56 78';
for (const direction of ['request', 'response'] as const) {
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'basic',
    description: 'ping to 127.0.0.1:7777 with nonce 12 34 56 78 (request and reply are identical)',
    source: 'the `p` example of packages/codec/src/protocols/samp/README.md (constructed)',
    hex: toHex(fromHex(pingHex)),
    value: { ...local, nonce: 0x12345678 },
  });
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'nonce-ffffffff',
    description: 'all-ones nonce',
    source: CONSTRUCTED,
    hex: samp('p').u32be(0xffffffff).hexString,
    value: { ...local, nonce: 0xffffffff },
  });
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'truncated-nonce',
    description: '14 bytes: servers do not answer this',
    source: 'the `p` example of packages/codec/src/protocols/samp/README.md (constructed), cut by 1 byte',
    hex: toHex(fromHex(pingHex).subarray(0, 14)),
    error: { type: 'TruncatedError', offset: 11, field: 'samp.ping.nonce' },
  });
}

/* ---------------- SA:MP x ---------------- */
const rconReq = '53 41 4D 50 7F 00 00 01 61 1E 78 05 00 77 72 6F 6E 67 07 00 70 6C 61 79 65 72 73';
const rconRes = '53 41 4D 50 7F 00 00 01 61 1E 78 16 00 49 6E 76 61 6C 69 64 20 52 43 4F 4E 20 70 61 73 73 77 6F 72 64 2E';
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'basic',
  description: 'password "wrong", command "players"',
  source: 'the `x` example of packages/codec/src/protocols/samp/README.md (constructed)',
  hex: toHex(fromHex(rconReq)),
  value: { ...local, password: 'wrong', command: 'players' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'empty-password',
  description: 'empty password and a command with spaces',
  source: CONSTRUCTED,
  hex: samp('x').str16('').str16('say hello world').hexString,
  value: { ...local, password: '', command: 'say hello world' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'truncated-password',
  description: 'the password is cut (open.mp answers "Invalid RCON password.", 0.3.7 is silent)',
  source: 'the `x` example of packages/codec/src/protocols/samp/README.md (constructed), cut inside the password',
  hex: toHex(fromHex(rconReq).subarray(0, 16)),
  error: { type: 'TruncatedError', offset: 13, field: 'samp.rcon.password' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'invalid-password',
  description: 'the one-line reply to a wrong password',
  source: 'the `x` reply example of packages/codec/src/protocols/samp/README.md (constructed)',
  hex: toHex(fromHex(rconRes)),
  value: { ...local, output: 'Invalid RCON password.' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'empty-line',
  description: 'an empty console line',
  source: CONSTRUCTED,
  hex: samp('x').str16('').hexString,
  value: { ...local, output: '' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'truncated-output',
  description: 'the line is cut',
  source: 'the `x` reply example of packages/codec/src/protocols/samp/README.md (constructed), cut by 5 bytes',
  hex: toHex(fromHex(rconRes).subarray(0, 30)),
  error: { type: 'TruncatedError', offset: 13, field: 'samp.rcon.output' },
});
