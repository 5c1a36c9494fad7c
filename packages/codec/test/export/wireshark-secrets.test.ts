/**
 * RCON secrets in the generated Wireshark plugin, checked with the real tshark on a capture
 * of a real exchange (fixtures/rcon-echo-lo.pcap: the emulator and `gamequery rcon` on
 * loopback, recorded by tcpdump; scripts/make-rcon-capture.sh): the request's password and
 * the passwords its commands set are masked in the tree and the Info column, in the request
 * and in every reply that echoes them, in every output tshark writes from them (-V, fields,
 * JSON, EK, PDML) and for display filters, unless the samp.show_secrets preference is on.
 * The bytes pane (-x) shows them all the same: Wireshark has no way to hide bytes.
 * Also: the `redact` RegExp as Lua patterns finds what the RegExp finds, run by Lua 5.2.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SETS_PASSWORD } from '../../src/protocols/samp/rcon.ts';
import { luaPatterns } from '../../src/export/wireshark/secrets.ts';
import { luaString } from '../../src/export/wireshark/lua.ts';
import { requireTshark, tsharkWithPlugin } from '../helpers/tshark.ts';

requireTshark();
const t = tsharkWithPlugin('secrets');
afterAll(() => t.dispose());

const capture = new URL('fixtures/rcon-echo-lo.pcap', import.meta.url).pathname;
/** The password of the capture's requests, and the two its commands set (RCON's and the join password). */
const SECRETS = ['Sw0rdfish!', 'NEWSECRET9', 'joinpw77'];

const tshark = (...args: string[]): string => t.run(['-2', '-n', '-X', `lua_script:${t.plugin}`, '-r', capture, ...args]).stdout;
const SHOW = ['-o', 'samp.show_secrets:TRUE'];
const FIELDS = [
  '-T',
  'fields',
  '-E',
  'separator=|',
  '-e',
  'samp.rcon.password',
  '-e',
  'samp.rcon.command',
  '-e',
  'samp.rcon.output',
  '-e',
  '_ws.col.Info',
];
const leaks = (text: string): string[] => SECRETS.filter((s) => text.includes(s));

describe('RCON secrets in the Wireshark plugin (tshark on a loopback capture)', () => {
  it('masks them by default in the tree, the Info column and every tshark output, as our dissector does', () => {
    // Password | command | output | Info, frame by frame; the Info column word for word as `gamequery dissect` writes it.
    expect(tshark(...FIELDS).split('\n')).toEqual([
      '********|varlist||SA:MP rcon request: varlist',
      '||Console Variables:|SA:MP rcon response: "Console Variables:"',
      '||  rcon_password\\t= "********"  (string)|SA:MP rcon response: "  rcon_password\\t= "********"  (string)"',
      '||  hostname\\t= "rcon capture"  (string)|SA:MP rcon response: "  hostname\\t= "rcon capture"  (string)"',
      '********|rcon_password ********||SA:MP rcon request: rcon_password ********',
      '||  rcon_password\\t= "********"  (string)|SA:MP rcon response: "  rcon_password\\t= "********"  (string)"',
      '********|password ********||SA:MP rcon request: password ********',
      '||Setting server password to: "********"|SA:MP rcon response: "Setting server password to: "********""',
      '',
    ]);
    const verbose = tshark('-V');
    expect(verbose).toContain('    Password: ********\n');
    expect(verbose).toContain('    Command: rcon_password ********\n');
    expect(verbose).toContain('    Output:   rcon_password\\t= "********"  (string)\n');
    for (const out of [verbose, tshark('-T', 'json'), tshark('-T', 'ek'), tshark('-T', 'pdml'), tshark()]) expect(leaks(out)).toEqual([]);
    // Display filters compare the shown (masked) text.
    expect(tshark('-Y', 'samp.rcon.password == "Sw0rdfish!"')).toBe('');
    expect(tshark('-Y', 'samp.rcon.output contains "NEWSECRET9"')).toBe('');
    expect(tshark('-Y', 'samp.rcon.password == "********"').trim().split('\n')).toHaveLength(3);
  });

  it("shows them with samp.show_secrets on (the Info column keeps a command's new password masked, as our summary does)", () => {
    expect(tshark(...SHOW, ...FIELDS).split('\n')).toEqual([
      'Sw0rdfish!|varlist||SA:MP rcon request: varlist',
      '||Console Variables:|SA:MP rcon response: "Console Variables:"',
      '||  rcon_password\\t= "Sw0rdfish!"  (string)|SA:MP rcon response: "  rcon_password\\t= "Sw0rdfish!"  (string)"',
      '||  hostname\\t= "rcon capture"  (string)|SA:MP rcon response: "  hostname\\t= "rcon capture"  (string)"',
      'Sw0rdfish!|rcon_password NEWSECRET9||SA:MP rcon request: rcon_password ********',
      '||  rcon_password\\t= "NEWSECRET9"  (string)|SA:MP rcon response: "  rcon_password\\t= "NEWSECRET9"  (string)"',
      'Sw0rdfish!|password joinpw77||SA:MP rcon request: password ********',
      '||Setting server password to: "joinpw77"|SA:MP rcon response: "Setting server password to: "joinpw77""',
      '',
    ]);
    for (const out of [tshark(...SHOW, '-V'), tshark(...SHOW, '-T', 'json')]) expect(leaks(out)).toEqual(SECRETS);
    expect(
      tshark(...SHOW, '-Y', 'samp.rcon.password == "Sw0rdfish!"')
        .trim()
        .split('\n'),
    ).toHaveLength(3);
  });

  it('cannot hide the bytes: the hex pane (-x) shows every secret, as docs/cli.md says', () => {
    // The ASCII column (from column 56 of `0000  <16 bytes in hex>   <ASCII>`), its lines joined: a secret may straddle two.
    const ascii = tshark('-x')
      .split('\n')
      .map((l) => l.slice(56))
      .join('');
    expect(leaks(ascii)).toEqual(SECRETS);
  });

  it('registers the preference, off by default, on the protocols that carry secrets only', () => {
    const prefs = t.run(['-G', 'defaultprefs', '-X', `lua_script:${t.plugin}`]).stdout;
    expect(prefs).toContain('#samp.show_secrets: FALSE');
    expect(prefs).not.toMatch(/(vcmp|mcquery)\.show_secrets/);
  });
});

/** Runs a Lua 5.2 chunk and returns what it prints. Without lua5.2 the test fails, it never skips. */
function lua52(chunk: string): string {
  const r = spawnSync('lua5.2', ['-'], { input: chunk, encoding: 'utf8' });
  if (r.error) throw new Error('lua5.2 is not on PATH. Install it with `apt-get install -y lua5.2` (.ci/run does).');
  if (r.status !== 0) throw new Error(`lua5.2 failed: ${r.stderr}`);
  return r.stdout;
}

describe('a redact RegExp as Lua patterns', () => {
  it('finds the same secret at the same place as SETS_PASSWORD, in Lua 5.2', () => {
    const commands = [
      'rcon_password NEWSECRET9',
      '  RCON_Password \t a b c  ',
      'password joinpw77',
      'passwordx y',
      'rcon_password',
      'rcon_password ',
      'say rcon_password x',
      'Password\tp\nq',
      'password  two words',
      'echo password x',
      'hostname x',
    ];
    const withIndices = new RegExp(SETS_PASSWORD.source, `${SETS_PASSWORD.flags}d`);
    const want = commands.map((c) => {
      const m = withIndices.exec(c);
      const at = m?.indices?.[1];
      return at ? `${at[0]} ${at[1]} ${Buffer.from(c.slice(at[0], at[1]), 'latin1').toString('hex')}` : 'none';
    });
    const patterns = luaPatterns(SETS_PASSWORD);
    const chunk = [
      `local patterns = { ${patterns.map(luaString).join(', ')} }`,
      `for _, c in ipairs({ ${commands.map(luaString).join(', ')} }) do`,
      '  local out = "none"',
      '  for _, p in ipairs(patterns) do',
      '    local s, part, e = c:match(p)',
      '    if s then out = string.format("%d %d %s", s - 1, e - 1, (part:gsub(".", function(b) return string.format("%02x", b:byte()) end))); break end',
      '  end',
      '  print(out)',
      'end',
    ].join('\n');
    const got = lua52(chunk).split('\n').slice(0, -1);
    expect(want.filter((w) => w !== 'none').length).toBeGreaterThanOrEqual(5);
    expect(got.join('\n')).toBe(want.join('\n'));
  });

  it('refuses what Lua patterns cannot say, at export time', () => {
    expect(luaPatterns(/^a(b+)$/)).toEqual(['^a()(b+)()$']);
    expect(() => luaPatterns(/(a)(b)/)).toThrow(/more than one capturing group/);
    expect(() => luaPatterns(/a[bc](d)/)).toThrow(/\[ here/);
    expect(() => luaPatterns(/x(.)/)).toThrow(/without the s flag/);
    expect(() => luaPatterns(/(?:a|b)+(c)/)).toThrow(/quantified group/);
    expect(() => luaPatterns(/a(b)|c/)).toThrow(/\| here/);
    expect(() => luaPatterns(/ab/)).toThrow(/exactly one capturing group/);
  });
});
