/**
 * SA:MP test vectors: `p` (ping) and `x` (RCON), both directions.
 */
import { CONSTRUCTED, caseList } from '../builder.ts';
import { local, samp } from './header.ts';

const [pingRconCases, add] = caseList();
export { pingRconCases };

/* ---------------- SA:MP p ---------------- */
const pingHex = '53 41 4D 50 7F 00 00 01 61 1E 70 12 34 56 78';
const pingBuilt = () => samp('p').u32be(0x12345678, 'samp.ping.nonce').is(pingHex);
for (const direction of ['request', 'response'] as const) {
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'basic',
    description: 'ping to 127.0.0.1:7777 with nonce 12 34 56 78 (request and reply are identical)',
    source: 'the `p` example of packages/codec/src/protocols/samp/README.md (constructed)',
    bytes: pingBuilt(),
    value: { ...local, nonce: 0x12345678 },
  });
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'nonce-ffffffff',
    description: 'all-ones nonce',
    source: CONSTRUCTED,
    bytes: samp('p').u32be(0xffffffff, 'samp.ping.nonce'),
    value: { ...local, nonce: 0xffffffff },
  });
  add({
    protocol: 'samp',
    message: 'ping',
    direction,
    name: 'truncated-nonce',
    description: '14 bytes: servers do not answer this',
    source: 'the `p` example of packages/codec/src/protocols/samp/README.md (constructed), cut by 1 byte',
    bytes: pingBuilt().cutAt(14, 'samp.ping.nonce'),
  });
}

/* ---------------- SA:MP x ---------------- */
const rconReq = '53 41 4D 50 7F 00 00 01 61 1E 78 05 00 77 72 6F 6E 67 07 00 70 6C 61 79 65 72 73';
const rconRes = '53 41 4D 50 7F 00 00 01 61 1E 78 16 00 49 6E 76 61 6C 69 64 20 52 43 4F 4E 20 70 61 73 73 77 6F 72 64 2E';
const rconReqBuilt = () => samp('x').str16('wrong', 'samp.rcon.password').str16('players', 'samp.rcon.command').is(rconReq);
const rconResBuilt = () => samp('x').str16('Invalid RCON password.', 'samp.rcon.output').is(rconRes);
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'basic',
  description: 'password "wrong", command "players"',
  source: 'the `x` example of packages/codec/src/protocols/samp/README.md (constructed)',
  bytes: rconReqBuilt(),
  value: { ...local, password: 'wrong', command: 'players' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'empty-password',
  description: 'empty password and a command with spaces',
  source: CONSTRUCTED,
  bytes: samp('x').str16('', 'samp.rcon.password').str16('say hello world', 'samp.rcon.command'),
  value: { ...local, password: '', command: 'say hello world' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'request',
  name: 'truncated-password',
  description: 'the password is cut (open.mp answers "Invalid RCON password.", 0.3.7 is silent)',
  source: 'the `x` example of packages/codec/src/protocols/samp/README.md (constructed), cut inside the password',
  bytes: rconReqBuilt().cutAt(16, 'samp.rcon.password'),
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'invalid-password',
  description: 'the one-line reply to a wrong password',
  source: 'the `x` reply example of packages/codec/src/protocols/samp/README.md (constructed)',
  bytes: rconResBuilt(),
  value: { ...local, output: 'Invalid RCON password.' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'empty-line',
  description: 'an empty console line',
  source: CONSTRUCTED,
  bytes: samp('x').str16('', 'samp.rcon.output'),
  value: { ...local, output: '' },
});
add({
  protocol: 'samp',
  message: 'rcon',
  direction: 'response',
  name: 'truncated-output',
  description: 'the line is cut',
  source: 'the `x` reply example of packages/codec/src/protocols/samp/README.md (constructed), cut by 5 bytes',
  bytes: rconResBuilt().cutAt(30, 'samp.rcon.output'),
});
