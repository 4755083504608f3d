/**
 * The exit code of a conformance run, computed in one place from the rules' statuses (the codes:
 * src/harness/errors.ts EXIT):
 *
 * - mustFailed: a MUST failed, a SHOULD failed under `--strict`, or a MUST was not checked under
 *   `--require-all` (a skipped MUST is then a failure: certification means every rule was seen);
 * - incomplete: a rule could not be checked for an error, or the configured test hook cannot be used;
 * - nothingChecked: nothing was checked at all;
 * - ok: every MUST that was checked holds.
 */
import { EXIT } from '../harness/errors.js';
import type { RuleResult } from './results.js';

export interface ExitPolicy {
  readonly strict: boolean;
  readonly requireAll: boolean;
}

export function exitCodeOf(rules: readonly Pick<RuleResult, 'status' | 'level'>[], policy: ExitPolicy, hookProblem?: string): number {
  const failed = rules.some(
    (r) => r.status === 'failed' || (policy.strict && r.status === 'warning') || (policy.requireAll && r.status === 'skipped' && r.level === 'MUST'),
  );
  if (failed) return EXIT.mustFailed;
  if (rules.some((r) => r.status === 'error') || hookProblem !== undefined) return EXIT.incomplete;
  if (!rules.some((r) => r.status === 'passed' || r.status === 'warning')) return EXIT.nothingChecked;
  return EXIT.ok;
}

/** MUST rules that were not checked (skipped): what a green run did not see. */
export function uncheckedMusts(rules: readonly Pick<RuleResult, 'status' | 'level'>[]): number {
  return rules.filter((r) => r.level === 'MUST' && r.status === 'skipped').length;
}
