/** Lua source text for plain data: tables, strings (byte-exact, ASCII-only output), numbers. */

const KEYWORDS = new Set([
  'and',
  'break',
  'do',
  'else',
  'elseif',
  'end',
  'false',
  'for',
  'function',
  'goto',
  'if',
  'in',
  'local',
  'nil',
  'not',
  'or',
  'repeat',
  'return',
  'then',
  'true',
  'until',
  'while',
]);

const utf8 = new TextEncoder();

/** A Lua string literal of these bytes; anything but printable ASCII as `\ddd`. */
export function luaBytes(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** A Lua string literal of this text, UTF-8 encoded. */
export const luaString = (text: string): string => luaBytes(utf8.encode(text));

function luaKey(key: string): string {
  if (/^-?\d+$/.test(key)) return `[${key}]`;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !KEYWORDS.has(key)) return key;
  return `[${luaString(key)}]`;
}

/**
 * A Lua expression for `value`: arrays become sequences, objects tables (keys that are
 * integers become `[n]`), `undefined` members are left out. Short tables, and tables of
 * scalars, stay on one line.
 */
export function toLua(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new TypeError(`toLua: only integers, got ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return luaString(value);
  if (value instanceof Uint8Array) return luaBytes(value);
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((v) => toLua(v, inner))
    : Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${luaKey(k)} = ${toLua(v, inner)}`);
  if (items.length === 0) return '{}';
  const flat = `{ ${items.join(', ')} }`;
  const scalars = items.every((i) => !i.includes('{'));
  if ((flat.length + indent.length <= 130 || scalars) && !flat.includes('\n')) return flat;
  return `{\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}}`;
}
