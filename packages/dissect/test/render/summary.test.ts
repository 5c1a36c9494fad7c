/**
 * Summary lines (render/summary.ts): the bytes the command writes for a query packet
 * (`writePacketSummary`, column by column) are `packetSummary`'s line, over every committed
 * capture (its other frames too) and every time column; and a response time in milliseconds (`[RTT 0.871 ms]`) is
 * the seconds' decimal point moved three places, exactly, against integer arithmetic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSink } from '@gamequery/codec/internal';
import { captureStart, newStats, packetSummary, type DissectedRecord, type TimeColumn } from '@gamequery/dissect';
import { writePacketSummary } from '@gamequery/dissect/internal';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { secondsAsMs } from '../../src/render/summary.ts';
import { captureFiles, captures } from '../dissect/helpers.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 100);

/** Milliseconds by integer arithmetic: the whole seconds times 1000 and the first three places, then the rest. */
function reference(seconds: string): string {
  const negative = seconds.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? seconds.slice(1) : seconds).split('.');
  const digits = fraction.padEnd(3, '0');
  const rest = digits.slice(3);
  return `${negative ? '-' : ''}${BigInt(whole) * 1000n + BigInt(digits.slice(0, 3))}${rest ? `.${rest}` : ''}`;
}

describe('secondsAsMs', () => {
  it('moves the decimal point three places, as integer arithmetic does', () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    fc.assert(
      fc.property(fc.boolean(), digits(1, 22), fc.option(digits(0, 9)), (negative, whole, fraction) => {
        const seconds = `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`;
        expect(secondsAsMs(seconds)).toBe(reference(seconds));
      }),
      { numRuns: runs * 10 },
    );
    expect(secondsAsMs('0.000871')).toBe('0.871');
    expect(secondsAsMs('2.308000000')).toBe('2308.000000');
    expect(secondsAsMs('-0.000001')).toBe('-0.001');
  });
});

describe('writePacketSummary', () => {
  const times: (TimeColumn | undefined)[] = [undefined, { format: 'ad' }, { format: 'd' }, { format: 'e' }];
  it.each(captureFiles)("%s: each frame's bytes are its summary line's", async (name) => {
    const records: DissectedRecord[] = [];
    const stats = newStats();
    for await (const batch of dissectCaptureFile(captures + name, { allFrames: true }, stats)) records.push(...batch.packets);
    const start = captureStart(stats);
    expect(records.length).toBeGreaterThan(0);
    const sink = new ByteSink();
    for (const time of times)
      for (const p of records) {
        sink.at = 0;
        writePacketSummary(p, sink, start, {}, time);
        expect(sink.text()).toBe(`${packetSummary(p, start, time)}\n`);
      }
  });
});
