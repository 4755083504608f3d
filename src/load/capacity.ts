/**
 * Capacity search (`tack load PROFILE --find-capacity`): open-model steps of offered rate, each
 * judged on its own, stopping at the first that does not hold; the answer is the highest offered
 * rate that held (Keycloak Benchmark's incremental mode, on rotating chains).
 *
 * A step holds when, over that step alone: every threshold holds (latency thresholds on the
 * coordinated-omission-corrected histogram, since this is the open model), correctness holds (no
 * broken or lost chain, no answer against the spec, and, unless --no-fail-on-errors, no unexpected
 * non-2xx, transport error or timeout), and the target answered at least 90% of the offered rate
 * (an open-model step whose rate was not delivered did not hold, whatever its latency).
 *
 * Rates: `start`, then each times `factor` (default 2) or plus `increment`, up to `max`. Every
 * search is bounded: at most MAX_STEPS steps and MAX_SEARCH_MS of steps in all.
 */
import { TackError } from '../harness/errors.js';
import type { CapacityStep, LoadResult } from './types.js';
import { formatCount, formatUs } from './units.js';

export const CAPACITY_DEFAULTS = { startRate: 50, factor: 2, stepMs: 5000, maxRate: 102_400 } as const;
export const MAX_STEPS = 40;
export const MAX_SEARCH_MS = 15 * 60_000;
/** A step holds only if the target answered at least this share of the offered rate. */
export const MIN_ACHIEVED_PCT = 90;

export interface CapacityPlan {
  readonly startRate: number;
  readonly factor: number | null;
  readonly increment: number | null;
  readonly stepMs: number;
  readonly maxRate: number;
  /** The offered rate of each step, in order. */
  readonly rates: readonly number[];
}

export interface CapacityFlags {
  readonly startRate?: number | undefined;
  readonly factor?: number | undefined;
  readonly increment?: number | undefined;
  readonly stepMs?: number | undefined;
  readonly maxRate?: number | undefined;
}

const usage = (message: string) => new TackError('TACK_ERR_USAGE', message);

/** The steps of a search, or a usage error naming the flag and the fix. */
export function planCapacity(flags: CapacityFlags): CapacityPlan {
  const startRate = flags.startRate ?? CAPACITY_DEFAULTS.startRate;
  const maxRate = flags.maxRate ?? Math.max(CAPACITY_DEFAULTS.maxRate, startRate);
  const stepMs = flags.stepMs ?? CAPACITY_DEFAULTS.stepMs;
  if (!Number.isFinite(startRate) || startRate < 1) throw usage(`--start-rate must be 1 request per second or more (got ${startRate})`);
  if (!Number.isFinite(maxRate) || maxRate < startRate) throw usage(`--max-rate must be at least --start-rate ${startRate} (got ${maxRate})`);
  if (stepMs < 500) throw usage('--step-duration must be at least 500ms');
  if (flags.factor !== undefined && flags.increment !== undefined) {
    throw usage('give --rate-factor (each step times F) or --rate-increment (each step plus N), not both');
  }
  const increment = flags.increment ?? null;
  const factor = increment === null ? (flags.factor ?? CAPACITY_DEFAULTS.factor) : null;
  if (factor !== null && (!Number.isFinite(factor) || factor <= 1 || factor > 100)) {
    throw usage(`--rate-factor must be more than 1 and at most 100, e.g. 1.5 or 2 (got ${factor})`);
  }
  if (increment !== null && (!Number.isFinite(increment) || increment < 1)) {
    throw usage(`--rate-increment must be 1 request per second or more (got ${increment})`);
  }
  const rates: number[] = [];
  for (let r = startRate; r <= maxRate + 1e-9; r = factor !== null ? r * factor : r + increment!) {
    const rounded = Math.round(r);
    if (rates.length === 0 || rounded > rates[rates.length - 1]!) rates.push(rounded);
    if (rates.length > MAX_STEPS) {
      throw usage(
        `--find-capacity would take more than ${MAX_STEPS} steps from ${startRate} to ${maxRate} req/s: ` +
          'raise --rate-factor or --rate-increment, or lower --max-rate',
      );
    }
  }
  if (rates.length * stepMs > MAX_SEARCH_MS) {
    throw usage(
      `--find-capacity would run ${rates.length} steps of ${stepMs / 1000} s, more than ${MAX_SEARCH_MS / 60_000} minutes ` +
        '(every load run is bounded): shorten --step-duration or take fewer steps',
    );
  }
  return { startRate, factor, increment, stepMs, maxRate, rates };
}

/** One step's figures and whether it held, from the step's own result (already judged). */
export interface StepMetrics {
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly broken: number;
}

export function judgeStep(rate: number, step: LoadResult, atS: number, unsent: number, metrics: StepMetrics): CapacityStep {
  const achieved = step.measuredS > 0 ? step.measured.responses / step.measuredS : 0;
  const reasons = [...step.verdict.reasons];
  if (achieved < (rate * MIN_ACHIEVED_PCT) / 100) {
    const busy = unsent > 0 ? ` (${formatCount(unsent)} request(s) never sent: every connection was busy; more --connections may reach further)` : '';
    reasons.push(`answered ${formatCount(achieved)} req/s, under ${MIN_ACHIEVED_PCT}% of the offered ${formatCount(rate)}${busy}`);
  }
  return {
    rate,
    achieved: Math.round(achieved * 10) / 10,
    p50: metrics.p50,
    p99: metrics.p99,
    errors: metrics.errors,
    brokenChains: metrics.broken,
    held: reasons.length === 0,
    reasons,
    unsent,
    atS: Math.round(atS * 1000) / 1000,
  };
}

const COLUMNS = ['offered req/s', 'achieved', 'p50', 'p99', 'errors', 'broken', ''] as const;
const WIDTHS = [13, 10, 8, 8, 7, 7, 0];

const row = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padStart(WIDTHS[i]!))).join('  ');

/** The header of the step table, printed before the first step. */
export function stepHeader(plan: CapacityPlan, thresholds: readonly string[]): string {
  const growth = plan.factor !== null ? `×${plan.factor} a step` : `+${formatCount(plan.increment!)} a step`;
  return (
    `capacity search: ${formatCount(plan.startRate)} → ${formatCount(plan.maxRate)} req/s, ${growth}, ` +
    `${plan.stepMs / 1000} s a step (${plan.rates.length} step(s) at most); ` +
    `a step holds on ${thresholds.join(', ')}, correctness, and at least ${MIN_ACHIEVED_PCT}% of its rate answered\n` +
    `  ${row([...COLUMNS])}\n`
  );
}

/** One line of the step table, printed as the step ends. */
export function stepLine(s: CapacityStep): string {
  const verdict = s.held ? 'held' : `breached: ${s.reasons.join('; ')}`;
  return `  ${row([formatCount(s.rate), formatCount(s.achieved), formatUs(s.p50), formatUs(s.p99), String(s.errors), String(s.brokenChains), verdict])}\n`;
}

/** The closing line: the highest rate that held. */
export function capacityLine(steps: readonly CapacityStep[], maxRate: number | null): string {
  const stop = steps.find((s) => !s.held);
  if (maxRate === null) return `capacity: no step held, not even ${formatCount(steps[0]?.rate ?? 0)} req/s\n`;
  const next = stop ? ` (the next step, ${formatCount(stop.rate)} req/s, did not)` : ' (the highest step asked for: raise --max-rate to look further)';
  return `capacity: ${formatCount(maxRate)} req/s held${next}\n`;
}
