/**
 * Datagram builders and event summaries for the pairing tests. Every datagram carries a
 * name as its `meta`, so an event reads as a short string: `exchange q>r1+r2`.
 */
import { expect } from 'vitest';
import { from } from 'rxjs';
import { fromHex } from '@gamequery/codec';
import { pairQueries, type Datagram, type Endpoint, type PairingEvent, type PairingOptions } from '@gamequery/codec/rx';
import { loadVectors } from '../helpers/vectors.ts';

export const client: Endpoint = { address: '192.0.2.10', port: 50123 };
export const otherClient: Endpoint = { address: '192.0.2.11', port: 50124 };
/** The address the SA:MP/VC:MP test vectors' headers name. */
export const sampServer: Endpoint = { address: '127.0.0.1', port: 7777 };
export const vcmpServer: Endpoint = { address: '127.0.0.1', port: 8192 };
export const mcServer: Endpoint = { address: '127.0.0.1', port: 25565 };

export const ns = (ms: number): bigint => BigInt(Math.round(ms * 1e6));

export type Named = Datagram<string>;

/** Client → server at `atMs`. */
export const ask = (name: string, bytes: Uint8Array, to: Endpoint, atMs: number, fromEp: Endpoint = client): Named => ({
  bytes,
  from: fromEp,
  to,
  time: ns(atMs),
  meta: name,
});

/** Server → client at `atMs`. */
export const answer = (name: string, bytes: Uint8Array, fromEp: Endpoint, atMs: number, to: Endpoint = client): Named => ({
  bytes,
  from: fromEp,
  to,
  time: ns(atMs),
  meta: name,
});

const vectors = new Map(loadVectors().map((v) => [v.id, v]));

/** The bytes of a test vector, e.g. `samp/ping-request.basic`. */
export const vector = (id: string): Uint8Array => {
  const v = vectors.get(id);
  if (!v) throw new Error(`no test vector ${id}`);
  return fromHex(v.hex);
};

/** The datagrams an event accounts for. */
export function datagramsOf<M>(e: PairingEvent<M>): Datagram<M>[] {
  switch (e.kind) {
    case 'exchange':
      return [e.request.datagram, ...e.responses.map((r) => r.datagram)];
    case 'overflow':
      return [e.request.datagram, ...e.responses.map((r) => r.datagram)];
    case 'unanswered':
      return [e.request.datagram];
    case 'duplicate':
      return [e.response.datagram];
    case 'unmatched':
    case 'undecodable':
      return [e.datagram];
  }
}

const n = (d: Datagram<string>): string => d.meta ?? '?';

/** `exchange q>r1+r2`, `unanswered q`, `unmatched r`, `duplicate r2=r1@q`, `undecodable j`, `overflow q`. */
export function summary(e: PairingEvent<string>): string {
  switch (e.kind) {
    case 'exchange':
      return `exchange ${n(e.request.datagram)}>${e.responses.map((r) => n(r.datagram)).join('+')}`;
    case 'unanswered':
      return `unanswered ${n(e.request.datagram)}`;
    case 'overflow':
      return `overflow ${n(e.request.datagram)}`;
    case 'unmatched':
      return `unmatched ${n(e.datagram)}`;
    case 'duplicate':
      return `duplicate ${n(e.response.datagram)}=${n(e.original.datagram)}@${n(e.of.datagram)}`;
    case 'undecodable':
      return `undecodable ${n(e.datagram)}`;
  }
}

/** Every input datagram appears in exactly one event, and nothing else does. */
export function expectAccounted<M>(input: readonly Datagram<M>[], events: readonly PairingEvent<M>[]): void {
  const out = events.flatMap(datagramsOf);
  const seen = new Set(out);
  expect(out.length).toBe(input.length);
  expect(seen.size).toBe(out.length);
  expect(input.filter((d) => !seen.has(d))).toEqual([]);
}

/** Runs datagrams through the operator on the datagram clock; checks the accounting. */
export function pairAll(datagrams: readonly Named[], options?: PairingOptions): PairingEvent<string>[] {
  const events: PairingEvent<string>[] = [];
  from(datagrams)
    .pipe(pairQueries<string>(options))
    .subscribe({ next: (e) => events.push(e) });
  expectAccounted(datagrams, events);
  return events;
}

/** The summaries of {@link pairAll}. */
export const pairSummaries = (datagrams: readonly Named[], options?: PairingOptions): string[] => pairAll(datagrams, options).map(summary);

/** The one event of a kind in a list, typed. */
export function only<K extends PairingEvent<string>['kind']>(
  events: readonly PairingEvent<string>[],
  kind: K,
): Extract<PairingEvent<string>, { kind: K }> {
  const hits = events.filter((e) => e.kind === kind);
  expect(hits).toHaveLength(1);
  return hits[0] as Extract<PairingEvent<string>, { kind: K }>;
}
