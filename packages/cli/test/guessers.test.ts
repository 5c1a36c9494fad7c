/**
 * RCON password guessing spread over many sources: stderr names the ten most refused, a line
 * each, and sums up the rest in one line; the table lists every one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { samp } from '@gamequery/codec';
import { udpFrame, writePcap } from '../../dissect/test/capture/helpers.ts';
import { runSync as run } from './cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'gamequery-guessers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Twelve sources, 198.51.100.1–12; source n guesses 9 + n passwords, each refused with one line. */
function guessing(): string {
  const at = { serverIp: '10.0.0.1', serverPort: 7777 };
  const refused = samp.rconResponse.encode({ ...at, output: 'Invalid RCON password.' });
  const records = [];
  let t = 0;
  for (let n = 1; n <= 12; n++) {
    for (let k = 0; k < 9 + n; k++) {
      const request = udpFrame(samp.rconRequest.encode({ ...at, password: `guess${n}-${k}`, command: 'varlist' }), 40000 + n, 7777);
      const reply = udpFrame(refused, 7777, 40000 + n);
      request.set([198, 51, 100, n], 26);
      request.set([10, 0, 0, 1], 30);
      reply.set([10, 0, 0, 1], 26);
      reply.set([198, 51, 100, n], 30);
      records.push(
        { seconds: 1_700_000_000, ticks: (t += 1000), data: request },
        { seconds: 1_700_000_000, ticks: (t += 1000), data: reply },
      );
    }
  }
  const file = join(dir, 'guessing.pcap');
  writeFileSync(file, writePcap(records, { linkType: 1 }));
  return file;
}

describe('stats --by source: many sources guessing the RCON password', () => {
  it('names the ten most refused on stderr and sums up the other two; the table lists all twelve', () => {
    const r = run('stats', guessing(), '--by', 'source');
    expect(r.status).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes('guessing the RCON password'));
    expect(lines).toHaveLength(11);
    // The most refused first: 198.51.100.12 (21 refusals) down to .3 (12).
    expect(lines[0]).toBe(
      'gamequery: 198.51.100.12 is guessing the RCON password: 21 refused of 21 RCON requests, 21 distinct passwords (reported from 10 refusals)',
    );
    expect(lines[9]).toContain('gamequery: 198.51.100.3 is guessing the RCON password: 12 refused');
    expect(lines[10]).toBe(
      'gamequery: 2 more sources are guessing the RCON password (21 refused in all): each is listed under "RCON password guessing" (in JSON, sourceStats.rconGuessers)',
    );
    const table = r.stdout.slice(r.stdout.indexOf('RCON password guessing'));
    for (let n = 1; n <= 12; n++) expect(table).toContain(`198.51.100.${n} `);
    expect(table).toMatch(/12 sources/);
  });
});
