/**
 * JSON forms of decoded values, derived from the declarations: byte fields become lowercase hex
 * strings, 64-bit integers and NaN or ±Infinity strings, everything else is already JSON. Used by
 * the test vectors, the CLI's `--json` output and the dissector's JSON.
 */
import type { BytesField, Field, IntField } from './grammar/fields.ts';
import { numbers } from './grammar/numbers.ts';
import { toHex } from './grammar/kinds/bytes.ts';
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

/** `value` with each bytes and number field's value `to` converts (a group's fields are the value's; list entries each). */
function convert(
  fields: readonly Field[],
  value: Obj,
  to: (f: BytesField | IntField, v: unknown) => unknown,
  into: Obj = { ...value },
): Obj {
  const out = into;
  for (const f of fields) {
    if ((f.kind === 'bytes' || f.kind === 'int') && f.name in value) out[f.name] = to(f, value[f.name]);
    else if (f.kind === 'group') convert(f.fields, value, to, out);
    else if (f.kind === 'list' && Array.isArray(value[f.name]) && !f.flat) {
      out[f.name] = (value[f.name] as Obj[]).map((e) => convert(f.entry.fields, e, to));
    }
  }
  return out;
}

/**
 * A decoded value as plain JSON: bytes as hex; a 64-bit integer as a string of its digits, and a
 * float JSON has no number for (NaN, ±Infinity) as its name, as a node's JSON writes them.
 */
export function valueToJson(layout: AnyLayout, value: Obj): Obj {
  return convert(layout.fields, value, (f, v) =>
    v instanceof Uint8Array ? toHex(v) : typeof v === 'bigint' || (typeof v === 'number' && !Number.isFinite(v)) ? String(v) : v,
  );
}

/** The inverse of {@link valueToJson}. */
export function valueFromJson(layout: AnyLayout, json: Obj): Obj {
  return convert(layout.fields, json, (f, v) =>
    typeof v !== 'string' ? v : f.kind === 'bytes' ? fromHex(v) : numbers[f.type].is === 'bigint' ? BigInt(v) : Number(v),
  );
}

export { MASK };
export { nodeValueToJson, nodeJson, type JsonNode } from './grammar/tree-json.ts';
