/**
 * Dissects one UDP payload: recognises the message (codec `recognize`), runs the
 * annotating decode and returns the tree with its summary — or, for bytes that are no
 * query message, the reason. Never throws on bad input.
 */
import {
  CodecError,
  recognize,
  type Annotation,
  type CodecOptions,
  type Direction,
  type FieldNode,
  type PacketHint,
  type Protocol,
} from '@gamequery/codec';
import { decodeSamp6, malformedNode, shortTitleOf } from '@gamequery/codec/internal';

/**
 * One UDP payload dissected: what it was recognised as, its summary, field tree, decoded value, warnings
 * and, if decoding stopped, why.
 */
export interface DissectedPayload {
  readonly protocol?: Protocol;
  readonly direction?: Direction | 'either';
  readonly message?: string;
  /** Layout id, e.g. `samp.info.response`. */
  readonly layout?: string;
  /** Info-column text, e.g. `SA:MP info response: "Server" 13/250`. */
  readonly summary: string;
  readonly fields: FieldNode[];
  readonly value?: Record<string, unknown>;
  readonly warnings: readonly { code: string; field: string; offset: number; message: string }[];
  /** Why decoding stopped, when it did (typed error as JSON). */
  readonly error?: ReturnType<CodecError['toJSON']>;
  readonly length: number;
}

/** `options.charset` defaults to `auto` (see DissectOptions.charset). */
export function dissectPayload(bytes: Uint8Array, hint: PacketHint = {}, given: CodecOptions = {}): DissectedPayload {
  const options: CodecOptions = given.charset ? given : { ...given, charset: 'auto' };
  // The proposed IPv6 header of open.mp #1204, only where the lengths fit it and not today's (codec samp/samp6.ts).
  const six = hint.protocol === undefined || hint.protocol === 'samp' ? decodeSamp6(bytes, options) : undefined;
  if (six) {
    const ann = six.annotation;
    return {
      protocol: 'samp',
      direction: six.direction,
      message: six.message,
      layout: `${ann.layout.id} (proposed SAMP6 header)`,
      summary: ann.info,
      fields: ann.fields,
      warnings: ann.warnings,
      length: bytes.length,
      ...(ann.value ? { value: ann.value as Record<string, unknown> } : {}),
    };
  }
  let r;
  try {
    r = recognize(bytes, hint, options);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    const protocol = hint.protocol;
    return {
      ...(protocol ? { protocol } : {}),
      summary: `${protocol ? shortTitleOf(protocol) : 'Unrecognized'}: ${e.message}`,
      fields: protocol ? [malformedNode(protocol, bytes, e)] : [],
      warnings: [],
      error: e.toJSON(),
      length: bytes.length,
    };
  }
  const ann: Annotation<Record<string, unknown>> = r.layout.annotate(bytes, options);
  const summary = ann.error ? `${ann.info} [Malformed Packet]` : ann.info;
  return {
    protocol: r.protocol,
    direction: r.direction,
    message: r.message,
    layout: r.layout.id,
    summary,
    fields: ann.fields,
    warnings: ann.warnings,
    length: bytes.length,
    ...(ann.value ? { value: ann.value } : {}),
    ...(ann.error ? { error: ann.error.toJSON() } : {}),
  };
}
