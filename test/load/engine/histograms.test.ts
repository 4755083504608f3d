/**
 * Latency histograms (src/load/engine/histograms.ts): whole microseconds, encoded so that shards
 * merge exactly, and summaries of an empty histogram that are zeros rather than NaN.
 */
import { describe, expect, it } from 'vitest';
import { decode, encode, newHistogram, spectrum, sumEncoded, summarise, toMicros } from '../../../src/load/engine/histograms.js';

function histogramOf(values: readonly number[]) {
  const h = newHistogram();
  for (const v of values) h.recordValue(v);
  return h;
}

describe('toMicros', () => {
  it.each([
    [1.5, 1500],
    [0.0004, 1],
    [0, 1],
    [0.0126, 13],
  ])('%d ms → %d µs, never below 1', (ms, us) => {
    expect(toMicros(ms)).toBe(us);
  });
});

describe('encode and decode', () => {
  it('a histogram survives the round trip: same count and percentiles, the maximum within 3 significant digits', () => {
    const h = histogramOf([100, 200, 300, 5000]);
    const { max, ...rest } = summarise(decode(encode(h)));
    const { max: before, ...restBefore } = summarise(h);
    expect(rest).toEqual(restBefore);
    expect(Math.abs(max - before) / before).toBeLessThan(0.001);
  });

  it('shards merge exactly: the sum of encoded parts is the histogram of all values; empty parts are skipped', () => {
    const a = [100, 150, 900];
    const b = [2000, 2100];
    const merged = sumEncoded([encode(histogramOf(a)), undefined, '', encode(histogramOf(b))]);
    expect(summarise(merged)).toEqual(summarise(decode(encode(histogramOf([...a, ...b])))));
  });
});

describe('summarise', () => {
  it('an empty histogram summarises to zeros, not NaN', () => {
    expect(summarise(newHistogram())).toEqual({ count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, min: 0, mean: 0 });
  });

  it('reads count, min, max and percentiles within 3 significant digits', () => {
    const s = summarise(histogramOf(Array.from({ length: 100 }, (_, i) => (i + 1) * 10)));
    expect(s.count).toBe(100);
    expect(s.min).toBe(10);
    expect(s.max).toBe(1000);
    expect(Math.abs(s.p50 - 500) / 500).toBeLessThan(0.002);
    expect(Math.abs(s.p99 - 990) / 990).toBeLessThan(0.002);
  });
});

describe('spectrum', () => {
  it('is empty for no value, and ends at the maximum for the chart', () => {
    expect(spectrum(newHistogram())).toEqual([]);
    const points = spectrum(histogramOf([10, 20, 30, 4000]));
    expect(points[0]!.q).toBe(0);
    expect(points.at(-1)).toEqual({ q: 100, us: 4000 });
    expect(points).toHaveLength(14);
  });
});
