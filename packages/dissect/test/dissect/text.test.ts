import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { charsets, fromHex, layouts, type Charset } from '@gamequery/codec';
import { ByteSink, internals } from '@gamequery/codec/internal';
import { dissectHexDump, packetJson, packetText, renderTree, type PacketRecord, type RenderOptions } from '@gamequery/dissect';
import { writePacketLine, writePacketText } from '@gamequery/dissect/internal';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { loadVectors } from '../../../codec/test/helpers/vectors.ts';
import { emitText } from '../../src/render/text-emitter/index.ts';
import { captureFiles, captures, hexFixtures, type PacketOptions } from './helpers.ts';

/** Every committed capture, and the captures beside the hex fixtures. */
const captureInputs = [
  ...captureFiles.map((f) => `${captures}${f}`),
  ...readdirSync(hexFixtures)
    .filter((f) => /\.pcap(ng)?$/.test(f))
    .map((f) => `${hexFixtures}${f}`),
];
const hexInputs = readdirSync(hexFixtures)
  .filter((f) => f.endsWith('.txt'))
  .map((f) => `${hexFixtures}${f}`);

/**
 * What `-e` selects in these tests: fields of every protocol's common messages, a list
 * entry and its fields, a length, the RCON password, the generated links and times, and
 * one no packet has.
 */
const FIELDS = [
  'samp.info.hostname',
  'samp.info.players',
  'samp.opcode',
  'samp.player',
  'samp.player.name',
  'samp.rule.value.len',
  'samp.rcon.password',
  'samp.rcon.command',
  'samp.response_in',
  'samp.response_to',
  'samp.time',
  'samp.malformed',
  'vcmp.info.hostname',
  'vcmp.client',
  'mcquery.full.kv',
  'mcquery.full.players.name',
  'mcquery.basic.num_players',
  'mcquery.handshake.token',
  'mcquery.response_in',
  'mcquery.time',
  'nothing.here',
];

/** The renderings compared: the tree with and without its hex pane, `-e` with and without it, secrets masked and shown. */
const RENDERINGS: readonly RenderOptions[] = [false, true].flatMap((showSecrets) => [
  { showSecrets },
  { showSecrets, hex: true },
  { showSecrets, fields: FIELDS },
  { showSecrets, fields: ['samp.info.players'] },
  { showSecrets, hex: true, fields: FIELDS },
]);

/** What the command printed for a packet before: its text and a newline. */
const before = (p: PacketRecord, options: RenderOptions): string => `${packetText(p, options)}\n`;

/**
 * Each packet of `dissect()` written by writePacketText, and then (from the same packets, their
 * trees now built by packetText) as the text output was made before. Dissected afresh
 * for each rendering, so that every one meets records whose tree is not built. Returns how
 * many packets the compiled path wrote (their trees still not built after it).
 */
async function compareText(dissect: () => Promise<PacketRecord[]>, options: RenderOptions): Promise<number> {
  const packets = await dissect();
  const sink = new ByteSink(64);
  const ranges: [number, number][] = [];
  let compiled = 0;
  for (const p of packets) {
    const at = sink.at;
    writePacketText(p, sink, options);
    ranges.push([at, sink.at]);
    if ((p as { treeSource?: unknown }).treeSource !== undefined) compiled++;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  packets.forEach((p, i) => {
    const [from, to] = ranges[i]!;
    expect(decoder.decode(sink.buf.subarray(from, to)), `frame ${p.frame}`).toBe(before(p, options));
    // Once the tree is built, writePacketText takes it, with the same text.
    const again = new ByteSink(16);
    writePacketText(p, again, options);
    expect(again.text(), `frame ${p.frame}`).toBe(before(p, options));
  });
  return compiled;
}

/** `-e` in JSON: writePacketLine of fresh records against `JSON.stringify(packetJson)` of the same packets. */
async function compareJson(dissect: () => Promise<PacketRecord[]>, options: RenderOptions): Promise<void> {
  const fresh = await dissect();
  const lines = fresh.map((p) => {
    const sink = new ByteSink(16);
    writePacketLine(p, sink, options);
    return sink.text();
  });
  expect(lines).toEqual(fresh.map((p) => JSON.stringify(packetJson(p, options))));
}

async function captureRecords(file: string, options: PacketOptions): Promise<PacketRecord[]> {
  const out: PacketRecord[] = [];
  for await (const batch of dissectCaptureFile(file, options)) out.push(...batch.packets);
  return out;
}

describe('writePacketText', () => {
  it.each(captureInputs.map((f) => [f.slice(f.lastIndexOf('/') + 1), f]))(
    '%s: writes what packetText gives, in every rendering, secrets masked and shown',
    async (_, file) => {
      let compiled = 0;
      for (const render of RENDERINGS) {
        const options: PacketOptions = { showSecrets: !!render.showSecrets };
        compiled += await compareText(() => captureRecords(file, options), render);
        if (render.fields) await compareJson(() => captureRecords(file, options), render);
      }
      const packets = await captureRecords(file, {});
      // Every packet that decoded on the fast path was written without its tree (but for a hex pane marking fields).
      if (packets.some((p) => p.fieldsJson !== undefined)) expect(compiled).toBeGreaterThan(0);
    },
  );

  it.each(hexInputs.map((f) => [f.slice(f.lastIndexOf('/') + 1), f]))('%s (hex dump): writes what packetText gives', async (_, file) => {
    const text = readFileSync(file, 'utf8');
    for (const render of RENDERINGS) {
      const options: PacketOptions = { showSecrets: !!render.showSecrets };
      await compareText(async () => dissectHexDump(text, options).packets, render);
      if (render.fields) await compareJson(async () => dissectHexDump(text, options).packets, render);
    }
  });

  it('writes every test vector as a hex dump, in every charset, as packetText does', async () => {
    const vectors = loadVectors();
    let compiled = 0;
    for (const charset of [undefined, ...charsets] as (Charset | undefined)[]) {
      for (const protocol of ['samp', 'vcmp', 'mcquery'] as const) {
        const dump = vectors
          .filter((v) => v.protocol === protocol && (charset === undefined || v.charset === undefined))
          .map((v) => v.hex)
          .join('\n\n');
        for (const render of RENDERINGS) {
          const options: PacketOptions = {
            showSecrets: !!render.showSecrets,
            decodeAs: { protocol, ports: [0] },
            ...(charset ? { charset } : {}),
          };
          compiled += await compareText(async () => dissectHexDump(dump, options).packets, render);
          if (render.fields) await compareJson(async () => dissectHexDump(dump, options).packets, render);
        }
      }
    }
    expect(compiled).toBeGreaterThan(100);
  });

  it('writes an RCON request masked, in clear when asked, however the dissector wrote its JSON', async () => {
    // 53 41 4d 50 7f 00 00 01 61 1e 78 | 05 00 "wrong" | 15 00 "rcon_password secret1"
    const rcon = '53414d507f000001611e78050077726f6e67150072636f6e5f70617373776f72642073656372657431';
    for (const dissectSecrets of [false, true]) {
      for (const render of RENDERINGS) await compareText(async () => dissectHexDump(rcon, { showSecrets: dissectSecrets }).packets, render);
    }
    const [p] = dissectHexDump(rcon).packets;
    const sink = new ByteSink();
    writePacketText(p!, sink);
    expect(sink.text()).toContain('    Password: ********\n    Command length: 21\n    Command: rcon_password ********\n');
  });
});

describe('emitText (the compiled text emitter)', () => {
  it('writes every test vector of its layout as renderTree writes its annotated tree, in every charset', () => {
    const byId = new Map(layouts.map((l) => [l.id, l]));
    for (const v of loadVectors()) {
      const layout = byId.get(v.layout)!;
      const bytes = fromHex(v.hex);
      for (const charset of charsets) {
        for (const showSecrets of [false, true]) {
          const tree = layout.annotate(bytes, { charset });
          const sink = new ByteSink(8);
          const read = emitText(internals(layout), bytes, sink, { charset, showSecrets, indent: 1 });
          if (tree.error) expect(read).toBeUndefined();
          else
            expect(sink.text(), v.id).toBe(
              renderTree(tree.fields, { showSecrets, indent: 1 })
                .map((l) => `${l}\n`)
                .join(''),
            );
        }
      }
    }
  });
});
