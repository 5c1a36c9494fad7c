/**
 * Secrets (RCON passwords) as the output hides them, for every reader of a record: which
 * layouts declare one, which records may hold one (the codec's declarations say: the
 * messages whose request declares a secret, since their replies may echo it), the byte
 * ranges a record hides, and its bytes as the hex pane shows them, each hidden byte a `*`
 * (what the display filter's byte fields compare unless secrets are shown).
 */
import { layouts, type AnyLayout, type FieldNode } from '@gamequery/codec';
import { secretFields, showText } from '@gamequery/codec/internal';
import type { PacketRecord } from './packet-record.ts';
import type { ByteRange } from './render/hexpane.ts';

/** What a hidden byte reads as: `*`, as the hex pane's ASCII column shows it. */
export const HIDDEN_BYTE = 0x2a;

/** A Map, not a WeakMap: the layouts are a fixed few, and the fast path asks once per record. */
const secretive = new Map<AnyLayout, boolean>();

/** Whether a layout declares a secret (the RCON password); answered once per layout. */
export function hasSecrets(layout: AnyLayout): boolean {
  let yes = secretive.get(layout);
  if (yes === undefined) secretive.set(layout, (yes = secretFields(layout.fields).size > 0));
  return yes;
}

let carriers: ReadonlySet<string> | undefined;

/**
 * Whether a record of this layout id may hold a secret: a layout of a message one of whose
 * layouts declares one (the RCON request, and its replies, which may echo it). Every other
 * record is read as it is, at the cost of one set lookup.
 */
export function mayHoldSecrets(layoutId: string): boolean {
  if (!carriers) {
    const messages = new Set(layouts.filter(hasSecrets).map((l) => `${l.protocol}.${l.message}`));
    carriers = new Set(layouts.filter((l) => messages.has(`${l.protocol}.${l.message}`)).map((l) => l.id));
  }
  return carriers.has(layoutId);
}

/** The byte ranges of a tree's secret nodes (offsets into the payload), in tree order. */
export function secretRanges(nodes: readonly FieldNode[], into: ByteRange[] = []): ByteRange[] {
  for (const n of nodes) {
    if (n.secret) into.push(n);
    if (n.children) secretRanges(n.children, into);
  }
  return into;
}

/**
 * A record's bytes as a masked hex pane shows them: `bytes` itself when the record can hold
 * no secret or its tree marks none, else a copy with each byte of a secret node set to
 * {@link HIDDEN_BYTE}. `base`: where the payload starts within `bytes` (the frame's bytes).
 */
export function shownBytes(p: PacketRecord, bytes: Uint8Array, base: number): Uint8Array {
  if (!mayHoldSecrets(p.layout)) return bytes;
  const ranges = secretRanges(p.fields);
  if (!ranges.length) return bytes;
  const out = bytes.slice();
  for (const r of ranges) out.fill(HIDDEN_BYTE, Math.max(0, base + r.offset), Math.min(out.length, base + r.offset + r.length));
  return out;
}

/**
 * The texts to mask for a list of secrets: each secret, and each as the tree and summary
 * write it (control characters and backslashes escaped), longest first, so a secret with a
 * backslash or a tab in it is masked where it shows escaped too.
 */
export function shownSecrets(secrets: readonly string[]): string[] {
  return [...new Set([...secrets, ...secrets.map(showText)])].filter((s) => s !== '').sort((a, b) => b.length - a.length);
}
