/**
 * A tree node (annotate.ts) as JSON: what `Layout.annotateJson` writes and the dissector's
 * `fields` items. Re-exported by ../json.ts, beside the JSON forms of decoded values.
 */
import type { FieldNode } from './annotate.ts';
import type { NodeValue } from './kinds/kind.ts';
import { MASK } from './display.ts';
import { toHex } from './kinds/bytes.ts';

/**
 * A tree node's value as JSON: bytes as hex; a 64-bit integer (a bigint) and a float JSON has no
 * number for (NaN, ±Infinity) as strings of their digits or name, as numbers.ts writes them.
 */
export const nodeValueToJson = (v: NodeValue): string | number | boolean | null =>
  v instanceof Uint8Array ? toHex(v) : typeof v === 'bigint' || (typeof v === 'number' && !Number.isFinite(v)) ? String(v) : v;

/** A tree node as JSON: the dissector's `fields` items and what `Layout.annotateJson` writes. */
export interface JsonNode {
  abbrev: string;
  label: string;
  offset: number;
  length: number;
  value: string | number | boolean | null;
  show: string;
  /** A secret masked (without `showSecrets`): `value` and `show` are the mask, not the field's text. */
  masked?: true;
  /** `charset: 'auto'`, a string not all ASCII: what was chosen and how sure (0.5…1). */
  charset?: string;
  confidence?: number;
  children?: JsonNode[];
  generated?: true;
}

/** A tree node as JSON, secrets masked unless `showSecrets`. */
export const nodeJson = (n: FieldNode, showSecrets: boolean): JsonNode => {
  const hidden = n.secret && !showSecrets;
  return {
    abbrev: n.abbrev,
    label: n.label,
    offset: n.offset,
    length: n.length,
    value: hidden ? (n.masked ?? MASK) : nodeValueToJson(n.value),
    show: hidden ? (n.masked ?? MASK) : n.show,
    ...(hidden ? { masked: true as const } : {}),
    ...(n.charset !== undefined ? { charset: n.charset, confidence: n.confidence! } : {}),
    ...(n.children ? { children: n.children.map((c) => nodeJson(c, showSecrets)) } : {}),
    ...(n.generated ? { generated: true as const } : {}),
  };
};
