/**
 * `expect(…).toEqual` and `.toBe` for the hot loops of property tests: the comparison is made
 * first with node's own deep equality, and vitest's expect is called only when it fails (to
 * fail with its message and diff). A value deep-strict-equal to another is `toEqual` to it, so
 * the check is the same; vitest's expect costs about 20 µs a call in its state and proxies,
 * which was half of the emitters' property tests (some 60 s of the suite's CPU).
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/** `expect(actual, message).toEqual(expected)`, cheaply where they are equal. */
export function equal(actual: unknown, expected: unknown, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}

/** `expect(actual, message).toBe(expected)`, cheaply where they are the same. */
export function same(actual: unknown, expected: unknown, message?: string): void {
  if (!Object.is(actual, expected)) expect(actual, message).toBe(expected);
}
