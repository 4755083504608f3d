/** The bench's ratios: a median with its spread and a bootstrap interval, and "no measurable difference" when the rounds overlap. */
import { describe, expect, it } from 'vitest';
import { describeRatio, median, ratioStats } from '../../bench/stats.js';

describe('ratioStats', () => {
  it('the median of the per-round ratios, their spread, and an interval that excludes 1 when every round agrees', () => {
    const s = ratioStats([150, 160, 140, 155, 150, 145, 158], [100, 100, 100, 100, 100, 100, 100]);
    expect(s).toMatchObject({ rounds: 7, median: 1.5, min: 1.4, max: 1.6, noDifference: false });
    expect(s.low).toBeGreaterThan(1.4 - 1e-9);
    expect(s.high).toBeLessThanOrEqual(1.6);
    expect(describeRatio(s)).toBe('1.50 (rounds 1.40–1.60, 95% CI 1.45–1.58; 7 round(s))');
  });

  // The regression: least-of-three rounds that ranged 0.6-1.6 were quoted as 1.50.
  it('rounds on both sides of 1: no measurable difference', () => {
    const s = ratioStats([60, 160, 94, 130, 80, 110, 99], [100, 100, 100, 100, 100, 100, 100]);
    expect(s.noDifference).toBe(true);
    expect(describeRatio(s)).toMatch(/: no measurable difference$/);
  });

  it('is the same for the same rounds (a fixed seed), and says when nothing was measured', () => {
    const a = ratioStats([1, 2, 3, 4, 5], [2, 2, 2, 2, 2]);
    expect(ratioStats([1, 2, 3, 4, 5], [2, 2, 2, 2, 2])).toEqual(a);
    expect(median([3, 1, 2, 4])).toBe(2.5);
    expect(describeRatio(ratioStats([], []))).toBe('no round measured');
  });
});
