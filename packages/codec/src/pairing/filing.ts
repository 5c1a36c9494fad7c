/**
 * Where the pairer files a pending request and how it finds the one a reply answers: each
 * request under its exact and loose keys (`Filed`), the protocol's rule as a matcher made
 * once per protocol (no closure per lookup), and the searches over pending and remembered
 * requests, oldest or newest first. Moved out of pairer.ts unchanged: the pairer calls these
 * per datagram exactly as it did.
 */
import type { Protocol, QueryLayout } from '../grammar/layout.ts';
import { FifoIndex, type Match } from './collections.ts';
import type { ExchangeMemory, Outcome } from './memory.ts';
import { collected, keyRules, sameEndpoint, type Filed as FiledRequest, type Keys } from './rules.ts';
import type { Datagram } from './types.ts';

/** Items filed under their exact and loose keys. */
export class Filed<T extends { readonly keys: Keys; done: boolean }> {
  readonly exact = new FifoIndex<T>();
  readonly loose = new FifoIndex<T>();

  add(item: T): void {
    const keys = item.keys;
    const half = keys.length >> 1;
    for (let i = 0; i < half; i++) this.exact.add(keys[i]!, item);
    for (let i = half; i < keys.length; i++) this.loose.add(keys[i]!, item);
  }

  /** Call once `item.done` is set. */
  release(item: T): void {
    const keys = item.keys;
    const half = keys.length >> 1;
    for (let i = 0; i < half; i++) this.exact.release(keys[i]!);
    for (let i = half; i < keys.length; i++) this.loose.release(keys[i]!);
  }

  clear(): void {
    this.exact.clear();
    this.loose.clear();
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

export type Side = 'exact' | 'loose';

/** What lookups see of a filed request: its identity and whether it is still pending. */
export interface Staged extends FiledRequest {
  readonly outcome: Outcome | undefined;
}

/** Per side, whether a pending request is the one a reply answers. */
type Matchers = Record<Side, Match<Staged, Datagram>>;

/** A protocol's matchers: its rule's identity of a pending request, made once (no closure per lookup). */
export const matchers = Object.fromEntries(
  Object.entries(keyRules).map(([protocol, rule]) => [
    protocol,
    {
      exact: (r, d) => r.outcome === undefined && rule.exact(r, d),
      loose: (r, d) => r.outcome === undefined && rule.loose(r, d),
    } satisfies Matchers,
  ]),
) as Record<Protocol, Matchers>;

/** Where the keys of one side start and end: the exact half of a request's keys, then the loose half. */
export const sideStart = (keys: Keys, side: Side): number => (side === 'exact' ? 0 : keys.length >> 1);
export const sideEnd = (keys: Keys, side: Side): number => (side === 'exact' ? keys.length >> 1 : keys.length);

/** The oldest live request filed under one of `keys` (of `side`) that `match` accepts for the reply `d`. */
export const firstUnder = <T extends Staged & { done: boolean }>(
  index: FifoIndex<T>,
  keys: Keys,
  side: Side,
  match: Match<Staged, Datagram>,
  d: Datagram,
): T | undefined => {
  for (let i = sideStart(keys, side); i < sideEnd(keys, side); i++) {
    const hit = index.first(keys[i]!, match, d);
    if (hit) return hit;
  }
  return undefined;
};

/** Finished requests remembered under one of `keys` (of `side`) whose request `d` answers, newest first. */
export function* rememberedUnder<M>(
  memory: ExchangeMemory<M>,
  protocol: Protocol,
  keys: Keys,
  side: Side,
  d: Datagram,
): Generator<number, void> {
  const rule = keyRules[protocol];
  const test = side === 'exact' ? rule.exact : rule.loose;
  for (let i = sideStart(keys, side); i < sideEnd(keys, side); i++) yield* memory.newestUnder(keys[i]!, side === 'exact', d, test);
}

export const newestRemembered = <M>(memory: ExchangeMemory<M>, protocol: Protocol, keys: Keys, side: Side, d: Datagram): number => {
  for (const n of rememberedUnder(memory, protocol, keys, side, d)) return n;
  return -1;
};

/** A pending request byte for byte the same as `d`, from the same client to the same server. */
export const identical = (r: Staged, d: Datagram): boolean =>
  r.outcome === undefined &&
  sameEndpoint(r.datagram.from, d.from) &&
  sameEndpoint(r.datagram.to, d.to) &&
  sameBytes(r.datagram.bytes, d.bytes);

/** An RCON command seen as the reply its predecessor's lines would be: the same conversation, turned round. */
export const turnedRound = <M>(d: Datagram<M>): Datagram<M> => ({ bytes: d.bytes, from: d.to, to: d.from, time: d.time });

/** Whether a request's layout collects replies until a quiet period (RCON); answered once per layout. */
const collecting = new Map<QueryLayout, boolean>();
export const collects = (layout: QueryLayout): boolean => {
  let yes = collecting.get(layout);
  if (yes === undefined) collecting.set(layout, (yes = collected.has(`${layout.protocol}.${layout.message}`)));
  return yes;
};
