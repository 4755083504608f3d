/**
 * The series a live output pushes (docs/load.md, "Live metrics"): a run's figures so far, per
 * request kind (`endpoint`), read from the same counts and HdrHistograms as the result and through
 * the same functions (`metricsOf`), so the last push of a run says what its JSON says.
 *
 * Units are Prometheus': seconds, ratios from 0 to 1, counters ending in `_total`. Answers, rates
 * and latency are of the measured phase; failures, broken chains, forks and rotations of the whole
 * run (a chain broken in the warmup is broken), as the result counts them.
 */
import { encode } from '../engine/histograms.js';
import { BUSY_PCT, LATE_SHARE_PCT, LOOP_DELAY_US } from '../engine/generator.js';
import type { Recorder } from '../engine/recorder.js';
import { metricsOf, type Figures } from '../results/metrics.js';
import type { Counts, RequestKind } from '../types.js';

/** One sample of one series: its name, its labels besides the run's, its value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const QUANTILES = [
  ['0.5', 'p50'],
  ['0.9', 'p90'],
  ['0.99', 'p99'],
  ['0.999', 'p999'],
] as const;

/** A run's figures so far: the whole run's and each request kind's. */
interface LiveFigures extends Figures {
  readonly endpoints: Partial<Record<RequestKind, Figures>>;
}

/** The generator's figures of the latest interval. */
export interface LiveGenerator {
  /** CPU of this process since the previous push, in share of one core (0 to 1 per core). */
  readonly cpuRatio: number;
  readonly busyPct: number;
  readonly loopDelayUs: number;
  /** Open model: late slots of the measured phase so far; null in the closed model. */
  readonly lateSlots: number | null;
  /** Late slots and answers since the previous push (the saturation rule's share). */
  readonly lateSince: number;
  readonly answersSince: number;
}

/**
 * The figures of the run the recorder is recording, up to `now` (performance.now() ms), or, with
 * `final`, as the result will have them (the measured phase up to its last drained answer).
 */
export function liveFigures(recorder: Recorder, now: number, final: boolean): LiveFigures {
  const sinceStart = Math.min(now, recorder.measureUntil) - recorder.measureFrom;
  const measuredS = final ? Math.round(recorder.measuredSeconds() * 1000) / 1000 : Math.max(0, sinceStart) / 1000;
  const endpoints: Partial<Record<RequestKind, Figures>> = {};
  for (const [kind, e] of Object.entries(recorder.endpoints()) as [RequestKind, NonNullable<ReturnType<Recorder['endpoints']>[RequestKind]>][]) {
    endpoints[kind] = { measuredS, warmup: e.warmup, measured: e.measured, latency: e.latency };
  }
  const corrected = recorder.corrected;
  return {
    measuredS,
    warmup: recorder.warmup,
    measured: recorder.measured,
    latency: { unit: 'us', byClass: recorder.encodedByClass(), corrected: corrected ? encode(corrected) : null },
    endpoints,
  };
}

/** Forks seen by a race probe (a field the race probe adds to the counts; 0 where there is none). */
function forksOf(c: Counts): number {
  const forks = (c as Counts & { forks?: unknown }).forks;
  return typeof forks === 'number' ? forks : 0;
}

const seconds = (us: number) => us / 1_000_000;

/** The gauges of one part (a request kind, or `all`): rate and latency. */
function gauges(endpoint: string, f: Figures): Sample[] {
  const m = metricsOf(f);
  const on = { endpoint };
  return [
    { name: 'tack_load_rate_per_second', labels: on, value: m.rps },
    ...QUANTILES.map(([quantile, key]) => ({ name: 'tack_load_latency_seconds', labels: { endpoint, quantile }, value: seconds(m.latency[key]) })),
    { name: 'tack_load_latency_max_seconds', labels: on, value: seconds(m.latency.max) },
  ];
}

/** The counters of one request kind. */
function counters(endpoint: string, f: Figures): Sample[] {
  const w = f.warmup;
  const m = f.measured;
  const both = (pick: (c: Counts) => number) => pick(w) + pick(m);
  const statuses = Object.entries(m.byStatus).sort(([a], [b]) => a.localeCompare(b));
  return [
    ...statuses.map(([status, n]) => ({ name: 'tack_load_responses_total', labels: { endpoint, status }, value: n })),
    { name: 'tack_load_failures_total', labels: { endpoint, reason: 'transport_error' }, value: both((c) => c.errors) },
    { name: 'tack_load_failures_total', labels: { endpoint, reason: 'timeout' }, value: both((c) => c.timeouts) },
    { name: 'tack_load_failures_total', labels: { endpoint, reason: 'unexpected_status' }, value: both((c) => c.non2xx) },
    { name: 'tack_load_failures_total', labels: { endpoint, reason: 'against_spec' }, value: both((c) => c.malformed) },
    { name: 'tack_load_broken_chains_total', labels: { endpoint, cause: 'rotation' }, value: both((c) => c.broken) },
    { name: 'tack_load_broken_chains_total', labels: { endpoint, cause: 'lost' }, value: both((c) => c.lost) },
    { name: 'tack_load_forks_total', labels: { endpoint }, value: both(forksOf) },
    { name: 'tack_load_rotations_total', labels: { endpoint }, value: both((c) => c.rotations) },
  ];
}

/** Whether the generator is saturated now, by generator.ts's rule applied to the latest interval. */
function saturatedNow(g: LiveGenerator): boolean {
  if (g.busyPct >= BUSY_PCT || g.loopDelayUs >= LOOP_DELAY_US) return true;
  return g.lateSince > 0 && g.lateSince * 100 >= g.answersSince * LATE_SHARE_PCT;
}

/** Every sample of one push (the run's own labels are added by the output). */
export function samplesOf(f: LiveFigures, g: LiveGenerator): Sample[] {
  const kinds = (Object.keys(f.endpoints) as RequestKind[]).sort();
  return [
    ...kinds.flatMap((kind) => counters(kind, f.endpoints[kind]!)),
    ...kinds.flatMap((kind) => gauges(kind, f.endpoints[kind]!)),
    ...gauges('all', f),
    { name: 'tack_load_generator_cpu_ratio', labels: {}, value: g.cpuRatio },
    { name: 'tack_load_generator_busy_ratio', labels: {}, value: g.busyPct / 100 },
    { name: 'tack_load_generator_loop_delay_seconds', labels: {}, value: seconds(g.loopDelayUs) },
    ...(g.lateSlots === null ? [] : [{ name: 'tack_load_generator_late_slots_total', labels: {}, value: g.lateSlots }]),
    { name: 'tack_load_generator_saturated', labels: {}, value: saturatedNow(g) ? 1 : 0 },
  ];
}
