/**
 * End to end: a generated capture → the dissector → NDJSON, in packets per second; tshark
 * reading the same file in the same run as the reference; and peak RSS on a capture of
 * 500 MB generated on the fly (flat memory).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dissector, dissectCapture, packetLine } from '@gamequery/dissect';
import { exportWireshark } from '@gamequery/codec/export';
import { generateCapture } from './capture-gen.ts';
import { formatRate } from './harness.ts';

async function ndjson(chunks: Iterable<Uint8Array>): Promise<{ packets: number; bytesOut: number; seconds: number }> {
  const dissector = new Dissector();
  const start = process.hrtime.bigint();
  let packets = 0;
  let bytesOut = 0;
  for await (const item of dissectCapture(chunks, {}, dissector)) {
    if (item.kind !== 'packet') throw new Error(item.message);
    // The line `gamequery dissect -F ndjson` writes.
    bytesOut += packetLine(item.packet).length + 1;
    packets++;
  }
  return { packets, bytesOut, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

export async function benchDissect(options: { packets: number; bigBytes: number }): Promise<void> {
  console.log(`\nDissector end to end: generated capture → NDJSON (${options.packets} packets, all three protocols)`);
  const dir = mkdtempSync(join(tmpdir(), 'gamequery-bench-'));
  try {
    const chunks = [...generateCapture({ packets: options.packets })];
    const file = join(dir, 'bench.pcap');
    writeFileSync(file, Buffer.concat(chunks));
    const ours = await ndjson(chunks);
    console.log(`  gamequery dissect → NDJSON                    ${formatRate(ours.packets / ours.seconds).padStart(12)} packets/s   (${ours.packets} packets in ${ours.seconds.toFixed(2)} s)`);
    const tshark = spawnSync('tshark', ['--version'], { encoding: 'utf8' });
    if (tshark.status === 0) {
      const plugin = join(dir, 'gamequery.lua');
      writeFileSync(plugin, exportWireshark());
      const runs: [string, string[]][] = [
        ['tshark, no plugin (summary lines)', ['-r', file]],
        ['tshark, no plugin, -T json', ['-r', file, '-T', 'json']],
        ['tshark + our Lua plugin (summary lines)', ['-X', `lua_script:${plugin}`, '-r', file]],
        ['tshark + our Lua plugin, -T json', ['-X', `lua_script:${plugin}`, '-r', file, '-T', 'json']],
      ];
      for (const [name, args] of runs) {
        const t0 = process.hrtime.bigint();
        const r = spawnSync('tshark', args, { stdio: ['ignore', 'ignore', 'ignore'] });
        const s = Number(process.hrtime.bigint() - t0) / 1e9;
        if (r.status !== 0) { console.log(`  ${name} failed (exit ${r.status})`); continue; }
        const rate = ours.packets / s;
        console.log(`  ${name.padEnd(44)} ${formatRate(rate).padStart(12)} packets/s   ours is ${(ours.packets / ours.seconds / rate).toFixed(2)}× this`);
      }
    } else {
      console.log('  tshark not installed: no reference figure');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
  const big = await ndjson(generateCapture({ bytes: options.bigBytes }));
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`  ${(options.bigBytes / 2 ** 20).toFixed(0)} MiB capture generated on the fly: ${big.packets} packets, ${formatRate(big.packets / big.seconds)} packets/s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB (${(rssBefore / 2 ** 20).toFixed(0)} MiB before)`);
}
