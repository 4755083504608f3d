/** The factor tack's own time limits scale by: TACK_TEST_TIME_FACTOR when set, else the load per core, within [1, 20]. */
import { describe, expect, it } from 'vitest';
import { timeFactor } from './time-limits.js';

describe("the time factor of tack's own tests", () => {
  it('is TACK_TEST_TIME_FACTOR when set, at most 20', () => {
    expect(timeFactor({ TACK_TEST_TIME_FACTOR: '3' })).toBe(3);
    expect(timeFactor({ TACK_TEST_TIME_FACTOR: '1000' })).toBe(20);
  });

  it('refuses a factor that would shorten a limit, naming the variable', () => {
    expect(() => timeFactor({ TACK_TEST_TIME_FACTOR: '0.5' })).toThrow(/TACK_TEST_TIME_FACTOR must be a number of at least 1/);
    expect(() => timeFactor({ TACK_TEST_TIME_FACTOR: 'fast' })).toThrow(/TACK_TEST_TIME_FACTOR/);
  });

  it('else follows the load, never below 1', () => {
    const factor = timeFactor({});
    expect(factor).toBeGreaterThanOrEqual(1);
    expect(factor).toBeLessThanOrEqual(20);
  });
});
