/**
 * JSON forms of decoded values, derived from the declarations: byte fields become
 * lowercase hex strings, everything else is already JSON. Used by the test vectors,
 * the CLI's `--json` output and the dissector's JSON.
 */
import type { Field } from './grammar/fields.ts';
import { toHex } from './grammar/wire.ts';
import { MASK } from './grammar/display.ts';
import type { AnyLayout } from './grammar/layout.ts';

type Obj = Record<string, unknown>;

/**
 * Bytes from a hex string; whitespace and colons are ignored. Throws TypeError on any other character or an
 * odd number of digits.
 */
export const fromHex = (hex: string): Uint8Array => {
  const clean = hex.replace(/[\s:]/g, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(clean)) throw new TypeError(`not an even-length hex string: ${JSON.stringify(hex.slice(0, 40))}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
};

function convert(fields: readonly Field[], value: Obj, bytesTo: (v: unknown) => unknown, into: Obj = { ...value }): Obj {
  const out = into;
  for (const f of fields) {
    if (f.kind === 'bytes' && f.name in value) out[f.name] = bytesTo(value[f.name]);
    else if (f.kind === 'group') convert(f.fields, value, bytesTo, out);
    else if (f.kind === 'list' && Array.isArray(value[f.name]) && !f.flat) {
      out[f.name] = (value[f.name] as Obj[]).map((e) => convert(f.entry.fields, e, bytesTo));
    }
  }
  return out;
}

/** A decoded value as plain JSON (bytes as hex). */
export function valueToJson(layout: AnyLayout, value: Obj): Obj {
  return convert(layout.fields, value, (v) => (v instanceof Uint8Array ? toHex(v) : v));
}

/** The inverse of {@link valueToJson}. */
export function valueFromJson(layout: AnyLayout, json: Obj): Obj {
  return convert(layout.fields, json, (v) => (typeof v === 'string' ? fromHex(v) : v));
}

export { MASK };
export { nodeValueToJson, nodeJson, type JsonNode } from './grammar/tree-json.ts';
