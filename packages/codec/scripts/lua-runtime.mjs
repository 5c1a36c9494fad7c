/**
 * Generates src/export/wireshark/runtime.lua.ts from runtime.lua: the Lua runtime of the
 * Wireshark plugin as a string constant, so that the codec stays browser-safe (no file read
 * at run time) and the tests, which run the TypeScript sources, see the same text the build
 * ships. runtime.lua is the file to edit; its leading comment block, down to the first blank
 * line, is the file's own and is left out of the plugin.
 *
 *   node packages/codec/scripts/lua-runtime.mjs           rewrite runtime.lua.ts
 *   node packages/codec/scripts/lua-runtime.mjs --check   exit 1 if it is out of date
 *
 * Plain JavaScript, so that the codec's `build` runs it before `tsc -b`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const luaFile = fileURLToPath(new URL('../src/export/wireshark/runtime.lua', import.meta.url));
export const moduleFile = `${luaFile}.ts`;
/** How to regenerate, for messages. */
export const regenerate = 'pnpm --filter @gamequery/codec run lua-runtime';

/** The runtime: `lua` without its header (the leading `--` lines and the blank line after them). */
export function runtimeOf(lua) {
  const lines = lua.split('\n');
  let i = 0;
  while (i < lines.length && lines[i].startsWith('--')) i++;
  if (i === 0 || lines[i] !== '') throw new Error('runtime.lua must open with a `--` comment block followed by a blank line');
  return lines.slice(i + 1).join('\n');
}

/** The TypeScript module that exports the runtime of `lua` as `luaRuntime`. */
export function moduleOf(lua) {
  return [
    `// Generated from runtime.lua by packages/codec/scripts/lua-runtime.mjs, do not edit: edit runtime.lua, then run \`${regenerate}\`.`,
    '// The Lua runtime of the Wireshark plugin (see the header of runtime.lua), as one string literal.',
    `export const luaRuntime: string = ${JSON.stringify(runtimeOf(lua))};`,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = moduleOf(readFileSync(luaFile, 'utf8'));
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(moduleFile, 'utf8');
    } catch {
      /* missing: out of date */
    }
    if (current !== text) {
      console.error(`${moduleFile} is out of date with runtime.lua: run \`${regenerate}\``);
      process.exit(1);
    }
  } else {
    writeFileSync(moduleFile, text);
  }
}
