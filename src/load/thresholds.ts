/**
 * Thresholds: `p99<20ms`, `errors==0`, `rps>=5000`, `error_rate<1%`. A pure parser (so a typo is a
 * usage error before any load is sent) and an evaluator over a result's metrics.
 *
 * Metrics:
 * - latency (unit required: us, µs, ms, s): `p50`, `p90`, `p99`, `p99.9` (also `p999`), `p99.99`
 *   (also `p9999`), `p100` (the maximum, as `max`), any `pNN.N`, `mean`
 * - `rps` (answers per second of the measured phase)
 * - counts over the whole run: `errors` (every failed request: transport errors, timeouts,
 *   unexpected non-2xx, answers against the spec, broken and lost chains), `timeouts`, `non2xx`, `malformed`,
 *   `broken` (broken + lost chains), `requests` (answers in the measured phase)
 * - `error_rate` in percent (`error_rate<0.1%`)
 */
import { TackError } from '../harness/errors.js';
import { latencyHistogram, metricsOf, type Metrics } from './metrics.js';
import type { LoadResult, Threshold } from './types.js';
import { formatUs, parseLatencyUs } from './units.js';

export type Op = '<' | '<=' | '>' | '>=' | '==' | '!=';

export type Metric =
  | { readonly kind: 'percentile'; readonly q: number }
  | { readonly kind: 'max' | 'mean' }
  | { readonly kind: 'rps' | 'error_rate' }
  | { readonly kind: 'count'; readonly name: CountName };

type CountName = 'errors' | 'timeouts' | 'non2xx' | 'malformed' | 'broken' | 'requests';
const COUNT_NAMES: readonly CountName[] = ['errors', 'timeouts', 'non2xx', 'malformed', 'broken', 'requests'];

export interface ThresholdSpec {
  readonly expr: string;
  readonly metric: Metric;
  readonly op: Op;
  /** µs for latency metrics, percent for error_rate, plain number otherwise. */
  readonly value: number;
}

const SHAPE = /^\s*([a-z_][a-z0-9_.]*)\s*(<=|>=|==|!=|<|>)\s*(.+?)\s*$/i;

function usage(expr: string, why: string): TackError {
  return new TackError('TACK_ERR_USAGE', `--threshold '${expr}': ${why} (e.g. 'p99<20ms', 'errors==0', 'rps>=5000', 'error_rate<1%')`);
}

function parseMetric(name: string, expr: string): Metric {
  const lower = name.toLowerCase();
  if (lower === 'max' || lower === 'mean') return { kind: lower };
  if (lower === 'rps' || lower === 'error_rate') return { kind: lower };
  if ((COUNT_NAMES as readonly string[]).includes(lower)) return { kind: 'count', name: lower as CountName };
  const p = /^p(\d+(?:\.\d+)?)$/.exec(lower);
  if (p) {
    const q = percentileOf(p[1]!);
    if (q === undefined) throw usage(expr, `"${name}" is not a percentile: write p50, p90, p99, p99.9, p99.99, p100 (or max); a dot marks decimals (p99.5)`);
    return { kind: 'percentile', q };
  }
  throw usage(expr, `unknown metric "${name}"; known: p50, p90, p99, p99.9, p99.99, p100, max, mean, rps, error_rate, ${COUNT_NAMES.join(', ')}`);
}

/**
 * The percentile a `pNN` name means, or undefined. With a dot it is read as written (p99.9, p99.99,
 * p100.0); without one: one or two digits are whole (p5, p50, p99), `100` is the maximum, and the
 * compact forms that start with 99 put the decimals after it (p999 = 99.9, p9999 = 99.99). Any
 * other run of three or more digits (p950: 95.0 or 950?) is refused rather than guessed.
 */
export function percentileOf(digits: string): number | undefined {
  let q: number;
  if (digits.includes('.') || digits.length <= 2 || digits === '100') q = Number(digits);
  else if (/^99\d+$/.test(digits)) q = Number(`99.${digits.slice(2)}`);
  else return undefined;
  return q > 0 && q <= 100 ? q : undefined;
}

export function parseThreshold(expr: string): ThresholdSpec {
  const m = SHAPE.exec(expr);
  if (!m) throw usage(expr, 'not of the form METRIC OP VALUE');
  const metric = parseMetric(m[1]!, expr);
  const op = m[2] as Op;
  const raw = m[3]!;
  let value: number | undefined;
  if (metric.kind === 'percentile' || metric.kind === 'max' || metric.kind === 'mean') {
    value = parseLatencyUs(raw);
    if (value === undefined) throw usage(expr, `a latency needs a unit: us, µs, ms or s (got "${raw}")`);
  } else if (metric.kind === 'error_rate') {
    const pct = /^(\d+(?:\.\d+)?)\s*%$/.exec(raw);
    if (!pct) throw usage(expr, `error_rate is a percentage such as 1% (got "${raw}")`);
    value = Number(pct[1]);
  } else {
    if (!/^\d+(?:\.\d+)?$/.test(raw)) throw usage(expr, `${m[1]} takes a plain number (got "${raw}")`);
    value = Number(raw);
  }
  return { expr: expr.trim(), metric, op, value };
}

function compare(actual: number, op: Op, limit: number): boolean {
  switch (op) {
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '==':
      return actual === limit;
    case '!=':
      return actual !== limit;
  }
}

function actualOf(spec: ThresholdSpec, m: Metrics, percentile: (q: number) => number): { value: number; text: string } {
  const metric = spec.metric;
  switch (metric.kind) {
    case 'percentile': {
      // p100 is the maximum itself (an HdrHistogram's 100th percentile is its bucket's upper edge).
      const us = metric.q === 100 ? m.latency.max : percentile(metric.q);
      return { value: us, text: formatUs(us) };
    }
    case 'max':
      return { value: m.latency.max, text: formatUs(m.latency.max) };
    case 'mean':
      return { value: m.latency.mean, text: formatUs(m.latency.mean) };
    case 'rps':
      return { value: m.rps, text: `${Math.round(m.rps)} req/s` };
    case 'error_rate':
      return { value: m.errorRatePct, text: `${m.errorRatePct.toFixed(3)}%` };
    case 'count': {
      const value = metric.name === 'requests' ? m.responses : metric.name === 'broken' ? m.broken + m.lost : m[metric.name];
      return { value, text: String(value) };
    }
  }
}

/** Judges each threshold against a result. A latency threshold with no answers at all fails. */
export function evaluateThresholds(result: LoadResult, specs: readonly { spec: ThresholdSpec; source: Threshold['source'] }[]): Threshold[] {
  if (specs.length === 0) return [];
  const metrics = metricsOf(result);
  const { h } = latencyHistogram(result);
  try {
    return specs.map(({ spec, source }) => {
      const isLatency = spec.metric.kind === 'percentile' || spec.metric.kind === 'max' || spec.metric.kind === 'mean';
      if (isLatency && h.totalCount === 0) return { expr: spec.expr, ok: false, actual: 'no answers measured', source };
      const actual = actualOf(spec, metrics, (q) => h.getValueAtPercentile(q));
      return { expr: spec.expr, ok: compare(actual.value, spec.op, spec.value), actual: actual.text, source };
    });
  } finally {
    h.destroy();
  }
}
