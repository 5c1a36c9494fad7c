/**
 * `pnpm bench faults`: the query client through a fault proxy, and the emulator under a
 * flood. Figures, not speed: how many queries come back right, partial or failed (and
 * why) at 0–30 % loss with duplicates, reordering, delay, truncation and forged replies
 * from wrong sources mixed in — and how many come back wrong (must be 0). Then one
 * loopback source floods an emulator with the default per-source limits while a second
 * source keeps asking, and the reply bytes the flood gets back are measured.
 *
 * The fleet, the proxy, the judging and the flood are the tests' own
 * (packages/codec/test/node/faults.ts, proxy.ts, flood.ts), at a larger size.
 */
import { samp } from '@gamequery/codec';
import { defaultLimits, type QueryClientOptions } from '@gamequery/codec/node';
import { failures, runFaults, startTestbed, type RunFaults } from '../packages/codec/test/node/faults.ts';
import { flood } from '../packages/codec/test/node/flood.ts';

export interface FaultBenchOptions {
  /** Servers behind the proxy (the four flavors in turn). Default 200. */
  readonly servers?: number;
  /** Loss rates, each direction. Default 0, 10, 20, 30 %. */
  readonly drops?: readonly number[];
  /** Seconds of each flood. Default 5. */
  readonly floodSeconds?: number;
}

/** Everything but the loss, in every row. */
const MIXED: RunFaults = { duplicate: 0.1, reorder: 0.1, delayMs: [0, 10], truncate: 0.05, spoof: 0.1, wrongSource: 0.1, crossTalk: 0.1 };
const CLIENT: QueryClientOptions = { timeoutMs: 250, retries: 4, backoffMs: 20, maxBackoffMs: 200 };
const DEFAULT_CLIENT: QueryClientOptions = { timeoutMs: 250 };

const pct = (x: number): string => `${Math.round(x * 100)}%`;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

export async function benchFaults(options: FaultBenchOptions = {}): Promise<void> {
  const size = options.servers ?? 200;
  const drops = options.drops ?? [0, 0.1, 0.2, 0.3];
  console.log(
    `\nNetwork faults: ${size} emulated servers (SA-MP 0.3.7, open.mp, VC:MP, Minecraft in turn) behind a fault proxy on loopback`,
  );
  console.log(
    `  every row also: ${pct(MIXED.duplicate!)} duplicated, ${pct(MIXED.reorder!)} reordered, ${MIXED.delayMs![0]}–${MIXED.delayMs![1]} ms delay, ` +
      `${pct(MIXED.truncate!)} of replies truncated, ${pct(MIXED.spoof!)} of requests answered first by a forged reply ` +
      `(from 127.0.0.2 on the server's port, or another port), ${pct(MIXED.wrongSource!)} copies from 127.0.0.2, ${pct(MIXED.crossTalk!)} from other servers' ports`,
  );
  console.log('  a query = the full query of a server (SA:MP i r o + d/c, VC:MP i c, Minecraft handshake + full stat), or a `p` ping');
  const bed = await startTestbed(size);
  try {
    const rows: Array<[string, QueryClientOptions, number]> = [
      ...drops.map((d): [string, QueryClientOptions, number] => [`${pct(d)} loss, timeout 250 ms, 4 retries`, CLIENT, d]),
      [`${pct(Math.max(...drops))} loss, timeout 250 ms, 2 retries (default)`, DEFAULT_CLIENT, Math.max(...drops)],
    ];
    console.log(
      `  ${'run'.padEnd(46)} ${'queries'.padStart(7)} ${'complete'.padStart(8)} ${'partial'.padStart(7)} ${'failed'.padStart(6)} ${'mismatched'.padStart(10)} ${'misattributed'.padStart(13)}   time`,
    );
    for (const [label, client, drop] of rows) {
      const r = await runFaults(bed, { ...MIXED, drop, seed: 1000 + Math.round(drop * 100) }, client);
      const t = r.tally;
      console.log(
        `  ${label.padEnd(46)} ${String(t.queries).padStart(7)} ${String(t.complete).padStart(8)} ${String(t.partial).padStart(7)} ` +
          `${String(failures(t)).padStart(6)} ${String(t.mismatched).padStart(10)} ${String(t.misattributed).padStart(13)}   ${r.seconds.toFixed(1)} s`,
      );
      for (const [reason, n] of t.failed) console.log(`      failed ${n} × ${reason}`);
      for (const [note, n] of t.notes) console.log(`      partial: ${n} × ${note}`);
      for (const e of t.examples) console.log(`      MISMATCH ${e}`);
      const p = r.proxy;
      const c = r.client;
      console.log(
        `      proxy: ${p.dropped} dropped, ${p.duplicated} duplicated, ${p.reordered} reordered, ${p.truncated} truncated, ` +
          `${p.spoofed.otherAddress + p.spoofed.otherPort} forged, ${p.wrongSource + p.crossTalk} copies; client: ${c.sent} sent (${c.retries} retries), ` +
          `${c.unmatched} unmatched and ${c.duplicates} duplicate replies set aside, ${c.undecodable} undecodable, ${c.truncated} cut lists resent`,
      );
    }
  } finally {
    await bed.close();
  }

  const seconds = options.floodSeconds ?? 5;
  const l = defaultLimits;
  console.log(
    `\nEmulator flood: ${seconds} s of 3000 requests/s from 127.0.0.1 to one SA-MP 0.3.7 server with 100 players; ` +
      `default limits (${l.requestsPerSecond} requests/s, ${kb(l.bytesPerSecond)}/s, bursts ${l.requestBurst} and ${kb(l.byteBurst)}); ` +
      '127.0.0.2 asks `i` every 50 ms meanwhile',
  );
  for (const [name, build] of [
    ['`d`', (p: number) => samp.playersRequest.encode({ serverIp: '127.0.0.1', serverPort: p })],
    ['`i`', (p: number) => samp.infoRequest.encode({ serverIp: '127.0.0.1', serverPort: p })],
  ] as const) {
    const f = await flood({ request: build, durationMs: seconds * 1000, rate: 3000 });
    const each = f.replies ? f.replyBytes / f.replies : 0;
    const request = f.requestBytes / f.requests;
    console.log(
      `  flood of ${name} (${request}-byte requests, ${each}-byte replies: ${(each / request).toFixed(1)}× unlimited): ` +
        `${f.requests} requests (${kb(f.requestBytes)}), ${f.received} received by the emulator, ` +
        `${f.rateLimited} over the request rate, ${f.byteCapped} replies over the byte budget`,
    );
    console.log(
      `      back to the flooding source: ${f.replies} replies, ${kb(f.replyBytes)} = ${f.amplification.toFixed(3)} reply bytes per request byte, ` +
        `${kb(f.replyBytesPerSecond)}/s over ${f.seconds.toFixed(1)} s (allowed: ${kb(f.allowedBytes)}, ${Math.floor(f.allowedRequests)} requests)`,
    );
    console.log(`      second source: ${f.polite.answered} of ${f.polite.asked} answered`);
  }
}
