/**
 * Runs the conformance suites in-process against a freshly started reference server (optionally
 * with faults), after the preflight `tack run` makes, and returns the verdicts. Real HTTP on loopback; nothing is mocked.
 */
import { ALL_TESTS } from '../../suites/index.js';
import { runConformance, type RunResult } from '../../src/runner/index.js';
import { startBuiltIn } from '../../src/cli/built-in.js';
import { discoverHook } from '../../src/harness/hook-discovery.js';
import { planRules, type RulePlan } from '../../src/runner/selection.js';
import { preflight } from '../../src/harness/preflight.js';
import { openSession } from '../../src/harness/session.js';
import { findBrowser } from '../../src/harness/browser/executable.js';
import { leaseSharedBrowser } from './browser.js';
import { BROWSER_ENV } from './test-browser.js';

export interface ReferenceRunOptions {
  readonly faults?: readonly string[];
  readonly only?: readonly string[];
  readonly seed?: number;
  readonly runs?: number;
  readonly env?: Record<string, string>;
  /** A dotenv file pointing at a target (then `faults` does not apply). */
  readonly envFile?: string;
}

export async function runAgainstReference(options: ReferenceRunOptions = {}): Promise<RunResult> {
  const session = await openSession({ env: { ...BROWSER_ENV, ...options.env }, envFile: options.envFile, faults: options.faults ?? [], builtIn: startBuiltIn });
  const lease = leaseSharedBrowser(findBrowser(session.target.browser));
  try {
    // As tack run does: every mode, dialect and fault here also shows the preflight never stops a target whose settings are right.
    await preflight(session);
    return await runConformance({
      target: session.target,
      tests: ALL_TESTS,
      only: options.only ?? [],
      seed: options.seed ?? 42,
      numRuns: options.runs ?? 8,
      path: undefined,
      runId: session.runId,
      http: session.http,
      redactor: session.redactor,
      transcript: session.transcript,
      ledger: session.ledger,
      // The worker's one Chromium, where the run would launch that same browser and no other run holds it (test/helpers/browser.ts).
      browser: lease.browser,
    });
  } finally {
    lease.release();
    await session.close();
  }
}

/**
 * What `tack doctor` foresees for a run with these variables: the runner's own plan (planRules),
 * from the configuration and the hook's capabilities alone.
 */
export async function planFor(env: Record<string, string>, only: readonly string[] = []): Promise<RulePlan[]> {
  const session = await openSession({ env });
  try {
    const { hook, problem } = await discoverHook(session);
    return planRules(ALL_TESTS, only, session.target, hook, problem);
  } finally {
    await session.close();
  }
}

/** The rules a plan says a run checks, and the rules a run did check (not skipped). */
export function checkedRules(plan: readonly RulePlan[], result: RunResult): { foreseen: string[]; checked: string[] } {
  return {
    foreseen: plan.filter((p) => p.skipReasons.length === 0).map((p) => p.rule),
    checked: result.rules.filter((r) => r.status !== 'skipped').map((r) => r.id),
  };
}

export function statusOf(result: RunResult, rule: string): string | undefined {
  return result.rules.find((r) => r.id === rule)?.status;
}
