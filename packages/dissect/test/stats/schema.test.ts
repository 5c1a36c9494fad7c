/** The statistics' JSON (`-z stats`, `gamequery stats -F json`) against the output schema. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { IoStats, ProtocolHierarchy, ServerStats, SourceStats, captureStart, compileFilter } from '@gamequery/dissect';
import { captureFiles, captures, dissectBytes, dissectFile, retimedExchange } from '../dissect/helpers.ts';

const schema = JSON.parse(readFileSync(new URL('../../schema/packet.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
ajv.addSchema(schema);
const validateDocument = ajv.compile({ $ref: `${schema.$id}#/$defs/document` });
const validateLine = ajv.compile({ $ref: `${schema.$id}#/$defs/serverStatsLine` });
const validateSources = ajv.compile({ $ref: `${schema.$id}#/$defs/sourceStatsLine` });
const validateIo = ajv.compile({ $ref: `${schema.$id}#/$defs/ioStatsLine` });
const validateIoRow = ajv.compile({ $ref: `${schema.$id}#/$defs/ioRowLine` });
const validatePhs = ajv.compile({ $ref: `${schema.$id}#/$defs/phsStatsLine` });

describe('the statistics in the JSON output schema', () => {
  it.each(captureFiles)('hold for %s, filtered and not', async (name) => {
    for (const filter of [undefined, compileFilter('samp || mcquery.response_to')]) {
      const { packets, stats } = await dissectFile(captures + name, filter ? { filter } : {});
      const servers = new ServerStats(new SourceStats(), new IoStats(0.01));
      servers.start = captureStart(stats);
      const hierarchy = new ProtocolHierarchy(filter ? 'samp || mcquery.response_to' : '');
      for (const p of packets) {
        servers.add(p);
        hierarchy.addRecord(p);
      }
      const phsStats = JSON.parse(JSON.stringify(hierarchy.report()));
      expect(phsStats.frames).toBe(packets.length);
      expect(validatePhs({ phsStats }), JSON.stringify(validatePhs.errors)).toBe(true);
      const ioStats = JSON.parse(JSON.stringify(servers.io!.report()));
      expect(validateIo({ ioStats }), JSON.stringify(validateIo.errors)).toBe(true);
      // A live row is a row of the report (JSON's ioRow line).
      for (const ioRow of ioStats.rows) expect(validateIoRow({ ioRow }), JSON.stringify(validateIoRow.errors)).toBe(true);
      const serverStats = JSON.parse(JSON.stringify(servers.report()));
      const sourceStats = JSON.parse(JSON.stringify(servers.sources!.report()));
      expect(sourceStats.requests).toBe(
        serverStats.totals.servers ? Object.values(serverStats.totals.requests as Record<string, number>).reduce((a, b) => a + b, 0) : 0,
      );
      expect(
        validateDocument({ packets: [], errors: [], stats, serverStats, sourceStats, ioStats, phsStats }),
        JSON.stringify(validateDocument.errors),
      ).toBe(true);
      expect(validateLine({ serverStats }), JSON.stringify(validateLine.errors)).toBe(true);
      expect(validateSources({ sourceStats }), JSON.stringify(validateSources.errors)).toBe(true);
    }
  });

  it('hold with late and duplicate replies, and reject a report missing a count', async () => {
    const servers = new ServerStats();
    for (const bytes of [retimedExchange([368, 1_000_368]), retimedExchange([5_500_368])])
      for (const p of (await dissectBytes(bytes)).packets) servers.add(p);
    const serverStats = JSON.parse(JSON.stringify(servers.report()));
    expect(serverStats.totals).toMatchObject({ duplicates: 1, late: 1, unanswered: 1 });
    expect(validateLine({ serverStats }), JSON.stringify(validateLine.errors)).toBe(true);
    delete serverStats.servers[0].late;
    expect(validateLine({ serverStats })).toBe(false);
  });
});
