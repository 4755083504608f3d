/**
 * What a client judge is and what it records with. A judge gives verdicts on one rule: it is called
 * once per scenario it judges, with that scenario's evidence, and records findings from the checks
 * library (src/checks/) under its rule, each with the requests it was judged on.
 *
 * A judge records nothing for a scenario that did not exercise its rule; when no scenario did, the
 * rule is `skipped` with the judge's `notExercised` reason (never `passed`). A run that gave up
 * before its work (`reachedWork`) is no evidence that a rule holds: what it did wrong still counts.
 */
import type { Finding } from '../../src/checks/finding.js';
import type { RuleId } from '../../src/rules/catalog.js';
import type { Profile, ScenarioEvidence } from './evidence.js';
import type { ScenarioId } from './scenarios.js';
import type { ObservedRequest } from '../../src/checks/observed-request.js';

export interface Verdicts {
  /**
   * Records a finding under the judge's rule; `requests` are the ones it was judged on, `run` the
   * run it is about when no request says so.
   */
  check(title: string, found: Finding, requests?: readonly ObservedRequest[], run?: number): void;
  /** A part of the rule that could not be observed: the rule cannot pass. */
  unverified(title: string, reason: string): void;
  /** The end of the client's output as the reports show it: redacted, token-like words masked, on one line. */
  shown(output: string): string;
  /**
   * Other MUST rules that failed on run `run` of this scenario (their judges come first in
   * CLIENT_JUDGES); a SHOULD that warned is not among them: a warning never explains a MUST.
   */
  otherFailures(run: number): readonly RuleId[];
}

export interface ClientJudge {
  readonly rule: RuleId;
  readonly profiles: readonly Profile[];
  /** The scenarios that exercise the rule; every scenario of the profile when absent. */
  readonly scenarios?: readonly ScenarioId[];
  /** Why the rule has no verdict when no scenario exercised it, told from what the client did. */
  readonly notExercised: string | ((scenarios: readonly ScenarioEvidence[]) => string);
  judge(scenario: ScenarioEvidence, v: Verdicts): void;
}
