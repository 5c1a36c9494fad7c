/**
 * Text rendering of an annotated tree, shaped like `tshark -V`:
 * `Label: value` lines, subtrees indented by four spaces, generated items in brackets,
 * the malformed item as `[Malformed Packet: why]`, a warning as tshark's expert item
 * `[Expert Info (Warning/Malformed): why]` (severity and group declared with its code).
 */
import type { FieldNode } from '@gamequery/codec';
import { MASK } from '@gamequery/codec/internal';
import { declaredBy, expertItemLine } from '../stats/expert.ts';

/** Options of the text renderers. */
export interface TextOptions {
  /** Show secrets (RCON passwords) in clear. */
  readonly showSecrets?: boolean;
  readonly indent?: number;
}

/** The text a node shows: its `show`, or its mask when it is a secret and secrets are not shown. */
export function showOf(node: FieldNode, options: TextOptions = {}): string {
  return node.secret && !options.showSecrets ? (node.masked ?? MASK) : node.show;
}

/** One line of text for a node, without indentation. */
export function lineOf(node: FieldNode, options: TextOptions = {}): string {
  const show = showOf(node, options);
  if (node.abbrev.endsWith('.malformed')) return `[${node.label}: ${show}]`;
  const text = show === '' ? node.label : `${node.label}: ${show}`;
  return node.generated ? `[${text}]` : text;
}

/** A protocol tree as indented lines of text, four spaces a level; generated nodes in brackets. */
export function renderTree(nodes: readonly FieldNode[], options: TextOptions = {}): string[] {
  const out: string[] = [];
  const walk = (list: readonly FieldNode[], depth: number): void => {
    for (const n of list) {
      out.push(' '.repeat(depth * 4) + lineOf(n, options));
      if (n.children) walk(n.children, depth + 1);
    }
  };
  walk(nodes, options.indent ?? 0);
  return out;
}

/**
 * A decode warning as tshark shows an expert item in its tree: `[Expert Info (Severity/Group): message]`,
 * severity and group those its code declares (codec `expertInfo`): Warning/Malformed for a flag
 * byte above 1 or a list shorter than its count, Warning/Sequence for a Minecraft reply whose
 * request was not seen. A code no table declares (a warning of a layout made elsewhere) shows as Warning/Malformed.
 */
export function expertLine(w: { readonly code: string; readonly message: string }): string {
  return expertItemLine({ ...declaredBy(w.code), message: w.message });
}
