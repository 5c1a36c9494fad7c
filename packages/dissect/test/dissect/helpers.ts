import { readdirSync, readFileSync } from 'node:fs';
import {
  dissectCapture,
  readCaptureSync,
  type DissectedRecord,
  type DissectItem,
  type DissectOptions,
  type PacketRecord,
  type DissectStats,
  type CaptureError,
  Dissector,
} from '@gamequery/dissect';
import { fixture, writePcap } from '../capture/helpers.ts';
import type { ListedBy } from '../../src/frame-record.ts';

export const captures = new URL('../fixtures/captures/', import.meta.url).pathname;
export const hexFixtures = new URL('../fixtures/hex/', import.meta.url).pathname;

/**
 * The class the dissector makes its packets' records of (not exported: `PacketRecord` is the API). Tests that read
 * what only it has (its shared `kind`) take the records as it.
 */
export type { Packet } from '../../src/packet-record.ts';

/** Every committed capture file (pcap and pcapng), by name. */
export const captureFiles: readonly string[] = readdirSync(captures)
  .filter((f) => /\.pcap(ng)?$/.test(f))
  .sort();

/** Options that list query packets only (no `allFrames`), for which the dissector's records are `PacketRecord`s. */
export type PacketOptions = DissectOptions & { readonly allFrames?: false };

/** What {@link dissectBytes} gives: the packets, the capture errors and the dissector's stats. */
export interface Dissected<R extends DissectedRecord> {
  packets: R[];
  errors: CaptureError[];
  stats: DissectStats;
}

/** {@link dissectBytes} of a file's bytes. */
export async function dissectFile<A extends boolean = false>(
  file: string,
  options: DissectOptions & { readonly allFrames?: A } = {},
  chunk = 1 << 16,
): Promise<Dissected<ListedBy<A>>> {
  return dissectBytes(readFileSync(file), options, chunk);
}

/**
 * A capture's bytes dissected as a stream of `chunk`-byte pieces: its packets, errors and the dissector's stats.
 * Query packets only, unless `options` may ask for every frame (`allFrames`), as the library lists them.
 */
export async function dissectBytes<A extends boolean = false>(
  bytes: Uint8Array,
  options: DissectOptions & { readonly allFrames?: A } = {},
  chunk = 1 << 16,
): Promise<Dissected<ListedBy<A>>> {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  const dissector = new Dissector<ListedBy<A>>(options);
  const items: DissectItem<ListedBy<A>>[] = [];
  for await (const item of dissectCapture(chunks, options, dissector)) items.push(item);
  const packets = items.flatMap((i) => (i.kind === 'packet' ? [i.packet] : []));
  const errors = items.flatMap((i) => (i.kind === 'error' ? [i] : []));
  return { packets, errors, stats: dissector.stats };
}

/** Captures of whole query rounds: every request answered. */
export const complete = [
  'lo-us.pcap',
  'lo-ns.pcap',
  'lo.pcapng',
  'lo-any.pcapng',
  'any-sll.pcap',
  'any-sll2.pcap',
  'lo-us.editcap.pcapng',
  'two-sections.pcapng',
  'veth-frag.pcap',
  'veth-frag.rawip.pcap',
  'lo-v4.rawip4.pcap',
  'lo-v6.rawip6.pcap',
];

/** tshark's view of a capture, from the committed `-T fields` output. */
export function tsharkRows(file: string): Map<number, Record<string, string>> {
  const [head, ...lines] = readFileSync(`${file}.tshark.tsv`, 'utf8').trimEnd().split('\n');
  const names = head!.split('\t');
  return new Map(
    lines.map((l) => {
      const cells = l.split('\t');
      const row = Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
      return [Number(row['frame.number']), row];
    }),
  );
}

/** Exact difference of two decimal second strings, with `decimals` digits. */
export function decimalDifference(later: string, earlier: string, decimals: number): string {
  const scale = (s: string) => {
    const [i, f = ''] = s.split('.');
    return BigInt(i!) * 10n ** BigInt(decimals) + BigInt((f + '0'.repeat(decimals)).slice(0, decimals) || '0');
  };
  const d = scale(later) - scale(earlier);
  const neg = d < 0n;
  const abs = (neg ? -d : d).toString().padStart(decimals + 1, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -decimals)}.${abs.slice(-decimals)}`;
}

export const requests = (ps: PacketRecord[]) => ps.filter((p) => p.direction === 'request');

/**
 * An exchange tcpdump saved in lo-us.pcap, re-timed: the request at 0, then its reply at
 * each of `replyAtUs` (microseconds), as a network that delays or duplicates packets
 * delivers it. By default the first (SA:MP info, frames 1–2); `request` is the request's
 * frame number, its reply the next frame. A classic pcap, Ethernet.
 */
export function retimedExchange(replyAtUs: readonly number[], request = 1): Uint8Array {
  const frames = [...readCaptureSync(fixture('lo-us.pcap'))].flatMap((item) => (item.kind === 'packet' ? [item.data] : []));
  const reply = frames[request];
  const base = 1_795_346_153;
  const at = (us: number, data: Uint8Array) => ({ seconds: base + Math.floor(us / 1e6), ticks: us % 1e6, data });
  return writePcap([at(0, frames[request - 1]!), ...replyAtUs.map((us) => at(us, reply!))], { linkType: 1 });
}
