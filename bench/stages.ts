/**
 * `pnpm bench stages`: what each stage of `gamequery dissect FILE -F ndjson` costs on its own,
 * in this process, on the benchmark's real-mix capture (bench/traffic.ts): the ceiling each
 * stage puts on the whole, and what is left for the others under the floor.
 *
 *   read      the capture's records, from bytes already in memory (no I/O)
 *   udp       link, IP (fragments reassembled) and UDP headers down to the payload
 *   pass 1    the first pass whole (pairing/first-pass.ts): udp, measure, pairing, facts
 *   tree      the codec's compiled JSON emitter alone, on payloads decoded beforehand
 *   line      a record's NDJSON line around its tree (endpoints, links, times), copied out
 *   whole     the two passes and the lines, in process, output thrown away
 *
 * Each stage runs over every frame of the capture, three rounds, the best kept (CPU time of
 * this process: other load on the machine inflates wall time, not this). The stages are not
 * disjoint (pass 1 holds a udp; the line holds nothing but needs a record made); "whole" is
 * what they add up to.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recognize, type Layout } from '@gamequery/codec';
import { ByteSink, internals } from '@gamequery/codec/internal';
import { newStats, readCaptureSync, type CaptureItem } from '@gamequery/dissect';
import { writePacketLine } from '@gamequery/dissect/internal';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { FirstPass } from '../packages/dissect/src/pairing/first-pass.ts';
import { UdpDecoder } from '../packages/dissect/src/net/decoder.ts';
import { formatRate } from './harness.ts';
import { generateTraffic } from './traffic.ts';

type Frame = Extract<CaptureItem, { kind: 'packet' }>;

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The best of `rounds` runs of `run` over `units` units, in units per second of CPU time. */
async function best(units: number, run: () => void | Promise<void>, rounds = 3): Promise<number> {
  let fastest = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t = cpuMs();
    await run();
    fastest = Math.min(fastest, cpuMs() - t);
  }
  return units / (fastest / 1000);
}

export async function benchStages(options: { frames: number; seed: number; floor: number }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-stages-'));
  try {
    const file = join(dir, 'capture.pcap');
    const fd = openSync(file, 'w');
    try {
      for (const chunk of generateTraffic({ frames: options.frames, rate: 1, seed: options.seed })) writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    const bytes = new Uint8Array(readFileSync(file));
    console.log(
      `\nDissector stages, each alone in this process (CPU time, best of 3), on ${options.frames} real-mix frames (seed ${options.seed}):`,
    );

    const frames: Frame[] = [];
    for (const item of readCaptureSync(bytes)) if (item.kind === 'packet') frames.push(item);
    const read = await best(frames.length, () => {
      let n = 0;
      for (const item of readCaptureSync(bytes)) if (item.kind === 'packet') n++;
      if (n !== frames.length) throw new Error('the capture read differently twice');
    });

    const payloads: Uint8Array[] = [];
    const layouts: Layout<unknown>[] = [];
    {
      const udp = new UdpDecoder();
      for (const f of frames) {
        const d = udp.decode(f);
        if (d.kind !== 'udp' || d.truncated) continue;
        // Minecraft replies carry no magic: the port the generator's servers use tells them.
        const hint = d.src.port === 25565 ? { protocol: 'mcquery' as const, direction: 'response' as const } : {};
        try {
          payloads.push(d.payload);
          layouts.push(recognize(d.payload, hint).layout as Layout<unknown>);
        } catch {
          payloads.pop();
        }
      }
    }
    const udp = await best(frames.length, () => {
      const decoder = new UdpDecoder();
      for (const f of frames) decoder.decode(f);
      decoder.finish();
    });
    const pass1 = await best(frames.length, () => {
      const links = new FirstPass({ timeoutMs: 5000 });
      for (const f of frames) links.push(f);
      links.finish();
    });
    const sink = new ByteSink(1 << 22);
    const tree = await best(payloads.length, () => {
      for (let i = 0; i < payloads.length; i++) {
        internals(layouts[i]!).emitJsonWithWarnings(payloads[i]!, sink);
        if (sink.at > (1 << 22) - 131072) sink.at = 0;
      }
      sink.at = 0;
    });

    // Whole, and the lines alone: records made once (held), then written again and again.
    const wholeRate = await best(frames.length, async () => {
      for await (const b of dissectCaptureFile(file, { reuseBuffers: true }, newStats())) {
        for (const p of b.packets) {
          writePacketLine(p, sink);
          sink.at = 0;
        }
      }
    });
    const held: Parameters<typeof writePacketLine>[0][] = [];
    for await (const b of dissectCaptureFile(file, {}, newStats())) {
      for (const p of b.packets) if (held.length < 100_000) held.push(p);
    }
    const line = await best(held.length, () => {
      for (const p of held) {
        writePacketLine(p, sink);
        sink.at = 0;
      }
    });

    const rows: [string, number, number][] = [
      ['read (records from memory)', read, frames.length],
      ['udp (headers, reassembly)', udp, frames.length],
      ['pass 1 (udp, measure, pairing, facts)', pass1, frames.length],
      ['tree (compiled JSON emitter alone)', tree, payloads.length],
      ["line (a record's NDJSON around its tree)", line, held.length],
    ];
    const budget = 1e9 / options.floor;
    for (const [name, rate] of rows) {
      const ns = 1e9 / rate;
      console.log(`  ${name.padEnd(44)} ${formatRate(rate).padStart(9)} /s  ${ns.toFixed(0).padStart(6)} ns a packet`);
    }
    // What one packet of the ndjson output costs, stage by stage: pass 2 reads and decodes the frame again.
    const sum = 1e9 / read + 1e9 / pass1 + 1e9 / read + 1e9 / udp + 1e9 / tree + 1e9 / line;
    console.log(
      `  ${'whole, in process (output thrown away)'.padEnd(44)} ${formatRate(wholeRate).padStart(9)} /s  ${(1e9 / wholeRate).toFixed(0).padStart(6)} ns a packet`,
    );
    console.log(
      `  sum of the stages a packet passes (read twice, pass 1, udp, tree, line): ${sum.toFixed(0)} ns, a ceiling of ${formatRate(1e9 / sum)} packets/s`,
    );
    console.log(
      `  the floor of ${formatRate(options.floor)} packets/s leaves ${budget.toFixed(0)} ns a packet; tree JSON alone takes ${(1e9 / tree).toFixed(0)} ns of it`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
