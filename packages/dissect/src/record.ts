/**
 * One dissected packet: what the text, JSON and NDJSON outputs are made of.
 * The JSON shape is public API, described by `schema/packet.schema.json`.
 */
import type { Direction, FieldNode, Protocol } from '@gamequery/codec';
import type { Endpoint } from './net/types.ts';

export interface PacketRecord {
  /** Frame number in the capture (1-based), or packet number in a hex dump. */
  readonly frame: number;
  /** Absolute capture time in seconds at the capture's resolution ("1700000000.012500"), or null. */
  readonly captureTime: string | null;
  readonly src: Endpoint;
  readonly dst: Endpoint;
  readonly protocol: Protocol;
  readonly direction: Direction | 'either';
  readonly message: string;
  /** Layout id, e.g. `samp.info.response`. */
  readonly layout: string;
  /** Info-column text, e.g. `SA:MP info response: "Server" 13/250`. */
  readonly summary: string;
  /** The annotated tree (built on first use when the fast path wrote `fieldsJson`). */
  readonly fields: FieldNode[];
  /**
   * The tree as JSON text (`nodeJson` of each node), written while decoding when the
   * message decoded cleanly; NDJSON output uses it instead of building the tree.
   */
  readonly fieldsJson?: string;
  /** Offset of the UDP payload within the frame (of the first fragment when reassembled). */
  readonly payloadOffset: number;
  readonly payloadLength: number;
  /** Frames that carried the fragments of a reassembled datagram. */
  readonly fragments?: readonly number[];
  /** Where and why decoding stopped. */
  readonly malformed?: { readonly type: string; readonly field: string; readonly offset: number; readonly message: string };
  readonly warnings: readonly { readonly field: string; readonly offset: number; readonly message: string }[];
  /** Frame of the first response to this request. */
  responseIn?: number;
  /** Frame of the request this responds to. */
  requestIn?: number;
  /** Seconds between request and response, exact at the capture's resolution. */
  responseTime?: string;
  /** Why a request got no reply (timeout in capture time). */
  unanswered?: string;
  /** A response that repeats one already paired. */
  duplicateOf?: number;
  /** The UDP payload (kept for the hex pane; not part of the JSON). */
  readonly payload: Uint8Array;
  /** The whole frame when the payload came from one frame (for the hex pane). */
  readonly frameBytes?: Uint8Array;
}
