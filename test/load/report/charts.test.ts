/** SVG line charts (src/load/report/charts.ts): axis ticks are round, and a time axis ends with the run. */
import { describe, expect, it } from 'vitest';
import { lineChart, logTicks, niceTicks } from '../../../src/load/report/charts.js';

/** Round ticks: a step of 1, 2, 2.5 or 5 times a power of ten, every tick a whole multiple of it. */
function roundTicks(t: readonly number[]): boolean {
  const step = t[1]! - t[0]!;
  const p = 10 ** Math.floor(Math.log10(step));
  const stepIsRound = [1, 2, 2.5, 5, 10].some((m) => Math.abs(step / p - m) < 1e-9);
  return stepIsRound && t.every((v) => Math.abs(v / step - Math.round(v / step)) < 1e-9);
}

describe('axis ticks are round', () => {
  it.each([
    [0, 2.25, 10, [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25]],
    [0, 12_345, 5, [0, 2500, 5000, 7500, 10_000, 12_500]],
    [0, 812, 5, [0, 200, 400, 600, 800, 1000]],
    [0, 1, 5, [0, 0.2, 0.4, 0.6, 0.8, 1]],
  ])('niceTicks(%d, %d, %d)', (lo, hi, count, expected) => {
    expect(niceTicks(lo, hi, count)).toEqual(expected);
  });

  it('every tick of any range is a round number and the ticks cover it', () => {
    for (const hi of [0.7, 3, 17, 99, 1234, 48_611, 3.3e6]) {
      const t = niceTicks(0, hi, 5);
      expect(roundTicks(t), `${hi}: ${t.join(',')}`).toBe(true);
      expect(t[t.length - 1]).toBeGreaterThanOrEqual(hi);
    }
  });

  it('a log axis ticks 1-2-5 per decade', () => {
    expect(logTicks(40, 60_000)).toEqual([50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]);
  });

  it('a time axis ends where the run ended: no tick past it', () => {
    const svg = lineChart({
      title: 't',
      series: [{ name: 'a', colour: '#000', points: [[0.5, 1] as const, [1.25, 2] as const] }],
      xFormat: (v) => `${v}s`,
      yFormat: String,
      xLabel: 'time',
      xFromZero: true,
      xEnd: 1.5,
    });
    const ticks = [...svg.matchAll(/>([\d.]+)s<\/text>/g)].map((m) => Number(m[1]));
    expect(ticks[0]).toBe(0);
    expect(Math.max(...ticks)).toBeLessThanOrEqual(1.5);
    // 1.5 s is the plot's right edge (x 980), not a rounder 1.6 s: the point at 1.25 s sits at 72 + 908 × 1.25 / 1.5.
    expect(svg).toContain('L828.7,');
  });
});
