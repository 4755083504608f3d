/**
 * A capacity search run for real (capacity.ts has the plan and the control flow): each step is one
 * open-model engine run on the same chains, judged alone, printed as it ends. The result adds every
 * step up (counts, histograms, a timeline of all the steps end to end) and carries each step's own
 * figures in `capacity.steps`; its headline (and its `thresholds`) is the highest step that held.
 *
 * Exit 1 when any step saw a broken chain or an answer against the spec, whatever capacity was
 * found; else 4 when no step held (2 when the target never answered); else 0 when the knee was
 * stable, 5 (EXIT.unstable) when it was not, unless --allow-unstable (then 0, still said).
 */
import { EXIT } from '../../harness/errors.js';
import {
  capacityLine,
  judgeStability,
  MIN_ACHIEVED_PCT,
  searchCapacity,
  stabilityText,
  stepHeader,
  stepLine,
  stepMsFor,
  type CapacityPlan,
  type StepAsk,
  type StepRun,
} from './capacity.js';
import { draftOf, type Common } from '../results/draft.js';
import type { EngineResult } from '../engine/engine.js';
import { worstHealth } from '../engine/generator.js';
import { loadNow, type Machine } from '../engine/machine.js';
import { combineSteps } from '../results/merge.js';
import { metricsOf } from '../results/metrics.js';
import type { LoadIo } from '../options.js';
import { evaluateThresholds, samplesNeeded, samplesNote, type ThresholdSpec } from '../results/thresholds.js';
import type { Capacity, CapacityStep, LoadResult, RequestKind, Threshold, LoadVerdict } from '../types.js';
import { formatCount } from '../units.js';
import { judgeLoad, specViolations } from '../results/verdict.js';

export type StepRunner = (rate: number, warmupMs: number, durationMs: number) => Promise<EngineResult>;
type Specs = readonly { spec: ThresholdSpec; source: Threshold['source'] }[];

/**
 * The answers the strictest threshold needs from a step, counting only those every answer counts
 * for (a threshold on one request kind of a profile that sends several cannot be planned for: its
 * share of the answers is unknown, so it may end "too few samples").
 */
export function neededSamples(specs: Specs, kinds: readonly RequestKind[]): number {
  const planned = specs.filter(({ spec }) => spec.scope === undefined || (kinds.length === 1 && spec.scope === kinds[0]));
  return Math.max(0, ...planned.map(({ spec }) => samplesNeeded(spec.metric)));
}

interface StepInput extends StepAsk {
  readonly rate: number;
  readonly atS: number;
  /** Slots that fell due but found every connection busy. */
  readonly unsent: number;
  /** The step's own result, and its thresholds judged on it. */
  readonly draft: LoadResult;
  readonly thresholds: readonly Threshold[];
  /** The machine's 1-minute load average when the step ended. */
  readonly load?: number | undefined;
}

/** A step's figures and status: incorrect, breached, too few samples or held (capacity.ts). */
function judgeStep(s: StepInput): CapacityStep & StepRun {
  const { draft } = s;
  const achieved = draft.measuredS > 0 ? draft.measured.responses / draft.measuredS : 0;
  const failures = judgeLoad(
    draft,
    s.thresholds.filter((t) => !t.samples),
  ).reasons;
  if (achieved < (s.rate * MIN_ACHIEVED_PCT) / 100) {
    const busy = s.unsent > 0 ? ` (${formatCount(s.unsent)} request(s) never sent: every connection was busy; more --connections may reach further)` : '';
    failures.push(`answered ${formatCount(achieved)} req/s, under ${MIN_ACHIEVED_PCT}% of the offered ${formatCount(s.rate)}${busy}`);
  }
  const short = s.thresholds.map((t) => samplesNote(t)).filter((x): x is string => x !== undefined);
  const status: StepRun['status'] =
    specViolations(draft).length > 0 ? 'incorrect' : failures.length > 0 ? 'breached' : short.length > 0 ? 'too-few-samples' : 'held';
  const m = metricsOf(draft);
  return {
    rate: s.rate,
    stage: s.stage,
    attempt: s.attempt,
    status,
    achieved: Math.round(achieved * 10) / 10,
    p50: m.latency.p50,
    p90: m.latency.p90,
    p99: m.latency.p99,
    p999: m.latency.p999,
    max: m.latency.max,
    errors: m.errors,
    brokenChains: m.broken + m.lost,
    held: status === 'held',
    reasons: status === 'held' ? [] : [...failures, ...short],
    unsent: s.unsent,
    atS: Math.round(s.atS * 1000) / 1000,
    measuredS: draft.measuredS,
    measured: draft.measured,
    latency: draft.latency,
    endpoints: draft.endpoints,
    generator: draft.generator,
    ...(s.load !== undefined ? { load: s.load } : {}),
  };
}

export async function runCapacitySearch(
  plan: CapacityPlan,
  c: Common,
  specs: Specs,
  io: LoadIo,
  runStep: StepRunner,
  machine: { finish(): Machine },
  machineLoad: () => { load: number; cores: number } = loadNow,
): Promise<LoadResult> {
  const needed = neededSamples(specs, c.o.profile.kinds);
  io.write(
    stepHeader(
      plan,
      specs.map((s) => s.spec.expr),
      c.o.warmupMs,
      needed,
    ),
  );
  const drafts: LoadResult[] = [];
  const judged: Threshold[][] = [];
  const t0 = performance.now();
  const outcome = await searchCapacity(
    plan,
    async (rate, ask) => {
      const warmupMs = drafts.length === 0 ? c.o.warmupMs : 0;
      const stepMs = stepMsFor(plan, rate, needed);
      const atS = (performance.now() - t0) / 1000;
      const engine = await runStep(rate, warmupMs, stepMs);
      const unsent = engine.slots ? Math.max(0, engine.slots.due - engine.slots.sent) : 0;
      const draft = draftOf(engine, c, rate, warmupMs, stepMs);
      const thresholds = evaluateThresholds(draft, specs);
      const step = judgeStep({ rate, ...ask, atS, unsent, draft, thresholds, load: machineLoad().load });
      drafts.push(draft);
      judged.push(thresholds);
      io.write(stepLine(step, drafts.length - 1));
      return step;
    },
    () => c.o.signal?.aborted === true,
  );
  const { steps, maxRate, headline, breachedRate } = outcome;
  const stability = maxRate !== null && outcome.stopped === null ? judgeStability(steps, maxRate, breachedRate, machineLoad().cores) : undefined;
  const capacity: Capacity = {
    maxRate,
    breachedRate,
    headline,
    ...(stability ? { stability } : {}),
    steps,
    settings: {
      startRate: plan.startRate,
      factor: plan.factor,
      increment: plan.increment,
      stepS: plan.stepMs / 1000,
      maxRate: plan.maxRate,
      minAchievedPct: MIN_ACHIEVED_PCT,
      resolution: plan.resolution,
      warmupS: c.o.warmupMs / 1000,
    },
  };
  io.write(capacityLine(capacity));
  const combined = combineSteps(drafts, c.o.warmupMs);
  const generator = worstHealth(steps.flatMap((s) => (s.generator ? [{ label: `at ${formatCount(s.rate)} req/s`, health: s.generator }] : [])));
  return {
    ...combined,
    machine: machine.finish(),
    generator,
    thresholds: judged[headline ?? 0] ?? [],
    verdict: searchVerdict(combined, capacity, c.o.allowUnstable === true),
    capacity,
  };
}

/**
 * Exit 1 on anything against the spec (whatever was found), 2 when nothing answered, 4 when no step
 * held; when one did, 0 for a stable knee and 5 for an unstable one (0 with --allow-unstable, the
 * reason still given).
 */
function searchVerdict(combined: LoadResult, c: Capacity, allowUnstable: boolean): LoadVerdict {
  const violations = specViolations(combined);
  if (violations.length > 0) return { exitCode: EXIT.mustFailed, reasons: violations };
  const unanswered = judgeLoad(combined, []);
  if (unanswered.exitCode === EXIT.unreachable) return unanswered;
  if (c.maxRate !== null) {
    if (c.stability?.verdict !== 'unstable') return { exitCode: EXIT.ok, reasons: [] };
    if (allowUnstable) return { exitCode: EXIT.ok, reasons: [] };
    return {
      exitCode: EXIT.unstable,
      reasons: [`capacity search ${stabilityText(c.stability, { maxRate: c.maxRate, breachedRate: c.breachedRate })}: not a figure to quote`],
    };
  }
  const first = c.steps[0];
  const judged = c.steps.some((s) => s.status !== 'too-few-samples');
  const what = judged ? `no step held, not even ${formatCount(first?.rate ?? 0)} req/s` : 'no step could be judged: too few samples';
  return { exitCode: EXIT.threshold, reasons: [`capacity search: ${what} (${first?.reasons.join('; ') ?? ''})`] };
}
