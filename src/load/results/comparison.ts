/**
 * `--compare FILE`: compares a run with an earlier result of the same profile and flags
 * regressions beyond a tolerance (`--tolerance-pct`, LOAD_DEFAULTS.tolerancePct by default): throughput lower, or p50 / p99 /
 * p99.9 higher, by more than the tolerance. A latency difference under 50 µs is never a regression:
 * at microsecond scale that is scheduler noise, not the server.
 *
 * Regressions are reported like breached thresholds (exit 4), named `baseline p99 +20%`.
 */
import { metricsOf, type Metrics } from './metrics.js';
import type { LoadResult, Threshold } from '../types.js';
import { formatUs } from '../units.js';

const LATENCY_NOISE_US = 50;

export function compareWithBaseline(current: LoadResult, baseline: LoadResult, tolerancePct: number): Threshold[] {
  const now = metricsOf(current);
  const before = metricsOf(baseline);
  const out: Threshold[] = [];
  const tol = tolerancePct / 100;
  const rpsFloor = before.rps * (1 - tol);
  out.push({
    expr: `baseline rps -${tolerancePct}%`,
    ok: before.rps === 0 || now.rps >= rpsFloor,
    actual: `${Math.round(now.rps)} req/s vs ${Math.round(before.rps)} req/s (${change(now.rps, before.rps)})`,
    source: 'baseline',
  });
  for (const key of ['p50', 'p99', 'p999'] as const) {
    const a = now.latency[key];
    const b = before.latency[key];
    const ok = before.latency.count === 0 || a <= b * (1 + tol) || a - b < LATENCY_NOISE_US;
    out.push({ expr: `baseline ${label(key)} +${tolerancePct}%`, ok, actual: `${formatUs(a)} vs ${formatUs(b)} (${change(a, b)})`, source: 'baseline' });
  }
  return out;
}

/** Why `baseline` cannot be compared with a run of `profile`, or undefined. */
export function baselineMismatch(profile: string, baseline: LoadResult): string | undefined {
  if (baseline.profile !== profile) return `the baseline is a ${baseline.profile} run, this is ${profile}`;
  return undefined;
}

function label(key: keyof Metrics['latency']): string {
  return key === 'p999' ? 'p99.9' : key;
}

function change(a: number, b: number): string {
  if (b === 0) return 'no baseline figure';
  const pct = ((a - b) / b) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}
