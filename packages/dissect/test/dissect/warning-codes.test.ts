/**
 * Warnings carry the code of a declared expert item (codec grammar/expert.ts and the
 * protocols' tables): the text's `[Expert Info (Severity/Group): …]` takes severity and group
 * from the table, JSON and NDJSON carry the code, the schema lists every code. Walks every
 * committed capture and xxd dump: each warning met has a declared code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { builtInProtocols, expertInfo, fromHex } from '@gamequery/codec';
import { grammarExperts, ByteSink } from '@gamequery/codec/internal';
import { dissectHexDump, dissectPayload, HtmlWriter, packetJson, packetLine, packetText, type PacketRecord } from '@gamequery/dissect';
import { writePacketText } from '@gamequery/dissect/internal';
import { dissectFile } from './helpers.ts';

const fixtures = new URL('../fixtures/', import.meta.url).pathname;
const expert = `${fixtures}expert/`;
const schema = JSON.parse(readFileSync(new URL('../../schema/packet.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
ajv.addSchema(schema);
const validatePacket = ajv.compile({ $ref: `${schema.$id}#/$defs/packet` });

/** Every file below `dir` whose name matches `re`. */
const filesUnder = (dir: string, re: RegExp): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && re.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();

const written = (p: PacketRecord): string => {
  const sink = new ByteSink();
  writePacketText(p, sink);
  return sink.text();
};

describe('warning codes in the dissector output', () => {
  it("are in JSON and NDJSON, and pick the expert line's severity and group (expert-lo.pcap)", async () => {
    const { packets } = await dissectFile(`${expert}expert-lo.pcap`);
    const byFrame = new Map(packets.map((p) => [p.frame, p]));
    const want: Record<number, [string, string, number, string]> = {
      2: ['flag-byte', 'samp.info.password', 11, 'Warning/Malformed'],
      4: ['short-list', 'samp.rules.count', 41, 'Warning/Malformed'],
      6: ['short-list', 'samp.clients.count', 23, 'Warning/Malformed'],
      7: ['request-not-seen', 'mcquery.response_to', 0, 'Warning/Sequence'],
      8: ['request-not-seen', 'mcquery.response_to', 0, 'Warning/Sequence'],
      9: ['request-not-seen', 'mcquery.response_to', 0, 'Warning/Sequence'],
    };
    for (const [frame, [code, field, offset, kind]] of Object.entries(want)) {
      const p = byFrame.get(Number(frame))!;
      const [w] = packetJson(p)['warnings'] as { code: string; field: string; offset: number; message: string }[];
      expect(w, `frame ${frame}`).toMatchObject({ code, field, offset });
      // A short list's warning is where its next entry would start: the end of the payload.
      if (code === 'short-list') expect(offset).toBe(p.payloadLength);
      expect(Object.keys(w!)).toEqual(['code', 'field', 'offset', 'message']);
      expect(JSON.parse(packetLine(p))['warnings']).toEqual([w]);
      const line = `    [Expert Info (${kind}): ${w!.message}]`;
      expect(written(p).split('\n')).toContain(line);
      expect(packetText(p).split('\n')).toContain(line);
      expect(validatePacket(packetJson(p)), JSON.stringify(validatePacket.errors)).toBe(true);
    }
    expect(packets.filter((p) => p.warnings.length).map((p) => p.frame)).toEqual([2, 4, 6, 7, 8, 9]);
  });

  it("are the HTML page's notes, with the text tree's severity and group (expert-lo.pcap)", async () => {
    const { packets } = await dissectFile(`${expert}expert-lo.pcap`);
    const sink = new ByteSink();
    const html = new HtmlWriter(sink);
    for (const p of packets) html.packet(p);
    html.end();
    const page = sink.text();
    const embedded = /<script type="application\/json" id="packets">([\s\S]*?)<\/script>/.exec(page)![1]!;
    const notes = new Map((JSON.parse(embedded) as { n: number; w: string[] }[]).map((e) => [e.n, e.w]));
    expect(notes.get(2)).toEqual(['[Expert Info (Warning/Malformed): samp.info.password: flag byte is 2, expected 0 or 1]']);
    expect(notes.get(4)).toEqual([
      '[Expert Info (Warning/Malformed): samp.rules.count: 3 entries declared, 2 present before the end of the message]',
    ]);
    expect(notes.get(7)!.filter((n) => n.startsWith('[Expert Info'))).toEqual([
      `[Expert Info (Warning/Sequence): ${expertInfo('request-not-seen')!.summary}]`,
    ]);
    expect(page).not.toContain('Warning: ');
  });

  it("trailing bytes: a test vector's payload, dissected on its own", () => {
    const v = JSON.parse(readFileSync(`${fixtures}../../../../test-vectors/samp/info-response.trailing-bytes.json`, 'utf8')) as {
      hex: string;
    };
    const d = dissectPayload(fromHex(v.hex));
    expect(d.warnings).toEqual([
      { code: 'trailing-bytes', field: 'trailing', offset: 31, message: '2 bytes after the end of the message at offset 31' },
    ]);
  });

  it('name every code the tables declare for warnings, in the JSON schema', () => {
    const declared = [...grammarExperts, ...builtInProtocols.flatMap((p) => p.experts ?? [])].map((e) => e.code).sort();
    const items = schema.$defs.packet.properties.warnings.items;
    expect([...items.properties.code.enum].sort()).toEqual(declared);
    expect(items.required).toContain('code');
  });
});

describe('every warning in the committed inputs has a declared code', () => {
  const captures = filesUnder(fixtures, /\.pcap(ng)?$/);
  const dumps = filesUnder(`${fixtures}expert/`, /\.xxd\.txt$/);

  it('finds the inputs', () => {
    expect(captures.length).toBeGreaterThanOrEqual(25);
    expect(dumps.length).toBeGreaterThanOrEqual(2);
  });

  it("captures and dumps: each warning's code is in the table, and the warning codes all occur", async () => {
    const seen = new Set<string>();
    const check = (where: string, packets: readonly PacketRecord[]): void => {
      for (const p of packets)
        for (const w of p.warnings) {
          expect(expertInfo(w.code), `${where} frame ${p.frame}: ${w.message}`).toBeDefined();
          seen.add(w.code);
        }
    };
    for (const file of captures) check(file, (await dissectFile(file)).packets);
    for (const file of dumps) {
      const text = readFileSync(file, 'utf8');
      check(file, dissectHexDump(text).packets);
      check(`${file} as mcquery`, dissectHexDump(text, { decodeAs: { protocol: 'mcquery', ports: [] } }).packets);
    }
    // Trailing bytes occur in the test vectors (above, and codec's expert test), not in a capture.
    expect([...seen].sort()).toEqual(['flag-byte', 'request-not-seen', 'short-list']);
  });
});
