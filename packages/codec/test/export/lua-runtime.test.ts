/**
 * The Wireshark plugin's Lua runtime is a real file (src/export/wireshark/runtime.lua) that a
 * script turns into the module the codec imports (runtime.lua.ts). Here: the committed module
 * is what the script makes of the committed .lua, and the .lua is valid Lua 5.2 (the Lua that
 * Debian's Wireshark 4.0 embeds) by `luac5.2 -p`. That tshark loads the whole plugin is
 * wireshark.test.ts; that the plugin's bytes are unchanged is the golden test.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { luaFile, moduleFile, moduleOf, regenerate, runtimeOf } from '../../scripts/lua-runtime.mjs';
import { luaRuntime } from '../../src/export/wireshark/runtime.lua.ts';

const lua = readFileSync(luaFile, 'utf8');

/** `luac5.2 -p` on `path`: its exit status and message. Without luac5.2 the test fails, it never skips. */
function luacParse(path: string): { status: number | null; stderr: string } {
  const r = spawnSync('luac5.2', ['-p', path], { encoding: 'utf8' });
  if (r.error)
    throw new Error('luac5.2 is not on PATH: runtime.lua cannot be checked. Install it with `apt-get install -y lua5.2` (.ci/run does).');
  return { status: r.status, stderr: r.stderr };
}

describe('the Lua runtime of the Wireshark plugin', () => {
  it('has its generated module up to date with runtime.lua', () => {
    const committed = readFileSync(moduleFile, 'utf8');
    if (committed !== moduleOf(lua))
      expect.fail(`src/export/wireshark/runtime.lua.ts is out of date with runtime.lua: run \`${regenerate}\``);
    expect(luaRuntime).toBe(runtimeOf(lua));
  });

  it('leaves the file header out of the plugin and keeps everything after it', () => {
    expect(lua.startsWith('-- ')).toBe(true);
    expect(luaRuntime.startsWith('local f_frame_time = Field.new("frame.time")\n')).toBe(true);
    expect(lua.endsWith(`\n\n${luaRuntime}`)).toBe(true);
    expect(() => runtimeOf('local x = 1\n')).toThrow(/comment block followed by a blank line/);
  });

  it('parses as Lua 5.2 (luac5.2 -p), and the check rejects a broken copy', () => {
    expect(luacParse(luaFile)).toEqual({ status: 0, stderr: '' });
    const dir = mkdtempSync(`${tmpdir()}/gamequery-lua-`);
    try {
      // The last `end` dropped: the check has to notice.
      const broken = `${dir}/broken.lua`;
      writeFileSync(broken, lua.slice(0, lua.trimEnd().lastIndexOf('end')));
      const r = luacParse(broken);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/'end' expected/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
