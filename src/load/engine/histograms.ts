/**
 * Latency histograms: HdrHistogram (hdr-histogram-js) in whole microseconds, 3 significant digits,
 * auto-resizing. Results keep them encoded (compressed base64, the HdrHistogram wire format), so
 * shards merge exactly: decode, add, encode.
 */
import * as hdr from 'hdr-histogram-js';

export type Histogram = hdr.Histogram;

export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  readonly min: number;
  readonly mean: number;
}

export function newHistogram(): Histogram {
  return hdr.build({ bitBucketSize: 64, autoResize: true, lowestDiscernibleValue: 1, highestTrackableValue: 2 ** 26, numberOfSignificantValueDigits: 3 });
}

/** A response time in milliseconds (autocannon's, fractional) as whole microseconds, at least 1. */
export function toMicros(ms: number): number {
  return Math.max(1, Math.round(ms * 1000));
}

export function encode(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decode(text: string): Histogram {
  const h = hdr.decodeFromCompressedBase64(text, 64, false);
  // A decoded histogram is not auto-resizing; adding a wider one into it must not throw.
  const out = newHistogram();
  out.add(h);
  h.destroy();
  return out;
}

/** The sum of several encoded histograms (empty strings are skipped), as a new histogram. */
export function sumEncoded(texts: readonly (string | undefined)[]): Histogram {
  const out = newHistogram();
  for (const t of texts) {
    if (t === undefined || t === '') continue;
    const h = decode(t);
    out.add(h);
    h.destroy();
  }
  return out;
}

export function summarise(h: Histogram): LatencySummary {
  const count = h.totalCount;
  if (count === 0) return { count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, min: 0, mean: 0 };
  return {
    count,
    p50: h.getValueAtPercentile(50),
    p90: h.getValueAtPercentile(90),
    p99: h.getValueAtPercentile(99),
    p999: h.getValueAtPercentile(99.9),
    max: h.maxValue,
    min: h.minNonZeroValue,
    mean: h.mean,
  };
}

/** Points of the percentile spectrum (percentile, µs), for the HTML chart. */
export function spectrum(h: Histogram): { q: number; us: number }[] {
  if (h.totalCount === 0) return [];
  const qs = [0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100];
  return qs.map((q) => ({ q, us: q === 100 ? h.maxValue : h.getValueAtPercentile(q) }));
}
