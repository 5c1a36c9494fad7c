/** What the layouts' compiled emitters are told when they write a packet's tree (packet-line.ts, packet-text.ts). */
import type { CodecOptions } from '@gamequery/codec';
import type { Packet } from '../packet-record.ts';

/** Where a record's unbuilt tree comes from: its layout and codec options. */
export type TreeSource = NonNullable<Packet['treeSource']>;

/** Codec options with how to write secrets and the tree's indent. */
export type EmitTreeOptions = CodecOptions & { readonly showSecrets: boolean; readonly indent: 1 };

const emitOptionsOf = new WeakMap<CodecOptions, readonly [masked: EmitTreeOptions, clear: EmitTreeOptions]>();

/** What the compiled emitters are told (charset, secrets, the tree's indent), made once per record maker's codec options. */
export function emitOptions(codec: CodecOptions, showSecrets: boolean): EmitTreeOptions {
  let both = emitOptionsOf.get(codec);
  if (!both)
    emitOptionsOf.set(
      codec,
      (both = [
        { ...codec, showSecrets: false, indent: 1 },
        { ...codec, showSecrets: true, indent: 1 },
      ]),
    );
  return both[showSecrets ? 1 : 0];
}
