import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { packetJson } from '@gamequery/dissect';
import { captureFiles, captures, dissectBytes, dissectFile, retimedExchange } from './helpers.ts';

const schema = JSON.parse(readFileSync(new URL('../../schema/packet.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
ajv.addSchema(schema);
const validatePacket = ajv.compile({ $ref: `${schema.$id}#/$defs/packet` });
const validateDocument = ajv.compile({ $ref: `${schema.$id}#/$defs/document` });

describe('the JSON output schema', () => {
  it.each(captureFiles)('holds for every packet of %s', async (name) => {
    const { packets, errors, stats } = await dissectFile(captures + name);
    for (const p of packets) expect(validatePacket(packetJson(p)), JSON.stringify(validatePacket.errors)).toBe(true);
    const doc = {
      packets: packets.map((p) => packetJson(p)),
      errors: errors.map((e) => ({ type: 'CaptureError', code: e.code, offset: e.offset, message: e.message })),
      stats,
    };
    expect(validateDocument(doc), JSON.stringify(validateDocument.errors)).toBe(true);
  });

  it('holds for duplicate, late and stray replies', async () => {
    // The reply 0.4 ms after its request, a copy of it at 1 s, a stray at 20 s; in the other capture, a late reply.
    const copies = await dissectBytes(retimedExchange([368, 1_000_368, 20_000_000]));
    const late = await dissectBytes(retimedExchange([5_500_368]));
    const packets = [...copies.packets, ...late.packets];
    expect(packets.map((p) => [p.requestIn, p.duplicateOf, p.unmatched?.replace(/,.*/, '')])).toEqual([
      [undefined, undefined, undefined],
      [1, undefined, undefined],
      [1, 2, undefined],
      [undefined, undefined, 'no pending request for this reply'],
      [undefined, undefined, undefined],
      [1, undefined, 'late reply'],
    ]);
    for (const p of packets) expect(validatePacket(packetJson(p)), JSON.stringify(validatePacket.errors)).toBe(true);
  });
});
