/** Latencies as thresholds write them, and durations and latencies as tack prints them (src/load/units.ts). */
import { describe, expect, it } from 'vitest';
import { formatCount, formatMs, formatUs, formatUsTick, parseLatencyUs } from '../../src/load/units.js';

describe('parseLatencyUs', () => {
  it.each([
    ['20ms', 20_000],
    ['0.001ms', 1],
    ['250us', 250],
    ['250µs', 250],
    ['1s', 1_000_000],
  ])('%s → %d µs', (text, us) => {
    expect(parseLatencyUs(text)).toBe(us);
  });

  it.each(['20', '1m', 'fast', ''])('a latency without a unit of µs, ms or s is not one: %j', (text) => {
    expect(parseLatencyUs(text)).toBeUndefined();
  });
});

describe('formatting for people', () => {
  it.each([
    [850, '850µs'],
    [1240, '1.24ms'],
    [12_340, '12.3ms'],
    [123_400, '123ms'],
    [2_500_000, '2.50s'],
    [Number.POSITIVE_INFINITY, '-'],
  ])('formatUs(%d) = %s', (us, text) => {
    expect(formatUs(us)).toBe(text);
  });

  it.each([
    [0, '0'],
    [500, '500µs'],
    [1000, '1ms'],
    [2500, '2.5ms'],
    [1_500_000, '1.5s'],
  ])('an axis tick has no trailing zeros: formatUsTick(%d) = %s', (us, text) => {
    expect(formatUsTick(us)).toBe(text);
  });

  it.each([
    [999, '999ms'],
    [1500, '1.5s'],
    [12_345, '12.35s'],
  ])('formatMs(%d) = %s', (ms, text) => {
    expect(formatMs(ms)).toBe(text);
  });

  it.each([
    [0, '0'],
    [999, '999'],
    [12_345.6, '12 346'],
    [1_234_567, '1 234 567'],
  ])('formatCount(%d) = %j, grouped by thousands', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });
});
