/**
 * The figures thresholds, baselines, the summary and the HTML page talk about, computed from a
 * result (so a merged result is judged exactly like a single run).
 *
 * - Latency figures are over the measured phase, every status; in fixed-rate mode they are the
 *   coordinated-omission-corrected ones (docs/load.md).
 * - `rps` is answers per second of the measured phase.
 * - Failure counts cover the whole run, warmup included: a broken chain is broken whenever it broke.
 */
import { decode, sumEncoded, summarise, type Histogram, type LatencySummary } from '../engine/histograms.js';
import { formatCount } from '../units.js';
import { emptyCounts, type Counts, type LoadResult, type RequestKind } from '../types.js';

export interface Metrics {
  readonly latency: LatencySummary;
  /** True when `latency` is the coordinated-omission-corrected histogram. */
  readonly corrected: boolean;
  readonly rps: number;
  readonly responses: number;
  readonly errors: number;
  readonly transportErrors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly malformed: number;
  readonly broken: number;
  readonly lost: number;
  readonly rotations: number;
  /** Race probes sent, and those that forked the chain where the policy allows one usable token (docs/load.md, "Race probe"). */
  readonly raceProbes: number;
  readonly forks: number;
  /** Failed requests per hundred attempts (answers + transport errors + timeouts). */
  readonly errorRatePct: number;
}

/** The latency histogram the figures use (caller destroys it). */
export function latencyHistogram(result: Pick<LoadResult, 'latency'>): { h: Histogram; corrected: boolean } {
  if (result.latency.corrected) return { h: decode(result.latency.corrected), corrected: true };
  return { h: sumEncoded(Object.values(result.latency.byClass)), corrected: false };
}

/** Failed requests of one phase: a race probe that forked a chain counts as one. */
export function failuresOf(c: Counts): number {
  return c.errors + c.timeouts + c.non2xx + c.malformed + c.broken + c.lost + (c.forks ?? 0);
}

/** The figures of a result, or of any part with the same counts and histograms (a request kind's, a live run's so far). */
export type Figures = Pick<LoadResult, 'latency' | 'warmup' | 'measured' | 'measuredS'>;

export function metricsOf(result: Figures): Metrics {
  const { h, corrected } = latencyHistogram(result);
  const latency = summarise(h);
  h.destroy();
  const w = result.warmup;
  const m = result.measured;
  const errors = failuresOf(w) + failuresOf(m);
  const attempts = w.responses + m.responses + w.errors + m.errors + w.timeouts + m.timeouts;
  return {
    latency,
    corrected,
    rps: result.measuredS > 0 ? m.responses / result.measuredS : 0,
    responses: m.responses,
    errors,
    transportErrors: w.errors + m.errors,
    timeouts: w.timeouts + m.timeouts,
    non2xx: w.non2xx + m.non2xx,
    malformed: w.malformed + m.malformed,
    broken: w.broken + m.broken,
    lost: w.lost + m.lost,
    rotations: w.rotations + m.rotations,
    raceProbes: (w.raceProbes ?? 0) + (m.raceProbes ?? 0),
    forks: (w.forks ?? 0) + (m.forks ?? 0),
    errorRatePct: attempts > 0 ? (100 * errors) / attempts : 0,
  };
}

/**
 * The result as one request kind saw it: its counts and histograms in place of the whole's, the
 * same measured time. Every figure of `metricsOf` and every threshold then reads that kind alone.
 */
export function endpointView(result: LoadResult, kind: RequestKind): LoadResult {
  const e = result.endpoints?.[kind];
  return {
    ...result,
    warmup: e?.warmup ?? emptyCounts(),
    measured: e?.measured ?? emptyCounts(),
    latency: e?.latency ?? { unit: 'us', byClass: {}, corrected: null },
    endpoints: undefined,
    timeline: [],
    breaks: [],
    breaksNotListed: 0,
  };
}

/**
 * What a result's headline figures are read from. A run's own; for a capacity search, the highest
 * step that held (the first step when none did), its own answers only, never every step mixed.
 */
export function headlineView(result: LoadResult): { view: LoadResult; label: string | undefined } {
  const c = result.capacity;
  if (!c) return { view: result, label: undefined };
  const index = c.headline ?? (c.maxRate === null ? 0 : c.steps.findLastIndex((s) => s.held && s.rate === c.maxRate));
  const step = c.steps[index];
  if (!step?.measured || !step.latency || step.measuredS === undefined) return { view: result, label: 'all steps together (a result of an earlier tack)' };
  const which = c.maxRate !== null ? 'the highest step that held' : 'the first step (no step held)';
  return {
    view: { ...result, measuredS: step.measuredS, warmup: emptyCounts(), measured: step.measured, latency: step.latency, endpoints: step.endpoints },
    label: `at ${formatCount(step.rate)} req/s, ${which}: step ${index + 1}'s own ${step.measuredS.toFixed(1)} s`,
  };
}
