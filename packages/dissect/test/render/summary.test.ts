/**
 * Summary lines (render/summary.ts): a response time in milliseconds (`[RTT 0.871 ms]`) is the
 * seconds' decimal point moved three places, exactly, against integer arithmetic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secondsAsMs } from '../../src/render/summary.ts';

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
