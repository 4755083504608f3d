/**
 * Capacity search (`tack load PROFILE --find-capacity`): how many requests per second does the
 * target hold? Open-model steps of offered rate on the same chains, each judged on its own:
 *
 * 1. a warmup (default 5 s) at the first step's rate, checked and not measured;
 * 2. a ladder of rates: `start`, then each times `factor` (default 2) or plus `increment`, up to
 *    `max`, until a step breaches;
 * 3. a step that breaches is run again once (noise or knee?): only a second breach counts;
 * 4. then bisection between the last rate that held and the one that breached, halving the gap
 *    until it is within the resolution (default 10% of the held rate), as Keycloak Benchmark's
 *    incremental mode halves its step;
 * 5. confirmation: the rate found is run again (it must hold) and the rate that breached is run
 *    again (it must breach), each a fresh step, never retried. The search is then judged
 *    (`judgeStability`): stable when both confirmations agree, no retry flipped and no step at the
 *    knee or above was disturbed by the machine (generator saturated, load average beyond the
 *    cores); else unstable, with the range the knee lies in on the evidence of every step.
 *
 * Each step is long enough for its thresholds: a pNN needs 10 / (1 − NN/100) answers (the sample
 * rule, ../results/thresholds.ts), so a step at a low rate is extended (up to `MAX_STEP_MS`); a threshold still
 * short of answers leaves the step "too few samples", never a silent pass or fail.
 *
 * A step holds when, over that step alone: every threshold holds (latency on the
 * coordinated-omission-corrected histogram), no request failed (no lost chain and, unless
 * --no-fail-on-errors, no unexpected non-2xx, transport error or timeout), and the target answered
 * at least 90% of the offered rate. A broken chain or an answer against the spec is no capacity
 * matter: the step is `incorrect`, the search stops, and the run fails (exit 1).
 *
 * Every search is bounded: at most MAX_STEPS ladder rates, MAX_BISECT_STEPS bisection steps, and
 * MAX_SEARCH_MS in all even if every step were extended and retried.
 */
import { TackError } from '../../harness/errors.js';
import { LOAD_DEFAULTS } from '../defaults.js';
import type { Capacity, CapacityStability, CapacityStep, StepStatus } from '../types.js';
import { formatCount, formatMs, formatUs } from '../units.js';

export const CAPACITY_DEFAULTS = LOAD_DEFAULTS.capacity;
const MAX_STEPS = 40;
const MAX_BISECT_STEPS = 8;
/** A step extended for its samples runs at most this long. */
const MAX_STEP_MS = 60_000;
const MAX_SEARCH_MS = 15 * 60_000;
/** A step holds only if the target answered at least this share of the offered rate. */
export const MIN_ACHIEVED_PCT = 90;

/** Bisection stops when the breached rate is within this of the held one: a share of the held rate, or req/s. */
type Resolution = { readonly pct: number } | { readonly rps: number };

export interface CapacityPlan {
  readonly startRate: number;
  readonly factor: number | null;
  readonly increment: number | null;
  readonly stepMs: number;
  readonly maxRate: number;
  readonly resolution: Resolution;
  /** The offered rate of each ladder step, in order. */
  readonly rates: readonly number[];
}

interface CapacityFlags {
  readonly startRate?: number | undefined;
  readonly factor?: number | undefined;
  readonly increment?: number | undefined;
  readonly stepMs?: number | undefined;
  readonly maxRate?: number | undefined;
  /** `--resolution` as read (src/cli/options.ts). */
  readonly resolution?: Resolution | undefined;
}

const usage = (message: string) => new TackError('TACK_ERR_USAGE', message);

const resolutionAt = (r: Resolution, held: number) => ('pct' in r ? (held * r.pct) / 100 : r.rps);
export const describeResolution = (r: Resolution) => ('pct' in r ? `${r.pct}%` : `${formatCount(r.rps)} req/s`);

/** True when the gap between a held and a breached rate needs no further bisection. */
export function closeEnough(r: Resolution, held: number, breached: number): boolean {
  return breached - held <= resolutionAt(r, held) + 1e-9 || Math.round((held + breached) / 2) <= held || Math.round((held + breached) / 2) >= breached;
}

/** The ladder of a search, or a usage error naming the flag and the fix. */
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
  const resolution = flags.resolution ?? { pct: CAPACITY_DEFAULTS.resolutionPct };
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
  const plan = { startRate, factor, increment, stepMs, maxRate, resolution, rates };
  checkBound(plan, 0);
  return plan;
}

/** How long a step at `rate` runs so that `needed` answers come in even at 90% of the rate (extended up to MAX_STEP_MS). */
export function stepMsFor(plan: Pick<CapacityPlan, 'stepMs'>, rate: number, needed: number): number {
  if (needed <= 0) return plan.stepMs;
  const ms = Math.ceil((needed * 1000) / ((rate * MIN_ACHIEVED_PCT) / 100) / 100) * 100;
  return Math.max(plan.stepMs, Math.min(MAX_STEP_MS, ms));
}

/** At most how many bisection steps follow the ladder (the widest gap between two ladder rates, halved to the resolution). */
function bisectionBound(plan: CapacityPlan): number {
  let most = 0;
  for (let i = 1; i < plan.rates.length; i++) {
    const held = plan.rates[i - 1]!;
    let gap = plan.rates[i]! - held;
    let n = 0;
    while (!closeEnough(plan.resolution, held, held + gap) && n < MAX_BISECT_STEPS) {
      gap = Math.ceil(gap / 2);
      n++;
    }
    most = Math.max(most, n);
  }
  return most;
}

/** Confirmation steps after the bisection: the rate found, and the rate that breached. */
const CONFIRMATIONS = 2;

/** The longest the steps of a search can take: every ladder step, one retry, every bisection step retried, the confirmations. */
function worstCaseMs(plan: CapacityPlan, needed: number): number {
  const lengths = plan.rates.map((r) => stepMsFor(plan, r, needed));
  const longest = Math.max(...lengths);
  return lengths.reduce((n, x) => n + x, 0) + longest + 2 * bisectionBound(plan) * longest + CONFIRMATIONS * longest;
}

/** Refuses (exit 2) a search that could run longer than MAX_SEARCH_MS. */
export function checkBound(plan: CapacityPlan, needed: number): void {
  const ms = worstCaseMs(plan, needed);
  if (ms <= MAX_SEARCH_MS) return;
  const why = needed > 0 ? ` (steps at low rates run longer to get the ${formatCount(needed)} answers a threshold needs)` : '';
  throw usage(
    `--find-capacity could run ${formatMs(ms)} of steps${why}, more than ${MAX_SEARCH_MS / 60_000} minutes (every load run is bounded): ` +
      'raise --start-rate, shorten --step-duration, widen --resolution or take fewer steps',
  );
}

/** What the search needs to know of a step once it ran. */
export interface StepRun {
  readonly rate: number;
  readonly status: StepStatus;
}

export interface StepAsk {
  readonly stage: 'ladder' | 'bisect' | 'confirm';
  readonly attempt: number;
}

interface SearchOutcome<S extends StepRun> {
  readonly steps: S[];
  /** The highest rate that held, and its step. */
  readonly maxRate: number | null;
  readonly headline: number | null;
  /** The lowest rate above it that breached twice. */
  readonly breachedRate: number | null;
  /** Why the search ended before its plan: a step against the spec, or Ctrl-C. */
  readonly stopped: 'incorrect' | 'aborted' | null;
}

/** Whether a confirmation step agreed with what the search found: the rate found held again, the breached rate breached again. */
function confirmationAgrees(s: { readonly rate: number; readonly status: StepStatus }, found: number): boolean {
  return s.rate === found ? s.status === 'held' : s.status === 'breached';
}

/** What stability is judged from: each step's rate, stage, attempt, status, and whether the machine disturbed it. */
export interface JudgedStep {
  readonly rate: number;
  readonly stage?: StepAsk['stage'] | undefined;
  readonly attempt?: number | undefined;
  readonly status?: StepStatus | undefined;
  readonly held: boolean;
  readonly generator?: { readonly saturated: boolean } | undefined;
  /** The machine's 1-minute load average when the step ended. */
  readonly load?: number | undefined;
}

const statusOfStep = (s: JudgedStep): StepStatus => s.status ?? (s.held ? 'held' : 'breached');

/**
 * Is the knee found a figure to quote? Noise, not capacity: a confirmation that disagrees, a retry
 * that flipped (breached, then held at the same rate), a step at the knee or above disturbed by the
 * machine (the load generator saturated, or the machine's load average beyond its cores). Any of
 * them makes the search unstable. The range is where the knee lies on the evidence of every try
 * (a step and its retry count as one, the retry deciding; a confirmation alone): from the highest
 * rate that held with no breach at or below it, to the highest rate that held at all or the
 * breached rate, whichever is higher.
 */
export function judgeStability(steps: readonly JudgedStep[], maxRate: number, breachedRate: number | null, cores: number): CapacityStability {
  const confirms = steps.filter((s) => s.stage === 'confirm');
  const agreed = confirms.filter((s) => confirmationAgrees({ rate: s.rate, status: statusOfStep(s) }, maxRate)).length;
  const flips = steps.filter((s, i) => (s.attempt ?? 1) > 1 && statusOfStep(s) === 'held' && statusOfStep(steps[i - 1] ?? s) === 'breached').length;
  // Tries: a first attempt and its retry are one, the retry's status counts.
  const tries: { rate: number; status: StepStatus }[] = [];
  for (const s of steps) {
    const t = { rate: s.rate, status: statusOfStep(s) };
    if ((s.attempt ?? 1) > 1 && tries.length > 0) tries[tries.length - 1] = t;
    else tries.push(t);
  }
  const held = tries.filter((t) => t.status === 'held').map((t) => t.rate);
  const breached = tries.filter((t) => t.status === 'breached').map((t) => t.rate);
  const lowest = Math.min(Infinity, ...breached);
  const safe = held.filter((r) => r < lowest);
  const low = safe.length > 0 ? Math.max(...safe) : null;
  const high = Math.max(breachedRate ?? maxRate, ...held);
  const knee = steps.filter((s) => s.rate >= maxRate);
  const saturatedAt = [...new Set(knee.filter((s) => s.generator?.saturated).map((s) => s.rate))];
  const busiest = Math.max(0, ...knee.map((s) => s.load ?? 0));
  const busy = cores > 0 && busiest > cores;
  const reasons: string[] = [];
  if (agreed < confirms.length) reasons.push(`${confirms.length - agreed} of ${confirms.length} confirmation(s) disagreed`);
  if (flips > 0) reasons.push(`${flips} step(s) disagreed on retry`);
  if (saturatedAt.length > 0) reasons.push(`the load generator was saturated at ${saturatedAt.map(formatCount).join(', ')} req/s`);
  if (busy) reasons.push(`the generator's machine was busy: load ${busiest.toFixed(1)} on ${cores} core(s)`);
  return {
    verdict: reasons.length === 0 ? 'stable' : 'unstable',
    confirmed: agreed,
    confirmations: confirms.length,
    low: reasons.length === 0 ? maxRate : low,
    high: reasons.length === 0 ? (breachedRate ?? maxRate) : high,
    flips,
    disturbed: knee.filter((s) => s.generator?.saturated || (cores > 0 && (s.load ?? 0) > cores)).length,
    reasons,
  };
}

/** `4 800 req/s, confirmed 2/2` or `unstable: between 2 400 and 4 800 req/s; 3 step(s) disagreed on retry; ...`. */
export function stabilityText(s: CapacityStability, c: { readonly maxRate: number; readonly breachedRate?: number | null | undefined }): string {
  if (s.verdict === 'stable') return `${formatCount(c.maxRate)} req/s, confirmed ${s.confirmed}/${s.confirmations}`;
  // Every rate held up to the highest asked for: the knee's upper side was never seen.
  const open = (c.breachedRate ?? null) === null && s.high <= c.maxRate;
  const range =
    s.low === null
      ? `at most ${formatCount(s.high)} req/s`
      : open
        ? `at least ${formatCount(s.low)} req/s`
        : s.low === s.high
          ? `about ${formatCount(s.low)} req/s`
          : `between ${formatCount(s.low)} and ${formatCount(s.high)} req/s`;
  return `unstable: ${range}; ${s.reasons.join('; ')}`;
}

/**
 * The search itself, over a step runner (the engine in a real run, a stub in tests): the ladder,
 * a retry of each breach, then bisection. Pure control flow: it never looks at a clock.
 */
export async function searchCapacity<S extends StepRun>(
  plan: CapacityPlan,
  runStep: (rate: number, ask: StepAsk) => Promise<S>,
  aborted: () => boolean = () => false,
): Promise<SearchOutcome<S>> {
  const steps: S[] = [];
  let maxRate: number | null = null;
  let headline: number | null = null;
  let breachedRate: number | null = null;
  let stopped: SearchOutcome<S>['stopped'] = null;
  /** Runs a rate, once more when it breached; the status that counts. */
  const tryRate = async (rate: number, stage: StepAsk['stage']): Promise<StepStatus> => {
    let status: StepStatus = 'breached';
    for (let attempt = 1; attempt <= 2 && status === 'breached' && stopped === null; attempt++) {
      const step = await runStep(rate, { stage, attempt });
      steps.push(step);
      status = step.status;
      if (status === 'held' && (maxRate === null || rate >= maxRate)) {
        maxRate = rate;
        headline = steps.length - 1;
      }
      if (status === 'incorrect') stopped = 'incorrect';
      else if (aborted()) stopped = 'aborted';
    }
    return status;
  };
  for (const rate of plan.rates) {
    const status = await tryRate(rate, 'ladder');
    if (stopped !== null) break;
    if (status === 'breached') {
      breachedRate = rate;
      break;
    }
  }
  for (let n = 0; n < MAX_BISECT_STEPS && stopped === null && maxRate !== null && breachedRate !== null; n++) {
    if (closeEnough(plan.resolution, maxRate, breachedRate)) break;
    const mid = Math.round((maxRate + breachedRate) / 2);
    const status = await tryRate(mid, 'bisect');
    if (status === 'breached') breachedRate = mid;
    // Too few samples near the knee: nothing more can be told at this resolution.
    else if (status !== 'held') break;
  }
  // Confirmation: each a fresh step, run once; what they find is judged, it moves nothing (judgeStability).
  const found: number | null = maxRate;
  const confirm = found === null ? [] : breachedRate === null ? [found] : [found, breachedRate];
  for (const rate of confirm) {
    if (stopped !== null) break;
    const step = await runStep(rate, { stage: 'confirm', attempt: 1 });
    steps.push(step);
    if (step.status === 'incorrect') stopped = 'incorrect';
    else if (aborted()) stopped = 'aborted';
  }
  return { steps, maxRate, headline, breachedRate, stopped };
}

const COLUMNS = ['step', 'offered req/s', 'achieved', 'answers', 'p50', 'p99', 'errors', 'broken', 'generator', ''] as const;
const WIDTHS = [16, 13, 10, 9, 8, 8, 6, 6, 9, 0];

const row = (cells: readonly string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[0]!) : i === cells.length - 1 ? c : c.padStart(WIDTHS[i]!))).join('  ');

/** The header of the step table, printed before the first step. */
export function stepHeader(plan: CapacityPlan, thresholds: readonly string[], warmupMs: number, needed: number): string {
  const growth = plan.factor !== null ? `×${plan.factor} a step` : `+${formatCount(plan.increment!)} a step`;
  const samples = needed > 1 ? `, longer when the thresholds need more answers (${formatCount(needed)} for the strictest)` : '';
  return (
    `capacity search: ${formatCount(plan.startRate)} → ${formatCount(plan.maxRate)} req/s, ${growth} (${plan.rates.length} step(s) at most), ` +
    `then halving between the last held and the breached rate to within ${describeResolution(plan.resolution)}; ` +
    `${warmupMs > 0 ? `${formatMs(warmupMs)} warmup first; ` : 'no warmup; '}steps of ${formatMs(plan.stepMs)}${samples}; a breached step is run again once; ` +
    'then the rate found and the rate that breached are each run once more to confirm\n' +
    `a step holds on ${thresholds.join(', ')}, no failed request, and at least ${MIN_ACHIEVED_PCT}% of its rate answered; ` +
    'a broken chain or an answer against the spec stops the search and fails the run\n' +
    `  ${row([...COLUMNS])}\n`
  );
}

const stageOf = (s: CapacityStep) => `${s.stage ?? 'ladder'}${(s.attempt ?? 1) > 1 ? ' retry' : ''}`;
const statusOf = (s: CapacityStep): StepStatus => s.status ?? (s.held ? 'held' : 'breached');

/** One line of the step table, printed as the step ends. */
export function stepLine(s: CapacityStep, index: number): string {
  const status = statusOf(s);
  const verdict = status === 'held' ? 'held' : `${status === 'too-few-samples' ? 'too few samples' : status}: ${s.reasons.join('; ')}`;
  const gen = s.generator ? `${Math.round(s.generator.busyPct)}%${s.generator.saturated ? ' ⚠' : ''}` : '-';
  const cells = [`${index + 1} ${stageOf(s)}`, formatCount(s.rate), formatCount(s.achieved), formatCount(s.measured?.responses ?? 0)];
  cells.push(formatUs(s.p50), formatUs(s.p99), String(s.errors), String(s.brokenChains), gen, verdict);
  return `  ${row(cells)}\n`;
}

/** The closing line: the highest rate that held, whether it was confirmed, where the knee lies, and whether the generator was the limit. */
export function capacityLine(c: Pick<Capacity, 'steps' | 'maxRate' | 'breachedRate' | 'settings' | 'stability'>): string {
  const first = c.steps[0]?.rate ?? c.settings.startRate;
  const incorrect = c.steps.some((s) => statusOf(s) === 'incorrect') ? '; the search stopped at an answer against the spec' : '';
  const floor = generatorFloor(c);
  if (c.maxRate === null) {
    const judged = c.steps.some((s) => statusOf(s) !== 'too-few-samples');
    const what = judged ? `no step held, not even ${formatCount(first)} req/s` : 'no step could be judged: too few samples';
    return `capacity: ${what}${incorrect}${floor}\n`;
  }
  const breached = c.breachedRate ?? null;
  const res = c.settings.resolution ? ` (resolution ${describeResolution(c.settings.resolution)})` : '';
  const top = c.maxRate >= c.settings.maxRate ? ' (the highest rate asked for: raise --max-rate to look further)' : '';
  const next = breached !== null ? `; ${formatCount(breached)} req/s did not${res}` : top;
  const st = c.stability;
  if (st?.verdict === 'unstable') {
    const found = `the search found ${formatCount(c.maxRate)} req/s held${breached !== null ? `, ${formatCount(breached)} not` : ''}`;
    return `capacity: ${stabilityText(st, { maxRate: c.maxRate, breachedRate: breached })} (${found})${incorrect}\n`;
  }
  const confirmed = st ? `, confirmed ${st.confirmed}/${st.confirmations}` : '';
  return `capacity: ${formatCount(c.maxRate)} req/s held${confirmed}${next}${incorrect}${floor}\n`;
}

/** `; a floor: the load generator was saturated at 3 200 req/s` when it was, at the knee or above. */
function generatorFloor(c: Pick<Capacity, 'steps' | 'maxRate'>): string {
  const rates = c.steps.filter((s) => s.generator?.saturated && (c.maxRate === null || s.rate >= c.maxRate)).map((s) => s.rate);
  if (rates.length === 0) return '';
  const list = [...new Set(rates)].map(formatCount).join(', ');
  return ` — a floor: the load generator was saturated at ${list} req/s`;
}
