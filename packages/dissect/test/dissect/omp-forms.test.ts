/**
 * open.mp's three `o` forms in a real capture (fixtures/omp/omp-forms-lo.pcap: tcpdump on lo while the emulator
 * answered as open.mp v1.1.0.2612, v1.2.0.2670 and v1.4.0.2779 and `gamequery query samp` asked each;
 * scripts/make-query-captures.sh): each reply recognised as its form and paired with the request it answers.
 */
import { describe, expect, it } from 'vitest';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import type { PacketRecord } from '@gamequery/dissect';

const file = new URL('../fixtures/omp/omp-forms-lo.pcap', import.meta.url).pathname;

async function packets(): Promise<PacketRecord[]> {
  const out: PacketRecord[] = [];
  for await (const batch of dissectCaptureFile(file)) out.push(...batch.packets);
  return out;
}

describe('the `o` forms in a capture', () => {
  it('recognises each form by its lengths and pairs it with its own request', async () => {
    const all = await packets();
    const o = all.filter((p) => p.message.startsWith('omp'));
    const line = (p: PacketRecord): string =>
      `${p.frame} ${p.dst.port === 47791 || p.src.port === 47791 ? 'v1.1' : p.dst.port === 47792 || p.src.port === 47792 ? 'v1.2' : 'v1.4'} ${p.message} ${p.direction} ${p.payloadLength}` +
      (p.responseIn !== undefined ? ` → ${p.responseIn}` : '') +
      (p.requestIn !== undefined ? ` ← ${p.requestIn}` : '') +
      (p.unanswered ? ` (${p.unanswered})` : '');
    expect(o.map(line)).toEqual([
      // v1.1 never answers the 11 bytes; its echo does not take this request for its own.
      '4 v1.1 omp request 11 (no reply before the input ended)',
      '7 v1.2 omp request 11 → 14',
      '10 v1.4 omp request 11 → 17',
      '14 v1.2 ompbanners response 94 ← 7',
      '17 v1.4 omp response 126 ← 10',
      '22 v1.1 ompecho request 15 → 23',
      '23 v1.1 ompecho response 15 ← 22',
    ]);
    const banners = o.find((p) => p.message === 'ompbanners')!;
    expect(
      banners.fields.filter((n) => n.abbrev.startsWith('samp.omp.') && !n.abbrev.endsWith('.len')).map((n) => [n.abbrev, n.value]),
    ).toEqual([
      ['samp.omp.discord', 'discord.gg/v12'],
      ['samp.omp.banner_light', 'https://example.com/light.png'],
      ['samp.omp.banner_dark', 'https://example.com/dark.png'],
    ]);
    expect(all.filter((p) => p.malformed || p.warnings.length)).toEqual([]);
  });
});
