import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import { packetJson } from '@gamequery/dissect';
import { captures, dissectFile } from './helpers.ts';

const schema = JSON.parse(readFileSync(new URL('../../schema/packet.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
ajv.addSchema(schema);
const validatePacket = ajv.compile({ $ref: `${schema.$id}#/$defs/packet` });
const validateDocument = ajv.compile({ $ref: `${schema.$id}#/$defs/document` });

describe('the JSON output schema', () => {
  it.each(['veth-frag.pcap', 'lo-snap60.pcap', 'lo.pcapng', 'lo-us.cut.pcap'])('holds for every packet of %s', async (name) => {
    const { packets, errors, stats } = await dissectFile(captures + name);
    for (const p of packets) expect(validatePacket(packetJson(p)), JSON.stringify(validatePacket.errors)).toBe(true);
    const doc = { packets: packets.map((p) => packetJson(p)), errors: errors.map((e) => ({ type: 'CaptureError', code: e.code, offset: e.offset, message: e.message })), stats };
    expect(validateDocument(doc), JSON.stringify(validateDocument.errors)).toBe(true);
  });
});
