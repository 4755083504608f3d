/**
 * Stop early when the answer is known (k6's `abortOnFail`): a threshold marked `:abort` is judged
 * once a second on the measured phase so far, exactly as it is judged at the end (the same
 * metrics, the same histograms), from its grace period on (`:abort=10s`, default 5 s after the
 * measured phase began). A latency threshold is judged only once it has the answers of the sample
 * rule. The run stops at its first *sustained* breach: breached at `SUSTAIN_CHECKS` checks in a
 * row (one bad second decides nothing). The engine then drains as for Ctrl-C, the reports are
 * written, and the run fails with exit 4 and the reason.
 */
import { encode } from '../engine/histograms.js';
import type { Recorder } from '../engine/recorder.js';
import { formatMs } from '../units.js';
import { LOAD_SCHEMA, type LoadResult, type Threshold } from '../types.js';
import { evaluateThresholds, type ThresholdSpec } from './thresholds.js';

/** Checks in a row (one a second) a threshold must be breached at before the run stops. */
export const SUSTAIN_CHECKS = 3;

type Specs = readonly { spec: ThresholdSpec; source: Threshold['source'] }[];

/** What was recorded so far, as a result the thresholds can be judged on (only the figures they read). */
function liveView(rec: Recorder, now: number, withEndpoints: boolean, failOnErrors: boolean): LoadResult {
  return {
    schema: LOAD_SCHEMA,
    tack: { version: '' },
    runId: '',
    profile: '',
    startedAt: '',
    finishedAt: '',
    measuredS: Math.max(0, now - rec.measureFrom) / 1000,
    target: { baseUrl: '', identityUrl: '', builtIn: false, faults: [] },
    settings: { connections: 0, durationS: 0, warmupS: 0, rate: null, timeoutS: 0, shard: null, chains: '', failOnErrors },
    warmup: rec.warmup,
    measured: rec.measured,
    latency: { unit: 'us', byClass: rec.encodedByClass(), corrected: rec.corrected ? encode(rec.corrected) : null },
    endpoints: withEndpoints ? rec.endpoints() : undefined,
    timeline: [],
    breaks: [],
    breaksNotListed: 0,
    thresholds: [],
    verdict: { exitCode: 0, reasons: [] },
    mergedFrom: [],
  };
}

/** The watcher of the `:abort` thresholds of one run; `check` is the engine's `stopWhen`. */
export class EarlyStop {
  private readonly specs: Specs;
  private readonly streak = new Map<string, number>();

  constructor(
    specs: Specs,
    private readonly failOnErrors: boolean,
  ) {
    this.specs = specs.filter((s) => s.spec.abort !== undefined);
  }

  get active(): boolean {
    return this.specs.length > 0;
  }

  /** A reason to stop now, or undefined. */
  check = (rec: Recorder, now: number): string | undefined => {
    const sinceMs = now - rec.measureFrom;
    const due = this.specs.filter((s) => sinceMs >= s.spec.abort!.graceMs);
    if (due.length === 0) return undefined;
    const view = liveView(
      rec,
      now,
      due.some((s) => s.spec.scope !== undefined),
      this.failOnErrors,
    );
    const judged = evaluateThresholds(view, due);
    for (const [i, t] of judged.entries()) {
      const spec = due[i]!.spec;
      // Too few answers for its percentile: not judged yet, so no streak either.
      const breached = !t.ok && !t.samples;
      const n = breached ? (this.streak.get(spec.expr) ?? 0) + 1 : 0;
      this.streak.set(spec.expr, n);
      if (n >= SUSTAIN_CHECKS) {
        return (
          `stopped early: threshold ${spec.expr} breached at ${SUSTAIN_CHECKS} checks in a row, one a second (actual ${t.actual}), ` +
          `${(sinceMs / 1000).toFixed(1)} s into the measured phase, after its ${formatMs(spec.abort!.graceMs)} grace`
        );
      }
    }
    return undefined;
  };
}
