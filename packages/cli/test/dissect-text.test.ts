import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  dissectHexDump,
  packetJson,
  renderPacketText,
  type DissectOptions,
  type PacketRecord,
  type RenderOptions,
} from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { cliArgs, root, runSync as run } from './cli.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
const hex = `${root}packages/dissect/test/fixtures/hex/`;
const captureFiles = readdirSync(captures)
  .filter((f) => /\.pcap(ng)?$/.test(f))
  .sort();

const FIELDS = ['samp.info.hostname', 'samp.info.players', 'samp.player.name', 'samp.response_in', 'mcquery.full.kv', 'mcquery.time'];
const fieldArgs = FIELDS.flatMap((f) => ['-e', f]);

/** What `gamequery dissect -F text` printed before it wrote through a buffer: each packet's lines, a blank line between packets. */
const text = (packets: readonly PacketRecord[], render: RenderOptions): string =>
  packets.map((p) => `${renderPacketText(p, render).join('\n')}\n`).join('\n');

/** A capture's packets, and what the command says of a damaged one on stderr. */
async function dissected(file: string, options: DissectOptions): Promise<{ packets: PacketRecord[]; stderr: string }> {
  const packets: PacketRecord[] = [];
  let stderr = '';
  for await (const batch of dissectCaptureFile(file, options)) {
    packets.push(...batch.packets);
    if (batch.error) stderr += `gamequery: ${batch.error.message}\n`;
  }
  return { packets, stderr };
}

const records = async (file: string, options: DissectOptions): Promise<PacketRecord[]> => (await dissected(file, options)).packets;

/** `gamequery dissect FILE ARGS…`'s stdout, and that it exited as a capture with no error does. */
function dissect(file: string, args: readonly string[], stderr = ''): string {
  const r = run('dissect', file, ...args);
  expect(r.stderr).toBe(stderr);
  expect(r.status).toBe(stderr ? 1 : 0);
  return r.stdout;
}

describe('gamequery dissect -F text', () => {
  it.each(captureFiles)(
    '%s: prints the text renderPacketText gives',
    async (name) => {
      const file = `${captures}${name}`;
      const { packets, stderr } = await dissected(file, {});
      expect(dissect(file, ['-F', 'text'], stderr)).toBe(text(packets, {}));
    },
    60_000,
  );

  it.each(['lo-us.pcap', 'veth-frag.pcap', 'lo-any.pcapng'])(
    '%s: with -x, -e and --show-secrets, in text and JSON, as before',
    async (name) => {
      const file = `${captures}${name}`;
      const masked = await records(file, {});
      const clear = await records(file, { showSecrets: true });
      expect(dissect(file, ['-F', 'text', '-x'])).toBe(text(masked, { hex: true }));
      expect(dissect(file, ['-F', 'text', ...fieldArgs])).toBe(text(masked, { fields: FIELDS }));
      expect(dissect(file, ['-F', 'text', '-x', '--show-secrets', ...fieldArgs])).toBe(
        text(clear, { hex: true, showSecrets: true, fields: FIELDS }),
      );
      expect(dissect(file, ['-F', 'ndjson', ...fieldArgs])).toBe(
        masked.map((p) => `${JSON.stringify(packetJson(p, { fields: FIELDS }))}\n`).join(''),
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
    expect(r.stdout.replaceAll('\r\n', '\n')).toBe(text(await records(file, {}), {}));
  }, 60_000);
});
