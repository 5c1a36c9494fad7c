import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  captureStart,
  dissectHexDump,
  isFrameRecord,
  newStats,
  packetJson,
  packetText,
  type DissectOptions,
  type DissectedRecord,
  type PacketRecord,
  type RenderOptions,
} from '@gamequery/dissect';
import type { Timestamp } from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { cliArgs, root, runSync as run } from './cli.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
const hex = `${root}packages/dissect/test/fixtures/hex/`;
const captureFiles = readdirSync(captures)
  .filter((f) => /\.pcap(ng)?$/.test(f))
  .sort();

const FIELDS = ['samp.info.hostname', 'samp.info.players', 'samp.player.name', 'samp.response_in', 'mcquery.full.kv', 'mcquery.time'];
const fieldArgs = FIELDS.flatMap((f) => ['-e', f]);

/**
 * What `gamequery dissect -F text` prints, from the library's renderer: each frame's lines (a
 * query packet's with the layers under it, as -V), a blank line between frames.
 */
const text = (packets: readonly DissectedRecord[], render: RenderOptions, start?: Timestamp | null): string =>
  packets.map((p) => `${packetText(p, { ...render, layers: true }, start)}\n`).join('\n');

/** A capture's frames (every one, as text lists them), its first frame's time, and what the command says of a damaged one on stderr. */
async function dissected(
  file: string,
  options: DissectOptions,
): Promise<{ packets: DissectedRecord[]; start: Timestamp | null | undefined; stderr: string }> {
  const packets: DissectedRecord[] = [];
  const stats = newStats();
  let stderr = '';
  for await (const batch of dissectCaptureFile(file, { ...options, allFrames: true }, stats)) {
    packets.push(...batch.packets);
    // Naming the file, as the command names one it reads.
    if (batch.error) stderr += `gamequery: ${file}: ${batch.error.message}\n`;
  }
  return { packets, start: captureStart(stats), stderr };
}

const records = async (file: string, options: DissectOptions) => await dissected(file, options);

/** `gamequery dissect FILE ARGS…`'s stdout, and that it exited as a capture with no error does (a damaged one: 2, as tshark). */
function dissect(file: string, args: readonly string[], stderr = ''): string {
  const r = run('dissect', file, ...args);
  expect(r.stderr).toBe(stderr);
  expect(r.status).toBe(stderr ? 2 : 0);
  return r.stdout;
}

describe('gamequery dissect -F text', () => {
  it.each(captureFiles)(
    '%s: prints the text packetText gives',
    async (name) => {
      const file = `${captures}${name}`;
      const { packets, start, stderr } = await dissected(file, {});
      expect(packets.some(isFrameRecord) || name !== 'dns-lo.pcap').toBe(true);
      expect(dissect(file, ['-F', 'text'], stderr)).toBe(text(packets, {}, start));
    },
    60_000,
  );

  it.each(['lo-us.pcap', 'veth-frag.pcap', 'lo-any.pcapng'])(
    '%s: with -x, -e and --show-secrets, in text and JSON, as before',
    async (name) => {
      const file = `${captures}${name}`;
      const masked = await records(file, {});
      const clear = await records(file, { showSecrets: true });
      expect(dissect(file, ['-F', 'text', '-x'])).toBe(text(masked.packets, { hex: true }, masked.start));
      expect(dissect(file, ['-F', 'text', ...fieldArgs])).toBe(text(masked.packets, { fields: FIELDS }, masked.start));
      expect(dissect(file, ['-F', 'text', '-x', '--show-secrets', ...fieldArgs])).toBe(
        text(clear.packets, { hex: true, showSecrets: true, fields: FIELDS }, clear.start),
      );
      // JSON lists the query packets only.
      const games = masked.packets.filter((p): p is PacketRecord => !isFrameRecord(p));
      expect(dissect(file, ['-F', 'ndjson', ...fieldArgs])).toBe(
        games.map((p) => `${JSON.stringify(packetJson(p, { fields: FIELDS }))}\n`).join(''),
      );
    },
    60_000,
  );

  it("prints a hex dump's packets, an RCON password masked and shown, as before", () => {
    const file = `${hex}samp-clients-40.xxd.txt`;
    const packets = () => dissectHexDump(readFileSync(file, 'utf8')).packets;
    expect(dissect(file, ['-F', 'text', '-x'])).toBe(text(packets(), { hex: true }));
    // 53 41 4d 50 7f 00 00 01 61 1e 78 | 05 00 "wrong" | 15 00 "rcon_password secret1"
    const rcon = '53414d507f000001611e78050077726f6e67150072636f6e5f70617373776f72642073656372657431\n';
    for (const args of [[], ['--show-secrets'], ['-x'], ['-x', '--show-secrets'], ['-e', 'samp.rcon.password']]) {
      const r = spawnSync(process.execPath, cliArgs(['dissect', '-', '-F', 'text', ...args]), { cwd: root, encoding: 'utf8', input: rcon });
      const render: RenderOptions = {
        showSecrets: args.includes('--show-secrets'),
        hex: args.includes('-x'),
        ...(args.includes('-e') ? { fields: ['samp.rcon.password'] } : {}),
      };
      expect(r.stdout, args.join(' ')).toBe(text(dissectHexDump(rcon, { showSecrets: !!render.showSecrets }).packets, render));
      expect(r.stdout.includes('secret1'), args.join(' ')).toBe(!!render.showSecrets);
    }
  }, 60_000);

  it('prints the same on a terminal, where it hands over what each batch wrote', async () => {
    const file = `${captures}veth-frag.pcap`;
    const command = [process.execPath, ...cliArgs(['dissect', file, '-F', 'text'])].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    // The terminal writes each newline as CR LF.
    const { packets, start } = await records(file, {});
    expect(r.stdout.replaceAll('\r\n', '\n')).toBe(text(packets, {}, start));
  }, 60_000);
});
