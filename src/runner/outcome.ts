/**
 * What a run comes to: its exit code under the exit policy (./exit-policy.ts), after the baseline
 * when one is given (./baseline.ts). Decided once, by the command, before any report is written.
 */
import { EXIT, TackError } from '../harness/errors.js';
import { type AppliedBaseline, applyBaseline, type BaselineSummary, readBaseline } from './baseline.js';
import { type ExitPolicy, exitCodeOf } from './exit-policy.js';
import type { RunResult } from './index.js';

/** What a run comes to: its exit code, after the baseline when one is given. Computed once, by the command. */
export interface RunOutcome {
  readonly exitCode: number;
  readonly policy: ExitPolicy;
  readonly applied: AppliedBaseline | undefined;
  /** A baseline that could not be read: a configuration error (exit 2); the reports are still written. */
  readonly baselineProblem: BaselineSummary | undefined;
}

export function decideOutcome(result: RunResult, policy: ExitPolicy, baselineFile: string | undefined): RunOutcome {
  if (baselineFile === undefined)
    return { exitCode: exitCodeOf(result.rules, policy, result.hookProblem), policy, applied: undefined, baselineProblem: undefined };
  try {
    const applied = applyBaseline(readBaseline(baselineFile), result, policy);
    return { exitCode: applied.exitCode, policy, applied, baselineProblem: undefined };
  } catch (error) {
    const message = error instanceof TackError ? error.message : String(error);
    const baselineProblem = { file: baselineFile, entries: 0, expected: [], accepted: [], nowPassing: [], newFailures: [], notes: [message] };
    return { exitCode: EXIT.config, policy, applied: undefined, baselineProblem };
  }
}
