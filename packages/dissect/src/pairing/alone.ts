/**
 * Where a dissection needs no pairing at all: the caller reads no links or verdicts
 * (`links: false`), and every layout whose records it needs is read the same by recognition
 * alone as after pairing. The capture pairer (the codec's pairing/capture/pairer.ts) reads a
 * datagram with magic as recognition reads it without a hint, and settles only three things
 * otherwise:
 *
 *   either     a message whose request and reply are the same bytes (`symmetric`: a ping,
 *              open.mp's echo form of `o`), the only kind recognition reads either way
 *              (a protocol set's `layoutFor` holds declarations to it): its direction, by
 *              the requests waiting;
 *   magicless  a reply without magic (a Minecraft reply): its message, by its request;
 *   secrets    an RCON reply that may echo its request's password (a message of a request
 *              with a secret, or one answered in lines): the secrets its text is masked for.
 *
 * A frame of any other layout comes out of a single pass exactly as out of two, but for the
 * links and verdicts the caller does not read.
 */
import { builtInProtocols, type AnyLayout, type ProtocolDeclaration } from '@gamequery/codec';
import { RAW } from '@gamequery/codec/internal';
import { hasSecrets } from '../secrets.ts';
import type { DissectOptions } from '../options.ts';
import { noFacts, type FrameFacts } from './first-pass.ts';

/** The facts of a frame read by recognition alone: no link, verdict or time. */
export const ALONE: FrameFacts = Object.freeze(noFacts(RAW));

/** Whether records of `layout`, a layout of protocol `p`, may read otherwise once paired (see the module comment). */
export function readByPairing(p: ProtocolDeclaration, layout: AnyLayout): boolean {
  const pair = p.messages[layout.message];
  if (!pair || pair.symmetric) return true;
  if (layout.direction === 'response' && p.magicless) return true;
  if (p.answeredInLines?.includes(layout.message)) return true;
  return hasSecrets(pair.request) || hasSecrets(pair.response);
}

/**
 * Whether a dissection with `options` may read a capture once, without pairing: links not
 * read (`links: false`), no display filter (it may test them; but one of the frame's layers
 * alone, with `unneeded: 'layers'`) and no Decode As (it may read any
 * datagram as another layout), and a `needs` that leaves out
 * every layout {@link readByPairing} names, of every protocol dissected.
 */
export function readsAlone(options: DissectOptions): boolean {
  const needs = options.needs;
  // A display filter may test links, but one of the frame's layers alone does not, and with `unneeded: 'layers'` the records it tests are those `needs` leaves.
  const filtered = options.filter && !(options.filter.layers && options.unneeded === 'layers');
  if (options.links !== false || !needs || filtered || options.decodeAs) return false;
  return (options.protocols ?? builtInProtocols).every((p) => p.layouts.every((l) => !needs(l.id) || !readByPairing(p, l)));
}
