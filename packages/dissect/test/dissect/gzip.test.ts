/**
 * A gzip-compressed capture (`x.pcap.gz`) given to the streamed library entry, as the command
 * line reads one: unpacked as it comes, whatever the chunking; damage reported after what
 * came before it.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dissectCapture, packetJson, type DissectItem } from '@gamequery/dissect';
import { captures } from './helpers.ts';

const file = `${captures}veth-frag.pcap`;
const items = async (source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<DissectItem[]> => {
  const out: DissectItem[] = [];
  for await (const item of dissectCapture(source)) out.push(item);
  return out;
};
const json = (all: readonly DissectItem[]) => all.map((i) => (i.kind === 'packet' ? packetJson(i.packet) : i));

describe('dissectCapture of gzip', () => {
  // gzip(1)'s own output, as a user would have made it.
  const gz = new Uint8Array(spawnSync('gzip', ['-c', file]).stdout);

  it('reads a .pcap.gz as the capture it holds, in chunks of any size (one byte first included)', async () => {
    expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]);
    const plain = json(await items(createReadStream(file)));
    expect(plain.length).toBe(20);
    expect(json(await items([gz]))).toEqual(plain);
    expect(json(await items([gz.subarray(0, 1), gz.subarray(1, 2), gz.subarray(2)]))).toEqual(plain);
    const chunks = Array.from({ length: Math.ceil(gz.length / 97) }, (_, i) => gz.subarray(i * 97, (i + 1) * 97));
    expect(json(await items(chunks))).toEqual(plain);
  });

  it('cut short: every packet before the cut, then a bad-gzip error saying how far it read', async () => {
    const cut = gz.subarray(0, gz.length - 400);
    const all = await items([cut]);
    const last = all.at(-1)!;
    expect(last).toMatchObject({ kind: 'error', code: 'bad-gzip', offset: cut.length });
    expect(last.kind === 'error' && last.message).toMatch(/^damaged gzip data after \d+ bytes: /);
    const packets = all.filter((i) => i.kind === 'packet');
    expect(packets.length).toBeGreaterThan(0);
    expect(packets.length).toBeLessThan(20);
    // The packets before the cut are the capture's own.
    expect(json(packets)).toEqual(json(await items([readFileSync(file)])).slice(0, packets.length));
  });
});
