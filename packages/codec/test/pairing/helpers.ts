/**
 * Datagram builders and event summaries for the pairing tests. Every datagram carries a
 * name as its `meta`, so an event reads as a short string: `exchange q>r1+r2`.
 */
import { expect } from 'vitest';
import { from } from 'rxjs';
import { fromHex, samp } from '@gamequery/codec';
import { pairQueries, type Datagram, type Endpoint, type PairingEvent, type PairingOptions } from '@gamequery/codec/rx';
import {
  CapturePairer,
  DECODED,
  Endpoints,
  RAW,
  RESPONSE,
  Why,
  isUnmatched,
  kindOf,
  layoutAt,
  layoutOf,
  namedOf,
  unansweredReason,
  unmatchedReason,
  whyOf,
} from '@gamequery/codec/internal';
import { loadVectors } from '../helpers/vectors.ts';

export const client: Endpoint = { address: '192.0.2.10', port: 50123 };
export const otherClient: Endpoint = { address: '192.0.2.11', port: 50124 };
/** The address the SA:MP/VC:MP test vectors' headers name. */
export const sampServer: Endpoint = { address: '127.0.0.1', port: 7777 };
export const vcmpServer: Endpoint = { address: '127.0.0.1', port: 8192 };
export const mcServer: Endpoint = { address: '127.0.0.1', port: 25565 };

/** A SA:MP server's address as its queries carry it, and a 3-player `i` reply from it: what most pairing tests exchange. */
export const sampAt = { serverIp: '127.0.0.1', serverPort: 7777 };
export const sampInfo = samp.infoResponse.encode({
  ...sampAt,
  password: false,
  players: 3,
  maxPlayers: 50,
  hostname: 'Test',
  gamemode: 'DM',
  language: 'EN',
});

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

/**
 * Runs datagrams through the operator on the datagram clock; checks the accounting, and
 * that the capture pairer (the same rules on numbers) says the same of every datagram.
 */
export function pairAll(datagrams: readonly Named[], options?: PairingOptions): PairingEvent<string>[] {
  const events = pairLive(datagrams, options);
  // Without a maxPending limit (the capture pairer has none: it drops nothing).
  if (options?.maxPending === undefined) expect(captureVerdicts(datagrams, options)).toEqual(verdicts(events));
  return events;
}

/**
 * The operator's events alone, accounted for: where the capture pairer says otherwise by
 * design (a server's malformed reply, which the operator cannot give as a decoded value), a
 * test checks {@link captureVerdicts} itself.
 */
export function pairLive(datagrams: readonly Named[], options?: PairingOptions): PairingEvent<string>[] {
  const events: PairingEvent<string>[] = [];
  from(datagrams)
    .pipe(pairQueries<string>(options))
    .subscribe({ next: (e) => events.push(e) });
  expectAccounted(datagrams, events);
  return events;
}

/** Each event's summary and reason, sorted (the pairers say them in different orders). */
const verdicts = (events: readonly PairingEvent<string>[]): string[] =>
  events.map((e) => `${summary(e)}${'reason' in e ? ` (${e.reason})` : ''}${'ambiguous' in e && e.ambiguous ? ' ambiguous' : ''}`).sort();

/** An address as the capture pairer reads it (IPv4 in one word, IPv6 in four). */
function words(address: string): { v6: boolean; words: number[] } {
  if (!address.includes(':')) return { v6: false, words: [address.split('.').reduce((w, x) => ((w << 8) | Number(x)) >>> 0, 0)] };
  const [head, tail = ''] = address.split('::');
  const a = head ? head.split(':') : [];
  const b = tail ? tail.split(':') : [];
  const groups = [...a, ...Array<string>(8 - a.length - b.length).fill('0'), ...b].map((g) => parseInt(g, 16));
  return { v6: true, words: [0, 1, 2, 3].map((i) => ((groups[2 * i]! << 16) | groups[2 * i + 1]!) >>> 0) };
}

/**
 * What the capture pairer says of the datagrams, as {@link verdicts} writes the live
 * pairer's events: frames numbered in order, every verdict read from the frame facts.
 */
export function captureVerdicts(datagrams: readonly Named[], options: PairingOptions = {}): string[] {
  const pairer = new CapturePairer({
    timeoutMs: options.timeoutMs ?? 1000,
    ...(options.rconQuietMs !== undefined ? { rconQuietMs: options.rconQuietMs } : {}),
    ...(options.duplicateWindowMs !== undefined ? { duplicateWindowMs: options.duplicateWindowMs } : {}),
    ...(options.tokenLifetimeMs !== undefined ? { tokenLifetimeMs: options.tokenLifetimeMs } : {}),
  });
  const e = new Endpoints();
  datagrams.forEach((d, i) => {
    const from = words(d.from.address);
    const to = words(d.to.address);
    e.v6 = from.v6;
    from.words.forEach((w, k) => (e.src[k] = w));
    to.words.forEach((w, k) => (e.dst[k] = w));
    e.srcPort = d.from.port;
    e.dstPort = d.to.port;
    pairer.datagram(i + 1, Number(d.time), true, d.bytes, false, e);
  });
  pairer.flush();
  const facts = pairer.facts;
  // The end of the input settles everything: no request waits, and every frame's facts are final.
  expect(pairer.held.waiting, 'requests still waiting after the end').toBe(0);
  datagrams.forEach((d, i) => expect(facts.isFinal(i + 1), `${d.meta} (frame ${i + 1}) final after the end`).toBe(true));
  const name = (frame: number): string => datagrams[frame - 1]?.meta ?? '?';
  const o = { timeoutMs: options.timeoutMs ?? 1000, rconQuietMs: options.rconQuietMs ?? 500 };
  const out: string[] = [];
  // Each request's replies, in frame order.
  const replies = new Map<number, number[]>();
  datagrams.forEach((_, i) => {
    const info = facts.info(i + 1);
    if (info & RESPONSE && kindOf(info) === DECODED && whyOf(info) === Why.none) {
      const list = replies.get(facts.link(i + 1)) ?? [];
      list.push(i + 1);
      replies.set(facts.link(i + 1), list);
    }
  });
  datagrams.forEach((d, i) => {
    const frame = i + 1;
    const info = facts.info(frame);
    const why = whyOf(info);
    const ambiguous = info & 0x10 ? ' ambiguous' : '';
    if (kindOf(info) === RAW) {
      out.push(
        why === Why.noRequest
          ? `unmatched ${name(frame)} (no Minecraft query request pending in this conversation)`
          : `undecodable ${name(frame)}`,
      );
      return;
    }
    if (kindOf(info) !== DECODED) throw new Error(`frame ${frame} has no facts`);
    const layout = layoutAt(layoutOf(info));
    if (!(info & RESPONSE)) {
      const unanswered = unansweredReason(why, layout, o);
      if (unanswered !== undefined) {
        out.push(`unanswered ${name(frame)} (${unanswered})${ambiguous}`);
        return;
      }
      out.push(`exchange ${name(frame)}>${(replies.get(frame) ?? []).map(name).join('+')}${ambiguous}`);
      return;
    }
    if (why === Why.duplicate) {
      out.push(`duplicate ${name(frame)}=${name(facts.time(frame))}@${name(facts.link(frame))}`);
      return;
    }
    if (isUnmatched(why)) {
      const named = namedOf(info);
      const reason = unmatchedReason(
        why,
        { bytes: d.bytes, layout, from: d.from, lateNs: Number(d.time) - facts.time(frame), named: named ? layoutAt(named) : undefined },
        o,
      );
      out.push(`unmatched ${name(frame)} (${reason})`);
    }
  });
  return out.sort();
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
